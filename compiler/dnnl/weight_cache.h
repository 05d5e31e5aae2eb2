// Weights prepared once, not per call (issue 14): reordered into the layout the primitive
// chose and kept while the same tensor comes again. In TVM-printed models the weights are
// @main's parameters, so "the same" is the tensor's serial (interpreter/runtime/ndarray.h):
// unique per tensor object and never reused, and tensors are immutable once they are
// values. A different tensor (new weights, or a weight computed inside the function)
// simply misses and is reordered again.
//
// A batch norm's scale folded into the weights (fused_epilogue.h) is part of the key: it
// is computed from the norm's parameters on every call, so it is a new tensor each time,
// but its values (one per output channel) are compared, and the same values hit.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "compiler/dnnl/dnnl_support.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::compiler::dnnl_impl {

class PreparedWeights {
 public:
  // `channel_run`: how many consecutive elements of the user layout belong to one output
  // channel before the next channel's begin, for scaling: 0 for output channels outermost
  // (OIHW, OI: all of a channel's elements), 1 for innermost (HWIO), kh * kw for IOHW.
  PreparedWeights(const dnnl::memory::desc& user, const dnnl::memory::desc& chosen, int64_t channel_run = 0);
  // `weights` (plain, described by `user`), each output channel multiplied by `scale`
  // (one value per output channel) when it is not empty, in the chosen layout: the tensor's own buffer when the layouts
  // agree and nothing scales, else the cached result, made on the first call with this
  // tensor and scale. Safe to call from several threads.
  // `lease` holds the memory over the tensor's buffer in the first case.
  dnnl::memory get(const rt::NDArray& weights, std::span<const float> scale, UserMemory::Lease& lease) const;
  // How many times the weights were reordered (the bench and tests check it stays 1).
  uint64_t reorders() const;
  // The tensors given are uint8 weights with zero point 128 standing for the int8 weights
  // v - 128 the primitive takes (a quantized model's asymmetric uint8 weights): their bytes
  // flipped in the top bit (v ^ 0x80 is v - 128 as int8) before the reorder, cached alike.
  void present_uint8_as_int8() { uint8_as_int8_ = true; }

 private:
  dnnl::memory::desc user_, chosen_;
  int64_t channel_run_;
  bool uint8_as_int8_ = false;
  UserMemory user_memory_;
  mutable std::mutex mutex_;
  mutable uint64_t serial_ = 0;  // the tensor `cached_` was made from; 0: none
  mutable std::vector<float> scale_;  // and the scale it was multiplied by
  mutable dnnl::memory cached_;
  mutable uint64_t reorders_ = 0;
};

}  // namespace relay::compiler::dnnl_impl
