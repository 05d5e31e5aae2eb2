// The GPU's shared-memory block tiling of a matrix product, shared by the lowerings that
// are a product underneath (loops/matmul.h's block tiles; loops/conv2d.h's implicit-GEMM
// convolution): out[row, col] = sum over k of A[row, k] * B[col, k], where the caller
// says how to read an element of A and of B (a matrix, the window of a convolution, a
// zero in its padding) and where an output goes.
//
// A team of threads computes a kBlockTile x kBlockTile tile of outputs. For each
// kBlockDepth-deep slice of k, the threads copy the slice of the tile's rows of A and
// columns of B into shared memory, transposed (k-major), then thread (ty, tx) of the grid
// folds the slice into its accumulators. With 4 x 4 outputs a thread (kBlockThreads = 256
// threads, a 16 x 16 grid): rows 4 ty .. 4 ty + 3 and columns 4 tx .. 4 tx + 3, so that
// each step of k reads A's four and B's four with one 16-byte shared load each (a quarter
// warp's reads of B are 128 consecutive bytes: no bank conflicts; of A, broadcasts) for 16
// multiply-adds: two shared words a multiply-add, twice what a multiprocessor's shared
// memory delivers for its float32 units' rate. With 8 x 8 a thread (64 threads, an 8 x 8
// grid) a step reads four such groups for 64 multiply-adds, half the words a multiply-add:
// each thread's rows are 4 ty .. 4 ty + 3 and 32 + 4 ty .. 32 + 4 ty + 3 (columns alike),
// so a quarter warp's reads stay 128 consecutive bytes. A wide tile (BlockGemm::tile =
// kWideBlockTile: 128 x 128 outputs, 8 x 8 a thread, 256 threads in a 16 x 16 grid, the
// second groups 64 further) does the same multiply-adds per shared word as 8 x 8 in a
// 64 x 64 tile but reads each operand from global memory half as often per output: the
// tile of the largest products. The shared rows are padded by four
// words, so the transposing writes spread over the banks. Every output folds k in order from 0,
// one fused multiply-add a step (MathFn::Fma): the bits of a thread per output that folds
// the same terms in the same order.
//
// append_mma_gemm is the same product on the tensor cores (ir.h's Mma) for float16 and
// bfloat16 operands: the slices are staged in their storage type and 8 warps multiply
// 16 x 16 x 16 tiles into float32 fragments, summing in an order the hardware chooses.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/loops/ir.h"

namespace relay::loops {

inline constexpr int64_t kBlockTile = 64;
inline constexpr int64_t kBlockDepth = 16;
inline constexpr int64_t kBlockThreads = 256;     // with 4 x 4 outputs a thread (and the tensor cores')
inline constexpr int64_t kBlockFatThreads = 64;   // with 8 x 8 outputs a thread
inline constexpr int64_t kWideBlockTile = 128;    // a wide tile's side (8 x 8 a thread, kBlockThreads)
inline constexpr int64_t kSmallBlockTile = 32;    // a small tile's side (4 x 4 a thread, kBlockFatThreads)
inline constexpr int64_t kMmaDepth = 32;          // the tensor cores' slices of k (append_mma_gemm)

// Products of at least this many kBlockTile x kBlockTile tiles (batches included) take 8 x 8
// outputs a thread: with 64 threads a tile, fewer tiles would leave a large GPU's
// multiprocessors (132 on an H100, 8 such blocks each) too few warps to hide latency.
// Reasoned from the shared-memory rate, not yet timed on a GPU (the tile benchmarks time
// both: `block` and `block8`).
inline constexpr int64_t kBlockFatMinTiles = 1024;

// A tile of the products and convolutions in the terms its words and label use (Conv2dTile
// and MatmulTile each say theirs: m x n is output channels x columns, or rows x columns).
struct GemmTileKind {
  int64_t m = 1, n = 1;
  bool lanes = false, block = false, tensor_cores = false, fat = false, wide = false, prefetch = false,
       small = false;
  int64_t splits = 1;  // block tiles: parts of k folded by blocks of their own (BlockGemm::splits)
  // A block or tensor-core tile's side: kWideBlockTile, kSmallBlockTile or kBlockTile.
  int64_t block_side() const;
};
// The words for a tile, for reports: tensor cores, block tiles (64 x 64, 128 x 128 or
// 32 x 32; 4 x 4 or 8 x 8 a thread; the next slice read ahead or not; k split or not), a
// warp per tile, or a register tile of `m` x `n` outputs a thread.
std::string gemm_tile_words(const GemmTileKind& t);
// The same tile as a short label for files and benchmark names: "mma", "block", "block8",
// "block128" (wide), "block32" (small), each with a "p" when it reads ahead ("block8p")
// and "s<N>" when k is split in N ("block32ps8"), "t4x7" (a register tile), "t1x1_warp" (a
// warp per tile).
std::string gemm_tile_label(const GemmTileKind& t);

// Split k (BlockGemm::splits): a product with too few blocks to fill a large GPU
// (ResNet-18's convolutions at batch 1: 8 to 49 blocks of 64 x 64 for 132
// multiprocessors, each block folding 576 to 4608 terms) splits its k into parts, each
// folded by blocks of its own into float32 partial sums, and a second kernel adds each
// output's parts. Aiming at kSplitTargetBlocks blocks, each part at least kSplitMinTerms
// terms deep, at most kSplitMaxParts parts. Candidates only (not yet timed on a GPU).
inline constexpr int64_t kSplitTargetBlocks = 264;  // two a multiprocessor of an H100 or H200
inline constexpr int64_t kSplitMinTerms = 64;
inline constexpr int64_t kSplitMaxParts = 16;
// The parts to split a product of `blocks` blocks (of any side) over `depth` terms into,
// folded in slices of `slice_depth` (kBlockDepth; the tensor cores' kMmaDepth), 1 when it
// has blocks enough or too few terms. Every part folds the same number of slices
// (split_k_span) but the last, which has at least one.
int64_t split_k_parts(int64_t blocks, int64_t depth, int64_t slice_depth = kBlockDepth);
// Blocks of `side` x `side` outputs in `batches` products of rows x cols.
inline int64_t blocks_of(int64_t batches, int64_t rows, int64_t cols, int64_t side) {
  return batches * ((rows + side - 1) / side) * ((cols + side - 1) / side);
}

// A list of candidate tiles (Conv2dTile or MatmulTile: conv2d_tiles, matmul_tiles), each
// once: add() keeps the first of equal tiles; add_blocks() adds the block tiles where 64 x 64
// blocks fit: 4 x 4 and 8 x 8 a thread, the tensor cores for `storage_only` dtypes, and
// the wide tile where 128 x 128 blocks fit too; then each block tile on the float32 units
// again reading ahead (BlockGemm::prefetch). add_small_blocks() adds the small tile (32 x
// 32 blocks) plain and reading ahead, for products too small to fill a GPU with 64 x 64
// blocks (small_blocks_help). add_split_blocks() adds the block tiles of `side` (64 or 32)
// whose k is split (split_k_parts), plain and reading ahead, where the product has few
// blocks of that side and terms enough.
template <class Tile>
struct TileCandidates {
  std::vector<Tile> tiles;
  void add(const Tile& t) {
    for (const Tile& o : tiles)
      if (o == t) return;
    tiles.push_back(t);
  }
  void add_blocks(bool storage_only, bool wide_fits) {
    add(Tile{.block = true});
    add(Tile{.block = true, .fat = true});
    if (storage_only) add(Tile{.tensor_cores = true});
    if (wide_fits) add(Tile{.block = true, .wide = true});
    add(Tile{.block = true, .prefetch = true});
    add(Tile{.block = true, .fat = true, .prefetch = true});
    if (wide_fits) add(Tile{.block = true, .wide = true, .prefetch = true});
  }
  void add_small_blocks() {
    add(Tile{.block = true, .small = true});
    add(Tile{.block = true, .prefetch = true, .small = true});
  }
  void add_split_blocks(int64_t side, int64_t batches, int64_t rows, int64_t cols, int64_t depth) {
    const int64_t parts = split_k_parts(blocks_of(batches, rows, cols, side), depth);
    if (parts < 2) return;
    const bool small = side == kSmallBlockTile;
    add(Tile{.block = true, .small = small, .splits = parts});
    add(Tile{.block = true, .prefetch = true, .small = small, .splits = parts});
  }
  // The tensor cores' 64 x 64 blocks with k split, where split_k_parts splits (in their
  // kMmaDepth-deep slices).
  void add_split_mma(int64_t batches, int64_t rows, int64_t cols, int64_t depth) {
    const int64_t parts = split_k_parts(blocks_of(batches, rows, cols, kBlockTile), depth, kMmaDepth);
    if (parts > 1) add(Tile{.tensor_cores = true, .splits = parts});
  }
};

// The element types the GPU's products and convolutions take: float32, and float16 or
// bfloat16 as storage (their products and sums in float32, each output rounded once).
inline bool folds_in_float32(DataType t) { return t == f32() || is_storage_only(t); }

// Whether a product of `rows` x `cols` outputs (batches included in `cols` or `batches`)
// is worth 32 x 32 blocks: fewer than kBlockFatMinTiles 64 x 64 blocks, where a large GPU
// gets few blocks (ResNet-18's stages at batch 1: 16 to 49), and rows a multiple of 32.
// Four times the blocks for half the reuse of each staged element; candidates only (not
// yet timed on a GPU).
inline bool small_blocks_help(int64_t batches, int64_t rows, int64_t cols) {
  const int64_t tiles64 = batches * ((rows + kBlockTile - 1) / kBlockTile) * ((cols + kBlockTile - 1) / kBlockTile);
  return rows % kSmallBlockTile == 0 && cols > 0 && tiles64 < kBlockFatMinTiles;
}

// How the copy phase walks an operand's slice (a tile's rows by kBlockDepth k, four
// elements a thread, eight in a wide tile):
//  * AlongK: a thread copies 4 (8) consecutive k of one row, and consecutive threads the
//    next (a matrix stored row by row, k innermost: vector loads when aligned);
//  * AlongRows: consecutive threads copy consecutive rows at the same k, each thread 4
//    k (a convolution's window: neighbouring outputs read neighbouring inputs).
enum class SliceWalk : uint8_t { AlongK, AlongRows };

// An operand's element: its value (any float dtype: append_block_gemm folds it as float32,
// append_mma_gemm stages it in the storage type; each casts) and, where it may be a zero
// that is not in memory (a convolution's padding), when it is read (bool; null: always).
// Its loads are evaluated only where `inside` holds.
struct GemmElement {
  Expr value;
  Expr inside;
};

// A[row, k] or B[col, k] of product `batch` (int64 expressions); a reader may append lets
// (index arithmetic) to `at`.
using GemmReader =
    std::function<GemmElement(Kernel&, Block& at, const Expr& batch, const Expr& row, const Expr& k)>;
// Output (row, col) of product `batch`, its float32 sum `value`: appends its store to `at`.
using GemmWriter =
    std::function<void(Kernel&, Block& at, const Expr& batch, const Expr& row, const Expr& col, const Expr& value)>;

struct BlockGemm {
  int64_t rows = 0, cols = 0, depth = 0;  // rows % tile == 0; a last partial tile of
                                          // columns and a last partial slice of k are allowed
  int64_t tile = kBlockTile;              // the block's side: kBlockTile, kWideBlockTile with
                                          // thread_tile 8, or kSmallBlockTile with thread_tile
                                          // 4 (not for append_mma_gemm)
  int64_t batches = 1;                    // independent products, the outermost index
  int64_t thread_tile = 4;                // outputs a thread along each side: 4 or 8 (not
                                          // for append_mma_gemm)
  SliceWalk a_walk = SliceWalk::AlongK, b_walk = SliceWalk::AlongK;
  // Read ahead (append_block_gemm only): while the threads fold a slice from shared memory,
  // they read the next slice's elements from global memory into registers (a thread's
  // share of both operands), which they store into shared memory once the fold is done.
  // The loads' latency then overlaps the multiply-adds instead of stalling every slice's
  // copy; the price is those registers. The same folds in the same order: the same bits.
  bool prefetch = false;
  // Parts of k (split_k_parts; 1: not split), each folded by blocks of their own: the
  // parallel loop's iterations are parts x tiles (the part outermost), and each block
  // stores its float32 partial sums into buffer `partials` (split_partials(g) elements:
  // part, batch, row, column) instead of calling `out`; lower_split_finish's kernel adds
  // each output's parts. The tensor cores' parts are whole kMmaDepth-deep slices.
  int64_t splits = 1;
  int partials = -1;
  GemmReader a, b;
  GemmWriter out;  // called where col < cols holds
};

// A split product's partial sums: splits x batches x rows x cols.
inline int64_t split_partials(const BlockGemm& g) { return g.splits * g.batches * g.rows * g.cols; }
// The slices of `slice_depth` k each part of a split product folds (the last part may
// fold fewer).
int64_t split_k_span(const BlockGemm& g, int64_t slice_depth = kBlockDepth);
// The second kernel of a split product: buffers [partials, out] (out of `out_type`,
// `out_shape` and `out_strides`, as the unsplit kernel's output), a thread per output that
// adds its parts' partial sums in order, ((p0 + p1) + p2) + ..., and stores the total
// through g.out, which must store to buffer 1.
LoweredKernel lower_split_finish(const BlockGemm& g, std::string name, DataType out_type,
                                 std::vector<int64_t> out_shape, std::vector<int64_t> out_strides);

// Sets g's block shape from a block or tensor-core tile (its side, outputs a thread,
// reading ahead, parts of k), or says why no lowering builds that combination (tensor
// cores only in 64 x 64 blocks that do not read ahead; small blocks only 4 x 4 a thread).
// Empty: done.
std::string shape_blocks(BlockGemm& g, const GemmTileKind& t);

// Appends the product's parallel loop (an iteration per tile of each batch, a team of
// kBlockThreads or kBlockFatThreads threads each: (tile / thread_tile)^2) to `k`'s body. An error message when the shape does not fit
// (empty: done).
std::string append_block_gemm(Kernel& k, const BlockGemm& g);

// The tensor cores' product (float16/bfloat16 `storage`, sm_80 and later): per block of
// kBlockTile x kBlockTile outputs, 8 warps each own 16 x 32 of them (two 16 x 16 float32
// accumulator fragments); for each kMmaDepth-deep slice the threads copy the block's rows
// of A and of B into shared memory, k innermost, 8 elements a thread (walked as
// a_walk/b_walk say), zeros past the product and outside `inside`; then each warp
// multiplies its tiles (Mma). At the end the fragments go through shared memory to `out`,
// 16 consecutive columns of a row a thread. Same shape rules as append_block_gemm.
std::string append_mma_gemm(Kernel& k, const BlockGemm& g, DataType storage);

}  // namespace relay::loops
