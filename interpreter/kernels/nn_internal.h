// Shared by the nn_*.cpp kernel files (§3.7 without convolution and pooling): each file
// registers its operators through one function declared here, and the helpers below are
// the few pieces more than one of them needs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/kernels/kernel_util.h"

namespace relay::rt {

void register_nn_dense_kernels(KernelTable& table);       // nn_dense.cpp
void register_nn_activation_kernels(KernelTable& table);  // nn_activation.cpp
void register_nn_norm_kernels(KernelTable& table);        // nn_norm.cpp
void register_nn_layout_kernels(KernelTable& table);      // nn_layout.cpp
void register_nn_resample_kernels(KernelTable& table);    // nn_resample.cpp
void register_nn_loss_kernels(KernelTable& table);        // nn_loss.cpp
void register_nn_sparse_kernels(KernelTable& table);      // nn_sparse.cpp
void register_nn_bitserial_kernels(KernelTable& table);   // nn_bitserial.cpp

// A tensor seen as (outer, n, inner) around one axis: element (o, i, j) is at
// (o * n + i) * inner + j.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};
AxisView axis_view(const Shape& shape, size_t axis);

std::string op_name(const KernelCall& call);

// dispatch_dtype restricted to float16/bfloat16/float32/float64; other dtypes are a
// RuntimeError naming the operator.
template <class F>
void dispatch_float(const KernelCall& call, DataType t, F&& f) {
  if (!t.is_float())
    throw RuntimeError("`" + op_name(call) + "` needs a floating-point tensor, found dtype `" + dtype_name(t) + "`");
  dispatch_dtype(t, [&]<class T>(TypeTag<T> tag) {
    if constexpr (is_floating_v<T>) f(tag);
  });
}

// f(float{}) for float32 data, f(double{}) for float64, returning its value: kernels that
// compute in the data's dtype as TOPI does and take only these two (image, vision); other
// dtypes are a RuntimeError naming the operator.
template <class F>
Value with_float(const KernelCall& call, DataType t, F&& f);

// The `out_dtype` attribute, or `fallback` when it is void.
DataType attr_out_dtype(const KernelCall& call, DataType fallback);

// Whole-tensor conversions for the slow generic paths (integer and mixed dtypes): one
// dtype dispatch per tensor instead of one per element.
std::vector<double> to_doubles(const NDArray& a);
std::vector<int64_t> to_int64s(const NDArray& a);
// Stores values into a fresh tensor of `dtype`; integers wrap modulo 2^bits (as TVM's
// integer arithmetic does), floats convert as C casts do.
NDArray from_doubles(const Shape& shape, DataType dtype, const std::vector<double>& v);
NDArray from_int64s(const Shape& shape, DataType dtype, const std::vector<int64_t>& v);

// Requires `cond`, else a RuntimeError with `message` prefixed by the operator name.
void require(const KernelCall& call, bool cond, const std::string& message);

template <class F>
Value with_float(const KernelCall& call, DataType t, F&& f) {
  if (t == DataType::float_(32)) return f(float{});
  require(call, t == DataType::float_(64), "needs float32 or float64 data, found `" + dtype_name(t) + "`");
  return f(double{});
}

}  // namespace relay::rt
