// §3.2 unary operators applied element by element: float math, the numeric ops that
// also take integers (abs, negative, sign, rounding), bitwise/logical not and the
// isfinite/isinf/isnan predicates.
//
// Float math on an integer tensor is rejected at run time (TVM's LLVM lowering has no
// integer exp or sin either). float16/bfloat16 compute in float and round once.
// `round` rounds halves away from zero (TVM lowers it to llvm.round; reference §8), and
// `sign` is a pair of selects, so sign(NaN) is 0. The fast_* approximations are computed
// exactly: TVM's polynomials agree with the exact functions to float32 precision.
#include <cmath>

#include "interpreter/kernels/elementwise_internal.h"

namespace relay::rt {
namespace {

using namespace ew;

struct FloatMath {
  template <class T> static constexpr bool accepts = is_floating_v<T>;
  static constexpr const char* what = "floating-point";
};
struct Numeric {
  template <class T> static constexpr bool accepts = true;
  static constexpr const char* what = "any";
};
struct IntegerOnly {
  template <class T> static constexpr bool accepts = !is_floating_v<T>;
  static constexpr const char* what = "integer and bool";
};

#define RELAY_FLOAT_UNARY(Name, expr)                                  \
  struct Name : FloatMath {                                            \
    template <class T> static T apply(T v) {                           \
      using C = Compute<T>;                                            \
      const C x = static_cast<C>(v);                                   \
      return static_cast<T>(static_cast<C>(expr));                     \
    }                                                                  \
  };

RELAY_FLOAT_UNARY(Acos, std::acos(x))
RELAY_FLOAT_UNARY(Acosh, std::acosh(x))
RELAY_FLOAT_UNARY(Asin, std::asin(x))
RELAY_FLOAT_UNARY(Asinh, std::asinh(x))
RELAY_FLOAT_UNARY(Atan, std::atan(x))
RELAY_FLOAT_UNARY(Atanh, std::atanh(x))
RELAY_FLOAT_UNARY(Cos, std::cos(x))
RELAY_FLOAT_UNARY(Cosh, std::cosh(x))
RELAY_FLOAT_UNARY(Erf, std::erf(x))
RELAY_FLOAT_UNARY(Exp, std::exp(x))
RELAY_FLOAT_UNARY(Log, std::log(x))
RELAY_FLOAT_UNARY(Log10, std::log10(x))
RELAY_FLOAT_UNARY(Log2, std::log2(x))
RELAY_FLOAT_UNARY(Rsqrt, C(1) / std::sqrt(x))
RELAY_FLOAT_UNARY(Sigmoid, C(1) / (C(1) + std::exp(-x)))
RELAY_FLOAT_UNARY(Sin, std::sin(x))
RELAY_FLOAT_UNARY(Sinh, std::sinh(x))
RELAY_FLOAT_UNARY(Sqrt, std::sqrt(x))
RELAY_FLOAT_UNARY(Tan, std::tan(x))
RELAY_FLOAT_UNARY(Tanh, std::tanh(x))
#undef RELAY_FLOAT_UNARY

// Rounding ops: identity on integers and bools.
#define RELAY_ROUNDING_UNARY(Name, fn)                                              \
  struct Name : Numeric {                                                           \
    template <class T> static T apply(T v) {                                        \
      if constexpr (is_floating_v<T>) return static_cast<T>(fn(static_cast<Compute<T>>(v))); \
      else return v;                                                                \
    }                                                                               \
  };
RELAY_ROUNDING_UNARY(Ceil, std::ceil)
RELAY_ROUNDING_UNARY(Floor, std::floor)
RELAY_ROUNDING_UNARY(Round, std::round)
RELAY_ROUNDING_UNARY(Trunc, std::trunc)
#undef RELAY_ROUNDING_UNARY

struct Abs : Numeric {
  template <class T> static T apply(T v) {
    if constexpr (is_floating_v<T>) return static_cast<T>(std::fabs(static_cast<Compute<T>>(v)));
    else if constexpr (std::is_signed_v<T>) return v < 0 ? wrap_neg(v) : v;  // abs(MIN) wraps to MIN
    else return v;
  }
};
struct Negative : Numeric {
  template <class T> static T apply(T v) {
    if constexpr (is_floating_v<T>) return static_cast<T>(-static_cast<Compute<T>>(v));
    else if constexpr (is_bool_v<T>) return v;
    else return wrap_neg(v);
  }
};
struct Sign : Numeric {
  template <class T> static T apply(T v) {
    using C = Compute<T>;
    const C x = static_cast<C>(v);
    if constexpr (std::is_unsigned_v<T>) return static_cast<T>(v != T(0));  // bool too
    else return x > C(0) ? static_cast<T>(C(1)) : x < C(0) ? static_cast<T>(C(-1)) : static_cast<T>(C(0));
  }
};
struct BitwiseNot : IntegerOnly {
  template <class T> static T apply(T v) {
    if constexpr (is_bool_v<T>) return !v;
    else return static_cast<T>(~v);
  }
};
struct LogicalNot : Numeric {
  template <class T> static T apply(T v) { return static_cast<T>(!truthy(v)); }
};
struct IsFinite : Numeric {
  template <class T> static bool apply(T v) {
    if constexpr (is_floating_v<T>) return std::isfinite(static_cast<Compute<T>>(v));
    else return true;
  }
};
struct IsInf : Numeric {
  template <class T> static bool apply(T v) {
    if constexpr (is_floating_v<T>) return std::isinf(static_cast<Compute<T>>(v));
    else return false;
  }
};
struct IsNan : Numeric {
  template <class T> static bool apply(T v) {
    if constexpr (is_floating_v<T>) return std::isnan(static_cast<Compute<T>>(v));
    else return false;
  }
};

template <class Op, class T, class R>
void unary_loop(const T* __restrict in, R* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Op::apply(in[i]);
}

template <class Op>
Value unary_kernel(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  return dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    if constexpr (!Op::template accepts<T>) {
      throw RuntimeError(quoted(call) + " is defined for " + Op::what + " tensors, not " + dtype_name(x.dtype()));
    } else {
      using R = decltype(Op::apply(T{}));
      NDArray out = NDArray::empty(x.shape(), dtype_of<R>());
      unary_loop<Op>(x.data<T>(), out.data<R>(), x.size());
      return out;
    }
  });
}

}  // namespace

void register_unary_kernels(KernelTable& t) {
  register_kernel(t, "acos", unary_kernel<Acos>);
  register_kernel(t, "acosh", unary_kernel<Acosh>);
  register_kernel(t, "asin", unary_kernel<Asin>);
  register_kernel(t, "asinh", unary_kernel<Asinh>);
  register_kernel(t, "atan", unary_kernel<Atan>);
  register_kernel(t, "atanh", unary_kernel<Atanh>);
  register_kernel(t, "cos", unary_kernel<Cos>);
  register_kernel(t, "cosh", unary_kernel<Cosh>);
  register_kernel(t, "erf", unary_kernel<Erf>);
  register_kernel(t, "fast_erf", unary_kernel<Erf>);
  register_kernel(t, "exp", unary_kernel<Exp>);
  register_kernel(t, "fast_exp", unary_kernel<Exp>);
  register_kernel(t, "log", unary_kernel<Log>);
  register_kernel(t, "log10", unary_kernel<Log10>);
  register_kernel(t, "log2", unary_kernel<Log2>);
  register_kernel(t, "rsqrt", unary_kernel<Rsqrt>);
  register_kernel(t, "sigmoid", unary_kernel<Sigmoid>);
  register_kernel(t, "sin", unary_kernel<Sin>);
  register_kernel(t, "sinh", unary_kernel<Sinh>);
  register_kernel(t, "sqrt", unary_kernel<Sqrt>);
  register_kernel(t, "tan", unary_kernel<Tan>);
  register_kernel(t, "tanh", unary_kernel<Tanh>);
  register_kernel(t, "fast_tanh", unary_kernel<Tanh>);
  register_kernel(t, "ceil", unary_kernel<Ceil>);
  register_kernel(t, "floor", unary_kernel<Floor>);
  register_kernel(t, "round", unary_kernel<Round>);
  register_kernel(t, "trunc", unary_kernel<Trunc>);
  register_kernel(t, "abs", unary_kernel<Abs>);
  register_kernel(t, "negative", unary_kernel<Negative>);
  register_kernel(t, "sign", unary_kernel<Sign>);
  register_kernel(t, "bitwise_not", unary_kernel<BitwiseNot>);
  register_kernel(t, "logical_not", unary_kernel<LogicalNot>);
  register_kernel(t, "isfinite", unary_kernel<IsFinite>);
  register_kernel(t, "isinf", unary_kernel<IsInf>);
  register_kernel(t, "isnan", unary_kernel<IsNan>);
}

}  // namespace relay::rt
