// canonicalize_qnn's rules for the operators next to the int8 library calls: the weight
// zero points of qnn.conv2d and qnn.dense that oneDNN's int8 kernels cannot take,
// qnn.avg_pool2d and qnn.softmax (qnn_rewrite.h declares them).
#include <cmath>

#include "compiler/graph/qnn_rewrite.h"
#include "compiler/graph/rewrite_util.h"
#include "lang/ops/op_registry.h"

namespace relay::compiler::qnn {

namespace {

// The weight zero point the int8 library kernels take: 0 for int8 weights, 128 for uint8
// ones (flipped to int8 when prepared: compiler/dnnl/quantized_kernels.cpp).
int64_t library_weight_zero(DataType weights) { return weights == DataType::uint_(8) ? 128 : 0; }

// Whether a quantized convolution's or dense layer's weight zero point is one the int8
// library kernels do not take (library_weight_zero), so the rewrites below split it off.
bool weights_need_rewrite(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  if (in.size() != 6 || n.attrs.get_dtype("out_dtype") != kI32) return false;
  const DataType w = dtype_of(b, in[1]);
  if (w != DataType::int_(8) && w != DataType::uint_(8)) return false;
  return scalar_constant(b.node(in[3])) != static_cast<double>(library_weight_zero(w));
}

// The call with the library's weight zero point, and (zw - that zero point) as int32.
struct LibraryTerm {
  NodeId call, zero_point_left;
};
LibraryTerm library_term(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const NodeId zero = scalar_of(b, kI32, static_cast<double>(library_weight_zero(dtype_of(b, in[1]))), s);
  const NodeId call_with_zero = b.call(*n.op, n.attrs, {in[0], in[1], in[2], zero, in[4], in[5]}, s);
  return {call_with_zero, call(b, "subtract", {cast_to(b, in[3], kI32, s), zero}, s)};
}

// qnn.conv2d with a weight zero point zw the library does not take (TVM's four-term
// expansion, the term oneDNN cannot take split off): with z the library's (0, or 128 for
// uint8 weights), sum((x - zx) * (w - zw)) = conv(x, w; zx, z) - (zw - z) * conv(x, ones; zx),
// the second a convolution of the same windows with all-ones weights (one output channel,
// or the weights' shape when grouped), int32 throughout and wrapping alike, so bit for bit
// the reference. Both convolutions reach oneDNN's int8 kernels.
NodeId conv2d_weight_zero_point(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const auto w_shape = concrete_shape(b.type_of(in[1]));
  const std::string layout = n.attrs.get_string("kernel_layout"), data_layout = n.attrs.get_string("data_layout");
  const std::string out_layout = n.attrs.get_string("out_layout").empty() ? data_layout : n.attrs.get_string("out_layout");
  const bool oihw = layout.empty() || layout == "OIHW", hwio = layout == "HWIO";
  const int64_t out_axis = out_layout.empty() || out_layout == "NCHW" ? 1 : out_layout == "NHWC" ? 3 : -1;
  if (!w_shape || w_shape->size() != 4 || !(oihw || hwio) || out_axis < 0) return b.copy(n, in);
  const LibraryTerm main = library_term(b, n, in);
  const NodeId zero = scalar_of(b, kI32, 0, s), one = scalar_of(b, kF32, 1, s);
  const auto zw = along_axis(b, main.zero_point_left, kI32, main.call, out_axis, s);
  if (!zw) return b.copy(n, in);
  // One output channel when ungrouped (the window sum is every channel's); else every one.
  std::vector<int64_t> ones_shape = *w_shape;
  CallAttrs ones_attrs = n.attrs;
  if (n.attrs.get_int("groups", 1) == 1) {
    ones_shape[oihw ? 0 : 3] = 1;
    ones_attrs = with_attr(n.attrs, "channels", attr_int(1));
  }
  rt::NDArray ones = rt::NDArray::empty(ones_shape, DataType::int_(8));
  for (int64_t i = 0; i < ones.size(); ++i) ones.set_double(i, 1);
  const NodeId window_sums = b.call(*n.op, ones_attrs, {in[0], b.constant(ones, s), in[2], zero, in[4], one}, s);
  return call(b, "subtract", {main.call, call(b, "multiply", {*zw, window_sums}, s)}, s);
}

// qnn.dense likewise: dense(x, w; zx, z) - (zw - z) * the row sums of x - zx.
NodeId dense_weight_zero_point(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  if (rank_of(b, in[0]) != 2) return b.copy(n, in);
  const LibraryTerm main = library_term(b, n, in);
  const auto zw = along_axis(b, main.zero_point_left, kI32, main.call, 1, s);
  const auto zx = along_axis(b, in[2], kI32, in[0], 0, s);
  if (!zw || !zx || concrete_shape(b.type_of(*zx))->size() != 0) return b.copy(n, in);
  const NodeId shifted = call(b, "subtract", {cast_to(b, in[0], kI32, s), *zx}, s);
  const NodeId row_sums =
      b.call("sum", {{"axis", attr_ints(std::vector<int64_t>{1})}, {"keepdims", attr_bool(true)}}, {shifted}, s);
  return call(b, "subtract", {main.call, call(b, "multiply", {*zw, row_sums}, s)}, s);
}

}  // namespace

NodeId avg_pool2d(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const OpInfo* pool = find_op("nn.avg_pool2d");
  if (!pool || in.size() != 5 || concrete_shape(b.type_of(in[1]))->size() != 0 ||
      concrete_shape(b.type_of(in[2]))->size() != 0)
    return b.copy(n, in);  // the reference takes scalars only, and says so
  const auto r = requantized_int32(b, in[0], in[1], in[2], in[3], in[4], -1, true, s);
  if (!r) return b.copy(n, in);
  return saturated(b, b.call(*pool, n.attrs, {*r}, s), dtype_of(b, in[0]), s);
}

NodeId softmax(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  if (in.size() != 5 || dtype_of(b, in[0]) != DataType::int_(8)) return b.copy(n, in);
  const auto scale = scalar_constant(b.node(in[1]));
  const auto zp_shape = concrete_shape(b.type_of(in[2]));
  if (!scale || !zp_shape || zp_shape->size() > 1 || (zp_shape->size() == 1 && (*zp_shape)[0] != 1)) return b.copy(n, in);
  const auto scale32 = static_cast<float>(*scale);
  const float x0f = std::round(1.0f / scale32);
  if (!(scale32 > 0.0f && scale32 <= 1.0f) || x0f > 2147483647.0f) return b.copy(n, in);  // the reference's errors
  const auto x0 = static_cast<int64_t>(x0f);
  const int64_t axis = n.attrs.get_int("axis", -1);
  auto i32 = [&](int64_t v) { return scalar_of(b, kI32, static_cast<double>(v), s); };
  auto reduce = [&](std::string_view op, NodeId v) {
    return b.call(op, {{"axis", attr_ints(std::vector<int64_t>{axis})}, {"keepdims", attr_bool(true)}}, {v}, s);
  };
  const NodeId q = call(b, "subtract", {cast_to(b, in[0], kI32, s), cast_to(b, in[2], kI32, s)}, s);
  const NodeId d = call(b, "subtract", {q, reduce("max", q)}, s);
  const NodeId xp = call(b, "subtract", {call(b, "add", {d, call(b, "right_shift", {d, i32(1)}, s)}, s),
                                         call(b, "right_shift", {d, i32(4)}, s)}, s);
  const NodeId k = clip(b, call(b, "divide", {xp, i32(-x0)}, s), 0, 20, s);
  const NodeId r = call(b, "subtract", {xp, call(b, "multiply", {k, i32(-x0)}, s)}, s);
  const NodeId e = call(b, "left_shift", {call(b, "add", {call(b, "right_shift", {r, i32(1)}, s), i32(x0)}, s),
                                          call(b, "subtract", {reduce("max", k), k}, s)}, s);
  const NodeId recip = call(b, "divide", {i32(int64_t{1} << 30), reduce("sum", e)}, s);
  const NodeId out = call(b, "right_shift", {call(b, "multiply", {recip, e}, s), i32(30 - 7)}, s);
  const auto rq = requantized_int32(b, out, scalar_of(b, kF32, 1.0 / 128, s), i32(0), in[3], in[4], -1, true, s);
  return rq ? saturated(b, *rq, DataType::int_(8), s) : b.copy(n, in);
}

std::optional<NodeId> weight_zero_point_split(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  if (!weights_need_rewrite(b, n, in)) return std::nullopt;
  return n.op->name == "qnn.conv2d" ? conv2d_weight_zero_point(b, n, in) : dense_weight_zero_point(b, n, in);
}

}  // namespace relay::compiler::qnn
