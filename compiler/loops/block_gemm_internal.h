// What the two block-tiled products (block_gemm.cpp on the float32 units, mma_gemm.cpp on
// the tensor cores) share: where a team's tile is, and how its threads copy a slice of an
// operand into shared memory.
#pragma once

#include <cstdint>

#include "compiler/loops/block_gemm.h"

namespace relay::loops {

// The tile of parallel iteration `t`: its first column and row and its batch (lets
// appended to `at`), and the iterations (tiles) of the product.
struct TileOrigin {
  Var col0, row0, batch;
};
TileOrigin tile_origin(Kernel& k, const BlockGemm& g, const Var& t, Block& at);
int64_t block_gemm_tiles(const BlockGemm& g);

// Parallel iteration `t` of a product split along k (BlockGemm::splits) or not: its tile
// (lets appended to `at`: the part outermost, t = part * tiles + tile), and the slices of
// `slice_depth` k its loop visits, the part's. Unsplit: the tile is t, the loop visits
// every slice, and no expression changes.
struct KPart {
  Var part, tile;    // part: unset (id -1) unsplit
  Expr slices;       // the loop's extent: the part's slices (the last part's may be fewer)
  int64_t span = 0;  // slices a part (0: unsplit)
  int64_t all = 0;   // slices of the whole k
  // The slice of k that iteration `local` of the loop folds.
  Expr slice(Expr local) const;
  // Whether iteration `local` has a next one.
  Expr has_next(Expr local) const;
};
KPart k_part(Kernel& k, const BlockGemm& g, const Var& t, int64_t slice_depth, Block& at);
// The parallel loop's extent: the tiles, times the parts of a split.
int64_t k_part_iterations(const BlockGemm& g);
// A split product's partial sum `sum` of output (batch, row, col) of part `p`, stored into
// g.partials.
Stmt store_partial(const Kernel& k, const BlockGemm& g, const KPart& p, const Expr& batch, const Expr& row,
                   const Expr& col, Expr sum);
// Why g's split cannot be built with slices of `slice_depth` (empty: it can, or it is not
// split): a last part left empty, or no float32 buffer of partial sums of its size.
std::string check_split(const Kernel& k, const BlockGemm& g, int64_t slice_depth);

// How a slice is staged: `depth` k a slice, `per_thread` elements a thread copies, in
// `type`, element (r, k) of the slice at index staged(r, k) of the tile.
struct SliceLayout {
  int64_t depth = 0, per_thread = 0;
  DataType type;
  int64_t row_stride = 0;  // staged(r, k) = r * row_stride + k * k_stride
  int64_t k_stride = 0;
};

// The thread's share of slice `slice` of an operand (rows from `first`, `extent` rows in
// all, read by `read`) into the shared buffer `tile`, walked as `walk`. Rows past the
// extent (a last partial tile), k past the product's depth (a last partial slice) and
// elements not `inside` are zeros, which add nothing to a sum that is never -0.
// With `ahead` (a thread-local buffer of layout.per_thread elements a thread), the share
// goes to the thread's slot of it instead, element c at c, for commit_slice to store into
// `tile` later (BlockGemm::prefetch).
void copy_slice(Kernel& k, Block& at, const BlockGemm& g, const SliceLayout& layout, const Var& thread, int tile,
                SliceWalk walk, const TileOrigin& origin, const Var& first, int64_t extent, const Expr& slice,
                const GemmReader& read, int ahead = -1);
// Stores the thread's share that copy_slice put in `ahead` into `tile`, where copy_slice
// would have stored it.
void commit_slice(Kernel& k, Block& at, const BlockGemm& g, const SliceLayout& layout, const Var& thread, int tile,
                  SliceWalk walk, int ahead);

}  // namespace relay::loops
