// The compile path's code generation, measured against its peers in the same run:
//
//  * a memory-bound fused chain of 8 element-wise and broadcast operators (add, multiply,
//    maximum, clip, subtract, nn.relu, multiply, minimum over x and a broadcast row) on
//    float32, over 64 MiB and over an L2-sized buffer, against memcpy of the same bytes
//    (each reads the input once and writes the output once), at 1 and 2 threads, as GB/s
//    (bytes read + written) and the ratio to memcpy (target: >= 80%);
//  * compile latency per kernel (codegen + pipeline + machine code) at O2 and O0, median of 5.
//
//   build/release/bench/relay_bench_compiler [--reps N] [--check]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/llvm/jit.h"
#include "compiler/loops/elementwise.h"
#include "compiler/runtime/thread_pool.h"
#include "interpreter/runtime/ndarray.h"

using namespace relay;
using relay::loops::ElementwiseProgram;
using relay::loops::EwOperand;

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr int64_t kRow = 1024;  // the broadcast operand: one row of 1024 floats

ElementwiseProgram chain(int64_t rows) {
  const DataType t = DataType::float_(32);
  ElementwiseProgram p;
  p.inputs = {{t, {rows, kRow}}, {t, {kRow}}};
  auto in = EwOperand::input;
  auto st = EwOperand::step;
  p.steps = {
      {"add", {in(0), in(1)}, {}, t},          {"multiply", {st(0), in(1)}, {}, t},
      {"maximum", {st(1), in(0)}, {}, t},      {"clip", {st(2)}, {{"a_min", -5}, {"a_max", 5}}, t},
      {"subtract", {st(3), in(0)}, {}, t},     {"nn.relu", {st(4)}, {}, t},
      {"multiply", {st(5), in(1)}, {}, t},     {"minimum", {st(6), st(3)}, {}, t},
  };
  p.out_dtype = t;
  p.out_shape = {rows, kRow};
  return p;
}

// Best time of `reps` runs of f (after one warm-up run).
template <class F> double best_of(int reps, F&& f) {
  f();
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_s();
    f();
    best = std::min(best, now_s() - t0);
  }
  return best;
}

struct Row {
  std::string label;
  double chain_gbs, memcpy_gbs;
};

Row measure(const char* label, int64_t bytes, unsigned threads, int reps) {
  const int64_t rows = bytes / 4 / kRow;
  const ElementwiseProgram p = chain(rows);
  const loops::LoweredElementwise lowered = loops::lower_elementwise(p, "chain8");
  if (!lowered.ok()) {
    std::fprintf(stderr, "not lowered: %s\n", lowered.error.c_str());
    std::exit(2);
  }
  const compiler::CompiledKernel k = compiler::Jit::instance().compile(lowered.kernel);
  rt::NDArray x = rt::NDArray::empty({rows, kRow}, p.out_dtype), row = rt::NDArray::empty({kRow}, p.out_dtype);
  rt::NDArray out = rt::NDArray::empty({rows, kRow}, p.out_dtype), copy = rt::NDArray::empty({rows, kRow}, p.out_dtype);
  for (int64_t i = 0; i < x.size(); ++i) x.data<float>()[i] = static_cast<float>((i % 17) - 8) * 0.5f;
  for (int64_t i = 0; i < kRow; ++i) row.data<float>()[i] = static_cast<float>(i % 5) * 0.25f;
  std::memset(out.raw(), 0, out.nbytes());
  std::memset(copy.raw(), 0, copy.nbytes());
  compiler::ThreadPool pool(threads);
  void* buffers[] = {x.raw(), row.raw(), out.raw()};
  const double t_chain = best_of(reps, [&] { compiler::run_kernel(k, buffers, &pool); });
  // memcpy of the same bytes, split over the same pool in the same number of pieces
  const int64_t pieces = k.parallel_extent, piece = (bytes + pieces - 1) / pieces;
  const double t_copy = best_of(reps, [&] {
    pool.parallel_for(pieces, [&](int64_t b, int64_t e) {
      const int64_t lo = b * piece, hi = std::min(bytes, e * piece);
      std::memcpy(static_cast<char*>(copy.raw()) + lo, static_cast<const char*>(x.raw()) + lo,
                  static_cast<size_t>(hi - lo));
    });
  });
  const double moved = 2.0 * static_cast<double>(bytes);  // read once, written once
  return {std::string(label) + ", " + std::to_string(threads) + " thread" + (threads > 1 ? "s" : ""),
          moved / t_chain / 1e9, moved / t_copy / 1e9};
}

double compile_ms(const ElementwiseProgram& p, int opt_level) {
  const loops::LoweredElementwise lowered = loops::lower_elementwise(p, "k");
  compiler::CompileOptions options;
  options.opt_level = opt_level;
  std::vector<double> ms;
  for (int i = 0; i < 5; ++i) ms.push_back(compiler::Jit::instance().compile(lowered.kernel, options).compile_ms);
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

ElementwiseProgram one_step(const char* op, DataType t, bool binary) {
  ElementwiseProgram p;
  p.inputs = {{t, {1 << 16}}};
  if (binary) p.inputs.push_back({t, {1 << 16}});
  std::vector<EwOperand> operands = {EwOperand::input(0)};
  if (binary) operands.push_back(EwOperand::input(1));
  p.steps = {{op, operands, {}, t}};
  p.out_dtype = t;
  p.out_shape = {1 << 16};
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 10;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--check")) check = true;
  }
  const compiler::HostInfo& host = compiler::Jit::instance().host();
  std::printf("host: %s, cpu %s, AVX-512 %s, %u hardware threads\n", host.triple.c_str(), host.cpu.c_str(),
              host.avx512 ? "yes (512-bit vectors preferred)" : "no", compiler::default_threads());
  std::printf("profilers: perf map %s; GDB JIT interface %s%s\n", host.perf_map.c_str(),
              host.debugger_support ? "registered" : "off: ", host.debugger_note.c_str());

  std::printf("\nfused chain of 8 element-wise/broadcast ops (float32) vs memcpy of the same bytes\n");
  std::printf("%-28s %12s %12s %8s\n", "buffer, threads", "chain GB/s", "memcpy GB/s", "ratio");
  bool pass = true;
  for (unsigned threads : {1u, 2u}) {
    for (const auto& [label, bytes, n] :
         {std::tuple{"64 MiB", int64_t{64} << 20, reps}, std::tuple{"256 KiB (L2)", int64_t{256} << 10, reps * 200}}) {
      const Row r = measure(label, bytes, threads, n);
      const double ratio = r.chain_gbs / r.memcpy_gbs;
      pass = pass && ratio >= 0.8;
      std::printf("%-28s %12.1f %12.1f %7.0f%%\n", r.label.c_str(), r.chain_gbs, r.memcpy_gbs, 100 * ratio);
    }
  }

  std::printf("\ncompile latency per kernel (codegen + pipeline + machine code, median of 5)\n");
  std::printf("  %-36s %11s %11s\n", "kernel", "O2", "O0");
  const DataType f32 = DataType::float_(32), i32 = DataType::int_(32), i64 = DataType::int_(64);
  const std::vector<std::pair<const char*, ElementwiseProgram>> kernels = {
      {"chain of 8 (float32, broadcast)", chain(64)},
      {"add float32", one_step("add", f32, true)},
      {"exp float32", one_step("exp", f32, false)},
      {"floor_divide int32 (status flag)", one_step("floor_divide", i32, true)},
      {"power int64 (status flag)", one_step("power", i64, true)},
  };
  for (const auto& [label, p] : kernels)
    std::printf("  %-36s %8.2f ms %8.2f ms\n", label, compile_ms(p, 2), compile_ms(p, 0));

  std::printf("\ntarget: chain >= 80%% of memcpy bandwidth: %s\n", pass ? "met" : "missed");
  return check && !pass ? 1 : 0;
}
