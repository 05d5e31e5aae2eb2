// The block-tiled matrix product (matmul.h, lower_block_matmul): block_gemm.h over the
// rows of a and of b, k innermost in both.
#include "compiler/loops/index_math.h"
#include "compiler/loops/matmul.h"
#include "compiler/loops/matmul_internal.h"

namespace relay::loops {

LoweredKernel lower_block_matmul(const MatmulProgram& p, std::string name) {
  LoweredKernel r;
  const int64_t B = p.batch, M = p.m, N = p.n, K = p.k;
  if (M % kBlockTile != 0 || N % kBlockTile != 0 || K < 1) {
    r.error = "a block tile that does not divide the matrix product";
    return r;
  }
  const std::optional<MatmulBuffers> buffers = begin_matmul_kernel(p, std::move(name), r);
  if (!buffers) return r;
  Kernel& kn = r.kernel;
  const DataType t = p.dtype;
  const int a = buffers->a, b = buffers->b, out = buffers->out;

  BlockGemm g;
  g.rows = M, g.cols = N, g.depth = K, g.batches = B;
  // a batch of 1 is broadcast: every batch reads it
  auto row_reader = [&](int buffer, int64_t batch_stride) {
    return [=](Kernel& k, Block&, const Expr& batch, const Expr& row, const Expr& k_index) {
      return GemmElement{cast(f32(), load(k.buffer(buffer), index_sum({index_scale(batch, batch_stride),
                                                                         index_scale(row, K), k_index}))),
                         nullptr};
    };
  };
  g.a = row_reader(a, p.a_batch > 1 ? M * K : 0);
  g.b = row_reader(b, p.b_batch > 1 ? N * K : 0);
  g.out = [=](Kernel& k, Block& at, const Expr& batch, const Expr& row, const Expr& col, const Expr& value) {
    at.push_back(store(k.buffer(out), index_sum({index_scale(batch, M * N), index_scale(row, N), col}), cast(t, value)));
  };
  r.error = append_block_gemm(kn, g);
  return r;
}

}  // namespace relay::loops
