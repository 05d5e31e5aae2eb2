// The binary broadcasting operators (§3.3): arithmetic, division and modulo in their three
// roundings, power, maximum/minimum, logical, bitwise, shifts and comparisons. This header
// holds what they share, the broadcasting loops and the kernel around them; each family's
// file (elementwise_binary_*.cpp) defines its operators and instantiates binary_kernel for
// them. (One file for all 26 operators at every dtype took minutes to compile under the
// sanitizers; split, the families build in parallel.)
//
// Semantics follow TVM's TOPI computes as LLVM lowers them: integer arithmetic wraps;
// integer division truncates (`divide`, `trunc_*`, `mod`) or floors (`floor_*`); float
// floor/trunc variants are a - floor(a / b) * b with each step rounded to the dtype;
// maximum/minimum are selects (a > b ? a : b), so a NaN second operand wins and a NaN
// first operand loses; not_equal is the ordered comparison (false when either side is
// NaN). Integer division by zero is a RuntimeError, never a trap.
#pragma once

#include <cstdint>
#include <string>

#include "interpreter/kernels/elementwise_internal.h"
#include "interpreter/kernels/row_loops.h"

namespace relay::rt::binary {

// Every op: `accepts<T>` (dtypes it is defined for), `divides` (integer division by the
// rhs: zeros are checked first), `apply(a, b)` returning the output element.
struct OpBase {
  template <class T> static constexpr bool accepts = true;
  static constexpr bool divides = false;
};
struct IntegerOnly : OpBase {
  template <class T> static constexpr bool accepts = !is_floating_v<T>;
};
struct Division : OpBase {
  static constexpr bool divides = true;
};

// The four inner loops. `restrict` lets the compiler vectorise them: the output is
// always freshly allocated, so it never aliases an input.
template <class Op, class T, class R>
void loop_vv(const T* __restrict a, const T* __restrict b, R* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Op::apply(a[i], b[i]);
}
template <class Op, class T, class R>
void loop_sv(T a, const T* __restrict b, R* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Op::apply(a, b[i]);
}
template <class Op, class T, class R>
void loop_vs(const T* __restrict a, T b, R* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Op::apply(a[i], b);
}

// The general broadcast: rows of the collapsed iteration space, each one of the loops
// above (after collapsing, an operand's innermost stride is 1, or 0 when broadcast).
template <class Op, class T, class R>
void broadcast_rows(const T* a, const Shape& a_shape, const T* b, const Shape& b_shape, R* out,
                    const Shape& out_shape) {
  RowPlan<3> plan = plan_rows<3>(out_shape, {contiguous_strides(out_shape), broadcast_strides(a_shape, out_shape),
                                             broadcast_strides(b_shape, out_shape)});
  const int64_t n = plan.row_length();
  const int64_t sa = plan.inner_stride(1), sb = plan.inner_stride(2);
  if (sa == 1 && sb == 1) {
    for_each_row(plan, [&](const auto& o) { loop_vv<Op>(a + o[1], b + o[2], out + o[0], n); });
  } else if (sa == 0 && sb == 1) {
    for_each_row(plan, [&](const auto& o) { loop_sv<Op>(a[o[1]], b + o[2], out + o[0], n); });
  } else if (sa == 1 && sb == 0) {
    for_each_row(plan, [&](const auto& o) { loop_vs<Op>(a + o[1], b[o[2]], out + o[0], n); });
  } else {
    for_each_row(plan, [&](const auto& o) {
      for (int64_t i = 0; i < n; ++i) out[o[0] + i] = Op::apply(a[o[1] + i * sa], b[o[2] + i * sb]);
    });
  }
}

// Integer division by zero is checked before computing anything, so the loops stay
// branch-free and the error names the first zero.
template <class T>
void check_divisor(const KernelCall& call, const NDArray& lhs, const NDArray& rhs) {
  const T* b = rhs.data<T>();
  for (int64_t i = 0; i < rhs.size(); ++i) {
    if (b[i] != T(0)) continue;
    std::string where = rhs.ndim() == 0 ? "rhs is 0" : "rhs has a 0 at flat index " + std::to_string(i);
    throw RuntimeError("integer division by zero in " + ew::quoted(call) + ": " + where + " (lhs shape " +
                       shape_to_string(lhs.shape()) + ", rhs shape " + shape_to_string(rhs.shape()) + ", dtype " +
                       dtype_name(rhs.dtype()) + ")");
  }
}

template <class Op>
Value binary_kernel(const KernelCall& call) {
  const NDArray lhs = call.tensor(0), rhs = call.tensor(1);
  if (lhs.dtype() != rhs.dtype())
    throw RuntimeError(ew::quoted(call) + ": operands have different dtypes, " + dtype_name(lhs.dtype()) + " and " +
                       dtype_name(rhs.dtype()));
  const bool same = lhs.shape() == rhs.shape();
  const Shape out_shape = same ? lhs.shape() : broadcast_shapes(lhs.shape(), rhs.shape(), call.op.name);
  return dispatch_dtype(lhs.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    if constexpr (!Op::template accepts<T>) {
      throw RuntimeError(ew::quoted(call) + " is defined for integer and bool tensors, not " + dtype_name(lhs.dtype()));
    } else {
      using R = decltype(Op::apply(T{}, T{}));
      NDArray out = NDArray::empty(out_shape, dtype_of<R>());
      const int64_t n = out.size();
      if (n == 0) return out;
      if constexpr (Op::divides && !is_floating_v<T>) check_divisor<T>(call, lhs, rhs);
      const T* a = lhs.data<T>();
      const T* b = rhs.data<T>();
      R* o = out.data<R>();
      if (same) loop_vv<Op>(a, b, o, n);
      else if (lhs.size() == 1) loop_sv<Op>(a[0], b, o, n);
      else if (rhs.size() == 1) loop_vs<Op>(a, b[0], o, n);
      else broadcast_rows<Op>(a, lhs.shape(), b, rhs.shape(), o, out_shape);
      return out;
    }
  });
}

}  // namespace relay::rt::binary
