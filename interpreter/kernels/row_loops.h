// Row-wise iteration over several operands viewed through per-operand strides (0 along
// broadcast or reduced dimensions), shared by the elementwise, broadcast and reduction
// kernels.
//
// Dimensions of size 1 are dropped and neighbours that every operand walks as one run are
// merged, so a same-shape operation becomes a single row and a bias-like broadcast a few
// long rows. The caller then picks one tight inner loop by the innermost strides (which
// the compiler can vectorise) and the per-row bookkeeping is paid once per row, not per
// element.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

template <size_t N>
struct RowPlan {
  Shape dims;  // collapsed; the last one is the row (empty: no element at all)
  std::array<std::vector<int64_t>, N> strides;

  int64_t row_length() const { return dims.empty() ? 0 : dims.back(); }
  int64_t inner_stride(size_t k) const { return dims.empty() ? 0 : strides[k].back(); }
};

// `strides[k]` gives operand k's stride (in elements) along each dimension of `shape`.
template <size_t N>
RowPlan<N> plan_rows(const Shape& shape, const std::array<std::vector<int64_t>, N>& strides) {
  RowPlan<N> p;
  for (int64_t d : shape)
    if (d == 0) return p;  // nothing to visit
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !p.dims.empty();
    for (size_t k = 0; k < N && merge; ++k) merge = p.strides[k].back() == strides[k][d] * shape[d];
    if (merge) {
      p.dims.back() *= shape[d];
      for (size_t k = 0; k < N; ++k) p.strides[k].back() = strides[k][d];
    } else {
      p.dims.push_back(shape[d]);
      for (size_t k = 0; k < N; ++k) p.strides[k].push_back(strides[k][d]);
    }
  }
  if (p.dims.empty()) {  // every dimension is 1: one row of one element
    p.dims.push_back(1);
    for (size_t k = 0; k < N; ++k) p.strides[k].push_back(0);
  }
  return p;
}

// Calls row(offsets) once per row, in row-major order; offsets[k] is operand k's offset
// of the row's first element. The row's length and inner strides are the plan's.
template <size_t N, class F>
void for_each_row(const RowPlan<N>& p, F&& row) {
  if (p.dims.empty()) return;
  const size_t outer = p.dims.size() - 1;
  std::array<int64_t, N> off{};
  if (outer == 0) {
    row(off);
    return;
  }
  std::vector<int64_t> idx(outer, 0);
  for (;;) {
    row(off);
    size_t d = outer;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++idx[d] < p.dims[d]) {
        for (size_t k = 0; k < N; ++k) off[k] += p.strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) off[k] -= p.strides[k][d] * (p.dims[d] - 1);
      idx[d] = 0;
    }
  }
}

}  // namespace relay::rt
