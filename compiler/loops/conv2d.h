// nn.conv2d (NCHW data, OIHW weights, any groups, strides, dilation and padding; float32,
// float16 or bfloat16: products and sums in float32, each output rounded once, as the
// reference accumulates them) as a direct convolution in the GPU loop shape, register-tiled: one parallel iteration (a
// thread on the GPU) per tile of `tile_channels` output channels x `tile_width` adjacent
// output columns, consecutive threads along the output's rows. Each tap of the window
// loads `tile_width` inputs and `tile_channels` weights for tile_channels x tile_width
// multiply-adds into accumulators that stay in registers (a local array indexed by
// constants), so a thread does several times the arithmetic per load of a thread per
// output. Every output still folds its C/groups x KH x KW window serially (channel, row,
// column), taps in the padding skipped, as the untiled kernel did (with `lanes`, each
// lane its share of the channels, then the lanes' tree: conv2d_tile). Untiled in shared
// memory, without matrix units: a fraction of the chip's rate (docs/compiler.md, "GPU").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/loops/block_gemm.h"
#include "compiler/loops/ir.h"

namespace relay::loops {

struct Conv2dProgram {
  int64_t batch = 1, channels = 1, height = 1, width = 1;  // data [N, C, H, W]
  int64_t out_channels = 1, kernel_h = 1, kernel_w = 1;    // weight [O, C / groups, KH, KW]
  int64_t out_h = 1, out_w = 1;                            // output [N, O, OH, OW]
  int64_t groups = 1;
  std::array<int64_t, 2> strides{1, 1}, dilation{1, 1};
  std::array<int64_t, 2> pad_begin{0, 0};  // top, left (the bottom/right padding only shapes OH, OW)
  DataType dtype = DataType::float_(32);   // data, weight and output (folds_in_float32)
};

// Its floating-point operations, 2 per multiply-add (for rates in reports and benchmarks).
inline double flops(const Conv2dProgram& p) {
  return 2.0 * static_cast<double>(p.batch * p.out_channels * p.out_h * p.out_w) *
         static_cast<double>(p.channels / p.groups * p.kernel_h * p.kernel_w);
}

// The tile a lowering picks: for float16/bfloat16, tensor cores wherever block tiles fit
// (any size: they do 16 times the float32 units' work a cycle; not yet timed on a GPU);
// otherwise a thread per output for a convolution of fewer than
// kConvTiledOutputs outputs (or a warp per output, below); above, the block-tiled product
// where it fits (block_conv2d_fits), else the largest of 4, 2, 1 output channels that
// divides a group's channels by the widest tile up to 7 columns that divides the output's
// width. Measured on an H200 over ResNet-18's and MobileNet's convolutions (tests/gpu/
// README.md, the tile benchmarks): at batch 1 (25k to 200k outputs) a thread per output
// was the fastest of the register tiles tried, by up to 3x; at batch 32 (0.8M to 6.4M
// outputs) 4 x 7 was the fastest of them (1.3x to 3x faster than a thread per output,
// ahead of 4 x 4 and 4 x 8), 21 TFLOP/s on ResNet's first stage. The block tiles and the
// warps came after that run: the tile benchmarks time them beside the register tiles.
inline constexpr int64_t kConvTiledOutputs = int64_t{1} << 19;
// Below this many outputs a convolution whose window holds at least kConvLanesMinWindow
// terms over at least 2 x 32 input channels runs a warp per output instead (`lanes`):
// lane l folds the channels c = l, l + 32, ... of the window (each over its rows and
// columns, in order), and a LaneReduce adds the 32 partial sums. ResNet-18's last stages
// at batch 1 have 25k to 100k outputs of 1152 to 4608 terms: a thread each leaves most
// of an H200's 270k thread slots empty. (Not yet measured on a GPU: the tile benchmarks
// time both.)
inline constexpr int64_t kConvLanesOutputs = int64_t{1} << 17;
inline constexpr int64_t kConvLanesMinWindow = 256;
struct Conv2dTile {
  int64_t channels = 1, width = 1;
  bool lanes = false;  // a warp per tile, the channels split over its lanes
  bool block = false;  // an implicit product through shared memory (lower_block_conv2d;
                       // channels and width are ignored)
  bool tensor_cores = false;  // float16/bfloat16: the same blocks, their products on the
                              // tensor cores (channels and width are ignored)
  bool fat = false;           // block tiles of 8 x 8 outputs a thread (kBlockFatMinTiles)
  bool wide = false;          // block tiles of 128 x 128 outputs, 8 x 8 a thread (block too)
  bool prefetch = false;      // block tiles that read the next slice ahead (BlockGemm::prefetch)
  bool small = false;         // block tiles of 32 x 32 outputs, 4 x 4 a thread (block too)
  int64_t splits = 1;         // block tiles: k split in this many parts (BlockGemm::splits)
  bool winograd = false;      // Winograd's F(2 x 2, 3 x 3) (lower_winograd_conv2d, with
                              // `splits`; the other fields are ignored)
  bool operator==(const Conv2dTile&) const = default;
  // in the block product's terms: m x n is output channels x columns
  GemmTileKind kind() const {
    return {channels, width, lanes, block, tensor_cores, fat, wide, prefetch, small, splits};
  }
};
// `tensor_cores`: whether the target's tensor cores take p.dtype (gpu::tensor_cores_take);
// without them no tile of this rule or list uses them.
Conv2dTile conv2d_tile(const Conv2dProgram& p, bool tensor_cores = true);
// Every tile worth timing for `p`, the rule's (conv2d_tile) first, each once and each one
// lower_direct_conv2d takes: the register tiles 1 x 1, 2 x 2, 4 x 4, 4 x 7 and 4 x 8 that
// divide the output, a warp per 1 x 1 or 2 x 2 tile below kConvTiledOutputs outputs (with
// a group's channels to spread over the lanes), and the block tiles (4 x 4 and 8 x 8 a
// thread, and for float16/bfloat16 the tensor cores) where block_conv2d_fits, the wide
// ones (128 x 128) where output channels are a multiple of 128 too, and each block tile
// on the float32 units again reading ahead (BlockGemm::prefetch), and the small ones (32 x
// 32, plain and reading ahead) where small_blocks_help and 32 divides output channels,
// and the 64 x 64 and 32 x 32 ones with k split (plain and reading ahead), and the
// tensor cores' with k split, where split_k_parts splits, and Winograd's where
// winograd_conv2d_fits (and with its channels split, where winograd_split_parts splits).
// What a measured choice picks
// from (compiler/pipeline/tile_tuner.h) and the tile benchmarks time.
std::vector<Conv2dTile> conv2d_tiles(const Conv2dProgram& p, bool tensor_cores = true);
// The tile in words, for reports (as matmul.h's; a register tile is output channels x
// columns), and as a label (gemm_tile_label; Winograd's: "wino", split "winos<N>").
std::string tile_words(const Conv2dTile& t);
std::string tile_label(const Conv2dTile& t);

// Buffers [data, weight, out]; output_buffer 2, no status. An error (in `error`) when the
// program's extents disagree (channels not divisible by groups, an empty window). `tile`:
// the register tile (conv2d_tile(p) when not given; {1, 1} is a thread per output).
LoweredKernel lower_direct_conv2d(const Conv2dProgram& p, std::string name);
LoweredKernel lower_direct_conv2d(const Conv2dProgram& p, std::string name, Conv2dTile tile);

// A convolution seen as a product (block_gemm.h: rows the output channels, columns the
// positions, image-major) stores output (row, col) at NCHW's (col / (OH x OW), row,
// col % (OH x OW)) of buffer `out`, cast to the convolution's dtype: the block tiles'
// and Winograd's outputs, and their split finishes' (buffer 1).
GemmWriter conv_output_store(const Conv2dProgram& p, int out);

// The convolution as a block-tiled product (block_gemm.h): output channels by output
// positions (image, row, column), over the window's C x KH x KW terms in the direct
// convolution's order (channel, row, column); weights are read as rows (vector loads),
// inputs as the window's taps at consecutive positions, a tap in the padding a zero. For
// finite weights the bits are the direct convolution's (a zero tap adds +-0 to a sum that
// is never -0). Needs one group and output channels a multiple of kBlockTile
// (block_conv2d_fits); an error otherwise. `tile`: with tensor_cores (float16/bfloat16
// only) the same product runs on them (append_mma_gemm: sums in the hardware's order);
// with fat, 8 x 8 outputs a thread; with wide, blocks of 128 x 128 outputs (output
// channels a multiple of 128), 8 x 8 a thread; with prefetch, each slice read ahead.
// `side`: the block's (kBlockTile, or kSmallBlockTile for the small tiles).
bool block_conv2d_fits(const Conv2dProgram& p, int64_t side = kBlockTile);
LoweredKernel lower_block_conv2d(const Conv2dProgram& p, std::string name, const Conv2dTile& tile);

// A 3 x 3, stride-1 convolution by Winograd's minimal filtering F(2 x 2, 3 x 3) in one
// kernel (conv2d_winograd_lower.cpp): blocks of kWinogradChannels output channels x 32
// tiles of 2 x 2 outputs transform their input patches and filters into shared memory a
// slice of 8 input channels at a time and fold 16 products a channel where the direct
// convolution does 36 multiply-adds; then transform the products into the outputs.
// Sums in float32 over transformed values: not the direct convolution's bits (within a
// few roundings of the transformed values' magnitudes), and an infinite input may give
// NaN. Needs one group, no dilation and output channels a multiple of kWinogradChannels (winograd_conv2d_fits);
// any padding, any output size. A candidate (conv2d_tiles) for the 3 x 3 convolutions of
// ResNet's stages, where cuDNN without TF32 uses Winograd too; not yet timed on a GPU.
// `splits` > 1: the input channels split in that many parts of whole 8-channel slices,
// each folded by blocks of their own into float32 outputs of a workspace, and a finish
// kernel (lower_split_finish) adding the parts in order, as the block tiles' k split;
// winograd_split_parts says how many (split_k_parts over the blocks and the channels:
// none where the blocks fill a large GPU, parts of at least 64 channels).
inline constexpr int64_t kWinogradChannels = 32;
bool winograd_conv2d_fits(const Conv2dProgram& p);
int64_t winograd_split_parts(const Conv2dProgram& p);
LoweredKernel lower_winograd_conv2d(const Conv2dProgram& p, std::string name, int64_t splits = 1);

}  // namespace relay::loops
