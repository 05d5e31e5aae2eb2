// How far a matrix product or a convolution whose kernel folds its terms in another order
// than the reference's (BLAS, or the tensor cores' own order) may be from the reference:
// each output within K * 2^-23 of the sum of its terms' magnitudes (any order of K
// float32 additions), plus an ulp of a float16/bfloat16 output (both sides round a
// float32 sum once). Used element by element on the CPU (FoldBound::check) and, as the
// GPU check's per-case (RTOL, ATOL), in the bundle (tests/gpu/README.md).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "interpreter/runtime/ndarray.h"

namespace relay::testing {

// What two roundings of nearly equal float32 sums to `want`'s dtype may add: one ulp of
// float16 (2^-10 relative) or bfloat16 (2^-7); nothing for float32.
inline double storage_rounding(const rt::NDArray& want) {
  const DataType t = want.dtype();
  if (t.bits != 16) return 0;
  return t.code == DataType::BFloat ? 0x1p-7 : 0x1p-10;
}

struct FoldBound {
  rt::NDArray magnitude;  // each output's sum of |terms|
  int64_t terms = 0;      // K: the terms of an output's sum
  double storage = 0;     // storage_rounding of the output

  double allowed(int64_t i, double want) const {
    return static_cast<double>(terms) * 0x1p-23 * magnitude.get_double(i) + storage * std::fabs(want) + 1e-30;
  }
  // "" when every output of `got` is within its bound of `want` (NaN matching NaN), else
  // the first that is not.
  std::string check(const rt::NDArray& want, const rt::NDArray& got) const {
    for (int64_t i = 0; i < want.size(); ++i) {
      const double w = want.get_double(i), g = got.get_double(i);
      if (std::isnan(w) && std::isnan(g)) continue;
      if (!(std::fabs(g - w) <= allowed(i, w)))
        return "output " + std::to_string(i) + ": want " + std::to_string(w) + ", got " + std::to_string(g) +
               " (allowed " + std::to_string(allowed(i, w)) + ")";
    }
    return "";
  }
  // The GPU check's form, |got - want| <= rtol * |want| + atol for every output: the
  // largest sum of |terms| sets atol (looser for the small outputs, never for the largest).
  double rtol() const { return std::max(1e-5, storage); }
  double atol() const {
    double largest = 0;
    for (int64_t i = 0; i < magnitude.size(); ++i)
      if (std::isfinite(magnitude.get_double(i))) largest = std::max(largest, magnitude.get_double(i));
    return static_cast<double>(terms) * 0x1p-23 * largest;
  }
};

// `a` [..., M, K] and `b` [N, K] (dense: a's leading dimensions are rows too) or, with
// `batched`, a [B, M, K] and b [B or 1, N, K] (batch_matmul with transpose_b); `want` the
// reference's product.
inline FoldBound product_bound(const rt::NDArray& a, const rt::NDArray& b, const rt::NDArray& want, bool batched) {
  const int64_t k = a.shape().back();
  const int64_t n = b.shape()[b.ndim() - 2];
  const int64_t m = batched ? a.shape()[a.ndim() - 2] : a.size() / k;
  const int64_t batches = batched ? std::max(a.shape()[0], b.shape()[0]) : 1;
  FoldBound r;
  r.magnitude = rt::NDArray::empty(want.shape(), DataType::float_(64));
  r.terms = k;
  r.storage = storage_rounding(want);
  for (int64_t bi = 0; bi < batches; ++bi) {
    const int64_t ab = batched && a.shape()[0] > 1 ? bi : 0, bb = batched && b.shape()[0] > 1 ? bi : 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double magnitude = 0;
        for (int64_t x = 0; x < k; ++x)
          magnitude += std::fabs(a.get_double((ab * m + i) * k + x) * b.get_double((bb * n + j) * k + x));
        r.magnitude.set_double((bi * m + i) * n + j, magnitude);
      }
  }
  return r;
}

}  // namespace relay::testing
