// The direct convolution's loops (conv2d.h).
#include "compiler/loops/conv2d.h"

#include <algorithm>
#include <utility>

#include "compiler/loops/index_math.h"

namespace relay::loops {

namespace {

Expr within(const Expr& x, int64_t end) {
  return binary(BinaryOp::And, compare(CmpOp::Ge, x, int_imm(0)), compare(CmpOp::Lt, x, int_imm(end)));
}

}  // namespace

Conv2dTile conv2d_tile(const Conv2dProgram& p, bool tensor_cores) {
  Conv2dTile t;
  if (tensor_cores && is_storage_only(p.dtype) && block_conv2d_fits(p)) {
    t.tensor_cores = true;
    return t;
  }
  const int64_t outputs = p.batch * p.out_channels * p.out_h * p.out_w;
  const int64_t inputs_per_group = p.groups > 0 ? p.channels / p.groups : 1;
  if (outputs < kConvLanesOutputs && inputs_per_group >= 2 * kWarpLanes &&
      inputs_per_group * p.kernel_h * p.kernel_w >= kConvLanesMinWindow) {
    t.lanes = true;  // a warp per output
    return t;
  }
  if (outputs < kConvTiledOutputs) return t;  // a thread per output
  if (block_conv2d_fits(p)) {
    t.block = true;  // a product through shared memory
    const int64_t tiles = p.out_channels / kBlockTile * ((p.batch * p.out_h * p.out_w + kBlockTile - 1) / kBlockTile);
    t.fat = tiles >= kBlockFatMinTiles;
    return t;
  }
  const int64_t per_group = p.groups > 0 ? p.out_channels / p.groups : 1;
  for (int64_t c : {4, 2, 1})
    if (per_group % c == 0) {
      t.channels = c;
      break;
    }
  for (int64_t w = 7; w > 1; --w)  // the widest tile up to 7 columns dividing OW
    if (p.out_w % w == 0) {
      t.width = w;
      break;
    }
  return t;
}

std::string tile_words(const Conv2dTile& t) {
  if (t.winograd)
    return "Winograd F(2x2, 3x3), blocks of 32 output channels x 32 tiles of 2 x 2 outputs" +
           (t.splits > 1 ? ", input channels split in " + std::to_string(t.splits) : std::string());
  return gemm_tile_words(t.kind());
}

std::string tile_label(const Conv2dTile& t) {
  if (t.winograd) return "wino" + (t.splits > 1 ? "s" + std::to_string(t.splits) : std::string());
  return gemm_tile_label(t.kind());
}

std::vector<Conv2dTile> conv2d_tiles(const Conv2dProgram& p, bool tensor_cores) {
  TileCandidates<Conv2dTile> c{{conv2d_tile(p, tensor_cores)}};
  const int64_t groups = std::max<int64_t>(p.groups, 1);
  const int64_t per_group = p.out_channels / groups, inputs_per_group = p.channels / groups;
  auto divides = [&](int64_t c, int64_t w) { return per_group % c == 0 && p.out_w % w == 0; };
  for (auto [ch, w] : {std::pair<int64_t, int64_t>{1, 1}, {2, 2}, {4, 4}, {4, 7}, {4, 8}})
    if (divides(ch, w)) c.add({.channels = ch, .width = w});
  const int64_t outputs = p.batch * p.out_channels * p.out_h * p.out_w;
  if (outputs < kConvTiledOutputs && inputs_per_group >= kWarpLanes)
    for (int64_t s : {1, 2})
      if (divides(s, s)) c.add({.channels = s, .width = s, .lanes = true});
  if (block_conv2d_fits(p)) c.add_blocks(tensor_cores && is_storage_only(p.dtype), p.out_channels % kWideBlockTile == 0);
  if (block_conv2d_fits(p, kSmallBlockTile) && small_blocks_help(1, p.out_channels, p.batch * p.out_h * p.out_w))
    c.add_small_blocks();
  const int64_t window = p.channels * p.kernel_h * p.kernel_w;
  for (int64_t side : {kBlockTile, kSmallBlockTile})
    if (block_conv2d_fits(p, side)) c.add_split_blocks(side, 1, p.out_channels, p.batch * p.out_h * p.out_w, window);
  if (block_conv2d_fits(p) && tensor_cores && is_storage_only(p.dtype))
    c.add_split_mma(1, p.out_channels, p.batch * p.out_h * p.out_w, window);
  if (winograd_conv2d_fits(p)) {
    c.add({.winograd = true});
    if (const int64_t parts = winograd_split_parts(p); parts > 1) c.add({.splits = parts, .winograd = true});
  }
  return c.tiles;
}

LoweredKernel lower_direct_conv2d(const Conv2dProgram& p, std::string name) {
  return lower_direct_conv2d(p, std::move(name), conv2d_tile(p));
}

LoweredKernel lower_direct_conv2d(const Conv2dProgram& p, std::string name, Conv2dTile tile) {
  if (tile.winograd) return lower_winograd_conv2d(p, std::move(name), tile.splits);
  if (tile.block || tile.tensor_cores) return lower_block_conv2d(p, std::move(name), tile);
  LoweredKernel r;
  if (!folds_in_float32(p.dtype)) {
    r.error = "a convolution of " + dtype_name(p.dtype);
    return r;
  }
  const int64_t N = p.batch, C = p.channels, H = p.height, W = p.width, O = p.out_channels;
  const int64_t KH = p.kernel_h, KW = p.kernel_w, OH = p.out_h, OW = p.out_w, G = p.groups;
  if (G < 1 || C % G != 0 || O % G != 0 || KH < 1 || KW < 1 || p.strides[0] < 1 || p.strides[1] < 1 ||
      p.dilation[0] < 1 || p.dilation[1] < 1) {
    r.error = "a convolution whose channels, groups or window disagree";
    return r;
  }
  const int64_t I = C / G, per_group = O / G;
  const int64_t TC = tile.channels, TW = tile.width;
  if (TC < 1 || TW < 1 || per_group % TC != 0 || OW % TW != 0) {
    r.error = "a register tile that does not divide the convolution's output";
    return r;
  }
  Kernel& k = r.kernel;
  k.name = std::move(name);
  const DataType f = f32(), storage = p.dtype;
  const int data = add_param(k, "data", storage, {N, C, H, W}, {C * H * W, H * W, W, 1});
  const int weight = add_param(k, "weight", storage, {O, I, KH, KW}, {I * KH * KW, KH * KW, KW, 1});
  r.output_buffer = add_param(k, "out", storage, {N, O, OH, OW}, {O * OH * OW, OH * OW, OW, 1});
  const int64_t tiles_w = OW / TW, tiles_c = O / TC;
  const int64_t tiles = N * tiles_c * OH * tiles_w;
  if (tiles == 0) return r;
  const int acc = tile.lanes ? add_thread_local(k, "acc", f, kWarpLanes, TC * TW) : add_local(k, "acc", f, TC * TW);
  // acc_at: an accumulator after the fold (lane 0's slot); acc_in: inside the fold
  Var lane;  // (lanes) the warp's lane
  if (tile.lanes) lane = new_var(k, "lane", i64());
  auto acc_at = [&](int64_t i, int64_t j) { return int_imm(i * TW + j); };
  auto acc_in = [&](int64_t i, int64_t j) {
    return tile.lanes ? thread_slot_index(lane, k.buffer(acc), acc_at(i, j)) : acc_at(i, j);
  };

  // The tile's coordinates from the thread's flat index: its first output column and
  // channel, its row and image.
  const Var t = new_var(k, "t", i64());
  const Var ow0 = new_var(k, "ow0", i64()), oh = new_var(k, "oh", i64()), oc0 = new_var(k, "oc0", i64()),
            n = new_var(k, "n", i64());
  Block per_tile{let(ow0, index_scale(index_rem(var_ref(t), tiles_w), TW)),
                 let(oh, index_rem(index_div(var_ref(t), tiles_w), OH)),
                 let(oc0, index_scale(index_rem(index_div(var_ref(t), tiles_w * OH), tiles_c), TC)),
                 let(n, index_div(var_ref(t), tiles_w * OH * tiles_c))};
  // The window's corner in the input, and where the tile's group and filters start.
  const Var ih0 = new_var(k, "ih0", i64()), iw0 = new_var(k, "iw0", i64());
  const Var data_base = new_var(k, "data_base", i64()), weight_base = new_var(k, "weight_base", i64());
  per_tile.push_back(let(ih0, index_add(index_scale(var_ref(oh), p.strides[0]), -p.pad_begin[0])));
  per_tile.push_back(let(iw0, index_add(index_scale(var_ref(ow0), p.strides[1]), -p.pad_begin[1])));
  per_tile.push_back(let(data_base, index_sum({index_scale(var_ref(n), C * H * W),
                                                index_scale(index_div(var_ref(oc0), per_group), I * H * W)})));
  per_tile.push_back(let(weight_base, index_scale(var_ref(oc0), I * KH * KW)));
  per_tile.push_back(alloc(k.buffer(acc)));
  Block fold;
  for (int64_t i = 0; i < TC; ++i)
    for (int64_t j = 0; j < TW; ++j) fold.push_back(store(k.buffer(acc), acc_in(i, j), float_imm(0)));

  // for c, kh (rows inside the input), kw: the tap's TC weights, then per column j inside
  // the input its value into the TC accumulators of that column.
  const Var c = new_var(k, "c", i64()), kh = new_var(k, "kh", i64()), kw = new_var(k, "kw", i64());
  const Var ih = new_var(k, "ih", i64()), row = new_var(k, "row", i64()), tap = new_var(k, "tap", i64());
  Block kw_body{let(tap, index_sum({var_ref(weight_base), index_scale(var_ref(c), KH * KW), index_scale(var_ref(kh), KW),
                                    var_ref(kw)}))};
  std::vector<Var> weights;
  for (int64_t i = 0; i < TC; ++i) {
    weights.push_back(new_var(k, "w", f));
    kw_body.push_back(let(weights.back(), cast(f, load(k.buffer(weight), index_add(var_ref(tap), i * I * KH * KW)))));
  }
  for (int64_t j = 0; j < TW; ++j) {
    const Var iw = new_var(k, "iw", i64()), x = new_var(k, "x", f);
    kw_body.push_back(
        let(iw, index_sum({var_ref(iw0), int_imm(j * p.strides[1]), index_scale(var_ref(kw), p.dilation[1])})));
    Block column{let(x, cast(f, load(k.buffer(data), index_add(var_ref(row), var_ref(iw)))))};
    for (int64_t i = 0; i < TC; ++i)
      column.push_back(store(k.buffer(acc), acc_in(i, j),
                             call(MathFn::Fma, {var_ref(x), var_ref(weights[static_cast<size_t>(i)]),
                                                load(k.buffer(acc), acc_in(i, j))})));
    kw_body.push_back(if_then(within(var_ref(iw), W), std::move(column)));
  }
  Block kh_body{let(ih, index_add(var_ref(ih0), index_scale(var_ref(kh), p.dilation[0]))),
                if_then(within(var_ref(ih), H),
                        Block{let(row, index_sum({var_ref(data_base), index_scale(var_ref(c), H * W),
                                                  index_scale(var_ref(ih), W)})),
                              for_loop(kw, int_imm(KW), LoopKind::Reduction, std::move(kw_body))})};
  if (tile.lanes) {
    // lane l's channels: c = l + 32 * step for ceil((I - l) / 32) steps
    const Var step = new_var(k, "step", i64());
    Block c_body{let(c, index_add(var_ref(lane), index_scale(var_ref(step), kWarpLanes))),
                 for_loop(kh, int_imm(KH), LoopKind::Reduction, std::move(kh_body))};
    Expr share = index_div(index_add(index_scale(var_ref(lane), -1), I + kWarpLanes - 1), kWarpLanes);
    fold.push_back(for_loop(step, std::move(share), LoopKind::Reduction, std::move(c_body)));
    per_tile.push_back(for_loop(lane, int_imm(kWarpLanes), LoopKind::Threads, std::move(fold)));
    per_tile.push_back(lane_reduce(k.buffer(acc), BinaryOp::Add));
  } else {
    Block c_body{for_loop(kh, int_imm(KH), LoopKind::Reduction, std::move(kh_body))};
    fold.push_back(for_loop(c, int_imm(I), LoopKind::Reduction, std::move(c_body)));
    for (Stmt& st : fold) per_tile.push_back(std::move(st));
  }

  // The tile's outputs: channel oc0 + i, column ow0 + j.
  const Var out_base = new_var(k, "out_base", i64());
  per_tile.push_back(let(out_base, index_sum({index_scale(index_add(index_scale(var_ref(n), O), var_ref(oc0)), OH * OW),
                                               index_scale(var_ref(oh), OW), var_ref(ow0)})));
  for (int64_t i = 0; i < TC; ++i)
    for (int64_t j = 0; j < TW; ++j)
      per_tile.push_back(store(k.buffer(r.output_buffer), index_add(var_ref(out_base), i * OH * OW + j),
                               cast(storage, load(k.buffer(acc), acc_at(i, j)))));
  k.body.push_back(for_loop(t, int_imm(tiles), LoopKind::Parallel, std::move(per_tile)));
  return r;
}

}  // namespace relay::loops
