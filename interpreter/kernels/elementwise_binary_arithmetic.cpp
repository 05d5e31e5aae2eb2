// Binary arithmetic (elementwise_binary.h): add, subtract, multiply, power, maximum and
// minimum.
#include "interpreter/kernels/elementwise_binary.h"

#include <cmath>

namespace relay::rt {
namespace {

using namespace ew;
using namespace binary;

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

}  // namespace

void register_arithmetic_kernels(KernelTable& t) {
  register_kernel(t, "add", binary_kernel<Add>);
  register_kernel(t, "subtract", binary_kernel<Subtract>);
  register_kernel(t, "multiply", binary_kernel<Multiply>);
  register_kernel(t, "power", binary_kernel<Power>);
  register_kernel(t, "maximum", binary_kernel<Maximum>);
  register_kernel(t, "minimum", binary_kernel<Minimum>);
}

}  // namespace relay::rt
