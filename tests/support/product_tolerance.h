// How far a matrix product folded over k in order (the GPU's kernel) may be from the
// reference's (BLAS folds in another order): each output within K * 2^-23 of the sum of
// its terms' magnitudes, plus an ulp of a float16/bfloat16 output (both round a float32
// sum once). Given as the relative tolerance the GPU check's comparison
// uses (tests/gpu/README.md: against |want| + scale * 2^-23), so that a bound met is a
// case passed.
#pragma once

#include <algorithm>
#include <cmath>

#include "interpreter/runtime/ndarray.h"

namespace relay::testing {

// What two roundings of nearly equal float32 sums to `want`'s dtype may add: one ulp of
// float16 (2^-10 relative) or bfloat16 (2^-7); nothing for float32.
inline double storage_rounding(const rt::NDArray& want) {
  const DataType t = want.dtype();
  if (t.bits != 16) return 0;
  return t.code == DataType::BFloat ? 0x1p-7 : 0x1p-10;
}

// `a` [..., M, K] and `b` [N, K] (dense: a's leading dimensions are rows too) or, with
// `batched`, a [B, M, K] and b [B or 1, N, K] (batch_matmul with transpose_b); `want` the
// reference's product.
inline double product_tolerance(const rt::NDArray& a, const rt::NDArray& b, const rt::NDArray& want, bool batched) {
  const int64_t k = a.shape().back();
  const int64_t n = b.shape()[b.ndim() - 2];
  const int64_t m = batched ? a.shape()[a.ndim() - 2] : a.size() / k;
  const int64_t batches = batched ? std::max(a.shape()[0], b.shape()[0]) : 1;
  double scale = 0;
  for (int64_t i = 0; i < want.size(); ++i)
    if (std::isfinite(want.get_double(i))) scale = std::max(scale, std::fabs(want.get_double(i)));
  const double floor = std::max(scale * 0x1p-23, 1e-30);
  double worst = 1e-5;
  for (int64_t bi = 0; bi < batches; ++bi) {
    const int64_t ab = batched && a.shape()[0] > 1 ? bi : 0, bb = batched && b.shape()[0] > 1 ? bi : 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double magnitude = 0;
        for (int64_t x = 0; x < k; ++x)
          magnitude += std::fabs(a.get_double((ab * m + i) * k + x) * b.get_double((bb * n + j) * k + x));
        const double w = want.get_double((bi * m + i) * n + j);
        worst = std::max(worst, static_cast<double>(k) * 0x1p-23 * magnitude / (std::fabs(w) + floor));
      }
  }
  return worst + storage_rounding(want);
}

// The same bound for any sum of `terms` products per output (a convolution's C/groups x
// KH x KW): `magnitude` is the operation computed on |inputs| (each output's sum of its
// terms' magnitudes, exactly what the bound scales with).
inline double fold_tolerance(const rt::NDArray& want, const rt::NDArray& magnitude, int64_t terms) {
  double scale = 0;
  for (int64_t i = 0; i < want.size(); ++i)
    if (std::isfinite(want.get_double(i))) scale = std::max(scale, std::fabs(want.get_double(i)));
  const double floor = std::max(scale * 0x1p-23, 1e-30);
  double worst = 1e-5;
  for (int64_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, static_cast<double>(terms) * 0x1p-23 * magnitude.get_double(i) /
                                (std::fabs(want.get_double(i)) + floor));
  return worst + storage_rounding(want);
}

}  // namespace relay::testing
