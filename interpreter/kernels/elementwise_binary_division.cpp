// Binary division (elementwise_binary.h): divide, floor_divide, trunc_divide, mod, floor_mod
// and trunc_mod. Integer divisors are checked for zeros before anything is computed.
#include "interpreter/kernels/elementwise_binary.h"

#include <cmath>

namespace relay::rt {
namespace {

using namespace ew;
using namespace binary;

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

}  // namespace

void register_division_kernels(KernelTable& t) {
  register_kernel(t, "divide", binary_kernel<Divide>);
  register_kernel(t, "floor_divide", binary_kernel<FloorDivide>);
  register_kernel(t, "trunc_divide", binary_kernel<TruncDivide>);
  register_kernel(t, "mod", binary_kernel<Mod>);
  register_kernel(t, "floor_mod", binary_kernel<FloorMod>);
  register_kernel(t, "trunc_mod", binary_kernel<TruncMod>);
}

}  // namespace relay::rt
