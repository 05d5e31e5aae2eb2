// qnn.quantize, qnn.dequantize, qnn.requantize, qnn.add, qnn.subtract, qnn.mul,
// qnn.leaky_relu, qnn.avg_pool2d, qnn.softmax, qnn.concatenate and the unary operators as
// ordinary operators, as TVM's QNN canonicalisation lowers them (QuantizeLower,
// DequantizeLower, RequantizeLower with compute_dtype int64, QnnAddCanonicalize,
// QnnSubtractCanonicalize, QnnMulCanonicalize, QnnLeakyReluCanonicalize,
// QnnSoftmaxCanonicalize, the pool's and the concatenate's requantized inputs,
// legalizations.py's lookup tables), so
// that they fuse into native kernels with what surrounds them: the requantize after a quantized convolution becomes the convolution's native
// epilogue. Each step is the reference kernel's (interpreter/kernels/qnn.cpp), in the
// same dtypes and order, so results are equal bit for bit (tests/compiler/qnn_test.cpp).
//
// Requantize multiplies by the fixed-point form of in_scale / out_scale per channel: a
// 31-bit multiplier and a shift (frexp of the ratio, as GetFixedPointMultiplierShift).
// With constant scales fold_constants computes them at compile time. With scales that
// are parameters (or computed from them) they are computed per call from the scales
// alone, a few values, and an annotation.stop_fusion keeps that computation out of the
// element-wise kernel, which would otherwise redo it for every element.
//
// What the reference kernel would reject (an out-of-range axis, a per-channel parameter of
// the wrong length, an output scale of 0) or that has no rewrite here (an output scale
// that is not a constant) keeps the qnn call. The arithmetic the rules share:
// qnn_rewrite.h; the rules next to the int8 library calls (weight zero points, the pool,
// softmax): canonicalize_qnn_nn.cpp.
#include <cmath>
#include <optional>

#include "compiler/graph/passes.h"
#include "compiler/graph/qnn_rewrite.h"
#include "compiler/graph/rebuild.h"
#include "compiler/graph/rewrite_util.h"
#include "interpreter/kernels/qnn_unary.h"

namespace relay::compiler {

namespace {

using namespace qnn;

// Round(x / scale) + zp in float32, clipped to out_dtype's range and cast to it.
NodeId quantize(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const auto out = n.attrs.get_dtype("out_dtype");
  const int64_t axis = n.attrs.get_int("axis", -1);
  if (in.size() != 3 || dtype_of(b, in[0]) != kF32 || !out || !quantized_dtype(*out)) return b.copy(n, in);
  const auto scale = along_axis(b, in[1], kF32, in[0], axis, s), zp = along_axis(b, in[2], kI32, in[0], axis, s);
  if (!scale || !zp) return b.copy(n, in);
  NodeId q = call(b, "round", {call(b, "divide", {in[0], *scale}, s)}, s);
  q = call(b, "add", {q, cast_to(b, *zp, kF32, s)}, s);
  return cast_to(b, clip(b, q, qmin(*out), qmax(*out), s), *out, s);
}

// float32(int32(x) - zp) * scale.
NodeId dequantize(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const auto out = n.attrs.get_dtype("out_dtype");
  const int64_t axis = n.attrs.get_int("axis", -1);
  if (in.size() != 3 || !quantized_dtype(dtype_of(b, in[0])) || (out && *out != kF32)) return b.copy(n, in);
  const auto scale = along_axis(b, in[1], kF32, in[0], axis, s), zp = along_axis(b, in[2], kI32, in[0], axis, s);
  if (!scale || !zp) return b.copy(n, in);
  const NodeId shifted = call(b, "subtract", {cast_to(b, in[0], kI32, s), *zp}, s);
  return call(b, "multiply", {cast_to(b, shifted, kF32, s), *scale}, s);
}

NodeId requantize(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const auto out = n.attrs.get_dtype("out_dtype");
  const std::string compute = n.attrs.get_string("compute_dtype"), rounding = n.attrs.get_string("rounding");
  const bool upward = rounding.empty() || rounding == "UPWARD" || rounding == "None";
  const bool fp = compute == "float32" || compute == "float64";
  if (in.size() != 5 || !out || !quantized_dtype(*out) ||
      !(compute.empty() || compute == "None" || compute == "int64" || fp) || !(upward || rounding == "TONEAREST"))
    return b.copy(n, in);
  const int64_t axis = n.attrs.get_int("axis", -1);
  const auto r = fp ? requantized_fp(b, compute == "float32" ? kF32 : kF64, in[0], in[1], in[2], in[3], in[4], axis, upward,
                                     n.span)
                    : requantized_int32(b, in[0], in[1], in[2], in[3], in[4], axis, upward, n.span);
  return r ? saturated(b, *r, *out, n.span) : b.copy(n, in);
}

// qnn.add and qnn.subtract (lhs, rhs, lhs_scale, lhs_zp, rhs_scale, rhs_zp, output_scale,
// output_zp): each operand requantized (UPWARD) to the output's scale and zero point in
// int32, then (a + b) - out_zp or (a - b) + out_zp in wrapping int32, saturated to the
// operands' dtype (QnnAddCanonicalize, QnnSubtractCanonicalize).
NodeId add_subtract(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in, bool add) {
  const Span s = n.span;
  if (in.size() != 8) return b.copy(n, in);
  const auto lhs = requantized_int32(b, in[0], in[2], in[3], in[6], in[7], n.attrs.get_int("lhs_axis", -1), true, s);
  const auto rhs = requantized_int32(b, in[1], in[4], in[5], in[6], in[7], n.attrs.get_int("rhs_axis", -1), true, s);
  if (!lhs || !rhs || dtype_of(b, in[7]) != kI32) return b.copy(n, in);
  const NodeId combined = call(b, add ? "add" : "subtract", {*lhs, *rhs}, s);
  const NodeId result = call(b, add ? "subtract" : "add", {combined, in[7]}, s);
  return saturated(b, result, dtype_of(b, in[0]), s);
}

// qnn.mul (the eight inputs of qnn.add) with one scale per operand: the zero-point-shifted
// operands multiplied in int32, requantized (UPWARD) from the scale lhs_scale * rhs_scale
// (a float32 product) to the output's and saturated to the operands' dtype
// (QnnMulCanonicalize). Per-channel scales keep the call.
NodeId mul(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  auto one_value = [&](NodeId id) {
    const auto shape = concrete_shape(b.type_of(id));
    int64_t count = 1;
    for (int64_t d : shape ? *shape : std::vector<int64_t>{0, 0}) count *= d;
    return count == 1 && dtype_of(b, id) == kF32;
  };
  if (in.size() != 8 || !one_value(in[2]) || !one_value(in[4]) || !quantized_dtype(dtype_of(b, in[0])))
    return b.copy(n, in);
  const auto lhs_zp = along_axis(b, in[3], kI32, in[0], n.attrs.get_int("lhs_axis", -1), s);
  const auto rhs_zp = along_axis(b, in[5], kI32, in[1], n.attrs.get_int("rhs_axis", -1), s);
  if (!lhs_zp || !rhs_zp) return b.copy(n, in);
  const NodeId lhs = call(b, "subtract", {cast_to(b, in[0], kI32, s), *lhs_zp}, s);
  const NodeId rhs = call(b, "subtract", {cast_to(b, in[1], kI32, s), *rhs_zp}, s);
  const NodeId product = call(b, "multiply", {lhs, rhs}, s);
  const NodeId scale = call(b, "multiply", {in[2], in[4]}, s);
  const auto r = requantized_int32(b, product, scale, scalar_of(b, kI32, 0, s), in[6], in[7], -1, true, s);
  return r ? saturated(b, *r, dtype_of(b, in[0]), s) : b.copy(n, in);
}

// qnn.exp, qnn.sigmoid and the other unary operators (data, scale, zero point, output
// scale, output zero point) of int8 or uint8 data with constant parameters: the lookup
// table of every result (qnn_unary.h), the same one the reference kernel's values come
// from, taken at the data. Other calls keep the reference kernel.
NodeId unary(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in, rt::QuantizedUnaryFunction f) {
  const Span s = n.span;
  if (in.size() != 5) return b.copy(n, in);
  const DataType dtype = dtype_of(b, in[0]);
  std::optional<double> p[4];
  for (size_t i = 0; i < 4; ++i) p[i] = scalar_constant(b.node(in[i + 1]));
  if (dtype.bits != 8 || !quantized_dtype(dtype) || !p[0] || !p[1] || !p[2] || !p[3]) return b.copy(n, in);
  const rt::QuantizedUnaryParams params{static_cast<float>(*p[0]), static_cast<int32_t>(*p[1]),
                                        static_cast<float>(*p[2]), static_cast<int32_t>(*p[3])};
  const NodeId table = b.constant(rt::quantized_unary_table(f, params, dtype), s);
  const NodeId index =
      call(b, "subtract", {cast_to(b, in[0], kI32, s), scalar_of(b, kI32, static_cast<double>(integer_min(dtype)), s)}, s);
  return b.call("take", {{"axis", attr_int(0)}, {"mode", attr_string("clip")}}, {table, index}, s);
}

// qnn.leaky_relu (x, input scale and zero point, output scale and zero point):
// QnnLeakyReluCanonicalize. x requantized (UPWARD) to the output's parameters in int32;
// where x is under its zero point, alpha times that plus (1 - alpha) times the output's
// zero point instead, each product a fixed-point multiplication (UPWARD) by the float64
// attribute's fixed-point form; saturated to x's dtype.
NodeId leaky_relu(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  if (in.size() != 5 || concrete_shape(b.type_of(in[1]))->size() != 0 || concrete_shape(b.type_of(in[2]))->size() != 0)
    return b.copy(n, in);  // the reference takes scalars only, and says so
  const auto r = requantized_int32(b, in[0], in[1], in[2], in[3], in[4], -1, true, s);
  if (!r) return b.copy(n, in);
  const double alpha = n.attrs.get_double("alpha", 0.25);
  const NodeId scaled = fixed_point_multiplied(b, *r, fixed_point(b, scalar_of(b, kF64, alpha, s), s), true, s);
  const NodeId zero_part =
      fixed_point_multiplied(b, cast_to(b, in[4], kI32, s), fixed_point(b, scalar_of(b, kF64, 1.0 - alpha, s), s), true, s);
  const NodeId below = call(b, "less", {cast_to(b, in[0], kI32, s), cast_to(b, in[2], kI32, s)}, s);
  return saturated(b, where(b, below, call(b, "add", {scaled, zero_part}, s), *r, s), dtype_of(b, in[0]), s);
}

// qnn.concatenate (a tuple of data, tuples of their scales and zero points, the output's
// scale and zero point): each input requantized (UPWARD) to the output's parameters and
// saturated to the first input's dtype, then concatenated. The reference skips inputs
// whose parameters are the output's; requantizing those gives them back unchanged.
NodeId concatenate(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  if (in.size() != 5) return b.copy(n, in);
  // The tuples' fields, copied: the builder's nodes move as calls are added.
  auto fields = [&](NodeId id) {
    const Node& t = b.node(id);
    return t.kind == NodeKind::Tuple ? t.inputs : std::vector<NodeId>{};
  };
  const std::vector<NodeId> data = fields(in[0]), scales = fields(in[1]), zeros = fields(in[2]);
  if (data.empty() || scales.size() != data.size() || zeros.size() != data.size()) return b.copy(n, in);
  const DataType dtype = dtype_of(b, data[0]);
  std::vector<NodeId> parts;
  for (size_t i = 0; i < data.size(); ++i) {
    const NodeId scale = scales[i], zero = zeros[i];
    if (concrete_shape(b.type_of(scale))->size() != 0 || concrete_shape(b.type_of(zero))->size() != 0)
      return b.copy(n, in);  // the reference takes scalars only, and says so
    const auto r = requantized_int32(b, data[i], scale, zero, in[3], in[4], -1, true, s);
    if (!r) return b.copy(n, in);
    parts.push_back(saturated(b, *r, dtype, s));
  }
  return b.call("concatenate", {{"axis", attr_int(n.attrs.get_int("axis", 0))}}, {b.tuple(std::move(parts), s)}, s);
}

}  // namespace

Graph canonicalize_qnn(const Graph& g) {
  return rebuild(g, [](GraphBuilder& b, const Node& n, std::vector<NodeId> in) {
    if (n.kind != NodeKind::Call) return b.copy(n, std::move(in));
    const std::string_view op = n.op->name;
    if (op == "qnn.quantize") return quantize(b, n, in);
    if (op == "qnn.dequantize") return dequantize(b, n, in);
    if (op == "qnn.requantize") return requantize(b, n, in);
    if (op == "qnn.add") return add_subtract(b, n, in, true);
    if (op == "qnn.subtract") return add_subtract(b, n, in, false);
    if (op == "qnn.concatenate") return concatenate(b, n, in);
    if (op == "qnn.mul") return mul(b, n, in);
    if (op == "qnn.leaky_relu") return leaky_relu(b, n, in);
    if (op == "qnn.avg_pool2d") return qnn::avg_pool2d(b, n, in);
    if (op == "qnn.softmax") return qnn::softmax(b, n, in);
    if (op == "qnn.conv2d" || op == "qnn.dense")
      if (const auto split = qnn::weight_zero_point_split(b, n, in)) return *split;
    if (const auto f = rt::quantized_unary_function(op)) return unary(b, n, in, f);
    return b.copy(n, std::move(in));
  });
}

}  // namespace relay::compiler
