// The convolution as a block-tiled product (conv2d.h, lower_block_conv2d): block_gemm.h
// (on the float32 units or the tensor cores) with A the weights [O, C * KH * KW] and B
// the window of each output position.
#include "compiler/loops/conv2d.h"
#include "compiler/loops/index_math.h"

#include <tuple>

namespace relay::loops {

bool block_conv2d_fits(const Conv2dProgram& p, int64_t side) {
  return p.groups == 1 && p.out_channels % side == 0 && p.batch * p.out_h * p.out_w > 0 &&
         p.channels * p.kernel_h * p.kernel_w > 0;
}

GemmWriter conv_output_store(const Conv2dProgram& p, int out) {
  const int64_t O = p.out_channels, positions = p.out_h * p.out_w;
  const DataType t = p.dtype;
  return [=](Kernel& kn, Block& at, const Expr&, const Expr& row, const Expr& col, const Expr& value) {
    at.push_back(store(kn.buffer(out),
                       index_sum({index_scale(index_div(col, positions), O * positions), index_scale(row, positions),
                                  index_rem(col, positions)}),
                       cast(t, value)));
  };
}

LoweredKernel lower_block_conv2d(const Conv2dProgram& p, std::string name, const Conv2dTile& tile) {
  LoweredKernel r;
  if (!folds_in_float32(p.dtype)) {
    r.error = "a convolution of " + dtype_name(p.dtype);
    return r;
  }
  const int64_t side = tile.kind().block_side();
  if (!block_conv2d_fits(p, side) || p.strides[0] < 1 || p.strides[1] < 1 || p.dilation[0] < 1 || p.dilation[1] < 1) {
    r.error = "a convolution that block tiles do not fit (one group, output channels a multiple of " +
              std::to_string(side) + ")";
    return r;
  }
  BlockGemm g;
  if (r.error = shape_blocks(g, tile.kind()); !r.error.empty()) return r;
  const int64_t N = p.batch, C = p.channels, H = p.height, W = p.width, O = p.out_channels;
  const int64_t KH = p.kernel_h, KW = p.kernel_w, OH = p.out_h, OW = p.out_w, window = C * KH * KW;
  Kernel& k = r.kernel;
  k.name = std::move(name);
  const DataType t = p.dtype;
  g.rows = O, g.cols = N * OH * OW, g.depth = window;
  const std::vector<int64_t> out_shape{N, O, OH, OW}, out_strides{O * OH * OW, OH * OW, OW, 1};
  const int data = add_param(k, "data", t, {N, C, H, W}, {C * H * W, H * W, W, 1});
  const int weight = add_param(k, "weight", t, {O, C, KH, KW}, {window, KH * KW, KW, 1});
  // split in parts of k: the first kernel's output is the parts' sums, the finish's the output
  const bool split = g.splits > 1;
  r.output_buffer = split ? add_param(k, "partials", f32(), {split_partials(g)}, {1})
                          : add_param(k, "out", t, out_shape, out_strides);
  if (split) g.partials = r.output_buffer;

  // An output position's image, row and column, as lets.
  auto position = [OH, OW](Kernel& kn, Block& at, const Expr& col) {
    const Var n = new_var(kn, "n", i64()), oh = new_var(kn, "oh", i64()), ow = new_var(kn, "ow", i64());
    at.push_back(let(n, index_div(col, OH * OW)));
    at.push_back(let(oh, index_rem(index_div(col, OW), OH)));
    at.push_back(let(ow, index_rem(col, OW)));
    return std::tuple{n, oh, ow};
  };

  g.a_walk = SliceWalk::AlongK;     // a filter's terms are consecutive
  g.b_walk = SliceWalk::AlongRows;  // neighbouring positions read neighbouring inputs
  g.a = [=](Kernel& kn, Block&, const Expr&, const Expr& row, const Expr& term) {
    return GemmElement{load(kn.buffer(weight), index_add(index_scale(row, window), term)), nullptr};
  };
  g.b = [=](Kernel& kn, Block& at, const Expr&, const Expr& col, const Expr& term) {
    auto [n, oh, ow] = position(kn, at, col);
    // the term's channel and tap, and the input it reads
    const Var ih = new_var(kn, "ih", i64()), iw = new_var(kn, "iw", i64()), c = new_var(kn, "c", i64());
    at.push_back(let(c, index_div(term, KH * KW)));
    at.push_back(let(ih, index_sum({index_scale(var_ref(oh), p.strides[0]), int_imm(-p.pad_begin[0]),
                                    index_scale(index_rem(index_div(term, KW), KH), p.dilation[0])})));
    at.push_back(let(iw, index_sum({index_scale(var_ref(ow), p.strides[1]), int_imm(-p.pad_begin[1]),
                                    index_scale(index_rem(term, KW), p.dilation[1])})));
    auto within = [](const Var& x, int64_t end) {
      return binary(BinaryOp::And, compare(CmpOp::Ge, var_ref(x), int_imm(0)), compare(CmpOp::Lt, var_ref(x), int_imm(end)));
    };
    const Expr at_input = index_sum({index_scale(var_ref(n), C * H * W), index_scale(var_ref(c), H * W),
                                     index_scale(var_ref(ih), W), var_ref(iw)});
    return GemmElement{load(kn.buffer(data), at_input), binary(BinaryOp::And, within(ih, H), within(iw, W))};
  };
  g.out = conv_output_store(p, r.output_buffer);
  r.error = tile.tensor_cores ? append_mma_gemm(k, g, t) : append_block_gemm(k, g);
  if (split && r.error.empty()) {
    g.out = conv_output_store(p, 1);
    r.finish = lower_split_finish(g, k.name + "_finish", t, out_shape, out_strides).kernel;
  }
  return r;
}

}  // namespace relay::loops
