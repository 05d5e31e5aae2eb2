// The pieces the block-tiled products share (block_gemm_internal.h).
#include "compiler/loops/block_gemm_internal.h"
#include "compiler/loops/index_math.h"

namespace relay::loops {

std::string gemm_tile_words(int64_t m, int64_t n, bool lanes, bool block, bool tensor_cores, bool fat, bool wide) {
  const int64_t edge = wide ? kWideBlockTile : kBlockTile;
  const std::string side = std::to_string(edge) + " x " + std::to_string(edge);
  if (tensor_cores) return "tensor cores, " + side + " blocks";
  if (block) return side + " blocks, " + (fat || wide ? "8 x 8" : "4 x 4") + " outputs a thread";
  const std::string outputs = m * n == 1 ? "output" : std::to_string(m) + " x " + std::to_string(n) + " outputs";
  return lanes ? "a warp per " + outputs : (m * n == 1 ? "a thread per output" : outputs + " a thread");
}

std::string gemm_tile_label(int64_t m, int64_t n, bool lanes, bool block, bool tensor_cores, bool fat, bool wide) {
  if (tensor_cores) return "mma";
  if (block) return wide ? "block128" : fat ? "block8" : "block";
  return "t" + std::to_string(m) + "x" + std::to_string(n) + (lanes ? "_warp" : "");
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

void copy_slice(Kernel& k, Block& at, const BlockGemm& g, const SliceLayout& layout, const Var& thread, int tile,
                SliceWalk walk, const TileOrigin& origin, const Var& first, int64_t extent, const Var& slice,
                const GemmReader& read) {
  // the thread's row of the slice and its first k
  const Var r = new_var(k, "r", i64()), kq = new_var(k, "kq", i64());
  const int64_t per_row = layout.depth / layout.per_thread;  // threads a row (AlongK)
  if (walk == SliceWalk::AlongK) {  // consecutive threads, consecutive k of a row
    at.push_back(let(r, index_div(var_ref(thread), per_row)));
    at.push_back(let(kq, index_scale(index_rem(var_ref(thread), per_row), layout.per_thread)));
  } else {  // consecutive threads, consecutive rows
    at.push_back(let(r, index_rem(var_ref(thread), g.tile)));
    at.push_back(let(kq, index_scale(index_div(var_ref(thread), g.tile), layout.per_thread)));
  }
  const Var row = new_var(k, "row", i64());
  at.push_back(let(row, index_add(var_ref(first), var_ref(r))));
  const Expr in_range = extent % g.tile != 0 ? compare(CmpOp::Lt, var_ref(row), int_imm(extent)) : nullptr;
  const Buffer& staged_in = k.buffer(tile);
  for (int64_t c = 0; c < layout.per_thread; ++c) {
    const Expr k_index = index_sum({index_scale(var_ref(slice), layout.depth), var_ref(kq), int_imm(c)});
    const GemmElement e = read(k, at, var_ref(origin.batch), var_ref(row), k_index);
    const Expr staged =
        index_add(index_scale(var_ref(r), layout.row_stride), index_scale(index_add(var_ref(kq), c), layout.k_stride));
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

}  // namespace relay::loops
