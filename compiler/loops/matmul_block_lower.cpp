// The matrix product's shared-memory block tiles (matmul.h, lower_block_matmul and
// lower_mma_matmul): block_gemm.h over the rows of a and of b, k innermost in both.
#include "compiler/loops/index_math.h"
#include "compiler/loops/matmul.h"
#include "compiler/loops/matmul_internal.h"

namespace relay::loops {

namespace {

// Stores output (batch, row, col) of `p` into buffer `out` (the product's layout).
auto store_product_to(const MatmulProgram& p, int out) {
  const int64_t M = p.m, N = p.n;
  const DataType t = p.dtype;
  return [=](Kernel& k, Block& at, const Expr& batch, const Expr& row, const Expr& col, const Expr& value) {
    at.push_back(store(k.buffer(out), index_sum({index_scale(batch, M * N), index_scale(row, N), col}), cast(t, value)));
  };
}

// The product as a BlockGemm over `p`'s buffers (begin_matmul_kernel's).
BlockGemm product_gemm(const MatmulProgram& p, const MatmulBuffers& buffers) {
  const int64_t M = p.m, N = p.n, K = p.k;
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
  g.out = store_product_to(p, buffers.out);
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
  // split in parts of k: the first kernel's output is the parts' sums, the finish's the output
  const int64_t partials = tile.splits > 1 ? tile.splits * p.batch * p.m * p.n : 0;
  const std::optional<MatmulBuffers> buffers = begin_matmul_kernel(p, std::move(name), r, partials);
  if (!buffers) return r;
  BlockGemm g = product_gemm(p, *buffers);
  r.error = shape_blocks(g, tile.kind());
  if (partials > 0) g.partials = buffers->out;
  if (r.error.empty()) r.error = tensor_cores ? append_mma_gemm(r.kernel, g, p.dtype) : append_block_gemm(r.kernel, g);
  if (partials > 0 && r.error.empty()) {
    g.out = store_product_to(p, 1);
    r.finish = lower_split_finish(g, r.kernel.name + "_finish", p.dtype, {p.batch * p.m, p.n}, {p.n, 1}).kernel;
  }
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
