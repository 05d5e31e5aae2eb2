// Weights prepared once, not per call (issue 14): reordered into the layout the primitive
// chose and kept while the same tensor comes again. In TVM-printed models the weights are
// @main's parameters, so "the same" is the tensor's serial (interpreter/runtime/ndarray.h):
// unique per tensor object and never reused, and tensors are immutable once they are
// values. A different tensor (new weights, or a weight computed inside the function)
// simply misses and is reordered again.
#pragma once

#include <cstdint>
#include <mutex>

#include "compiler/dnnl/dnnl_support.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::compiler::dnnl_impl {

class PreparedWeights {
 public:
  PreparedWeights(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen);
  // `weights` (plain, described by `user`) in the chosen layout: the tensor's own buffer
  // when the layouts agree, else the cached reorder, made on the first call with this
  // tensor. Safe to call from several threads.
  dnnl::memory get(const rt::NDArray& weights) const;
  // How many times the weights were reordered (the bench and tests check it stays 1).
  uint64_t reorders() const;

 private:
  dnnl::memory::desc user_, chosen_;
  bool same_;
  mutable std::mutex mutex_;
  mutable uint64_t serial_ = 0;  // the tensor `cached_` was made from; 0: none
  mutable dnnl::memory cached_;
  mutable uint64_t reorders_ = 0;
};

}  // namespace relay::compiler::dnnl_impl
