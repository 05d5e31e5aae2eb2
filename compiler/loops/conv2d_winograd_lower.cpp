// nn.conv2d's 3 x 3, stride-1 convolutions by Winograd's minimal filtering F(2 x 2, 3 x 3)
// in one GPU kernel (conv2d.h, lower_winograd_conv2d).
//
// Each 2 x 2 tile of outputs of each output channel is A^T [sum over c of (G g G^T) .*
// (B^T d B)] A, with g a 3 x 3 filter and d the 4 x 4 patch of input channel c under the
// tile: 16 multiply-adds a channel for the 36 of the direct convolution, the rest is
// additions (and halvings, exact) that the transforms amortise over many filters and tiles.
//
// A block of kThreads threads computes kChannels output channels x kTiles tiles. For
// each slice of kDepth input channels:
//  1. each thread transforms one (channel, tile) patch of the input (16 loads, zeros in the
//     padding and past the data) and one (channel, filter) 3 x 3 filter into shared memory,
//     term-major: v[term][channel][tile], u[term][channel][filter];
//  2. the 16 terms are 16 independent products of kChannels x kTiles over the slice's
//     channels: 16 threads a term, each folding kPerThread x kPerThread of its term's
//     outputs into registers (the block tiles' layout, block_gemm.h: groups of 4 rows and
//     columns, the next group half a tile further).
// Then the products leave through shared memory (v's, no longer needed) in kRounds rounds
// of output channels, and a thread per (output channel, tile) applies A^T . A and stores
// the tile's outputs that lie inside the output.
//
// With the input channels split in parts (too few blocks for a large GPU: ResNet-18's
// last stages at batch 1), the blocks of each part fold only its slices and store their
// float32 outputs (A^T . A is linear: the parts' outputs add up to the whole) into a
// workspace, as the block tiles' split does (block_gemm.h, BlockGemm::splits), and the
// same finish kernel adds the parts in order.
//
// Not the direct convolution's bits: the sums run over transformed values (within a few
// float32 roundings of their magnitudes: gpu_winograd_test.cpp), and an infinite input can
// become NaN (inf - inf in a transform) where the direct sum is infinite. Both are usual for Winograd kernels
// (cuDNN's among them); the NaN replay still names the operator.
#include "compiler/loops/conv2d.h"

#include <functional>
#include <utility>
#include <vector>

#include "compiler/loops/block_gemm_internal.h"
#include "compiler/loops/index_math.h"

namespace relay::loops {

namespace {

constexpr int64_t kPatch = 4;                 // a transformed patch's side: 2 outputs + 3 taps - 1
constexpr int64_t kTerms = kPatch * kPatch;   // products a (filter, channel, tile)
constexpr int64_t kChannels = kWinogradChannels;
constexpr int64_t kTiles = 32;                // tiles of 2 x 2 outputs a block
constexpr int64_t kDepth = 8;                 // input channels a slice
constexpr int64_t kThreads = 256;
constexpr int64_t kStride = kTiles + 4;       // a shared row, padded as block_gemm's
constexpr int64_t kGroup = 4, kGrid = 4, kPerThread = 8;  // the fold's 4 x 4 grid of threads a term
constexpr int64_t kRounds = 4;                // rounds of kChannels / kRounds output channels
constexpr int64_t kRoundChannels = kChannels / kRounds;

static_assert(kChannels == kTiles && kChannels == kGrid * kPerThread);
static_assert(kDepth * kTiles == kThreads && kDepth * kChannels == kThreads);  // a patch and a filter a thread
static_assert(kTerms * kGrid * kGrid == kThreads);                             // 16 threads a term
static_assert(kRoundChannels * kTiles == kThreads);                            // a tile a thread a round
static_assert(kTerms * kRoundChannels * kTiles <= kTerms * kDepth * kStride);   // a round fits in v's buffer
static_assert(kPerThread == 2 * kGroup && kRounds == kGroup);

using Values = std::vector<Expr>;

Expr add(Expr a, Expr b) { return binary(BinaryOp::Add, std::move(a), std::move(b)); }
Expr sub(Expr a, Expr b) { return binary(BinaryOp::Sub, std::move(a), std::move(b)); }
Expr half(Expr a) { return binary(BinaryOp::Mul, std::move(a), float_imm(0.5)); }

// The 1-D transforms (x: kPatch or 3 values): B^T for input patches, G for filters, A^T
// for the products.
Values input_1d(const Values& x) { return {sub(x[0], x[2]), add(x[1], x[2]), sub(x[2], x[1]), sub(x[1], x[3])}; }
Values filter_1d(const Values& g) {
  return {g[0], half(add(add(g[0], g[1]), g[2])), half(add(sub(g[0], g[1]), g[2])), g[2]};
}
Values output_1d(const Values& m) { return {add(add(m[0], m[1]), m[2]), sub(sub(m[1], m[2]), m[3])}; }

// T X T^T for a side x side matrix X (row-major), each intermediate value a let.
Values transform_2d(Kernel& k, Block& at, const Values& x, int64_t side, Values (*t)(const Values&)) {
  auto bind = [&](Expr e) {
    const Var v = new_var(k, "w", f32());
    at.push_back(let(v, std::move(e)));
    return var_ref(v);
  };
  std::vector<Values> columns;  // columns[b][i]: T applied to column b
  for (int64_t b = 0; b < side; ++b) {
    Values column;
    for (int64_t a = 0; a < side; ++a) column.push_back(x[static_cast<size_t>(a * side + b)]);
    Values tc;
    for (Expr& e : t(column)) tc.push_back(bind(std::move(e)));
    columns.push_back(std::move(tc));
  }
  Values out;
  for (size_t i = 0; i < columns[0].size(); ++i) {
    Values row;
    for (const Values& c : columns) row.push_back(c[i]);
    for (Expr& e : t(row)) out.push_back(bind(std::move(e)));
  }
  return out;
}

Expr both(Expr a, Expr b) {
  if (!a) return b;
  if (!b) return a;
  return binary(BinaryOp::And, std::move(a), std::move(b));
}
Expr within(const Expr& x, int64_t end) {
  return both(compare(CmpOp::Ge, x, int_imm(0)), compare(CmpOp::Lt, x, int_imm(end)));
}

// Tiles of 2 x 2 outputs down, across and in all.
struct Tiles {
  int64_t h, w, all;
};
Tiles tiles_of(const Conv2dProgram& p) {
  const int64_t h = (p.out_h + 1) / 2, w = (p.out_w + 1) / 2;
  return {h, w, p.batch * h * w};
}

// The blocks as block_gemm's split sees them: kChannels x kTiles outputs of the products
// (rows: output channels, columns: tiles), over the input channels in kDepth slices.
BlockGemm blocks_of(const Conv2dProgram& p, int64_t splits) {
  BlockGemm g;
  g.rows = p.out_channels, g.cols = tiles_of(p).all, g.depth = p.channels, g.tile = kChannels, g.splits = splits;
  return g;
}

// The outputs as the split's partial sums and finish see them: rows output channels,
// columns the positions (image, row, column), as the block-tiled convolution's.
BlockGemm outputs_of(const Conv2dProgram& p, int64_t splits) {
  BlockGemm g;
  g.rows = p.out_channels, g.cols = p.batch * p.out_h * p.out_w, g.depth = p.channels, g.splits = splits;
  return g;
}

class Builder {
 public:
  // `outputs`: unsplit, buffer `out` is the output; split, outputs.partials the parts' sums
  Builder(Kernel& k, const Conv2dProgram& p, int data, int weight, int out, const BlockGemm& outputs)
      : k_(k), p_(p), data_(data), weight_(weight), out_(out), outputs_(outputs), tiles_h_(tiles_of(p).h),
        tiles_w_(tiles_of(p).w), tiles_(tiles_of(p).all) {}

  void build() {
    u_ = add_shared(k_, "u_tile", f32(), kTerms * kDepth * kStride);
    v_ = add_shared(k_, "v_tile", f32(), kTerms * kDepth * kStride);  // also each round's products
    acc_ = add_thread_local(k_, "acc", f32(), kThreads, kPerThread * kPerThread);
    staged_ = add_thread_local(k_, "staged", f32(), kThreads, kTerms + 9);  // a patch, then a filter

    const Var t = new_var(k_, "t", i64());
    const BlockGemm blocks = blocks_of(p_, outputs_.splits);
    Block per_block;
    part_ = k_part(k_, blocks, t, kDepth, per_block);  // the iteration's block (and part of the channels)
    const int64_t channel_blocks = p_.out_channels / kChannels;
    k0_ = new_var(k_, "k0", i64());
    p0_ = new_var(k_, "p0", i64());
    per_block.push_back(let(k0_, index_scale(index_rem(var_ref(part_.tile), channel_blocks), kChannels)));
    per_block.push_back(let(p0_, index_scale(index_div(var_ref(part_.tile), channel_blocks), kTiles)));
    for (int b : {u_, v_, acc_, staged_}) per_block.push_back(alloc(k_.buffer(b)));
    per_block.push_back(threads([&](const Var& thread) {
      Block zero;
      for (int64_t i = 0; i < kPerThread * kPerThread; ++i) zero.push_back(store(acc(), acc_of(thread, i), float_imm(0)));
      return zero;
    }));

    const Var slice = new_var(k_, "slice", i64());  // of the part's, with a split
    Block per_slice;
    per_slice.push_back(threads([&](const Var& thread) { return transform_slice(thread, part_.slice(var_ref(slice))); }));
    per_slice.push_back(threads([&](const Var& thread) { return fold(thread); }));
    per_block.push_back(for_loop(slice, part_.slices, LoopKind::Reduction, std::move(per_slice)));

    for (int64_t round = 0; round < kRounds; ++round) {
      per_block.push_back(threads([&](const Var& thread) { return stash(thread, round); }));
      per_block.push_back(threads([&](const Var& thread) { return write(thread, round); }));
    }
    k_.body.push_back(for_loop(t, int_imm(k_part_iterations(blocks)), LoopKind::Parallel, std::move(per_block)));
  }

 private:
  const Buffer& acc() const { return k_.buffer(acc_); }
  Expr acc_of(const Var& thread, int64_t i) { return thread_slot_index(thread, acc(), int_imm(i)); }

  template <class Body>
  Stmt threads(Body body) {
    return counted_loop(k_, "thread", kThreads, LoopKind::Threads, body);
  }

  // buffer[index] as float32 where `ok` holds (null: always), else 0: through the thread's
  // slot `slot` of `staged` (a register), so that no load leaves the buffer.
  Expr staged_load(Block& at, const Var& thread, const Buffer& b, const Expr& ok, const Expr& index, int64_t slot) {
    if (!ok) return cast(f32(), load(b, index));
    const Buffer& staged = k_.buffer(staged_);
    const Expr reg = thread_slot_index(thread, staged, int_imm(slot));
    at.push_back(store(staged, reg, float_imm(0)));
    at.push_back(if_then(ok, Block{store(staged, reg, cast(f32(), load(b, index)))}));
    return load(staged, reg);
  }

  Var bind(Block& at, const char* name, Expr e, DataType type = i64()) {
    const Var v = new_var(k_, name, type);
    at.push_back(let(v, std::move(e)));
    return v;
  }

  // Tile `p`'s image and first output row and column (2 x its tile row and column), as lets.
  struct TilePlace {
    Var n, oh, ow;
  };
  TilePlace place_of(Block& at, const Expr& p) {
    return {bind(at, "n", index_div(p, tiles_h_ * tiles_w_)),
            bind(at, "oh", index_scale(index_rem(index_div(p, tiles_w_), tiles_h_), 2)),
            bind(at, "ow", index_scale(index_rem(p, tiles_w_), 2))};
  }

  // Step 1: the thread's patch of input channel slice * kDepth + c under tile p0 + j, and
  // the filter of output channel k0 + j over the same channel, transformed into v and u.
  Block transform_slice(const Var& thread, const Expr& slice) {
    Block at;
    const Var c = bind(at, "c", index_div(var_ref(thread), kTiles));
    const Var j = bind(at, "j", index_rem(var_ref(thread), kTiles));
    const Var channel = bind(at, "channel", index_add(index_scale(slice, kDepth), var_ref(c)));
    const Expr channel_ok = p_.channels % kDepth != 0 ? compare(CmpOp::Lt, var_ref(channel), int_imm(p_.channels)) : nullptr;
    const int64_t H = p_.height, W = p_.width;

    const Var p = bind(at, "p", index_add(var_ref(p0_), var_ref(j)));
    const Expr tile_ok = tiles_ % kTiles != 0 ? compare(CmpOp::Lt, var_ref(p), int_imm(tiles_)) : nullptr;
    const TilePlace tile = place_of(at, var_ref(p));
    const Var ih0 = bind(at, "ih0", index_add(var_ref(tile.oh), -p_.pad_begin[0]));
    const Var iw0 = bind(at, "iw0", index_add(var_ref(tile.ow), -p_.pad_begin[1]));
    const Var base = bind(at, "base", index_scale(index_add(index_scale(var_ref(tile.n), p_.channels), var_ref(channel)), H * W));
    Values patch;
    for (int64_t a = 0; a < kPatch; ++a)
      for (int64_t b = 0; b < kPatch; ++b) {
        const Expr ih = index_add(var_ref(ih0), a), iw = index_add(var_ref(iw0), b);
        const Expr ok = both(both(tile_ok, channel_ok), both(within(ih, H), within(iw, W)));
        patch.push_back(staged_load(at, thread, k_.buffer(data_), ok, index_sum({var_ref(base), index_scale(ih, W), iw}),
                                    a * kPatch + b));
      }
    store_terms(at, v_, transform_2d(k_, at, patch, kPatch, input_1d), c, j);

    const Var filter = bind(at, "filter", index_add(var_ref(k0_), var_ref(j)));
    const Var taps = bind(at, "taps", index_scale(index_add(index_scale(var_ref(filter), p_.channels), var_ref(channel)), 9));
    Values g;
    for (int64_t tap = 0; tap < 9; ++tap)
      g.push_back(staged_load(at, thread, k_.buffer(weight_), channel_ok, index_add(var_ref(taps), tap), kTerms + tap));
    store_terms(at, u_, transform_2d(k_, at, g, 3, filter_1d), c, j);
    return at;
  }

  void store_terms(Block& at, int buffer, const Values& terms, const Var& c, const Var& j) {
    for (int64_t term = 0; term < kTerms; ++term)
      at.push_back(store(k_.buffer(buffer), index_add(index_scale(index_add(var_ref(c), term * kDepth), kStride), var_ref(j)),
                         terms[static_cast<size_t>(term)]));
  }

  // The thread's term, and its row and column in the term's 4 x 4 grid of threads.
  struct FoldPlace {
    Var term, ty, tx;
  };
  FoldPlace fold_place(Block& at, const Var& thread) {
    return {bind(at, "term", index_div(var_ref(thread), kGrid * kGrid)),
            bind(at, "ty", index_rem(index_div(var_ref(thread), kGrid), kGrid)),
            bind(at, "tx", index_rem(var_ref(thread), kGrid))};
  }
  // The term's row (output channel) or column (tile) of a thread's i-th one, the thread at
  // `t` of the grid: groups of kGroup, the second half a tile further.
  static Expr place(const Var& t, int64_t i) {
    return index_sum({index_scale(var_ref(t), kGroup), int_imm(i / kGroup * (kChannels / 2) + i % kGroup)});
  }

  // Step 2: the slice's channels folded into the thread's outputs of its term.
  Block fold(const Var& thread) {
    Block at;
    const FoldPlace f = fold_place(at, thread);
    const Var c = new_var(k_, "cc", i64());
    Block step;
    const Var row = bind(step, "row", index_scale(index_add(index_scale(var_ref(f.term), kDepth), var_ref(c)), kStride));
    std::vector<Var> us, vs;
    for (int64_t i = 0; i < kPerThread; ++i)
      us.push_back(bind(step, "u", load(k_.buffer(u_), index_add(var_ref(row), place(f.ty, i))), f32()));
    for (int64_t j = 0; j < kPerThread; ++j)
      vs.push_back(bind(step, "v", load(k_.buffer(v_), index_add(var_ref(row), place(f.tx, j))), f32()));
    for (int64_t i = 0; i < kPerThread; ++i)
      for (int64_t j = 0; j < kPerThread; ++j) {
        const Expr slot = acc_of(thread, i * kPerThread + j);
        step.push_back(store(acc(), slot,
                             call(MathFn::Fma, {var_ref(us[static_cast<size_t>(i)]), var_ref(vs[static_cast<size_t>(j)]),
                                                load(acc(), slot)})));
      }
    at.push_back(for_loop(c, int_imm(kDepth), LoopKind::Reduction, std::move(step)));
    return at;
  }

  // A round's products into v's buffer, [term][q][tile]: round r takes each thread's rows
  // i = r and r + kGroup (output channels 4 ty + r and 16 + 4 ty + r), q = i / kGroup *
  // kGrid + ty.
  Block stash(const Var& thread, int64_t round) {
    Block at;
    const FoldPlace f = fold_place(at, thread);
    for (int64_t h = 0; h < 2; ++h) {
      const int64_t i = h * kGroup + round;
      const Var q_row = bind(at, "q_row",
                             index_scale(index_add(index_scale(var_ref(f.term), kRoundChannels), index_add(var_ref(f.ty), h * kGrid)),
                                         kTiles));
      for (int64_t j = 0; j < kPerThread; ++j)
        at.push_back(store(k_.buffer(v_), index_add(var_ref(q_row), place(f.tx, j)), load(acc(), acc_of(thread, i * kPerThread + j))));
    }
    return at;
  }

  // A round's outputs: thread (q, j) takes output channel k0 + 4 (q % 4) + 16 (q / 4) +
  // round over tile p0 + j, A^T M A of its 16 products.
  Block write(const Var& thread, int64_t round) {
    Block at;
    const Var q = bind(at, "q", index_div(var_ref(thread), kTiles));
    const Var j = bind(at, "j", index_rem(var_ref(thread), kTiles));
    Values m;
    for (int64_t term = 0; term < kTerms; ++term)
      m.push_back(load(k_.buffer(v_), index_sum({index_scale(var_ref(q), kTiles), int_imm(term * kRoundChannels * kTiles), var_ref(j)})));
    Block outputs;
    const Values y = transform_2d(k_, outputs, m, kPatch, output_1d);
    const Var p = bind(outputs, "p", index_add(var_ref(p0_), var_ref(j)));
    const TilePlace tile = place_of(outputs, var_ref(p));
    const Var filter = bind(outputs, "filter",
                            index_sum({var_ref(k0_), index_scale(index_rem(var_ref(q), kGrid), kGroup),
                                       index_scale(index_div(var_ref(q), kGrid), kChannels / 2), int_imm(round)}));
    const int64_t OH = p_.out_h, OW = p_.out_w;
    // the tile's first output: in the output (NCHW), or with a split its position (image,
    // row, column) among the part's float32 sums (store_partial: channel, then position)
    const bool split = part_.span > 0;
    const Expr position = index_sum({index_scale(var_ref(tile.n), split ? OH * OW : p_.out_channels * OH * OW),
                                     index_scale(var_ref(tile.oh), OW), var_ref(tile.ow)});
    const Var first = bind(outputs, "first", split ? position : index_add(position, index_scale(var_ref(filter), OH * OW)));
    for (int64_t a = 0; a < 2; ++a)
      for (int64_t b = 0; b < 2; ++b) {
        const Expr& value = y[static_cast<size_t>(a * 2 + b)];
        const Expr at_output = index_add(var_ref(first), a * OW + b);
        Stmt s = split ? store_partial(k_, outputs_, part_, int_imm(0), var_ref(filter), at_output, value)
                       : store(k_.buffer(out_), at_output, cast(p_.dtype, value));
        // a last tile row (column) of an odd output height (width) has one output row (column)
        Expr inside = both(a > 0 && OH % 2 != 0 ? compare(CmpOp::Lt, index_add(var_ref(tile.oh), a), int_imm(OH)) : nullptr,
                           b > 0 && OW % 2 != 0 ? compare(CmpOp::Lt, index_add(var_ref(tile.ow), b), int_imm(OW)) : nullptr);
        outputs.push_back(inside ? if_then(inside, Block{std::move(s)}) : std::move(s));
      }
    if (tiles_ % kTiles != 0) {
      at.push_back(if_then(compare(CmpOp::Lt, index_add(var_ref(p0_), var_ref(j)), int_imm(tiles_)), std::move(outputs)));
    } else {
      for (Stmt& s : outputs) at.push_back(std::move(s));
    }
    return at;
  }

  Kernel& k_;
  const Conv2dProgram& p_;
  const int data_, weight_, out_;
  const BlockGemm& outputs_;
  const int64_t tiles_h_, tiles_w_, tiles_;  // tiles of 2 x 2 outputs: down, across, in all
  int u_ = -1, v_ = -1, acc_ = -1, staged_ = -1;
  Var k0_, p0_;  // the block's first output channel and first tile
  KPart part_;
};

}  // namespace

bool winograd_conv2d_fits(const Conv2dProgram& p) {
  return p.groups == 1 && p.kernel_h == 3 && p.kernel_w == 3 && p.strides == std::array<int64_t, 2>{1, 1} &&
         p.dilation == std::array<int64_t, 2>{1, 1} && p.out_channels % kWinogradChannels == 0 && p.channels > 0 &&
         p.batch * p.out_h * p.out_w > 0 && folds_in_float32(p.dtype);
}

int64_t winograd_split_parts(const Conv2dProgram& p) {
  return winograd_conv2d_fits(p) ? split_k_parts(block_gemm_tiles(blocks_of(p, 1)), p.channels, kDepth) : 1;
}

LoweredKernel lower_winograd_conv2d(const Conv2dProgram& p, std::string name, int64_t splits) {
  LoweredKernel r;
  if (!winograd_conv2d_fits(p)) {
    r.error = "a convolution Winograd's F(2 x 2, 3 x 3) does not fit (3 x 3, stride 1, no dilation, one group, "
              "output channels a multiple of " + std::to_string(kWinogradChannels) + ", float32/float16/bfloat16)";
    return r;
  }
  if (splits < 1) {
    r.error = "input channels split in no parts";
    return r;
  }
  const int64_t N = p.batch, C = p.channels, H = p.height, W = p.width, O = p.out_channels, OH = p.out_h, OW = p.out_w;
  const std::vector<int64_t> out_shape{N, O, OH, OW}, out_strides{O * OH * OW, OH * OW, OW, 1};
  Kernel& k = r.kernel;
  k.name = std::move(name);
  const int data = add_param(k, "data", p.dtype, {N, C, H, W}, {C * H * W, H * W, W, 1});
  const int weight = add_param(k, "weight", p.dtype, {O, C, 3, 3}, {C * 9, 9, 3, 1});
  BlockGemm outputs = outputs_of(p, splits);
  // split: the first kernel's output is the parts' sums, the finish's the output
  r.output_buffer = splits > 1 ? add_param(k, "partials", f32(), {split_partials(outputs)}, {1})
                               : add_param(k, "out", p.dtype, out_shape, out_strides);
  if (splits > 1) outputs.partials = r.output_buffer;
  if (r.error = check_split(k, outputs, kDepth); !r.error.empty()) return r;
  Builder(k, p, data, weight, r.output_buffer, outputs).build();
  if (splits > 1) {
    outputs.out = conv_output_store(p, 1);  // the parts' total into the NCHW output
    r.finish = lower_split_finish(outputs, k.name + "_finish", p.dtype, out_shape, out_strides).kernel;
  }
  return r;
}

}  // namespace relay::loops
