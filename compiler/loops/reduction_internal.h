// Each reducer's scalar semantics (reduction_ops.cpp), used by the loop nest
// (reduction_lower.cpp). Written against interpreter/kernels/reduction.cpp and
// reduction_arg.cpp: the same accumulator type, identity, fold and final conversion.
#pragma once

#include "compiler/loops/elementwise_internal.h"
#include "compiler/loops/reduction.h"

namespace relay::loops::red {

// The accumulator's dtype for a reduction of dtype-t values: float32 for float16/bfloat16
// (the reference's Compute<T>; sums round back through storage after every step), bool
// for all/any, t otherwise. ArgMax/ArgMin: the best value's (uint8 for bool).
DataType acc_dtype(ReduceOp op, DataType t);
// The accumulator's start: 0, 1, the dtype's lowest/highest finite value, true/false.
Expr identity(ReduceOp op, DataType t);
// acc folded with one element x (of dtype t). Not ArgMax/ArgMin.
Expr fold(ew::Emitter& em, ReduceOp op, DataType t, const Expr& acc, const Expr& x);
// The stored result of dtype `out` from the final accumulator of `count` elements.
// Not ArgMax/ArgMin. Precondition for an integer mean: wrapped_count(t, count) != 0.
Expr finish(ReduceOp op, DataType t, DataType out, const Expr& acc, int64_t count);

// argmax/argmin: the next (best value, best index) after element x at reduced position idx.
struct ArgState {
  Expr best, index;
};
ArgState arg_fold(ew::Emitter& em, bool want_max, bool select_last, const Expr& best, const Expr& best_index,
                  const Expr& x, const Expr& idx);

// The count converted to integer dtype t as the reference converts it (wrapping): the
// divisor of an integer mean. Zero means the reference throws a division by zero.
int64_t wrapped_count(DataType t, int64_t count);

}  // namespace relay::loops::red
