// The matrix product's shared-memory block tiles (matmul.h, lower_block_matmul and
// lower_mma_matmul): block_gemm.h over the rows of a and of b, k innermost in both.
#include "compiler/loops/index_math.h"
#include "compiler/loops/matmul.h"
#include "compiler/loops/matmul_internal.h"

namespace relay::loops {

namespace {

// The product as a BlockGemm over `p`'s buffers (begin_matmul_kernel's).
BlockGemm product_gemm(const MatmulProgram& p, const MatmulBuffers& buffers) {
  const int64_t M = p.m, N = p.n, K = p.k;
  const DataType t = p.dtype;
  BlockGemm g;
  g.rows = M, g.cols = N, g.depth = K, g.batches = p.batch;
  // a batch of 1 is broadcast: every batch reads it
  auto row_reader = [K](int buffer, int64_t batch_stride) {
    return [=](Kernel& k, Block&, const Expr& batch, const Expr& row, const Expr& k_index) {
      return GemmElement{load(k.buffer(buffer), index_sum({index_scale(batch, batch_stride), index_scale(row, K), k_index})),
                         nullptr};
    };
  };
  g.a = row_reader(buffers.a, p.a_batch > 1 ? M * K : 0);
  g.b = row_reader(buffers.b, p.b_batch > 1 ? N * K : 0);
  const int out = buffers.out;
  g.out = [=](Kernel& k, Block& at, const Expr& batch, const Expr& row, const Expr& col, const Expr& value) {
    at.push_back(store(k.buffer(out), index_sum({index_scale(batch, M * N), index_scale(row, N), col}), cast(t, value)));
  };
  return g;
}

}  // namespace

LoweredKernel lower_block_tile(const MatmulProgram& p, std::string name, const MatmulTile& tile) {
  const bool tensor_cores = tile.tensor_cores;
  LoweredKernel r;
  const int64_t side = tile.kind().block_side();
  if (p.m % side != 0 || p.n % side != 0 || p.k < 1) {
    r.error = tensor_cores ? "a tensor-core block that does not divide the matrix product"
                           : "a block tile that does not divide the matrix product";
    return r;
  }
  if (tensor_cores && !is_storage_only(p.dtype)) {
    r.error = "tensor cores for a product of " + dtype_name(p.dtype) + " (float16 and bfloat16 are)";
    return r;
  }
  const std::optional<MatmulBuffers> buffers = begin_matmul_kernel(p, std::move(name), r);
  if (!buffers) return r;
  BlockGemm g = product_gemm(p, *buffers);
  r.error = shape_blocks(g, tile.kind());
  if (r.error.empty()) r.error = tensor_cores ? append_mma_gemm(r.kernel, g, p.dtype) : append_block_gemm(r.kernel, g);
  return r;
}

LoweredKernel lower_block_matmul(const MatmulProgram& p, std::string name, const MatmulTile& tile) {
  MatmulTile blocks = tile;
  blocks.tensor_cores = false;
  return lower_block_tile(p, std::move(name), blocks);
}

LoweredKernel lower_mma_matmul(const MatmulProgram& p, std::string name) {
  return lower_block_tile(p, std::move(name), {.tensor_cores = true});
}

}  // namespace relay::loops
