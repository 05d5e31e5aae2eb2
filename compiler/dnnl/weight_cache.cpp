#include "compiler/dnnl/weight_cache.h"

namespace relay::compiler::dnnl_impl {

PreparedWeights::PreparedWeights(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen)
    : user_(user), chosen_(chosen), same_(user == chosen) {}

dnnl::memory PreparedWeights::get(const rt::NDArray& weights) const {
  if (same_) return dnnl::memory(user_, engine(), weights.raw());
  std::lock_guard<std::mutex> lock(mutex_);
  if (serial_ != weights.serial()) {
    // A fresh memory rather than overwriting the old one: a concurrent call may still be
    // reading it (dnnl::memory is a shared handle).
    dnnl::memory prepared(chosen_, engine());
    dnnl::memory user(user_, engine(), weights.raw());
    dnnl::reorder(user, prepared).execute(stream(), user, prepared);
    stream().wait();
    cached_ = prepared;
    serial_ = weights.serial();
    ++reorders_;
  }
  return cached_;
}

uint64_t PreparedWeights::reorders() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reorders_;
}

}  // namespace relay::compiler::dnnl_impl
