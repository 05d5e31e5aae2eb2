// Shared by the reduction family's files: which axes a call reduces (reference §3.0.3,
// the same rule as lang/types/relations/reduction.cpp) and how the input is walked.
#pragma once

#include <vector>

#include "interpreter/kernels/kernel_util.h"
#include "interpreter/kernels/row_loops.h"

namespace relay::rt {

void register_arg_reduction_kernels(KernelTable& table);  // argmax, argmin, variance

struct ReduceSpec {
  std::vector<bool> reduced;  // per input dimension
  Shape out_shape;            // honouring keepdims
  int64_t count = 1;          // elements folded into each output
  // Stride of the output element along each input dimension (0 where reduced): the
  // output is laid out like the input with the reduced dimensions dropped.
  std::vector<int64_t> out_strides;
  // Stride of the position among the reduced elements (row-major over the reduced
  // dimensions, 0 along kept ones): what argmax/argmin return.
  std::vector<int64_t> reduced_index_strides;
};

// `axis` None or empty: every axis (exclude ignored); else the listed axes (negative ones
// from the end; out of range or repeated is a RuntimeError), complemented by `exclude`.
ReduceSpec reduce_spec(const KernelCall& call, const Shape& in);
// The spec of a reduction over the dimensions `reduced` marks.
ReduceSpec reduce_spec_of(std::vector<bool> reduced, const Shape& in, bool keepdims);

// `sum` of x as the spec says (TVM's topi::sum): each output folds its elements in
// row-major order in x's dtype (floats in their compute type, float16 rounded at every
// step; integers wrapping). collapse_sum_like/collapse_sum_to are this sum too.
NDArray sum_over(const NDArray& x, const ReduceSpec& spec);

// The input (contiguous) walked row by row together with the output offsets.
inline RowPlan<2> reduce_plan(const Shape& in, const ReduceSpec& spec) {
  return plan_rows<2>(in, {contiguous_strides(in), spec.out_strides});
}

}  // namespace relay::rt
