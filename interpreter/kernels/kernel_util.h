// Helpers shared by the kernel families: broadcasting, axes, strided iteration, and
// output allocation. Kept small; a helper used by one family lives in that family.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/kernels/kernel.h"
#include "interpreter/runtime/dispatch.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

// numpy broadcasting of two shapes; RuntimeError naming both shapes and the failing
// dimension when they are incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view op);

// Strides (in elements) to read a tensor of shape `in` as if it had the broadcast shape
// `out` (right-aligned; 0 along broadcast dimensions).
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

// The axes of `in` that broadcasting `to` to `in` would have created: the leading ones
// `to` lacks and those where `to` has 1 and `in` more. What collapse_sum_like/_to sum
// over (TVM's topi::collapse_sum); `to` must broadcast to `in`.
std::vector<bool> collapsed_axes(const Shape& in, const Shape& to);

// Whether an integer matrix product may run through a double-precision GEMM (OpenBLAS's
// dgemm) exactly: every partial sum is an integer of magnitude at most
// k * max_a * max_b (+ max_c, the largest value accumulated into), and below 2^53 doubles
// hold all of them in any summation order, FMA included, so the result is the integer sum.
// Quantized convolutions and dense layers (int8 widened to int32, about 2^14 per product)
// are the case, exact up to k of 2^39.
bool integer_gemm_exact_in_double(int64_t k, double max_a, double max_b, double max_c = 0);

// An axis in [-rank, rank) as a non-negative index; RuntimeError otherwise.
int64_t normalize_axis(int64_t axis, size_t rank, std::string_view op);

// Calls f(flat_output_index, offsets...) for every element of `shape` in row-major
// order, where offsets[k] advances by strides[k][d] along dimension d. Used for
// broadcasting and transposed reads without per-element division.
template <size_t N, class F>
void for_each_strided(const Shape& shape, const std::vector<int64_t> (&strides)[N], F&& f) {
  const size_t rank = shape.size();
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  if (total == 0) return;
  std::vector<int64_t> idx(rank, 0);
  int64_t off[N] = {};
  for (int64_t i = 0; i < total; ++i) {
    f(i, off);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < shape[d]) {
        for (size_t k = 0; k < N; ++k) off[k] += strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) off[k] -= strides[k][d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
}

// The dtype of the call's result when the type checker knew it (a tensor result),
// else `fallback`.
DataType result_dtype(const KernelCall& call, DataType fallback);

}  // namespace relay::rt
