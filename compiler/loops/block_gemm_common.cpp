// The pieces the block-tiled products share (block_gemm_internal.h).
#include "compiler/loops/block_gemm_internal.h"
#include "compiler/loops/index_math.h"

#include <algorithm>

namespace relay::loops {

int64_t GemmTileKind::block_side() const { return wide ? kWideBlockTile : small ? kSmallBlockTile : kBlockTile; }

std::string shape_blocks(BlockGemm& g, const GemmTileKind& t) {
  if (t.tensor_cores && (t.wide || t.small || t.prefetch))
    return "tensor-core blocks are 64 x 64 outputs and do not read ahead";
  if (t.small && (t.fat || t.wide)) return "small block tiles are 4 x 4 outputs a thread";
  if (t.splits < 1) return "k split in no parts";
  g.tile = t.block_side();
  g.thread_tile = t.fat || t.wide ? 8 : 4;
  g.prefetch = t.prefetch;
  g.splits = t.splits;
  return {};
}

int64_t split_k_parts(int64_t blocks, int64_t depth, int64_t slice_depth) {
  const int64_t slices = (depth + slice_depth - 1) / slice_depth;
  if (blocks < 1 || blocks >= kSplitTargetBlocks) return 1;
  const int64_t wanted = std::min(
      {(kSplitTargetBlocks + blocks - 1) / blocks, slices / (kSplitMinTerms / slice_depth), kSplitMaxParts});
  if (wanted < 2) return 1;
  // parts of equal span but the last, none empty: 36 slices in 8 wanted parts of 5 are 8
  // parts (the last of 1); in 7 wanted parts of 6, 6 parts
  const int64_t span = (slices + wanted - 1) / wanted;
  return (slices + span - 1) / span;
}

int64_t split_k_span(const BlockGemm& g, int64_t slice_depth) {
  const int64_t slices = (g.depth + slice_depth - 1) / slice_depth;
  return (slices + g.splits - 1) / std::max<int64_t>(g.splits, 1);
}

Expr KPart::slice(Expr local) const {
  return span > 0 ? index_add(index_scale(var_ref(part), span), std::move(local)) : local;
}

Expr KPart::has_next(Expr local) const {
  return span > 0 ? compare(CmpOp::Lt, index_add(std::move(local), 1), slices)
                  : compare(CmpOp::Lt, std::move(local), int_imm(all - 1));
}

KPart k_part(Kernel& k, const BlockGemm& g, const Var& t, int64_t slice_depth, Block& at) {
  KPart p;
  p.all = (g.depth + slice_depth - 1) / slice_depth;
  p.tile = t;
  p.slices = int_imm(p.all);
  if (g.splits <= 1) return p;
  const int64_t tiles = block_gemm_tiles(g);
  p.span = split_k_span(g, slice_depth);
  p.part = new_var(k, "part", i64()), p.tile = new_var(k, "tile", i64());
  at.push_back(let(p.part, index_div(var_ref(t), tiles)));
  at.push_back(let(p.tile, index_rem(var_ref(t), tiles)));
  // min(span, all - part * span): the last part's rest
  p.slices = binary(BinaryOp::Min, int_imm(p.span), index_sum({int_imm(p.all), index_scale(var_ref(p.part), -p.span)}));
  return p;
}

int64_t k_part_iterations(const BlockGemm& g) { return block_gemm_tiles(g) * std::max<int64_t>(g.splits, 1); }

Stmt store_partial(const Kernel& k, const BlockGemm& g, const KPart& p, const Expr& batch, const Expr& row,
                   const Expr& col, Expr sum) {
  return store(k.buffer(g.partials),
               index_sum({index_scale(var_ref(p.part), g.batches * g.rows * g.cols),
                          index_scale(batch, g.rows * g.cols), index_scale(row, g.cols), col}),
               std::move(sum));
}

std::string check_split(const Kernel& k, const BlockGemm& g, int64_t slice_depth) {
  if (g.splits <= 1) return {};
  const int64_t slices = (g.depth + slice_depth - 1) / slice_depth;
  if ((g.splits - 1) * split_k_span(g, slice_depth) >= slices) return "a split of k whose last part is empty";
  if (g.partials < 0 || k.buffer(g.partials).dtype != f32() || k.buffer(g.partials).extent() < split_partials(g))
    return "a split of k without its float32 buffer of partial sums";
  return {};
}

std::string gemm_tile_words(const GemmTileKind& t) {
  const int64_t edge = t.block_side();
  const std::string side = std::to_string(edge) + " x " + std::to_string(edge);
  const std::string parts = t.splits > 1 ? ", k split in " + std::to_string(t.splits) : "";
  if (t.tensor_cores) return "tensor cores, " + side + " blocks" + parts;
  if (t.block)
    return side + " blocks, " + (t.fat || t.wide ? "8 x 8" : "4 x 4") + " outputs a thread" +
           (t.prefetch ? ", the next slice read ahead" : "") + parts;
  const std::string outputs = t.m * t.n == 1 ? "output" : std::to_string(t.m) + " x " + std::to_string(t.n) + " outputs";
  return t.lanes ? "a warp per " + outputs : (t.m * t.n == 1 ? "a thread per output" : outputs + " a thread");
}

std::string gemm_tile_label(const GemmTileKind& t) {
  const std::string parts = t.splits > 1 ? "s" + std::to_string(t.splits) : "";
  if (t.tensor_cores) return "mma" + parts;
  if (t.block)
    return std::string(t.wide ? "block128" : t.small ? "block32" : t.fat ? "block8" : "block") +
           (t.prefetch ? "p" : "") + parts;
  return "t" + std::to_string(t.m) + "x" + std::to_string(t.n) + (t.lanes ? "_warp" : "");
}

int64_t block_gemm_tiles(const BlockGemm& g) {
  return g.batches * (g.rows / g.tile) * ((g.cols + g.tile - 1) / g.tile);
}

TileOrigin tile_origin(Kernel& k, const BlockGemm& g, const Var& t, Block& at) {
  const int64_t tiles_m = g.rows / g.tile, tiles_n = (g.cols + g.tile - 1) / g.tile;
  TileOrigin o{new_var(k, "col0", i64()), new_var(k, "row0", i64()), new_var(k, "batch", i64())};
  at.push_back(let(o.col0, index_scale(index_rem(var_ref(t), tiles_n), g.tile)));
  at.push_back(let(o.row0, index_scale(index_rem(index_div(var_ref(t), tiles_n), tiles_m), g.tile)));
  at.push_back(let(o.batch, index_div(var_ref(t), tiles_n * tiles_m)));
  return o;
}

namespace {

// The thread's share of a slice: its row of the slice and its first k (lets appended to
// `at`), and where its element c is staged in the shared tile.
struct SliceShare {
  Var r, kq;
  Expr staged(const SliceLayout& layout, int64_t c) const {
    return index_add(index_scale(var_ref(r), layout.row_stride), index_scale(index_add(var_ref(kq), c), layout.k_stride));
  }
};

SliceShare share_of(Kernel& k, Block& at, const BlockGemm& g, const SliceLayout& layout, const Var& thread,
                    SliceWalk walk) {
  const SliceShare s{new_var(k, "r", i64()), new_var(k, "kq", i64())};
  const int64_t per_row = layout.depth / layout.per_thread;  // threads a row (AlongK)
  if (walk == SliceWalk::AlongK) {  // consecutive threads, consecutive k of a row
    at.push_back(let(s.r, index_div(var_ref(thread), per_row)));
    at.push_back(let(s.kq, index_scale(index_rem(var_ref(thread), per_row), layout.per_thread)));
  } else {  // consecutive threads, consecutive rows
    at.push_back(let(s.r, index_rem(var_ref(thread), g.tile)));
    at.push_back(let(s.kq, index_scale(index_div(var_ref(thread), g.tile), layout.per_thread)));
  }
  return s;
}

}  // namespace

void copy_slice(Kernel& k, Block& at, const BlockGemm& g, const SliceLayout& layout, const Var& thread, int tile,
                SliceWalk walk, const TileOrigin& origin, const Var& first, int64_t extent, const Expr& slice,
                const GemmReader& read, int ahead) {
  const SliceShare share = share_of(k, at, g, layout, thread, walk);
  const Var& r = share.r;
  const Var& kq = share.kq;
  const Var row = new_var(k, "row", i64());
  at.push_back(let(row, index_add(var_ref(first), var_ref(r))));
  const Expr in_range = extent % g.tile != 0 ? compare(CmpOp::Lt, var_ref(row), int_imm(extent)) : nullptr;
  const Buffer& staged_in = k.buffer(ahead >= 0 ? ahead : tile);
  for (int64_t c = 0; c < layout.per_thread; ++c) {
    const Expr k_index = index_sum({index_scale(slice, layout.depth), var_ref(kq), int_imm(c)});
    const GemmElement e = read(k, at, var_ref(origin.batch), var_ref(row), k_index);
    const Expr staged = ahead >= 0 ? thread_slot_index(thread, staged_in, int_imm(c)) : share.staged(layout, c);
    Expr guard = e.inside;
    if (in_range) guard = guard ? binary(BinaryOp::And, in_range, guard) : in_range;
    if (g.depth % layout.depth != 0) {
      const Expr in_depth = compare(CmpOp::Lt, k_index, int_imm(g.depth));
      guard = guard ? binary(BinaryOp::And, in_depth, guard) : in_depth;
    }
    const Expr value = cast(layout.type, e.value);
    if (!guard) {
      at.push_back(store(staged_in, staged, value));
    } else {
      at.push_back(store(staged_in, staged, cast(layout.type, float_imm(0))));
      at.push_back(if_then(guard, Block{store(staged_in, staged, value)}));
    }
  }
}

void commit_slice(Kernel& k, Block& at, const BlockGemm& g, const SliceLayout& layout, const Var& thread, int tile,
                  SliceWalk walk, int ahead) {
  const SliceShare share = share_of(k, at, g, layout, thread, walk);
  const Buffer& held = k.buffer(ahead);
  for (int64_t c = 0; c < layout.per_thread; ++c)
    at.push_back(store(k.buffer(tile), share.staged(layout, c), load(held, thread_slot_index(thread, held, int_imm(c)))));
}

}  // namespace relay::loops
