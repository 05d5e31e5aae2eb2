// Binary logical, bitwise and shift operators (elementwise_binary.h).
#include "interpreter/kernels/elementwise_binary.h"

#include <cstdint>

namespace relay::rt {
namespace {

using namespace ew;
using namespace binary;

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

}  // namespace

void register_logical_kernels(KernelTable& t) {
  register_kernel(t, "logical_and", binary_kernel<LogicalAnd>);
  register_kernel(t, "logical_or", binary_kernel<LogicalOr>);
  register_kernel(t, "logical_xor", binary_kernel<LogicalXor>);
  register_kernel(t, "bitwise_and", binary_kernel<BitwiseAnd>);
  register_kernel(t, "bitwise_or", binary_kernel<BitwiseOr>);
  register_kernel(t, "bitwise_xor", binary_kernel<BitwiseXor>);
  register_kernel(t, "left_shift", binary_kernel<LeftShift>);
  register_kernel(t, "right_shift", binary_kernel<RightShift>);
}

}  // namespace relay::rt
