// Sparse operators on CSR (data 1-D) and BSR (data (blocks, rows, cols)) matrices:
// nn.sparse_dense, nn.internal.sparse_dense_padded, nn.sparse_add, nn.sparse_transpose,
// nn.sparse_conv2d.
#include <cstring>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// Validated CSR/BSR structure: row r's entries are indptr[r] .. indptr[r + 1].
struct Compressed {
  std::vector<int64_t> indices, indptr;
  int64_t rows = 0, block_rows = 1, block_cols = 1;
};

Compressed read_compressed(const KernelCall& call, const NDArray& data, const NDArray& indices, const NDArray& indptr,
                           int64_t columns) {
  Compressed s{to_int64s(indices), to_int64s(indptr)};
  require(call, indptr.ndim() == 1 && indptr.dim(0) >= 1 && indices.ndim() == 1,
          "indices and indptr must be 1-D with indptr non-empty, found " + shape_to_string(indices.shape()) + " and " +
              shape_to_string(indptr.shape()));
  require(call, data.ndim() == 1 || data.ndim() == 3, "sparse data must be 1-D (CSR) or 3-D (BSR), found " +
                                                          shape_to_string(data.shape()));
  s.rows = indptr.dim(0) - 1;
  if (data.ndim() == 3) s.block_rows = data.dim(1), s.block_cols = data.dim(2);
  const int64_t nnz = data.dim(0);
  for (int64_t r = 0; r < s.rows; ++r) {
    const int64_t lo = s.indptr[r], hi = s.indptr[r + 1];
    require(call, 0 <= lo && lo <= hi && hi <= nnz && hi <= indices.dim(0),
            "indptr[" + std::to_string(r) + "..] = " + std::to_string(lo) + ", " + std::to_string(hi) +
                " is not a valid range of the " + std::to_string(nnz) + " sparse entries");
    for (int64_t j = lo; j < hi; ++j)
      require(call, s.indices[j] >= 0 && (s.indices[j] + 1) * s.block_cols <= columns,
              "column index " + std::to_string(s.indices[j]) + " (entry " + std::to_string(j) + ") is out of range for " +
                  std::to_string(columns) + " columns");
  }
  return s;
}

// dense (M, K) times the transposed sparse (R, K) matrix: out (M, R); with sparse_lhs
// the same products laid out as (R, M).
Value sparse_dense(const KernelCall& call) {
  NDArray dense = call.tensor(0), data = call.tensor(1);
  require(call, dense.ndim() == 2, "the dense input must be 2-D, found " + shape_to_string(dense.shape()));
  const int64_t M = dense.dim(0), K = dense.dim(1);
  const Compressed s = read_compressed(call, data, call.tensor(2), call.tensor(3), K);
  const int64_t R = s.rows * s.block_rows;
  const bool lhs = call.attrs.get_bool("sparse_lhs");
  const std::vector<double> x = to_doubles(dense), v = to_doubles(data);
  std::vector<double> out(static_cast<size_t>(M * R), 0.0);
  const int64_t br = s.block_rows, bc = s.block_cols;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t j = s.indptr[r]; j < s.indptr[r + 1]; ++j)
        for (int64_t i = 0; i < br; ++i) {
          double acc = 0;
          for (int64_t c = 0; c < bc; ++c)
            acc += v[static_cast<size_t>((j * br + i) * bc + c)] * x[static_cast<size_t>(m * K + s.indices[j] * bc + c)];
          const int64_t row = r * br + i;
          out[static_cast<size_t>(lhs ? row * M + m : m * R + row)] += acc;
        }
  return from_doubles(lhs ? Shape{R, M} : Shape{M, R}, dense.dtype(), out);
}

// dense (R, K) plus a CSR matrix of the same shape: duplicates accumulate.
Value sparse_add(const KernelCall& call) {
  NDArray dense = call.tensor(0), data = call.tensor(1);
  require(call, dense.ndim() == 2 && data.ndim() == 1 && dense.dtype() == data.dtype(),
          "needs a 2-D dense input and 1-D CSR data of its dtype, found " + shape_to_string(dense.shape()) + " and " +
              shape_to_string(data.shape()));
  const Compressed s = read_compressed(call, data, call.tensor(2), call.tensor(3), dense.dim(1));
  require(call, s.rows <= dense.dim(0), "the sparse matrix has more rows than the dense input");
  const int64_t K = dense.dim(1);
  if (dense.dtype().is_float()) {
    std::vector<double> out = to_doubles(dense);
    const std::vector<double> v = to_doubles(data);
    for (int64_t r = 0; r < s.rows; ++r)
      for (int64_t j = s.indptr[r]; j < s.indptr[r + 1]; ++j) out[static_cast<size_t>(r * K + s.indices[j])] += v[j];
    return from_doubles(dense.shape(), dense.dtype(), out);
  }
  std::vector<int64_t> out = to_int64s(dense);
  const std::vector<int64_t> v = to_int64s(data);
  for (int64_t r = 0; r < s.rows; ++r)
    for (int64_t j = s.indptr[r]; j < s.indptr[r + 1]; ++j) {
      int64_t& o = out[static_cast<size_t>(r * K + s.indices[j])];
      o = static_cast<int64_t>(static_cast<uint64_t>(o) + static_cast<uint64_t>(v[j]));
    }
  return from_int64s(dense.shape(), dense.dtype(), out);
}

// The transpose of a square CSR matrix (TOPI keeps the three shapes): entries of each
// output row in increasing original row.
Value sparse_transpose(const KernelCall& call) {
  NDArray data = call.tensor(0), indices = call.tensor(1), indptr = call.tensor(2);
  require(call, data.ndim() == 1, "sparse data must be 1-D (CSR), found " + shape_to_string(data.shape()));
  const int64_t n = indptr.ndim() == 1 ? indptr.dim(0) - 1 : 0;
  const Compressed s = read_compressed(call, data, indices, indptr, n);
  const int64_t nnz = data.dim(0);
  std::vector<int64_t> count(static_cast<size_t>(n + 1), 0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = s.indptr[r]; j < s.indptr[r + 1]; ++j) ++count[s.indices[j] + 1];
  for (int64_t c = 0; c < n; ++c) count[c + 1] += count[c];
  std::vector<int64_t> out_ptr = count, out_idx(static_cast<size_t>(indices.dim(0)), 0), src(static_cast<size_t>(nnz), -1);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = s.indptr[r]; j < s.indptr[r + 1]; ++j) {
      const int64_t at = count[s.indices[j]]++;
      out_idx[at] = r;
      src[at] = j;
    }
  NDArray out_data = NDArray::zeros(data.shape(), data.dtype());
  const size_t bytes = dtype_bytes(data.dtype());
  for (int64_t i = 0; i < nnz; ++i)
    if (src[i] >= 0)
      std::memcpy(static_cast<char*>(out_data.raw()) + i * bytes, static_cast<const char*>(data.raw()) + src[i] * bytes,
                  bytes);
  return make_tuple({out_data, from_int64s(indices.shape(), indices.dtype(), out_idx),
                     from_int64s(indptr.shape(), indptr.dtype(), out_ptr)});
}

}  // namespace

// nn.sparse_conv2d (TOPI's spconv2d_1x1 / spconv2d_3x3): a convolution whose weight is a
// sparse (out_channels, kernel_h * kernel_w * in_channels) matrix, columns ordered
// (kh, kw, c) as TOPI's im2col lays them out; "same" padding for k x k kernels. Weight
// data is BSR (blocks, bs_r, bs_c), or 2-D (nnz, bs_r) with one column per block, as the
// type relation reads it. NCHW supports 1 x 1 kernels only, as TOPI does.
Value sparse_conv2d(const KernelCall& call) {
  NDArray data = call.tensor(0), wdata = call.tensor(1);
  require(call, data.ndim() == 4, "the data must be 4-D, found " + shape_to_string(data.shape()));
  require(call, wdata.ndim() == 2 || wdata.ndim() == 3,
          "the sparse weight data must be 2-D or 3-D (BSR), found " + shape_to_string(wdata.shape()));
  const std::string layout = call.attrs.get_string("layout");
  const std::vector<int64_t> ks = call.attrs.get_ints("kernel_size");
  const int64_t kh = ks.size() > 0 ? ks[0] : 1, kw = ks.size() > 1 ? ks[1] : kh;
  require(call, layout == "NHWC" || layout == "NCHW", "layout must be \"NHWC\" or \"NCHW\", found \"" + layout + "\"");
  require(call, kh == kw && kh % 2 == 1 && kh >= 1, "kernel_size must be square and odd, found [" +
                                                        std::to_string(kh) + ", " + std::to_string(kw) + "]");
  require(call, layout == "NHWC" || kh == 1, "NCHW sparse convolution supports only kernel_size [1, 1]");
  const bool nhwc = layout == "NHWC";
  const int64_t N = data.dim(0), C = data.dim(nhwc ? 3 : 1), H = data.dim(nhwc ? 1 : 2), W = data.dim(nhwc ? 2 : 3);
  // View 2-D weights as BSR blocks of one column.
  NDArray blocks = wdata.ndim() == 3 ? wdata : wdata.reshaped({wdata.dim(0), wdata.dim(1), 1});
  const int64_t K = kh * kw * C;
  const Compressed s = read_compressed(call, blocks, call.tensor(2), call.tensor(3), K);
  const int64_t br = s.block_rows, bc = s.block_cols, R = s.rows * br;
  const std::vector<double> x = to_doubles(data), v = to_doubles(blocks);
  const int64_t pad = kh / 2;
  // Element (n, y, x, c) of the input, zero outside it.
  auto at = [&](int64_t n, int64_t y, int64_t xx, int64_t c) -> double {
    if (y < 0 || y >= H || xx < 0 || xx >= W) return 0.0;
    const int64_t i = nhwc ? ((n * H + y) * W + xx) * C + c : ((n * C + c) * H + y) * W + xx;
    return x[static_cast<size_t>(i)];
  };
  std::vector<double> out(static_cast<size_t>(N * H * W * R), 0.0);
  std::vector<double> col(static_cast<size_t>(K));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t y = 0; y < H; ++y)
      for (int64_t xx = 0; xx < W; ++xx) {
        for (int64_t a = 0; a < kh; ++a)
          for (int64_t b = 0; b < kw; ++b)
            for (int64_t c = 0; c < C; ++c) col[static_cast<size_t>((a * kw + b) * C + c)] = at(n, y + a - pad, xx + b - pad, c);
        for (int64_t r = 0; r < s.rows; ++r)
          for (int64_t j = s.indptr[r]; j < s.indptr[r + 1]; ++j)
            for (int64_t i = 0; i < br; ++i) {
              double acc = 0;
              for (int64_t c = 0; c < bc; ++c)
                acc += v[static_cast<size_t>((j * br + i) * bc + c)] * col[static_cast<size_t>(s.indices[j] * bc + c)];
              const int64_t o = r * br + i;
              const int64_t idx = nhwc ? ((n * H + y) * W + xx) * R + o : ((n * R + o) * H + y) * W + xx;
              out[static_cast<size_t>(idx)] += acc;
            }
      }
  return from_doubles(nhwc ? Shape{N, H, W, R} : Shape{N, R, H, W}, data.dtype(), out);
}

void register_nn_sparse_kernels(KernelTable& table) {
  register_kernel(table, "nn.sparse_dense", sparse_dense);
  // The padded variant differs only in how TVM pads BSR rows for GPUs.
  register_kernel(table, "nn.internal.sparse_dense_padded", sparse_dense);
  register_kernel(table, "nn.sparse_add", sparse_add);
  register_kernel(table, "nn.sparse_transpose", sparse_transpose);
  register_kernel(table, "nn.sparse_conv2d", sparse_conv2d);
}

}  // namespace relay::rt
