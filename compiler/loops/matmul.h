// A float32 matrix product out[b, m, n] = sum over k of a[b, m, k] * b[b, n, k] (nn.dense's
// data x weight^T, nn.batch_matmul with transpose_b; a batch of 1 broadcasts) in the GPU
// loop shape, register-tiled: one parallel iteration (a thread on the GPU) per tile of
// tile_m x tile_n outputs, consecutive threads along n. Each step of k loads tile_m values
// of a and tile_n of b for tile_m x tile_n multiply-adds into accumulators that stay in
// registers. Every output folds over k in order from 0, as a thread per output did, one
// fused multiply-add a step (MathFn::Fma). Large products stage slices of a and b in
// shared memory instead (block tiles, lower_block_matmul). No matrix units.
//
// A product of too few outputs to fill a GPU (a batch-1 dense layer: a few thousand
// outputs, each a long fold) splits k over the 32 lanes of a warp instead (`lanes`): lane
// l folds k = l, l + 32, ... in order, so the warp's loads of a row are consecutive
// (coalesced), and a LaneReduce adds the 32 partial sums in its tree order (ir.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/loops/block_gemm.h"
#include "compiler/loops/ir.h"

namespace relay::loops {

struct MatmulProgram {
  int64_t batch = 1;                 // the output's batch
  int64_t a_batch = 1, b_batch = 1;  // each 1 (broadcast) or `batch`
  int64_t m = 1, n = 1, k = 1;       // a [a_batch, m, k], b [b_batch, n, k], out [batch, m, n]
  // a, b and out: float32, or float16/bfloat16 (storage: products and sums in float32,
  // the output rounded once, as the reference rounds its double sum once)
  DataType dtype = DataType::float_(32);
};
// Whether the products lower over `t` (float32, float16, bfloat16).
bool matmul_supports(DataType t);
// Its floating-point operations, 2 per multiply-add (for rates in reports and benchmarks).
inline double flops(const MatmulProgram& p) {
  return 2.0 * static_cast<double>(p.batch * p.m * p.n) * static_cast<double>(p.k);
}

struct MatmulTile {
  int64_t m = 1, n = 1;
  bool lanes = false;  // a warp per tile, k split over its lanes
  bool block = false;  // a block of threads per kBlockTile x kBlockTile outputs, through
                       // shared memory (lower_block_matmul; m and n are ignored)
  bool tensor_cores = false;  // float16/bfloat16: the same blocks, their products on the
                              // tensor cores (lower_mma_matmul)
  bool fat = false;           // block tiles of 8 x 8 outputs a thread, 64 threads a block
                              // (kBlockFatMinTiles), instead of 4 x 4 and 256
  bool wide = false;          // block tiles of 128 x 128 outputs, 8 x 8 a thread, 256
                              // threads (block too; kWideBlockTile divides m and n)
  bool prefetch = false;      // block tiles that read the next slice ahead (BlockGemm::prefetch)
  bool small = false;         // block tiles of 32 x 32 outputs, 4 x 4 a thread (block too)
  int64_t splits = 1;         // block tiles: k split in this many parts (BlockGemm::splits)
  bool operator==(const MatmulTile&) const = default;
  GemmTileKind kind() const { return {m, n, lanes, block, tensor_cores, fat, wide, prefetch, small, splits}; }
};

// Products of at least this many outputs whose m and n are multiples of kBlockTile take
// block tiles.
inline constexpr int64_t kBlockMinOutputs = int64_t{1} << 19;
// Tiles (threads) below which a product gives up tile size for parallelism: a few per
// multiprocessor's worth of resident threads on a large GPU (132 SMs x 2048).
inline constexpr int64_t kEnoughTiles = 32768;
// Products at least this deep split k over a warp when a thread per output would not
// fill the GPU (below kEnoughTiles outputs).
inline constexpr int64_t kLanesMinDepth = 64;
// float16/bfloat16 products whose m and n block tiles divide: tensor cores; block
// tiles for large products that they divide (8 x 8 a thread from kBlockFatMinTiles tiles); else the largest of 4 x 4, then
// smaller tiles dividing m and n, that still leaves enough tiles (threads) to fill a GPU;
// a thread per output for small shallow products, a warp per output for small deep ones.
// `tensor_cores`: as conv2d_tile's.
MatmulTile matmul_tile(const MatmulProgram& p, bool tensor_cores = true);
// Every tile worth timing for `p`, the rule's (matmul_tile) first, each once and each one
// lower_tiled_matmul takes: the register tiles 1 x 1, 2 x 2 and 4 x 4 that divide the
// product, a warp per 1 x 1 or 1 x 4 tile below 2^20 outputs at least kWarpLanes deep,
// and the block tiles (4 x 4 and 8 x 8 a thread, and for float16/bfloat16 the tensor
// cores) where kBlockTile divides m and n, the wide ones where kWideBlockTile does
// (conv2d_tiles' counterpart), and each block tile on the float32 units again reading ahead;
// the small ones where small_blocks_help and 32 divides m and n; the 64 x 64 and 32 x 32
// ones with k split (plain and reading ahead), and the tensor cores' with k split, where
// split_k_parts splits.
std::vector<MatmulTile> matmul_tiles(const MatmulProgram& p, bool tensor_cores = true);
// The tile in words, for reports: "tensor cores", "64 x 64 blocks, 8 x 8 a thread",
// "a warp per output", "4 x 4 outputs a thread", ...; and as a label (gemm_tile_label).
std::string tile_words(const MatmulTile& t);
std::string tile_label(const MatmulTile& t);

// Buffers [a, b, out] (dense-shaped: a [a_batch * m, k], b [b_batch * n, k], out
// [batch * m, n], contiguous, of p.dtype); output_buffer 2, no status. An error when the
// tile does not divide the product or the dtype is not supported.
LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name);
LoweredKernel lower_tiled_matmul(const MatmulProgram& p, std::string name, MatmulTile tile);

// The block-tiled product (tile.block, block_gemm.h): per block of kBlockTile x kBlockTile
// outputs, its threads copy each kBlockDepth-deep slice of a's rows and b's rows into
// shared memory (four consecutive k a thread: vector loads), then each folds its 4 x 4
// outputs over the slice. Every output still folds k in order from 0, one fused
// multiply-add a step, so the bits are a thread per output's (a last partial slice of k
// adds zero products). An error unless the block's side divides m and n. From `tile`:
// `fat`, 8 x 8 outputs a thread; `wide`, blocks of kWideBlockTile x kWideBlockTile, 8 x 8
// a thread (fat is then implied); `prefetch`, each slice read ahead.
LoweredKernel lower_block_matmul(const MatmulProgram& p, std::string name, const MatmulTile& tile = {.block = true});

// The tensor cores' product (tile.tensor_cores; float16/bfloat16, sm_80 and later):
// append_mma_gemm (block_gemm.h) over the rows of a and of b, each output rounded once
// to the dtype. Sums in an order the hardware chooses. An error unless kBlockTile divides
// m and n (a last partial kMmaDepth slice of k is padded with zeros).
LoweredKernel lower_mma_matmul(const MatmulProgram& p, std::string name);

}  // namespace relay::loops
