#include "compiler/dnnl/weight_cache.h"

#include <algorithm>
#include <cstring>

namespace relay::compiler::dnnl_impl {

PreparedWeights::PreparedWeights(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen,
                                 bool channels_innermost)
    : user_(user), chosen_(chosen), channels_innermost_(channels_innermost), user_memory_(user) {}

namespace {

// A copy of the plain weights with output channel o multiplied by scale[o].
std::vector<float> scaled_copy(const float* w, size_t count, std::span<const float> scale, bool innermost) {
  std::vector<float> out(count);
  const size_t channels = scale.size(), per_channel = count / channels;
  if (innermost) {
    for (size_t i = 0; i < count; ++i) out[i] = w[i] * scale[i % channels];
  } else {
    for (size_t o = 0; o < channels; ++o)
      for (size_t i = o * per_channel; i < (o + 1) * per_channel; ++i) out[i] = w[i] * scale[o];
  }
  return out;
}

}  // namespace

dnnl::memory PreparedWeights::get(const rt::NDArray& weights, std::span<const float> scale,
                                  UserMemory::Lease& lease) const {
  if (scale.empty() && user_ == chosen_) {
    lease = user_memory_.wrap(weights.raw());
    return lease.memory;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  // Bitwise: a NaN scale (a negative variance) is still the same scale.
  const bool same_scale =
      scale.size() == scale_.size() && (scale.empty() || std::memcmp(scale.data(), scale_.data(), scale.size_bytes()) == 0);
  if (serial_ != weights.serial() || !same_scale) {
    std::vector<float> scaled;
    const void* source = weights.raw();
    if (!scale.empty()) {
      scaled = scaled_copy(static_cast<const float*>(weights.raw()), user_.get_size() / sizeof(float), scale,
                           channels_innermost_);
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
