// §3.3 binary broadcasting operators: arithmetic, division and modulo in their three
// roundings, power, maximum/minimum, logical, bitwise, shifts and comparisons.
//
// Semantics follow TVM's TOPI computes as LLVM lowers them: integer arithmetic wraps;
// integer division truncates (`divide`, `trunc_*`, `mod`) or floors (`floor_*`); float
// floor/trunc variants are a - floor(a / b) * b with each step rounded to the dtype;
// maximum/minimum are selects (a > b ? a : b), so a NaN second operand wins and a NaN
// first operand loses; not_equal is the ordered comparison (false when either side is
// NaN). Integer division by zero is a RuntimeError, never a trap.
#include <cmath>
#include <limits>

#include "interpreter/kernels/elementwise_internal.h"
#include "interpreter/kernels/row_loops.h"

namespace relay::rt {
namespace {

using namespace ew;

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

struct Add : OpBase {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(Compute<T>(a) + Compute<T>(b));
    else if constexpr (is_bool_v<T>) return a || b;
    else return wrap_add(a, b);
  }
};
struct Subtract : OpBase {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(Compute<T>(a) - Compute<T>(b));
    else if constexpr (is_bool_v<T>) return a != b;
    else return wrap_sub(a, b);
  }
};
struct Multiply : OpBase {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(Compute<T>(a) * Compute<T>(b));
    else if constexpr (is_bool_v<T>) return a && b;
    else return wrap_mul(a, b);
  }
};

// Integer quotient and remainder truncated toward zero; b != 0 is checked by the caller.
// MIN / -1 wraps to MIN (and its remainder is 0) instead of overflowing.
template <class T> T trunc_div(T a, T b) {
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return wrap_neg(a);
  return static_cast<T>(a / b);
}
template <class T> T trunc_rem(T a, T b) {
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return static_cast<T>(a % b);
}
template <class T> T floor_div(T a, T b) {
  T q = trunc_div(a, b);
  if constexpr (std::is_signed_v<T>)
    if (trunc_rem(a, b) != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
template <class T> T floor_rem(T a, T b) {
  T r = trunc_rem(a, b);
  if constexpr (std::is_signed_v<T>)
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
  return r;
}

struct Divide : Division {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(Compute<T>(a) / Compute<T>(b));
    else if constexpr (is_bool_v<T>) return a;
    else return trunc_div(a, b);
  }
};
struct FloorDivide : Division {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(std::floor(rnd<T>(Compute<T>(a) / Compute<T>(b))));
    else if constexpr (is_bool_v<T>) return a;
    else return floor_div(a, b);
  }
};
struct TruncDivide : Division {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(std::trunc(rnd<T>(Compute<T>(a) / Compute<T>(b))));
    else if constexpr (is_bool_v<T>) return a;
    else return trunc_div(a, b);
  }
};
// `mod` is TIR's truncmod, which LLVM emits as frem (C fmod) for floats.
struct Mod : Division {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(std::fmod(Compute<T>(a), Compute<T>(b)));
    else if constexpr (is_bool_v<T>) return false;
    else return trunc_rem(a, b);
  }
};
struct FloorMod : Division {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) {
      using C = Compute<T>;
      C q = rnd<T>(std::floor(rnd<T>(C(a) / C(b))));
      return T(C(a) - rnd<T>(q * C(b)));
    } else if constexpr (is_bool_v<T>) {
      return false;
    } else {
      return floor_rem(a, b);
    }
  }
};
struct TruncMod : Division {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) {
      using C = Compute<T>;
      C q = rnd<T>(std::trunc(rnd<T>(C(a) / C(b))));
      return T(C(a) - rnd<T>(q * C(b)));
    } else if constexpr (is_bool_v<T>) {
      return false;
    } else {
      return trunc_rem(a, b);
    }
  }
};

// Integer power by squaring, wrapping like repeated multiplication. A negative exponent
// gives the truncated reciprocal (0 unless the base is 1 or -1); 0 to a negative power
// is a division by zero.
template <class T> T int_power(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 0) throw RuntimeError("integer division by zero in `power`: 0 raised to the negative power " +
                                     std::to_string(static_cast<int64_t>(b)));
      if (a == 1) return 1;
      if (a == -1) return (b & 1) ? T(-1) : T(1);
      return 0;
    }
  }
  Wide<T> result = 1, base = static_cast<Wide<T>>(a);
  for (auto e = static_cast<uint64_t>(b); e; e >>= 1) {
    if (e & 1) result *= base;
    base *= base;
  }
  return static_cast<T>(result);
}
struct Power : OpBase {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_floating_v<T>) return T(std::pow(Compute<T>(a), Compute<T>(b)));
    else if constexpr (is_bool_v<T>) return a || !b;
    else return int_power(a, b);
  }
};

struct Maximum : OpBase {
  template <class T> static T apply(T a, T b) { return Compute<T>(a) > Compute<T>(b) ? a : b; }
};
struct Minimum : OpBase {
  template <class T> static T apply(T a, T b) { return Compute<T>(a) < Compute<T>(b) ? a : b; }
};

struct LogicalAnd : OpBase {
  template <class T> static T apply(T a, T b) { return T(truthy(a) && truthy(b)); }
};
struct LogicalOr : OpBase {
  template <class T> static T apply(T a, T b) { return T(truthy(a) || truthy(b)); }
};
struct LogicalXor : OpBase {
  template <class T> static T apply(T a, T b) { return T(truthy(a) != truthy(b)); }
};

struct BitwiseAnd : IntegerOnly {
  template <class T> static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct BitwiseOr : IntegerOnly {
  template <class T> static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct BitwiseXor : IntegerOnly {
  template <class T> static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};

// Shift counts outside [0, bits) are undefined in C and poison in LLVM; they are given
// numpy's answer: every bit shifted out (0, or -1 for a negative value shifted right).
template <class T> bool is_negative(T x) {
  if constexpr (std::is_signed_v<T>) return x < 0;
  else return false;
}
template <class T> bool shift_in_range(T b) {
  return !is_negative(b) && static_cast<uint64_t>(b) < sizeof(T) * 8;
}
struct LeftShift : IntegerOnly {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool_v<T>) {
      return a && !b;
    } else {
      if (!shift_in_range(b)) return T(0);
      return static_cast<T>(static_cast<Wide<T>>(a) << b);
    }
  }
};
struct RightShift : IntegerOnly {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_bool_v<T>) {
      return a && !b;
    } else {
      if (!shift_in_range(b)) return is_negative(a) ? T(-1) : T(0);
      return static_cast<T>(a >> b);
    }
  }
};

struct Equal : OpBase {
  template <class T> static bool apply(T a, T b) { return Compute<T>(a) == Compute<T>(b); }
};
struct NotEqual : OpBase {
  template <class T> static bool apply(T a, T b) {
    if constexpr (is_floating_v<T>) return Compute<T>(a) < Compute<T>(b) || Compute<T>(a) > Compute<T>(b);
    else return a != b;
  }
};
struct Less : OpBase {
  template <class T> static bool apply(T a, T b) { return Compute<T>(a) < Compute<T>(b); }
};
struct LessEqual : OpBase {
  template <class T> static bool apply(T a, T b) { return Compute<T>(a) <= Compute<T>(b); }
};
struct Greater : OpBase {
  template <class T> static bool apply(T a, T b) { return Compute<T>(a) > Compute<T>(b); }
};
struct GreaterEqual : OpBase {
  template <class T> static bool apply(T a, T b) { return Compute<T>(a) >= Compute<T>(b); }
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
    throw RuntimeError("integer division by zero in " + quoted(call) + ": " + where + " (lhs shape " +
                       shape_to_string(lhs.shape()) + ", rhs shape " + shape_to_string(rhs.shape()) + ", dtype " +
                       dtype_name(rhs.dtype()) + ")");
  }
}

template <class Op>
Value binary_kernel(const KernelCall& call) {
  const NDArray lhs = call.tensor(0), rhs = call.tensor(1);
  if (lhs.dtype() != rhs.dtype())
    throw RuntimeError(quoted(call) + ": operands have different dtypes, " + dtype_name(lhs.dtype()) + " and " +
                       dtype_name(rhs.dtype()));
  const bool same = lhs.shape() == rhs.shape();
  const Shape out_shape = same ? lhs.shape() : broadcast_shapes(lhs.shape(), rhs.shape(), call.op.name);
  return dispatch_dtype(lhs.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    if constexpr (!Op::template accepts<T>) {
      throw RuntimeError(quoted(call) + " is defined for integer and bool tensors, not " + dtype_name(lhs.dtype()));
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

}  // namespace

void register_binary_kernels(KernelTable& t) {
  register_kernel(t, "add", binary_kernel<Add>);
  register_kernel(t, "subtract", binary_kernel<Subtract>);
  register_kernel(t, "multiply", binary_kernel<Multiply>);
  register_kernel(t, "divide", binary_kernel<Divide>);
  register_kernel(t, "floor_divide", binary_kernel<FloorDivide>);
  register_kernel(t, "trunc_divide", binary_kernel<TruncDivide>);
  register_kernel(t, "mod", binary_kernel<Mod>);
  register_kernel(t, "floor_mod", binary_kernel<FloorMod>);
  register_kernel(t, "trunc_mod", binary_kernel<TruncMod>);
  register_kernel(t, "power", binary_kernel<Power>);
  register_kernel(t, "maximum", binary_kernel<Maximum>);
  register_kernel(t, "minimum", binary_kernel<Minimum>);
  register_kernel(t, "logical_and", binary_kernel<LogicalAnd>);
  register_kernel(t, "logical_or", binary_kernel<LogicalOr>);
  register_kernel(t, "logical_xor", binary_kernel<LogicalXor>);
  register_kernel(t, "bitwise_and", binary_kernel<BitwiseAnd>);
  register_kernel(t, "bitwise_or", binary_kernel<BitwiseOr>);
  register_kernel(t, "bitwise_xor", binary_kernel<BitwiseXor>);
  register_kernel(t, "left_shift", binary_kernel<LeftShift>);
  register_kernel(t, "right_shift", binary_kernel<RightShift>);
  register_kernel(t, "equal", binary_kernel<Equal>);
  register_kernel(t, "not_equal", binary_kernel<NotEqual>);
  register_kernel(t, "less", binary_kernel<Less>);
  register_kernel(t, "less_equal", binary_kernel<LessEqual>);
  register_kernel(t, "greater", binary_kernel<Greater>);
  register_kernel(t, "greater_equal", binary_kernel<GreaterEqual>);
}

}  // namespace relay::rt
