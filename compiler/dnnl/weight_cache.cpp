#include "compiler/dnnl/weight_cache.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace relay::compiler::dnnl_impl {

PreparedWeights::PreparedWeights(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen,
                                 int64_t channel_run)
    : user_(user), chosen_(chosen), channel_run_(channel_run), user_memory_(user) {}

namespace {

// A copy of the plain weights with output channel o multiplied by scale[o]; element i
// belongs to channel (i / run) % channels (run 0: count / channels, channels outermost).
std::vector<float> scaled_copy(const float* w, size_t count, std::span<const float> scale, size_t run) {
  std::vector<float> out(count);
  const size_t channels = scale.size();
  if (run == 0) run = count / channels;
  for (size_t start = 0, c = 0; start < count; start += run, c = c + 1 == channels ? 0 : c + 1)
    for (size_t i = start; i < start + run && i < count; ++i) out[i] = w[i] * scale[c];
  return out;
}

}  // namespace

dnnl::memory PreparedWeights::get(const rt::NDArray& weights, std::span<const float> scale,
                                  UserMemory::Lease& lease) const {
  if (scale.empty() && user_ == chosen_ && !uint8_as_int8_) {
    lease = user_memory_.wrap(weights.raw());
    return lease.memory;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  // Bitwise: a NaN scale (a negative variance) is still the same scale.
  const bool same_scale =
      scale.size() == scale_.size() && (scale.empty() || std::memcmp(scale.data(), scale_.data(), scale.size_bytes()) == 0);
  if (serial_ != weights.serial() || !same_scale) {
    std::vector<float> scaled;
    std::vector<uint8_t> flipped;
    const void* source = weights.raw();
    if (uint8_as_int8_) {
      const auto* bytes = static_cast<const uint8_t*>(weights.raw());
      flipped.assign(bytes, bytes + user_.get_size());
      for (uint8_t& v : flipped) v ^= 0x80;
      source = flipped.data();
    } else if (!scale.empty()) {
      scaled = scaled_copy(static_cast<const float*>(weights.raw()), user_.get_size() / sizeof(float), scale,
                           static_cast<size_t>(channel_run_));
      source = scaled.data();
    }
    // A fresh memory rather than overwriting the old one: a concurrent call may still be
    // reading it (dnnl::memory is a shared handle).
    dnnl::memory prepared(chosen_, engine());
    dnnl::memory user(user_, engine(), const_cast<void*>(source));
    dnnl::reorder(user, prepared).execute(stream(), user, prepared);
    stream().wait();
    cached_ = prepared;
    serial_ = weights.serial();
    scale_.assign(scale.begin(), scale.end());
    ++reorders_;
  }
  return cached_;
}

uint64_t PreparedWeights::reorders() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reorders_;
}

}  // namespace relay::compiler::dnnl_impl
