// Matrix products: nn.dense, nn.matmul, nn.batch_matmul, nn.contrib_dense_pack.
//
// float32/float64 products whose out_dtype is the input dtype go to OpenBLAS. Every other
// combination (int8 -> int32, float16, mixed) multiplies in the out_dtype's domain as
// TOPI does (`a.astype(out) * b.astype(out)` summed in `out`): integers in 64-bit
// wrapping arithmetic truncated to the output width, floats in double.
#include <cblas.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <optional>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// One batched product C[b] = op(A[b]) * op(B[b]) with C row-major (M, N). A is read at
// a_off[b] + m * a_sm + k * a_sk, B at b_off[b] + k * b_sk + n * b_sn (element strides),
// which covers every transpose flag and the broadcast batch of batch_matmul.
struct Gemm {
  int64_t batch = 1, M = 0, N = 0, K = 0;
  std::vector<int64_t> a_off, b_off;
  int64_t a_sm = 0, a_sk = 0, b_sk = 0, b_sn = 0;
  // Whether A is stored (K, M) and B (N, K); strides alone are ambiguous when M, N or K is 1.
  bool trans_a = false, trans_b = false;
  void set_a(bool t) { trans_a = t, a_sm = t ? 1 : K, a_sk = t ? M : 1; }
  void set_b(bool t) { trans_b = t, b_sk = t ? 1 : N, b_sn = t ? K : 1; }
};

template <class T>
void gemm_blas(const Gemm& g, const T* A, const T* B, T* C) {
  const CBLAS_TRANSPOSE ta = g.trans_a ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = g.trans_b ? CblasTrans : CblasNoTrans;
  const int64_t lda = g.trans_a ? g.M : g.K;
  const int64_t ldb = g.trans_b ? g.K : g.N;
  for (int64_t b = 0; b < g.batch; ++b) {
    T* c = C + b * g.M * g.N;
    if (g.K == 0) {
      std::memset(c, 0, sizeof(T) * static_cast<size_t>(g.M * g.N));
      continue;
    }
    // OpenBLAS wants leading dimensions >= 1 even for degenerate matrices.
    const int lda_i = static_cast<int>(std::max<int64_t>(lda, 1)), ldb_i = static_cast<int>(std::max<int64_t>(ldb, 1));
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, ta, tb, static_cast<int>(g.M), static_cast<int>(g.N), static_cast<int>(g.K), 1.0f,
                  A + g.a_off[b], lda_i, B + g.b_off[b], ldb_i, 0.0f, c, static_cast<int>(std::max<int64_t>(g.N, 1)));
    else
      cblas_dgemm(CblasRowMajor, ta, tb, static_cast<int>(g.M), static_cast<int>(g.N), static_cast<int>(g.K), 1.0,
                  A + g.a_off[b], lda_i, B + g.b_off[b], ldb_i, 0.0, c, static_cast<int>(std::max<int64_t>(g.N, 1)));
  }
}

// The generic product; V is double (float outputs) or int64_t wrapping through uint64_t.
template <class V>
std::vector<V> gemm_loop(const Gemm& g, const std::vector<V>& A, const std::vector<V>& B) {
  using Acc = std::conditional_t<std::is_same_v<V, double>, double, uint64_t>;
  std::vector<V> C(static_cast<size_t>(g.batch * g.M * g.N));
  std::vector<Acc> row(static_cast<size_t>(g.N));
  for (int64_t b = 0; b < g.batch; ++b)
    for (int64_t m = 0; m < g.M; ++m) {
      std::fill(row.begin(), row.end(), Acc{0});
      for (int64_t k = 0; k < g.K; ++k) {
        const Acc a = static_cast<Acc>(A[static_cast<size_t>(g.a_off[b] + m * g.a_sm + k * g.a_sk)]);
        const V* bp = B.data() + g.b_off[b] + k * g.b_sk;
        for (int64_t n = 0; n < g.N; ++n) row[n] += a * static_cast<Acc>(bp[n * g.b_sn]);
      }
      V* c = C.data() + (b * g.M + m) * g.N;
      for (int64_t n = 0; n < g.N; ++n) c[n] = static_cast<V>(row[n]);
    }
  return C;
}

// An integer product through dgemm when it is exact there (integer_gemm_exact_in_double
// says when): quantized dense layers, int8 widened to int32.
// nullopt when the bound does not hold or a dimension is past BLAS's int.
std::optional<std::vector<int64_t>> integer_gemm_in_double(const Gemm& g, const std::vector<int64_t>& a,
                                                           const std::vector<int64_t>& b) {
  constexpr int64_t kMax = INT_MAX;
  if (g.M >= kMax || g.N >= kMax || g.K >= kMax || g.M * g.N * g.batch == 0) return std::nullopt;
  double max_a = 0, max_b = 0;
  for (int64_t v : a) max_a = std::max(max_a, std::fabs(static_cast<double>(v)));
  for (int64_t v : b) max_b = std::max(max_b, std::fabs(static_cast<double>(v)));
  if (!integer_gemm_exact_in_double(g.K, max_a, max_b)) return std::nullopt;
  const std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
  std::vector<double> c(static_cast<size_t>(g.batch * g.M * g.N));
  gemm_blas<double>(g, ad.data(), bd.data(), c.data());
  return std::vector<int64_t>(c.begin(), c.end());
}

bool is_blas_dtype(DataType t) { return t == DataType::float_(32) || t == DataType::float_(64); }

// The BLAS path writes into the call's destination when it has one; the others return a
// fresh array (the callers' finish() copies it there).
NDArray run_gemm(const KernelCall& call, const Gemm& g, const NDArray& a, const NDArray& b, DataType out_dtype,
                 const Shape& out_shape) {
  if (a.dtype() == b.dtype() && a.dtype() == out_dtype && is_blas_dtype(out_dtype)) {
    NDArray out = call.output(out_shape, out_dtype);
    if (g.M * g.N * g.batch == 0) return out;
    if (out_dtype.bits == 32) gemm_blas<float>(g, a.data<float>(), b.data<float>(), out.data<float>());
    else gemm_blas<double>(g, a.data<double>(), b.data<double>(), out.data<double>());
    return out;
  }
  if (out_dtype.is_float()) return from_doubles(out_shape, out_dtype, gemm_loop(g, to_doubles(a), to_doubles(b)));
  const std::vector<int64_t> ai = to_int64s(a), bi = to_int64s(b);
  if (auto exact = integer_gemm_in_double(g, ai, bi)) return from_int64s(out_shape, out_dtype, *exact);
  return from_int64s(out_shape, out_dtype, gemm_loop(g, ai, bi));
}

// nn.matmul / nn.dense: a (..., M, K) (transpose_a: (..., K, M)), b (K, N) (transpose_b:
// (N, K)); out (..., M, N). Without transpose_a the leading dims fold into M.
Value matmul_impl(const KernelCall& call, bool ta, bool tb) {
  NDArray a = call.tensor(0), b = call.tensor(1);
  const Shape& as = a.shape();
  const Shape& bs = b.shape();
  require(call, b.ndim() == 2, "the weight must be 2-D, found shape " + shape_to_string(bs));
  require(call, a.ndim() >= (ta ? 2u : 1u), "input shape " + shape_to_string(as) + " has too low a rank");
  const size_t r = as.size();
  Gemm g;
  g.K = ta ? as[r - 2] : as[r - 1];
  g.N = tb ? bs[0] : bs[1];
  const int64_t kb = tb ? bs[1] : bs[0];
  require(call, g.K == kb,
          "the reduction dimensions differ: input shape " + shape_to_string(as) + ", weight shape " + shape_to_string(bs));
  Shape out_shape = as;
  if (ta) {
    out_shape[r - 2] = as[r - 1];
    g.M = as[r - 1];
    g.batch = 1;
    for (size_t d = 0; d + 2 < r; ++d) g.batch *= as[d];
    g.set_a(true);
  } else {
    g.M = 1;
    for (size_t d = 0; d + 1 < r; ++d) g.M *= as[d];
    g.set_a(false);
  }
  out_shape[r - 1] = g.N;
  g.set_b(tb);
  for (int64_t i = 0; i < g.batch; ++i) {
    g.a_off.push_back(i * g.M * g.K);
    g.b_off.push_back(0);
  }
  if (const AttrVal* units = call.attrs.get("units"); units && units->kind == AttrVal::Kind::Int)
    require(call, units->int_value == g.N, "`units` is " + std::to_string(units->int_value) + " but the weight has shape " + shape_to_string(bs));
  return call.finish(run_gemm(call, g, a, b, attr_out_dtype(call, a.dtype()), out_shape));
}

Value dense(const KernelCall& call) { return matmul_impl(call, false, true); }

Value matmul(const KernelCall& call) {
  return matmul_impl(call, call.attrs.get_bool("transpose_a"), call.attrs.get_bool("transpose_b"));
}

// x (bx, M, K) (transpose_a: (bx, K, M)), y (by, K, N) (transpose_b: (by, N, K)); a batch
// of 1 broadcasts against the other.
Value batch_matmul(const KernelCall& call) {
  NDArray x = call.tensor(0), y = call.tensor(1);
  const Shape& xs = x.shape();
  const Shape& ys = y.shape();
  require(call, x.ndim() == 3 && y.ndim() == 3,
          "both inputs must be 3-D, found shapes " + shape_to_string(xs) + " and " + shape_to_string(ys));
  const bool ta = call.attrs.get_bool("transpose_a"), tb = call.attrs.get_bool("transpose_b");
  Gemm g;
  g.M = ta ? xs[2] : xs[1];
  g.K = ta ? xs[1] : xs[2];
  g.N = tb ? ys[1] : ys[2];
  const int64_t ky = tb ? ys[2] : ys[1];
  require(call, g.K == ky,
          "the reduction dimensions differ: shapes " + shape_to_string(xs) + " and " + shape_to_string(ys));
  const int64_t bx = xs[0], by = ys[0];
  require(call, bx == by || bx == 1 || by == 1,
          "the batch dimensions " + std::to_string(bx) + " and " + std::to_string(by) + " do not broadcast (shapes " +
              shape_to_string(xs) + " and " + shape_to_string(ys) + ")");
  g.batch = bx == 1 ? by : bx;
  g.set_a(ta);
  g.set_b(tb);
  for (int64_t i = 0; i < g.batch; ++i) {
    g.a_off.push_back(bx == 1 ? 0 : i * g.M * g.K);
    g.b_off.push_back(by == 1 ? 0 : i * g.K * g.N);
  }
  return call.finish(run_gemm(call, g, x, y, attr_out_dtype(call, x.dtype()), {g.batch, g.M, g.N}));
}

// data (M, K); weight packed as (N / t, K, t) or, for int8 VNNI-style packing,
// (N / t, K / u, t, u). Unpacked to a plain (N, K) weight, then a dense product.
Value dense_pack(const KernelCall& call) {
  NDArray data = call.tensor(0), w = call.tensor(1);
  const Shape& ws = w.shape();
  require(call, data.ndim() == 2, "data must be 2-D, found shape " + shape_to_string(data.shape()));
  require(call, w.ndim() == 3 || w.ndim() == 4, "the packed weight must be 3-D or 4-D, found shape " + shape_to_string(ws));
  const int64_t tile = ws[2], N = ws[0] * tile;
  const int64_t K = w.ndim() == 3 ? ws[1] : ws[1] * ws[3];
  require(call, data.dim(1) == K,
          "data shape " + shape_to_string(data.shape()) + " does not match the packed weight shape " + shape_to_string(ws));
  NDArray plain = NDArray::empty({N, K}, w.dtype());
  const size_t bytes = dtype_bytes(w.dtype());
  const auto* src = static_cast<const unsigned char*>(w.raw());
  auto* dst = static_cast<unsigned char*>(plain.raw());
  const int64_t inner = w.ndim() == 4 ? ws[3] : 1;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k) {
      // 3-D: (n / t, k, n % t); 4-D: (n / t, k / u, n % t, k % u)
      const int64_t at = w.ndim() == 3 ? ((n / tile) * K + k) * tile + n % tile
                                       : (((n / tile) * ws[1] + k / inner) * tile + n % tile) * inner + k % inner;
      std::memcpy(dst + (n * K + k) * bytes, src + at * bytes, bytes);
    }
  Gemm g;
  g.M = data.dim(0);
  g.N = N;
  g.K = K;
  g.set_a(false);
  g.set_b(true);
  g.a_off = {0};
  g.b_off = {0};
  return call.finish(run_gemm(call, g, data, plain, attr_out_dtype(call, data.dtype()), {g.M, N}));
}

}  // namespace

void register_nn_dense_kernels(KernelTable& table) {
  register_destination_kernel(table, "nn.dense", dense);
  register_destination_kernel(table, "nn.matmul", matmul);
  register_destination_kernel(table, "nn.batch_matmul", batch_matmul);
  register_destination_kernel(table, "nn.contrib_dense_pack", dense_pack);
}

}  // namespace relay::rt
