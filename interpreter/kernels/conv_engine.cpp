// The convolution engine: dtype conversion into the accumulation type, im2col / col2im and
// GEMM (OpenBLAS for float and double, a wrap-around integer loop otherwise).
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt::convpool {

namespace {

// S -> O as TVM's astype: float to integer saturates (cast_to), integer to integer wraps.
template <class O, class S> O convert(S s) {
  if constexpr (std::is_same_v<O, bool>) {
    return static_cast<Compute<S>>(s) != 0;
  } else if constexpr (std::is_integral_v<O>) {
    if constexpr (is_floating_v<S>) return cast_to<O>(static_cast<double>(static_cast<Compute<S>>(s)));
    else return static_cast<O>(s);
  } else {
    return static_cast<O>(static_cast<Compute<O>>(static_cast<Compute<S>>(s)));
  }
}

int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Output positions o in [0, n_out) with 0 <= o*s + off < n_in: [lo, hi).
void valid_range(int64_t off, int64_t s, int64_t n_in, int64_t n_out, int64_t& lo, int64_t& hi) {
  lo = std::clamp<int64_t>(ceil_div(-off, s), 0, n_out);
  hi = std::clamp<int64_t>(ceil_div(n_in - off, s), lo, n_out);
}

// An integer product through OpenBLAS's dgemm when it is exact there
// (integer_gemm_exact_in_double says when), wrapped to Acc as the loop below wraps it.
// False (nothing written) when the bound does not hold.
template <class Acc>
bool integer_gemm_in_double(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const Acc* A, int64_t lda,
                            const Acc* B, int64_t ldb, Acc* C, int64_t ldc, bool accumulate) {
  auto magnitude = [](Acc v) { return std::fabs(static_cast<double>(v)); };
  // Dense row-major copies in the operands' own orientation.
  const int64_t a_rows = ta ? K : M, a_cols = ta ? M : K, b_rows = tb ? N : K, b_cols = tb ? K : N;
  double max_a = 0, max_b = 0, max_c = 0;
  std::vector<double> a(static_cast<size_t>(a_rows * a_cols)), b(static_cast<size_t>(b_rows * b_cols));
  for (int64_t r = 0; r < a_rows; ++r)
    for (int64_t c = 0; c < a_cols; ++c) {
      const Acc v = A[r * lda + c];
      max_a = std::max(max_a, magnitude(v));
      a[static_cast<size_t>(r * a_cols + c)] = static_cast<double>(v);
    }
  for (int64_t r = 0; r < b_rows; ++r)
    for (int64_t c = 0; c < b_cols; ++c) {
      const Acc v = B[r * ldb + c];
      max_b = std::max(max_b, magnitude(v));
      b[static_cast<size_t>(r * b_cols + c)] = static_cast<double>(v);
    }
  std::vector<double> out(static_cast<size_t>(M * N), 0.0);
  if (accumulate)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        max_c = std::max(max_c, magnitude(C[i * ldc + j]));
        out[static_cast<size_t>(i * N + j)] = static_cast<double>(C[i * ldc + j]);
      }
  if (!integer_gemm_exact_in_double(K, max_a, max_b, max_c)) return false;
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, int(M), int(N), int(K),
              1.0, a.data(), int(std::max<int64_t>(a_cols, 1)), b.data(), int(std::max<int64_t>(b_cols, 1)),
              accumulate ? 1.0 : 0.0, out.data(), int(std::max<int64_t>(N, 1)));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      C[i * ldc + j] = static_cast<Acc>(static_cast<uint64_t>(static_cast<int64_t>(out[static_cast<size_t>(i * N + j)])));
  return true;
}

}  // namespace

template <class Acc> std::vector<Acc> load(const NDArray& t, DataType as) {
  std::vector<Acc> out(static_cast<size_t>(t.size()));
  dispatch_dtype(t.dtype(), [&]<class S>(TypeTag<S>) {
    const S* p = t.data<S>();
    dispatch_dtype(as, [&]<class O>(TypeTag<O>) {
      for (int64_t i = 0; i < t.size(); ++i) {
        O o = convert<O>(p[i]);
        if constexpr (std::is_integral_v<Acc>) {
          if constexpr (std::is_integral_v<O>) out[i] = static_cast<Acc>(o);
          else out[i] = static_cast<Acc>(cast_to<int64_t>(static_cast<double>(static_cast<Compute<O>>(o))));
        } else {
          out[i] = static_cast<Acc>(static_cast<Compute<O>>(o));
        }
      }
    });
  });
  return out;
}

template <class Acc> NDArray store(const std::vector<Acc>& v, const Shape& shape, DataType dtype, const KernelCall* into) {
  NDArray out = into ? into->output(shape, dtype) : NDArray::empty(shape, dtype);
  dispatch_dtype(dtype, [&]<class O>(TypeTag<O>) {
    O* p = out.data<O>();
    const int64_t n = out.size();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<O, bool>) p[i] = v[i] != 0;
      else if constexpr (std::is_integral_v<O> && std::is_integral_v<Acc>) p[i] = static_cast<O>(v[i]);
      else if constexpr (std::is_integral_v<O>) p[i] = cast_to<O>(static_cast<double>(v[i]));
      else p[i] = static_cast<O>(static_cast<Compute<O>>(v[i]));
    }
  });
  return out;
}

template <class Acc>
void gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const Acc* A, int64_t lda, const Acc* B,
          int64_t ldb, Acc* C, int64_t ldc, bool accumulate) {
  if (M == 0 || N == 0) return;
  if (K == 0) {
    if (!accumulate)
      for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, Acc(0));
    return;
  }
  constexpr int64_t kMax = INT_MAX;
  bool blas_ok = M < kMax && N < kMax && K < kMax && lda < kMax && ldb < kMax && ldc < kMax;
  if constexpr (std::is_same_v<Acc, float>) {
    if (blas_ok) {
      cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                  int(M), int(N), int(K), 1.0f, A, int(lda), B, int(ldb), accumulate ? 1.0f : 0.0f,
                  C, int(ldc));
      return;
    }
  } else if constexpr (std::is_same_v<Acc, double>) {
    if (blas_ok) {
      cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                  int(M), int(N), int(K), 1.0, A, int(lda), B, int(ldb), accumulate ? 1.0 : 0.0, C,
                  int(ldc));
      return;
    }
  }
  if constexpr (std::is_integral_v<Acc> && !std::is_same_v<Acc, bool>) {
    if (blas_ok && integer_gemm_in_double(ta, tb, M, N, K, A, lda, B, ldb, C, ldc, accumulate)) return;
  }
  // Integers: unsigned arithmetic, so overflow wraps as TVM's out_dtype arithmetic does.
  using U = std::conditional_t<std::is_integral_v<Acc>, uint64_t, Acc>;
  std::vector<U> row(static_cast<size_t>(N));
  for (int64_t i = 0; i < M; ++i) {
    Acc* c = C + i * ldc;
    for (int64_t j = 0; j < N; ++j) row[j] = accumulate ? static_cast<U>(c[j]) : U(0);
    for (int64_t k = 0; k < K; ++k) {
      U a = static_cast<U>(ta ? A[k * lda + i] : A[i * lda + k]);
      if (a == U(0)) continue;
      if (!tb) {
        const Acc* b = B + k * ldb;
        for (int64_t j = 0; j < N; ++j) row[j] += a * static_cast<U>(b[j]);
      } else {
        for (int64_t j = 0; j < N; ++j) row[j] += a * static_cast<U>(B[j * ldb + k]);
      }
    }
    for (int64_t j = 0; j < N; ++j) c[j] = static_cast<Acc>(row[j]);
  }
}

template <class Acc> void im2col(const Acc* x, int64_t channels, const Geom& g, Acc* cols) {
  const int64_t OS = g.out_size(), IS = g.in_size(), KS = g.k_size();
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t kd = 0; kd < g.k[0]; ++kd)
      for (int64_t kh = 0; kh < g.k[1]; ++kh)
        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
          Acc* row = cols + (c * KS + (kd * g.k[1] + kh) * g.k[2] + kw) * OS;
          int64_t lo, hi;
          valid_range(kw * g.dil[2] - g.pad[2], g.stride[2], g.in[2], g.out[2], lo, hi);
          for (int64_t od = 0; od < g.out[0]; ++od) {
            int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
            for (int64_t oh = 0; oh < g.out[1]; ++oh) {
              Acc* r = row + (od * g.out[1] + oh) * g.out[2];
              int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
              if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1]) {
                std::fill(r, r + g.out[2], Acc(0));
                continue;
              }
              const Acc* src = x + c * IS + (id * g.in[1] + ih) * g.in[2];
              std::fill(r, r + lo, Acc(0));
              int64_t iw = lo * g.stride[2] - g.pad[2] + kw * g.dil[2];
              if (g.stride[2] == 1) std::copy(src + iw, src + iw + (hi - lo), r + lo);
              else
                for (int64_t ow = lo; ow < hi; ++ow, iw += g.stride[2]) r[ow] = src[iw];
              std::fill(r + hi, r + g.out[2], Acc(0));
            }
          }
        }
  }
}

template <class Acc> void col2im(const Acc* cols, int64_t channels, const Geom& g, Acc* y) {
  const int64_t OS = g.out_size(), IS = g.in_size(), KS = g.k_size();
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t kd = 0; kd < g.k[0]; ++kd)
      for (int64_t kh = 0; kh < g.k[1]; ++kh)
        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
          const Acc* row = cols + (c * KS + (kd * g.k[1] + kh) * g.k[2] + kw) * OS;
          int64_t lo, hi;
          valid_range(kw * g.dil[2] - g.pad[2], g.stride[2], g.in[2], g.out[2], lo, hi);
          for (int64_t od = 0; od < g.out[0]; ++od) {
            int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
            if (id < 0 || id >= g.in[0]) continue;
            for (int64_t oh = 0; oh < g.out[1]; ++oh) {
              int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
              if (ih < 0 || ih >= g.in[1]) continue;
              const Acc* r = row + (od * g.out[1] + oh) * g.out[2];
              Acc* dst = y + c * IS + (id * g.in[1] + ih) * g.in[2];
              int64_t iw = lo * g.stride[2] - g.pad[2] + kw * g.dil[2];
              for (int64_t ow = lo; ow < hi; ++ow, iw += g.stride[2]) {
                if constexpr (std::is_integral_v<Acc>)
                  dst[iw] = static_cast<Acc>(static_cast<uint64_t>(dst[iw]) + static_cast<uint64_t>(r[ow]));
                else
                  dst[iw] += r[ow];
              }
            }
          }
        }
}

template <class Acc>
std::vector<Acc> conv_forward(const std::vector<Acc>& x, const std::vector<Acc>& w, int64_t N,
                              int64_t C, int64_t O, int64_t groups, const Geom& g) {
  const int64_t Cg = C / groups, Og = O / groups, K = Cg * g.k_size();
  const int64_t OS = g.out_size(), IS = g.in_size();
  std::vector<Acc> y(static_cast<size_t>(N * O * OS));
  bool pointwise = g.k_size() == 1 && OS == IS;
  for (int i = 0; i < 3 && pointwise; ++i) pointwise = g.stride[i] == 1 && g.pad[i] == 0;
  std::vector<Acc> cols(pointwise ? 0 : static_cast<size_t>(K * OS));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t grp = 0; grp < groups; ++grp) {
      const Acc* xin = x.data() + (n * C + grp * Cg) * IS;
      const Acc* B = xin;
      if (!pointwise) {
        im2col(xin, Cg, g, cols.data());
        B = cols.data();
      }
      gemm<Acc>(false, false, Og, OS, K, w.data() + grp * Og * K, K, B, OS,
                y.data() + (n * O + grp * Og) * OS, OS, false);
    }
  return y;
}

Value conv_canonical(const KernelCall& call, const NDArray& data, const NDArray& weight,
                     int64_t groups, size_t rank, const std::vector<int64_t>& strides,
                     const std::vector<int64_t>& dilation, const std::vector<int64_t>& pad_before,
                     const std::vector<int64_t>& pad_after, DataType out,
                     const Layout& out_layout) {
  if (data.ndim() != rank + 2 || weight.ndim() != rank + 2)
    fail(call, "data " + shape_to_string(data.shape()) + " and weight " +
                   shape_to_string(weight.shape()) + " must both have rank " +
                   std::to_string(rank + 2));
  const int64_t N = data.dim(0), C = data.dim(1), O = weight.dim(0);
  if (groups <= 0 || C % groups != 0 || O % groups != 0 || weight.dim(1) != C / groups)
    fail(call, "data (canonical shape " + shape_to_string(data.shape()) + ") and weight (" +
                   shape_to_string(weight.shape()) + ") do not fit groups=" +
                   std::to_string(groups) + ": the weight's input channels must be " +
                   (groups > 0 && C % groups == 0 ? std::to_string(C / groups) : "C/groups") +
                   " and both channel counts divisible by groups");
  std::vector<int64_t> in(rank), k(rank), outs(rank);
  Shape out_shape = {N, O};
  for (size_t i = 0; i < rank; ++i) {
    in[i] = data.dim(2 + i);
    k[i] = weight.dim(2 + i);
    int64_t span = in[i] + pad_before[i] + pad_after[i] - ((k[i] - 1) * dilation[i] + 1);
    if (span < 0)
      fail(call, "the dilated kernel " + shape_to_string(weight.shape()) +
                     " does not fit the padded data " + shape_to_string(data.shape()));
    outs[i] = span / strides[i] + 1;
    out_shape.push_back(outs[i]);
  }
  Geom g;
  set_axes(g, rank, in, k, strides, dilation, pad_before);
  for (size_t i = 0; i < rank; ++i) g.out[3 - rank + i] = outs[i];
  NDArray result;
  auto run = [&]<class Acc>(TypeTag<Acc>) {
    auto x = load<Acc>(data, out);
    auto w = load<Acc>(weight, out);
    result = store<Acc>(conv_forward<Acc>(x, w, N, C, O, groups, g), out_shape, out, &call);
  };
  switch (acc_kind(out)) {
    case AccKind::F32: run(TypeTag<float>{}); break;
    case AccKind::F64: run(TypeTag<double>{}); break;
    case AccKind::I64: run(TypeTag<int64_t>{}); break;
  }
  Layout canonical = *Layout::parse("NC" + spatial_letters(rank));
  // Written into the destination already unless the layout changes (finish copies then).
  return call.finish(relayout(call, result, canonical, out_layout, "the result"));
}

#define CONVPOOL_INSTANTIATE(Acc)                                                               \
  template std::vector<Acc> load<Acc>(const NDArray&, DataType);                                \
  template NDArray store<Acc>(const std::vector<Acc>&, const Shape&, DataType, const KernelCall*); \
  template void gemm<Acc>(bool, bool, int64_t, int64_t, int64_t, const Acc*, int64_t, const Acc*, \
                          int64_t, Acc*, int64_t, bool);                                        \
  template void im2col<Acc>(const Acc*, int64_t, const Geom&, Acc*);                            \
  template void col2im<Acc>(const Acc*, int64_t, const Geom&, Acc*);                            \
  template std::vector<Acc> conv_forward<Acc>(const std::vector<Acc>&, const std::vector<Acc>&, \
                                              int64_t, int64_t, int64_t, int64_t, const Geom&);
CONVPOOL_INSTANTIATE(float)
CONVPOOL_INSTANTIATE(double)
CONVPOOL_INSTANTIATE(int64_t)
#undef CONVPOOL_INSTANTIATE

}  // namespace relay::rt::convpool
