// A float32 matrix product out[b, m, n] = sum over k of a[b, m, k] * b[b, n, k] (nn.dense's
// data x weight^T, nn.batch_matmul with transpose_b; a batch of 1 broadcasts) in the GPU
// loop shape, register-tiled: one parallel iteration (a thread on the GPU) per tile of
// tile_m x tile_n outputs, consecutive threads along n. Each step of k loads tile_m values
// of a and tile_n of b for tile_m x tile_n multiply-adds into accumulators that stay in
// registers. Every output folds over k in order from 0, as a thread per output did. No
// shared memory and no matrix units: a fraction of the chip's rate (docs/compiler.md).
#pragma once

#include <cstdint>
#include <string>

#include "compiler/loops/ir.h"

namespace relay::loops {

struct MatmulProgram {
  int64_t batch = 1;                 // the output's batch
  int64_t a_batch = 1, b_batch = 1;  // each 1 (broadcast) or `batch`
  int64_t m = 1, n = 1, k = 1;       // a [a_batch, m, k], b [b_batch, n, k], out [batch, m, n]
};

struct MatmulTile {
  int64_t m = 1, n = 1;
};
// The largest of 4 x 4, then smaller tiles dividing m and n, that still leaves enough
// tiles (threads) to fill a GPU; a thread per output for small products.
MatmulTile matmul_tile(const MatmulProgram& p);

// Buffers [a, b, out] (dense-shaped: a [a_batch * m, k], b [b_batch * n, k], out
// [batch * m, n], contiguous); output_buffer 2, no status. An error when the tile does not
// divide the product.
LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name);
LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name, MatmulTile tile);

}  // namespace relay::loops
