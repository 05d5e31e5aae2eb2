// A simulated CUDA driver for testing the GPU runtime's orchestration where there is no
// GPU (CI): a cuda::DriverApi table whose "device memory" is host memory and whose
// launches run the CPU JIT's build of the same loop-IR kernel, registered under the
// kernel's PTX entry name. It checks what GpuExecutable decides — which values move,
// when, which kernels run in which order with which arguments, the caching allocator,
// status words, host fallbacks — not the PTX, which only a GPU runs (scripts/gpu-check.sh)
// and ptxas assembles (gpu_models_test.cpp).
#pragma once

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/cuda/driver.h"
#include "compiler/llvm/jit.h"

namespace relay::testing::simulated {

struct State {
  std::map<std::string, compiler::CompiledKernel> kernels;  // by entry name
  std::set<cuda::CUdeviceptr> live;                          // allocated, not freed
  uint64_t launches = 0, modules_loaded = 0;
  // Graphs: while capturing, launches and fills are recorded instead of run; a graph's
  // launch runs them in order (each kernel counts in `launches` again).
  bool capturing = false;
  std::vector<std::function<void()>> captured;
  uint64_t captures = 0, graph_launches = 0;
  bool fail_capture = false;  // end_capture fails, as when a capture was invalidated
  // Device time: each launch advances the clock by launch_ms(its entry) (0 when unset),
  // and an event records the clock, so timings (cuda::Device::Timer) are the test's.
  std::function<double(const std::string& entry)> launch_ms;
  double clock_ms = 0;
};
inline State& state() {
  static State s;
  return s;
}

namespace fn {
using cuda::CUresult;
inline CUresult init(unsigned) { return 0; }
inline CUresult driver_version(int* v) { return *v = 12040, 0; }
inline CUresult error_name(CUresult, const char** s) { return *s = "CUDA_ERROR_SIMULATED", 0; }
inline CUresult error_string(CUresult, const char** s) { return *s = "an error of the simulated driver", 0; }
inline CUresult device_count(int* n) { return *n = 1, 0; }
inline CUresult device_get(cuda::CUdevice* d, int ordinal) { return *d = ordinal, 0; }
inline CUresult device_name(char* name, int length, cuda::CUdevice) {
  std::strncpy(name, "simulated GPU (kernels on the CPU JIT)", static_cast<size_t>(length));
  return 0;
}
inline CUresult device_attribute(int* v, int attribute, cuda::CUdevice) {
  *v = attribute == cuda::kAttrComputeCapabilityMajor ? 9 : attribute == cuda::kAttrComputeCapabilityMinor ? 0 : 1;
  return 0;
}
inline CUresult total_mem(size_t* bytes, cuda::CUdevice) { return *bytes = size_t{1} << 30, 0; }
inline CUresult ctx_retain(cuda::CUcontext* c, cuda::CUdevice) { return *c = reinterpret_cast<cuda::CUcontext>(1), 0; }
inline CUresult ctx_release(cuda::CUdevice) { return 0; }
inline CUresult ctx_set(cuda::CUcontext) { return 0; }
inline CUresult module_load(cuda::CUmodule* m, const void*, unsigned, int*, void**) {
  ++state().modules_loaded;
  return *m = reinterpret_cast<cuda::CUmodule>(1), 0;
}
inline CUresult module_unload(cuda::CUmodule) { return 0; }
inline CUresult module_function(cuda::CUfunction* f, cuda::CUmodule, const char* name) {
  auto it = state().kernels.find(name);
  if (it == state().kernels.end()) return 500;  // CUDA_ERROR_NOT_FOUND
  *f = reinterpret_cast<cuda::CUfunction>(&it->second);
  return 0;
}
// Runs `op` now, or records it while a capture is open.
inline CUresult run_or_capture(std::function<void()> op) {
  if (state().capturing) state().captured.push_back(std::move(op));
  else op();
  return 0;
}
inline CUresult launch(cuda::CUfunction f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       cuda::CUstream, void** params, void**) {
  const auto* k = reinterpret_cast<const compiler::CompiledKernel*>(f);
  std::vector<void*> buffers(k->num_params);  // the arguments as they are now
  for (size_t i = 0; i < buffers.size(); ++i)
    buffers[i] = reinterpret_cast<void*>(*static_cast<const cuda::CUdeviceptr*>(params[i]));
  return run_or_capture([k, buffers] {
    compiler::run_kernel(*k, buffers.data(), nullptr);
    ++state().launches;
    if (state().launch_ms)
      for (const auto& [entry, kernel] : state().kernels)
        if (&kernel == k) state().clock_ms += state().launch_ms(entry);
  });
}
inline CUresult mem_alloc(cuda::CUdeviceptr* p, size_t bytes) {
  void* m = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  if (!m) return 2;  // CUDA_ERROR_OUT_OF_MEMORY
  *p = reinterpret_cast<cuda::CUdeviceptr>(m);
  state().live.insert(*p);
  return 0;
}
inline CUresult mem_free(cuda::CUdeviceptr p) {
  if (!state().live.erase(p)) return 1;  // CUDA_ERROR_INVALID_VALUE: not allocated
  std::free(reinterpret_cast<void*>(p));
  return 0;
}
inline CUresult htod(cuda::CUdeviceptr d, const void* s, size_t n, cuda::CUstream) {
  if (state().capturing) return 900;
  return std::memcpy(reinterpret_cast<void*>(d), s, n), 0;
}
inline CUresult dtoh(void* d, cuda::CUdeviceptr s, size_t n, cuda::CUstream) {
  if (state().capturing) return 900;
  return std::memcpy(d, reinterpret_cast<const void*>(s), n), 0;
}
inline CUresult dtod(cuda::CUdeviceptr d, cuda::CUdeviceptr s, size_t n, cuda::CUstream) {
  if (state().capturing) return 900;
  return std::memcpy(reinterpret_cast<void*>(d), reinterpret_cast<const void*>(s), n), 0;
}
inline CUresult memset8(cuda::CUdeviceptr d, unsigned char v, size_t n, cuda::CUstream) {
  return run_or_capture([d, v, n] { std::memset(reinterpret_cast<void*>(d), v, n); });
}
// Copies and synchronisation are not captured (GpuExecutable queues none while capturing):
// they fail, as a real capture makes a synchronising call fail.
inline CUresult not_while_capturing() { return state().capturing ? 900 : 0; }  // CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
inline CUresult begin_capture(cuda::CUstream, int) {
  if (state().capturing) return 1;
  state().capturing = true;
  state().captured.clear();
  return 0;
}
using Ops = std::vector<std::function<void()>>;
inline CUresult end_capture(cuda::CUstream, cuda::CUgraph* g) {
  if (!state().capturing) return 1;
  state().capturing = false;
  if (state().fail_capture) {
    state().captured.clear();
    return 901;  // CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
  }
  ++state().captures;
  *g = reinterpret_cast<cuda::CUgraph>(new Ops(std::move(state().captured)));
  return 0;
}
inline CUresult graph_instantiate(cuda::CUgraphExec* e, cuda::CUgraph g, unsigned long long) {
  *e = reinterpret_cast<cuda::CUgraphExec>(new Ops(*reinterpret_cast<Ops*>(g)));
  return 0;
}
inline CUresult graph_launch(cuda::CUgraphExec e, cuda::CUstream) {
  if (state().capturing) return 900;
  for (const auto& op : *reinterpret_cast<Ops*>(e)) op();
  ++state().graph_launches;
  return 0;
}
inline CUresult graph_exec_destroy(cuda::CUgraphExec e) { return delete reinterpret_cast<Ops*>(e), 0; }
inline CUresult graph_destroy(cuda::CUgraph g) { return delete reinterpret_cast<Ops*>(g), 0; }
inline CUresult stream_create(cuda::CUstream* s, unsigned) { return *s = reinterpret_cast<cuda::CUstream>(1), 0; }
inline CUresult stream_op(cuda::CUstream) { return not_while_capturing(); }
// An event is the clock's value when it was recorded.
inline CUresult event_create(cuda::CUevent* e, unsigned) { return *e = reinterpret_cast<cuda::CUevent>(new double(0)), 0; }
inline CUresult event_destroy(cuda::CUevent e) { return delete reinterpret_cast<double*>(e), 0; }
inline CUresult event_op(cuda::CUevent) { return 0; }
inline CUresult event_record(cuda::CUevent e, cuda::CUstream) {
  return *reinterpret_cast<double*>(e) = state().clock_ms, 0;
}
inline CUresult event_elapsed(float* ms, cuda::CUevent begin, cuda::CUevent end) {
  return *ms = static_cast<float>(*reinterpret_cast<double*>(end) - *reinterpret_cast<double*>(begin)), 0;
}
}  // namespace fn

inline const cuda::DriverApi& api() {
  static const cuda::DriverApi table = {
      fn::init,          fn::driver_version, fn::error_name,     fn::error_string, fn::device_count,
      fn::device_get,    fn::device_name,    fn::device_attribute, fn::total_mem,  fn::ctx_retain,
      fn::ctx_release,   fn::ctx_set,        fn::module_load,    fn::module_unload, fn::module_function,
      fn::launch,        fn::mem_alloc,      fn::mem_free,       fn::htod,         fn::dtoh,
      fn::dtod,          fn::memset8,        fn::stream_create,  fn::stream_op,    fn::stream_op,
      fn::event_create,  fn::event_destroy,  fn::event_record,   fn::event_op,     fn::event_elapsed,
      fn::begin_capture, fn::end_capture,    fn::graph_instantiate, fn::graph_launch, fn::graph_exec_destroy,
      fn::graph_destroy,
  };
  return table;
}

}  // namespace relay::testing::simulated
