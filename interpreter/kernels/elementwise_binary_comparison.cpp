// Binary comparisons (elementwise_binary.h): equal, not_equal, less, less_equal, greater and
// greater_equal, each a bool tensor.
#include "interpreter/kernels/elementwise_binary.h"

namespace relay::rt {
namespace {

using namespace ew;
using namespace binary;

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

}  // namespace

void register_comparison_kernels(KernelTable& t) {
  register_kernel(t, "equal", binary_kernel<Equal>);
  register_kernel(t, "not_equal", binary_kernel<NotEqual>);
  register_kernel(t, "less", binary_kernel<Less>);
  register_kernel(t, "less_equal", binary_kernel<LessEqual>);
  register_kernel(t, "greater", binary_kernel<Greater>);
  register_kernel(t, "greater_equal", binary_kernel<GreaterEqual>);
}

}  // namespace relay::rt
