// §3.2 per-tensor operators with attributes or a structure of their own (clip,
// fixed_point_multiply, shape_of, ndarray_size, invert_permutation, copy and the *_like
// fills), and the family's registration (unary math in elementwise_unary.cpp, the §3.3
// broadcasting ops in elementwise_binary_*.cpp, elementwise_binary.h).
#include <cmath>
#include <optional>
#include <vector>

#include "interpreter/kernels/elementwise_internal.h"

namespace relay::rt {
namespace {

using namespace ew;

// clip is TOPI's max(min(x, a_max), a_min) with both bounds first converted to x's dtype
// (an integer tensor truncates them; out-of-range bounds saturate), min and max being
// selects as everywhere in TVM.
Value clip(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const double lo_attr = call.attrs.get_double("a_min"), hi_attr = call.attrs.get_double("a_max");
  return dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    using C = Compute<T>;
    const C lo = static_cast<C>(cast_to<T>(lo_attr)), hi = static_cast<C>(cast_to<T>(hi_attr));
    NDArray out = NDArray::empty(x.shape(), x.dtype());
    const T* __restrict in = x.data<T>();
    T* __restrict o = out.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) {
      C v = static_cast<C>(in[i]);
      v = v < hi ? v : hi;
      v = v > lo ? v : lo;
      o[i] = static_cast<T>(v);
    }
    return out;
  });
}

// TVM's q_multiply_shift(x, multiplier, 31, shift) as it is legalised: in 64 bits,
// shift left by max(shift, 0), multiply, add the rounding half of 2^(31 + max(-shift,
// 0)), shift right arithmetically by that amount, and narrow (wrapping).
Value fixed_point_multiply(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const int64_t multiplier = call.attrs.get_int("multiplier");
  const int64_t shift = call.attrs.get_int("shift");
  const int64_t left = shift > 0 ? shift : 0;
  const int64_t right = (shift > 0 ? 0 : -shift) + 31;
  if (left > 62 || right > 62)
    throw RuntimeError(quoted(call) + ": shift " + std::to_string(shift) +
                       " is out of range (the product is computed in 64 bits)");
  return dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    if constexpr (!is_int_v<T>) {
      throw RuntimeError(quoted(call) + " is defined for integer tensors, not " + dtype_name(x.dtype()));
    } else {
      NDArray out = NDArray::empty(x.shape(), x.dtype());
      const T* in = x.data<T>();
      T* o = out.data<T>();
      const uint64_t m = static_cast<uint64_t>(multiplier);
      const uint64_t half = uint64_t{1} << (right - 1);
      for (int64_t i = 0; i < x.size(); ++i) {
        uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(in[i])) << left;
        v = v * m + half;
        o[i] = static_cast<T>(static_cast<int64_t>(v) >> right);
      }
      return out;
    }
  });
}

// shape_of and ndarray_size take their result dtype from `dtype`; one left unset (void
// in the type) gives int32, what TVM's Python builders pass.
DataType index_dtype(const KernelCall& call) {
  std::optional<DataType> t = call.attrs.get_dtype("dtype");
  return t && !t->is_void() ? *t : DataType::int_(32);
}

Value shape_of(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  Shape shape;
  if (x.ndim() > 0) shape.push_back(static_cast<int64_t>(x.ndim()));
  // A rank-0 input has a rank-0 result (TVM's relation) with nothing to report: 0.
  NDArray out = NDArray::zeros(shape, index_dtype(call));
  for (size_t d = 0; d < x.ndim(); ++d) out.set_int(static_cast<int64_t>(d), x.dim(d));
  return out;
}

Value ndarray_size(const KernelCall& call) {
  return NDArray::scalar_int(call.tensor(0).size(), index_dtype(call));
}

// out[data[i]] = i; data must be a permutation of 0..n-1.
Value invert_permutation(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  if (x.ndim() != 1)
    throw RuntimeError(quoted(call) + " expects a 1-D tensor, got shape " + shape_to_string(x.shape()));
  return dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    if constexpr (!is_int_v<T>) {
      throw RuntimeError(quoted(call) + " is defined for integer tensors, not " + dtype_name(x.dtype()));
    } else {
      const int64_t n = x.size();
      NDArray out = NDArray::empty(x.shape(), x.dtype());
      const T* in = x.data<T>();
      T* o = out.data<T>();
      std::vector<bool> seen(static_cast<size_t>(n), false);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t p = static_cast<int64_t>(in[i]);
        if (p < 0 || p >= n || seen[static_cast<size_t>(p)])
          throw RuntimeError(quoted(call) + ": data is not a permutation of 0.." + std::to_string(n - 1) +
                             ": element " + std::to_string(i) + " is " + std::to_string(p) +
                             (p >= 0 && p < n ? ", which occurs twice" : ", out of range"));
        seen[static_cast<size_t>(p)] = true;
        o[p] = static_cast<T>(i);
      }
      return out;
    }
  });
}

Value copy(const KernelCall& call) { return call.tensor(0).copy(); }

Value zeros_like(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  return NDArray::zeros(x.shape(), x.dtype());
}

Value ones_like(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  return dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) -> Value {
    NDArray out = NDArray::empty(x.shape(), x.dtype());
    const T one = static_cast<T>(Compute<T>(1));
    T* o = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) o[i] = one;
    return out;
  });
}

}  // namespace

void register_elementwise_kernels(KernelTable& t) {
  register_unary_kernels(t);
  register_arithmetic_kernels(t);
  register_division_kernels(t);
  register_logical_kernels(t);
  register_comparison_kernels(t);
  register_kernel(t, "clip", clip);
  register_kernel(t, "fixed_point_multiply", fixed_point_multiply);
  register_kernel(t, "shape_of", shape_of);
  register_kernel(t, "ndarray_size", ndarray_size);
  register_kernel(t, "invert_permutation", invert_permutation);
  register_kernel(t, "copy", copy);
  register_kernel(t, "zeros_like", zeros_like);
  register_kernel(t, "ones_like", ones_like);
}

}  // namespace relay::rt
