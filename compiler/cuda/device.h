// One GPU through the driver API (driver.h): its primary context, one stream on which
// every copy and launch of this process runs in order, PTX modules, and a caching
// allocator, so that a model called again allocates nothing from the driver.
//
//   std::string why;
//   std::unique_ptr<cuda::Device> gpu = cuda::Device::open(0, &why);   // null: why
//   cuda::Buffer x = gpu->alloc(bytes);
//   gpu->upload(x, host, bytes);
//   cuda::Module m = gpu->load_ptx(ptx);                      // the JIT log on failure
//   gpu->launch(m.function("main_g0"), grid, block, {x.ptr, y.ptr});
//   gpu->download(host, y, bytes);
//   gpu->synchronize();                                       // copies are asynchronous
//
// Not thread-safe: one thread at a time drives a Device (each call makes the device's
// context current on the calling thread, so that thread may change).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/cuda/driver.h"

namespace relay::cuda {

class Device;

// Device memory from the caching allocator; returned to its cache on destruction.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();
  CUdeviceptr ptr = 0;
  size_t bytes = 0;  // as asked for (the block may be larger)

 private:
  friend class Device;
  Device* owner_ = nullptr;
  size_t block_ = 0;
};

class Module {
 public:
  Module() = default;
  Module(Module&& o) noexcept { *this = std::move(o); }
  Module& operator=(Module&& o) noexcept;
  ~Module();
  // Throws DriverError when the module has no such entry.
  CUfunction function(const std::string& entry) const;

 private:
  friend class Device;
  const DriverApi* api_ = nullptr;
  CUmodule module_ = nullptr;
};

// A captured stream of work (Device::end_capture), replayed by Device::launch_graph with
// one call: the kernels, copies and fills in the order they were queued, with the
// arguments they had then.
class Graph {
 public:
  Graph() = default;
  Graph(Graph&& o) noexcept { *this = std::move(o); }
  Graph& operator=(Graph&& o) noexcept;
  ~Graph() { reset(); }

 private:
  friend class Device;
  void reset();  // destroys what it holds
  const DriverApi* api_ = nullptr;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
};

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int sm = 0;  // compute capability major * 10 + minor
  int multiprocessors = 0;
  size_t memory_bytes = 0;
  int driver_version = 0;  // 12040: CUDA 12.4
};

class Device {
 public:
  // GPU `ordinal`; null when there is no driver or no such GPU, with `why` set.
  static std::unique_ptr<Device> open(int ordinal, std::string* why);
  // The same over a given driver API table (the tests' simulated driver,
  // tests/compiler/simulated_driver.h); `api` must outlive the device.
  static std::unique_ptr<Device> open(const DriverApi& api, int ordinal, std::string* why);
  // GPUs the driver sees (0 when there is no driver; `why` says why).
  static int count(std::string* why);
  ~Device();

  const DeviceInfo& info() const { return info_; }
  const DriverApi& api() const { return *api_; }

  Buffer alloc(size_t bytes);
  // Blocks the allocator keeps, and the bytes they hold (for reports and tests).
  size_t cached_blocks() const;
  size_t cached_bytes() const;
  uint64_t driver_allocations() const { return driver_allocations_; }

  // Asynchronous on the device's stream; `host` must stay valid until synchronize().
  void upload(const Buffer& dst, const void* host, size_t bytes);
  void download(void* host, const Buffer& src, size_t bytes);
  void copy(const Buffer& dst, const Buffer& src, size_t bytes);
  void fill_zero(const Buffer& dst, size_t bytes);
  void fill(const Buffer& dst, unsigned char value, size_t bytes);  // every byte `value`
  void synchronize();

  // Throws DriverError with the driver's JIT log when the PTX does not load.
  Module load_ptx(const std::string& ptx);
  // `args`: one device pointer per kernel parameter (the GPU kernel ABI, nvptx.h).
  void launch(CUfunction f, uint64_t grid, unsigned block, const std::vector<CUdeviceptr>& args);

  // Capture: the launches, copies and fills queued between begin_capture and end_capture
  // are recorded, not run (nothing may synchronise meanwhile), and end_capture makes them
  // a Graph. end_capture throws DriverError when the capture failed; the stream is out of
  // capture mode either way.
  void begin_capture();
  Graph end_capture();
  void launch_graph(const Graph& g);

  // Elapsed GPU time of work queued between two marks, in milliseconds.
  class Timer {
   public:
    explicit Timer(Device& d);
    ~Timer();
    void start();
    double stop();  // synchronises

   private:
    Device& d_;
    CUevent begin_ = nullptr, end_ = nullptr;
  };

 private:
  friend class Buffer;
  Device() = default;
  void release(CUdeviceptr ptr, size_t block);
  void bind();  // the context current on the calling thread

  const DriverApi* api_ = nullptr;
  DeviceInfo info_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  // Free blocks by size (sizes rounded up to a class: 512 bytes below 1 MiB, then 2 MiB).
  std::multimap<size_t, CUdeviceptr> free_;
  std::vector<std::pair<CUdeviceptr, size_t>> all_;  // every block from the driver
  uint64_t driver_allocations_ = 0;
};

}  // namespace relay::cuda
