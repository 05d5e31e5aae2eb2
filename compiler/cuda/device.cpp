// One GPU: context, stream, modules, caching allocator (device.h).
#include "compiler/cuda/device.h"

#include <algorithm>

namespace relay::cuda {

namespace {

constexpr int kOutOfMemory = 2;  // CUDA_ERROR_OUT_OF_MEMORY

size_t size_class(size_t bytes) {
  constexpr size_t kSmall = 512, kLarge = size_t{2} << 20;
  if (bytes == 0) bytes = 1;
  return bytes < (size_t{1} << 20) ? (bytes + kSmall - 1) / kSmall * kSmall : (bytes + kLarge - 1) / kLarge * kLarge;
}

}  // namespace

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    if (owner_) owner_->release(ptr, block_);
    ptr = o.ptr, bytes = o.bytes, owner_ = o.owner_, block_ = o.block_;
    o.ptr = 0, o.bytes = 0, o.owner_ = nullptr, o.block_ = 0;
  }
  return *this;
}

Buffer::~Buffer() {
  if (owner_) owner_->release(ptr, block_);
}

Module& Module::operator=(Module&& o) noexcept {
  if (this != &o) {
    if (module_) api_->cuModuleUnload(module_);
    api_ = o.api_, module_ = o.module_;
    o.module_ = nullptr;
  }
  return *this;
}

Module::~Module() {
  if (module_) api_->cuModuleUnload(module_);
}

CUfunction Module::function(const std::string& entry) const {
  CUfunction f = nullptr;
  check(*api_, api_->cuModuleGetFunction(&f, module_, entry.c_str()), ("cuModuleGetFunction(" + entry + ")").c_str());
  return f;
}

int Device::count(std::string* why) {
  const DriverApi* api = load_driver(why);
  if (!api) return 0;
  int n = 0;
  const CUresult r = api->cuDeviceGetCount(&n);
  if (r != kSuccess) {
    if (why) *why = describe(*api, r, "cuDeviceGetCount");
    return 0;
  }
  return n;
}

std::unique_ptr<Device> Device::open(int ordinal, std::string* why) {
  const DriverApi* api = load_driver(why);
  if (!api) return nullptr;
  return open(*api, ordinal, why);
}

std::unique_ptr<Device> Device::open(const DriverApi& driver, int ordinal, std::string* why) {
  const DriverApi* api = &driver;
  int n = 0;
  if (const CUresult r = api->cuDeviceGetCount(&n); r != kSuccess) {
    if (why) *why = describe(*api, r, "cuDeviceGetCount");
    return nullptr;
  }
  if (ordinal < 0 || ordinal >= n) {
    if (why) *why = "no GPU " + std::to_string(ordinal) + ": the driver sees " + std::to_string(n);
    return nullptr;
  }
  std::unique_ptr<Device> d(new Device());
  d->api_ = api;
  try {
    DeviceInfo& info = d->info_;
    info.ordinal = ordinal;
    check(*api, api->cuDeviceGet(&d->device_, ordinal), "cuDeviceGet");
    char name[256] = {};
    check(*api, api->cuDeviceGetName(name, sizeof name - 1, d->device_), "cuDeviceGetName");
    info.name = name;
    int major = 0, minor = 0;
    check(*api, api->cuDeviceGetAttribute(&major, kAttrComputeCapabilityMajor, d->device_), "cuDeviceGetAttribute");
    check(*api, api->cuDeviceGetAttribute(&minor, kAttrComputeCapabilityMinor, d->device_), "cuDeviceGetAttribute");
    info.sm = major * 10 + minor;
    check(*api, api->cuDeviceGetAttribute(&info.multiprocessors, kAttrMultiprocessorCount, d->device_),
          "cuDeviceGetAttribute");
    check(*api, api->cuDeviceTotalMem(&info.memory_bytes, d->device_), "cuDeviceTotalMem");
    check(*api, api->cuDriverGetVersion(&info.driver_version), "cuDriverGetVersion");
    check(*api, api->cuDevicePrimaryCtxRetain(&d->context_, d->device_), "cuDevicePrimaryCtxRetain");
    check(*api, api->cuCtxSetCurrent(d->context_), "cuCtxSetCurrent");
    check(*api, api->cuStreamCreate(&d->stream_, kStreamNonBlocking), "cuStreamCreate");
  } catch (const DriverError& e) {
    if (why) *why = e.what();
    return nullptr;
  }
  return d;
}

Device::~Device() {
  if (!api_) return;
  if (stream_) {
    api_->cuStreamSynchronize(stream_);
    api_->cuStreamDestroy(stream_);
  }
  for (const auto& [ptr, size] : all_) api_->cuMemFree(ptr);
  if (context_) api_->cuDevicePrimaryCtxRelease(device_);
}

void Device::bind() { check(*api_, api_->cuCtxSetCurrent(context_), "cuCtxSetCurrent"); }

Buffer Device::alloc(size_t bytes) {
  bind();
  const size_t block = size_class(bytes);
  Buffer b;
  b.bytes = bytes;
  b.block_ = block;
  b.owner_ = this;
  // A cached block of this class or up to twice its size.
  auto it = free_.lower_bound(block);
  if (it != free_.end() && it->first < 2 * block) {
    b.ptr = it->second;
    b.block_ = it->first;
    free_.erase(it);
    return b;
  }
  CUresult r = api_->cuMemAlloc(&b.ptr, block);
  if (r == kOutOfMemory && !free_.empty()) {
    // Give the cache back to the driver and try once more.
    synchronize();
    for (const auto& [size, ptr] : free_) {
      api_->cuMemFree(ptr);
      all_.erase(std::find(all_.begin(), all_.end(), std::make_pair(ptr, size)));
    }
    free_.clear();
    r = api_->cuMemAlloc(&b.ptr, block);
  }
  if (r != kSuccess) {
    b.owner_ = nullptr;
    throw DriverError(describe(*api_, r, "cuMemAlloc") + " (asked for " + std::to_string(bytes) + " bytes)", r);
  }
  ++driver_allocations_;
  all_.emplace_back(b.ptr, block);
  return b;
}

void Device::release(CUdeviceptr ptr, size_t block) {
  // Work queued on the stream may still read the block; the next user queues behind it.
  free_.emplace(block, ptr);
}

size_t Device::cached_blocks() const { return free_.size(); }

size_t Device::cached_bytes() const {
  size_t n = 0;
  for (const auto& [size, ptr] : free_) n += size;
  return n;
}

void Device::upload(const Buffer& dst, const void* host, size_t bytes) {
  bind();
  if (bytes) check(*api_, api_->cuMemcpyHtoDAsync(dst.ptr, host, bytes, stream_), "cuMemcpyHtoDAsync");
}

void Device::download(void* host, const Buffer& src, size_t bytes) {
  bind();
  if (bytes) check(*api_, api_->cuMemcpyDtoHAsync(host, src.ptr, bytes, stream_), "cuMemcpyDtoHAsync");
}

void Device::copy(const Buffer& dst, const Buffer& src, size_t bytes) {
  bind();
  if (bytes) check(*api_, api_->cuMemcpyDtoDAsync(dst.ptr, src.ptr, bytes, stream_), "cuMemcpyDtoDAsync");
}

void Device::fill_zero(const Buffer& dst, size_t bytes) { fill(dst, 0, bytes); }

void Device::fill(const Buffer& dst, unsigned char value, size_t bytes) {
  bind();
  if (bytes) check(*api_, api_->cuMemsetD8Async(dst.ptr, value, bytes, stream_), "cuMemsetD8Async");
}

void Device::synchronize() {
  bind();
  check(*api_, api_->cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

Module Device::load_ptx(const std::string& ptx) {
  bind();
  std::vector<char> log(16384, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  void* values[] = {log.data(), reinterpret_cast<void*>(log.size() - 1)};
  Module m;
  m.api_ = api_;
  const CUresult r = api_->cuModuleLoadDataEx(&m.module_, ptx.c_str(), 2, options, values);
  if (r != kSuccess) {
    m.module_ = nullptr;
    throw DriverError(describe(*api_, r, "cuModuleLoadDataEx") + "\n" + std::string(log.data()), r);
  }
  return m;
}

void Device::launch(CUfunction f, uint64_t grid, unsigned block, const std::vector<CUdeviceptr>& args) {
  bind();
  std::vector<CUdeviceptr> values = args;  // the driver reads each parameter through a pointer
  std::vector<void*> params;
  params.reserve(values.size());
  for (CUdeviceptr& v : values) params.push_back(&v);
  const unsigned blocks = static_cast<unsigned>(std::clamp<uint64_t>(grid, 1, 0x7fffffff));
  check(*api_,
        api_->cuLaunchKernel(f, blocks, 1, 1, std::max(block, 1u), 1, 1, 0, stream_, params.data(), nullptr),
        "cuLaunchKernel");
}

Graph& Graph::operator=(Graph&& o) noexcept {
  if (this != &o) {
    reset();
    api_ = o.api_, graph_ = o.graph_, exec_ = o.exec_;
    o.graph_ = nullptr, o.exec_ = nullptr;
  }
  return *this;
}

void Graph::reset() {
  if (exec_) api_->cuGraphExecDestroy(exec_);
  if (graph_) api_->cuGraphDestroy(graph_);
  graph_ = nullptr, exec_ = nullptr;
}

void Device::begin_capture() {
  bind();
  check(*api_, api_->cuStreamBeginCapture(stream_, kCaptureModeRelaxed), "cuStreamBeginCapture");
}

Graph Device::end_capture() {
  bind();
  Graph g;
  g.api_ = api_;
  check(*api_, api_->cuStreamEndCapture(stream_, &g.graph_), "cuStreamEndCapture");
  check(*api_, api_->cuGraphInstantiateWithFlags(&g.exec_, g.graph_, 0), "cuGraphInstantiateWithFlags");
  return g;
}

void Device::launch_graph(const Graph& g) {
  bind();
  check(*api_, api_->cuGraphLaunch(g.exec_, stream_), "cuGraphLaunch");
}

Device::Timer::Timer(Device& d) : d_(d) {
  d_.bind();
  check(d_.api(), d_.api().cuEventCreate(&begin_, 0), "cuEventCreate");
  check(d_.api(), d_.api().cuEventCreate(&end_, 0), "cuEventCreate");
}

Device::Timer::~Timer() {
  d_.api().cuEventDestroy(begin_);
  d_.api().cuEventDestroy(end_);
}

void Device::Timer::start() {
  d_.bind();
  check(d_.api(), d_.api().cuEventRecord(begin_, d_.stream_), "cuEventRecord");
}

double Device::Timer::stop() {
  check(d_.api(), d_.api().cuEventRecord(end_, d_.stream_), "cuEventRecord");
  check(d_.api(), d_.api().cuEventSynchronize(end_), "cuEventSynchronize");
  float ms = 0;
  check(d_.api(), d_.api().cuEventElapsedTime(&ms, begin_, end_), "cuEventElapsedTime");
  return ms;
}

}  // namespace relay::cuda
