// Loading the CUDA driver with dlopen (driver.h).
#include "compiler/cuda/driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace relay::cuda {

namespace {

struct Loaded {
  DriverApi api{};
  bool ok = false;
  std::string why;
};

// Resolves `name` into `slot`; false (with `why`) when the library lacks it.
template <typename Fn>
bool resolve(void* lib, const char* name, Fn& slot, std::string& why) {
  void* p = ::dlsym(lib, name);
  if (!p) {
    why = std::string("the CUDA driver has no ") + name + " (a driver older than CUDA 11.8?)";
    return false;
  }
  slot = reinterpret_cast<Fn>(p);
  return true;
}

Loaded load() {
  Loaded r;
  const char* configured = std::getenv("RELAY_CUDA_DRIVER");
  const std::string path = configured && *configured ? configured : "libcuda.so.1";
  // The library stays loaded for the life of the process (the driver does not unload).
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = ::dlerror();
    r.why = "no NVIDIA driver: cannot load " + path + (e ? std::string(" (") + e + ")" : std::string());
    return r;
  }
  DriverApi& a = r.api;
  // The _v2 entry points are the ones cuda.h's macros name for 64-bit sizes and pointers.
  const bool all =
      resolve(lib, "cuInit", a.cuInit, r.why) && resolve(lib, "cuDriverGetVersion", a.cuDriverGetVersion, r.why) &&
      resolve(lib, "cuGetErrorName", a.cuGetErrorName, r.why) &&
      resolve(lib, "cuGetErrorString", a.cuGetErrorString, r.why) &&
      resolve(lib, "cuDeviceGetCount", a.cuDeviceGetCount, r.why) &&
      resolve(lib, "cuDeviceGet", a.cuDeviceGet, r.why) && resolve(lib, "cuDeviceGetName", a.cuDeviceGetName, r.why) &&
      resolve(lib, "cuDeviceGetAttribute", a.cuDeviceGetAttribute, r.why) &&
      resolve(lib, "cuDeviceTotalMem_v2", a.cuDeviceTotalMem, r.why) &&
      resolve(lib, "cuDevicePrimaryCtxRetain", a.cuDevicePrimaryCtxRetain, r.why) &&
      resolve(lib, "cuDevicePrimaryCtxRelease_v2", a.cuDevicePrimaryCtxRelease, r.why) &&
      resolve(lib, "cuCtxSetCurrent", a.cuCtxSetCurrent, r.why) &&
      resolve(lib, "cuModuleLoadDataEx", a.cuModuleLoadDataEx, r.why) &&
      resolve(lib, "cuModuleUnload", a.cuModuleUnload, r.why) &&
      resolve(lib, "cuModuleGetFunction", a.cuModuleGetFunction, r.why) &&
      resolve(lib, "cuLaunchKernel", a.cuLaunchKernel, r.why) && resolve(lib, "cuMemAlloc_v2", a.cuMemAlloc, r.why) &&
      resolve(lib, "cuMemFree_v2", a.cuMemFree, r.why) &&
      resolve(lib, "cuMemcpyHtoDAsync_v2", a.cuMemcpyHtoDAsync, r.why) &&
      resolve(lib, "cuMemcpyDtoHAsync_v2", a.cuMemcpyDtoHAsync, r.why) &&
      resolve(lib, "cuMemcpyDtoDAsync_v2", a.cuMemcpyDtoDAsync, r.why) &&
      resolve(lib, "cuMemsetD8Async", a.cuMemsetD8Async, r.why) &&
      resolve(lib, "cuStreamCreate", a.cuStreamCreate, r.why) &&
      resolve(lib, "cuStreamDestroy_v2", a.cuStreamDestroy, r.why) &&
      resolve(lib, "cuStreamSynchronize", a.cuStreamSynchronize, r.why) &&
      resolve(lib, "cuEventCreate", a.cuEventCreate, r.why) &&
      resolve(lib, "cuEventDestroy_v2", a.cuEventDestroy, r.why) &&
      resolve(lib, "cuEventRecord", a.cuEventRecord, r.why) &&
      resolve(lib, "cuEventSynchronize", a.cuEventSynchronize, r.why) &&
      resolve(lib, "cuEventElapsedTime", a.cuEventElapsedTime, r.why) &&
      resolve(lib, "cuStreamBeginCapture_v2", a.cuStreamBeginCapture, r.why) &&
      resolve(lib, "cuStreamEndCapture", a.cuStreamEndCapture, r.why) &&
      resolve(lib, "cuGraphInstantiateWithFlags", a.cuGraphInstantiateWithFlags, r.why) &&
      resolve(lib, "cuGraphLaunch", a.cuGraphLaunch, r.why) &&
      resolve(lib, "cuGraphExecDestroy", a.cuGraphExecDestroy, r.why) &&
      resolve(lib, "cuGraphDestroy", a.cuGraphDestroy, r.why);
  if (!all) return r;
  const CUresult init = a.cuInit(0);
  if (init != kSuccess) {
    r.why = describe(a, init, "cuInit");
    if (init == kErrorStubLibrary) r.why += "; " + path + " is the CUDA toolkit's stub, not a driver";
    if (init == kErrorNoDevice) r.why += "; the driver sees no GPU";
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace

const DriverApi* load_driver(std::string* why) {
  static const Loaded loaded = load();
  if (!loaded.ok) {
    if (why) *why = loaded.why;
    return nullptr;
  }
  return &loaded.api;
}

std::string describe(const DriverApi& api, CUresult code, const char* call) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName(code, &name) != kSuccess || !name) name = "an unknown CUDA error";
  if (api.cuGetErrorString(code, &text) != kSuccess) text = nullptr;
  std::string s = std::string(call) + " failed: " + name + " (" + std::to_string(code) + ")";
  if (text) s += ": " + std::string(text);
  return s;
}

void check(const DriverApi& api, CUresult code, const char* call) {
  if (code != kSuccess) throw DriverError(describe(api, code, call), code);
}

}  // namespace relay::cuda
