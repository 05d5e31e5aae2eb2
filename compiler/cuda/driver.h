// The CUDA driver API, loaded at run time: nothing CUDA is needed to build the project,
// and a machine without an NVIDIA driver runs everything else unchanged.
//
// load_driver() opens libcuda.so.1 (or the library $RELAY_CUDA_DRIVER names) with dlopen,
// resolves the functions below and calls cuInit. The declarations are the driver API's
// documented C signatures, with its opaque handles as opaque pointers; only the
// functions the GPU runtime uses are resolved.
//
// This file and driver.cpp, device.h and device.cpp use the C++ standard library and
// dlopen only, so the GPU check (scripts/gpu-check.sh) can build them on a GPU machine
// that has a compiler and a driver but none of this project's dependencies.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace relay::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphExec = struct CUgraphExec_st*;

inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorNoDevice = 100;
inline constexpr CUresult kErrorStubLibrary = 34;

// Enumerators of the driver API used here (cuda.h's values).
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kJitErrorLogBuffer = 5;
inline constexpr int kJitErrorLogBufferSizeBytes = 6;
inline constexpr unsigned kStreamNonBlocking = 1;
// CU_STREAM_CAPTURE_MODE_RELAXED: a capture that does not forbid other threads' calls.
inline constexpr int kCaptureModeRelaxed = 2;

struct DriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
  CUresult (*cuGetErrorString)(CUresult error, const char** text);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t* bytes, CUdevice device);                    // _v2
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);                          // _v2
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned num_options, int* options,
                                 void** values);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                             unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,
                             void** params, void** extra);
  CUresult (*cuMemAlloc)(CUdeviceptr* ptr, size_t bytes);                          // _v2
  CUresult (*cuMemFree)(CUdeviceptr ptr);                                          // _v2
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void* src, size_t bytes, CUstream stream);  // _v2
  CUresult (*cuMemcpyDtoHAsync)(void* dst, CUdeviceptr src, size_t bytes, CUstream stream);        // _v2
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);  // _v2
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream);
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);                                    // _v2
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);                                       // _v2
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float* ms, CUevent start, CUevent end);
  // CUDA graphs (driver 11.4 and later): a stream's work captured once, replayed as one launch.
  CUresult (*cuStreamBeginCapture)(CUstream stream, int mode);                     // _v2
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph* graph);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec* exec, CUgraph graph, unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphDestroy)(CUgraph graph);
};

// A failed driver call: which call, the driver's error name and text.
class DriverError : public std::runtime_error {
 public:
  DriverError(std::string what, CUresult code) : std::runtime_error(std::move(what)), code_(code) {}
  CUresult code() const { return code_; }

 private:
  CUresult code_;
};

// The process's driver, loaded and initialised on first use; null when there is none,
// with `why` saying what failed (the library is missing, a function is missing, cuInit
// failed: no device, a stub library, ...). Thread-safe.
const DriverApi* load_driver(std::string* why);

// "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
std::string describe(const DriverApi& api, CUresult code, const char* call);
// Throws DriverError unless `code` is success.
void check(const DriverApi& api, CUresult code, const char* call);

}  // namespace relay::cuda
