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
// that is not a constant) keeps the qnn call.
#include <cmath>
#include <optional>

#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"
#include "compiler/graph/rewrite_util.h"
#include "interpreter/kernels/qnn_unary.h"

namespace relay::compiler {

namespace {

const DataType kI32 = DataType::int_(32), kI64 = DataType::int_(64), kF32 = DataType::float_(32),
               kF64 = DataType::float_(64);

// A quantized dtype the reference kernels produce: an integer of at most 32 bits.
bool quantized_dtype(DataType t) { return (t.is_int() || t.is_uint()) && t.bits <= 32 && t.lanes == 1; }

double qmin(DataType t) { return static_cast<double>(integer_min(t)); }
double qmax(DataType t) { return static_cast<double>(integer_max(t)); }

// A quantization parameter (a scale or zero point) of `dtype` made to broadcast against
// `x`: a scalar or one-value tensor as it is, one value per channel of `axis` expanded to
// (C, 1, ...); nullopt when it is neither (the reference kernel's error stands).
std::optional<NodeId> along_axis(GraphBuilder& b, NodeId param, DataType dtype, NodeId x, int64_t axis, Span s) {
  const auto shape = concrete_shape(b.type_of(param)), x_shape = concrete_shape(b.type_of(x));
  if (!shape || !x_shape || dtype_of(b, param) != dtype) return std::nullopt;
  int64_t count = 1;
  for (int64_t d : *shape) count *= d;
  if (count == 1) return shape->empty() ? param : b.call("reshape", {{"newshape", attr_ints(std::vector<int64_t>{})}}, {param}, s);
  const auto ndim = static_cast<int64_t>(x_shape->size());
  const int64_t a = normalized_axis(axis, ndim);
  if (shape->size() != 1 || a < 0 || a >= ndim || (*shape)[0] != (*x_shape)[static_cast<size_t>(a)]) return std::nullopt;
  return expand_to_axis(b, param, a, ndim, s);
}

NodeId call(GraphBuilder& b, std::string_view op, std::vector<NodeId> in, Span s) { return b.call(op, {}, std::move(in), s); }

NodeId clip(GraphBuilder& b, NodeId x, double lo, double hi, Span s) {
  return b.call("clip", {{"a_min", attr_double(lo)}, {"a_max", attr_double(hi)}}, {x}, s);
}

NodeId where(GraphBuilder& b, NodeId cond, NodeId then, NodeId otherwise, Span s) {
  return call(b, "where", {cond, then, otherwise}, s);
}

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

// The fixed-point form of a float64 `ratio` (in_scale / out_scale, float32 values divided
// in float64, or leaky_relu's alpha): multiplier q = round(f * 2^31) and shift e with ratio = f * 2^e, |f| in [0.5, 1) (frexp),
// a positive q = 2^31 carried into the shift, and (0, 0) for a ratio of 0. Two int64
// tensors of the scale's shape. floor(log2) may be one off next to a power of two; the
// check of f fixes it, and the powers of two are exact. A negative ratio (a negative
// scale: meaningless, but the reference computes it) is frexp's: the magnitude's form
// negated, as round is symmetric, and never carried.
struct FixedPoint {
  NodeId multiplier, shift;
};
FixedPoint fixed_point(GraphBuilder& b, NodeId ratio, Span s) {
  auto f64 = [&](double v) { return scalar_of(b, kF64, v, s); };
  const NodeId magnitude = call(b, "abs", {ratio}, s);
  const NodeId guess = call(b, "add", {call(b, "floor", {call(b, "log2", {magnitude}, s)}, s), f64(1)}, s);
  const NodeId f0 = call(b, "divide", {magnitude, call(b, "power", {f64(2), guess}, s)}, s);
  NodeId e = where(b, call(b, "greater_equal", {f0, f64(1)}, s), call(b, "add", {guess, f64(1)}, s),
                   where(b, call(b, "less", {f0, f64(0.5)}, s), call(b, "subtract", {guess, f64(1)}, s), guess, s), s);
  const NodeId f = call(b, "divide", {magnitude, call(b, "power", {f64(2), e}, s)}, s);
  NodeId q = call(b, "round", {call(b, "multiply", {f, f64(std::ldexp(1.0, 31))}, s)}, s);
  const NodeId negative = call(b, "less", {ratio, f64(0)}, s);
  const NodeId carry = call(b, "logical_and", {call(b, "equal", {q, f64(std::ldexp(1.0, 31))}, s),
                                               call(b, "logical_not", {negative}, s)}, s);
  q = where(b, carry, f64(std::ldexp(1.0, 30)), q, s);
  e = where(b, carry, call(b, "add", {e, f64(1)}, s), e, s);
  q = where(b, negative, call(b, "negative", {q}, s), q, s);
  const NodeId zero = call(b, "equal", {ratio, f64(0)}, s);
  q = where(b, zero, f64(0), q, s);
  e = where(b, zero, f64(0), e, s);
  // Computed once per call from the scales, not per element (the header says why), as one
  // value (q * 1024 + e + 512: |e| < 300 for float32 scales): one sink, so one kernel.
  auto i64 = [&](int64_t v) { return scalar_of(b, kI64, static_cast<double>(v), s); };
  NodeId packed = call(b, "add", {call(b, "multiply", {cast_to(b, q, kI64, s), i64(1024)}, s),
                                  call(b, "add", {cast_to(b, e, kI64, s), i64(512)}, s)}, s);
  packed = call(b, "annotation.stop_fusion", {packed}, s);
  return {call(b, "right_shift", {packed, i64(10)}, s),
          call(b, "subtract", {call(b, "bitwise_and", {packed, i64(1023)}, s), i64(512)}, s)};
}

// The int32 `x` times a fixed-point multiplier in int64 with the rounding (UPWARD:
// + 2^(r-1); TONEAREST: 2^(r-1) - 1 for a negative product) and an arithmetic shift right
// by r = 31 + max(-e, 0) after a shift left by max(e, 0) (a shift of 63 or more gives -1
// or 0 as the reference does), wrapped to int32: the reference's fixed_point_multiply.
NodeId fixed_point_multiplied(GraphBuilder& b, NodeId x, const FixedPoint& fp, bool upward, Span s) {
  auto i64 = [&](int64_t v) { return scalar_of(b, kI64, static_cast<double>(v), s); };
  const NodeId left = call(b, "maximum", {fp.shift, i64(0)}, s);
  const NodeId right = call(b, "add", {call(b, "maximum", {call(b, "negative", {fp.shift}, s), i64(0)}, s), i64(31)}, s);
  const NodeId product = call(b, "multiply", {call(b, "left_shift", {cast_to(b, x, kI64, s), left}, s), fp.multiplier}, s);
  const NodeId negative = call(b, "less", {product, i64(0)}, s);
  const NodeId half = call(b, "left_shift", {i64(1), call(b, "subtract", {right, i64(1)}, s)}, s);
  const NodeId round = upward ? half : where(b, negative, call(b, "subtract", {half, i64(1)}, s), half, s);
  NodeId scaled = call(b, "right_shift", {call(b, "add", {product, round}, s), right}, s);
  const NodeId beyond = upward ? where(b, negative, i64(-1), i64(0), s) : i64(0);
  scaled = where(b, call(b, "greater_equal", {right, i64(63)}, s), beyond, scaled, s);
  return cast_to(b, scaled, kI32, s);
}

// int32(x) - in_zp in int32, times the fixed-point form of in_scale / out_scale, + out_zp:
// requantize before it saturates. nullopt (the call stays) unless the output scale is a nonzero float32
// constant, x an integer and the other parameters scalars or per channel of `axis`.
std::optional<NodeId> requantized_int32(GraphBuilder& b, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                        NodeId out_scale, NodeId out_zp_arg, int64_t axis, bool upward, Span s) {
  const auto out_scale_value = scalar_constant(b.node(out_scale));
  if (!quantized_dtype(dtype_of(b, x)) || !out_scale_value || static_cast<float>(*out_scale_value) == 0.0f ||
      dtype_of(b, out_scale) != kF32)
    return std::nullopt;
  const auto in_scale = along_axis(b, in_scale_arg, kF32, x, axis, s), in_zp = along_axis(b, in_zp_arg, kI32, x, axis, s);
  const auto out_zp = along_axis(b, out_zp_arg, kI32, x, axis, s);
  if (!in_scale || !in_zp || !out_zp || concrete_shape(b.type_of(*out_zp))->size() != 0) return std::nullopt;
  const NodeId ratio = call(b, "divide", {cast_to(b, *in_scale, kF64, s), cast_to(b, out_scale, kF64, s)}, s);
  const NodeId shifted = call(b, "subtract", {cast_to(b, x, kI32, s), *in_zp}, s);
  return call(b, "add", {fixed_point_multiplied(b, shifted, fixed_point(b, ratio, s), upward, s), *out_zp}, s);
}

// An int32 result saturated to `out` (none for int32) and cast to it.
NodeId saturated(GraphBuilder& b, NodeId v, DataType out, Span s) {
  if (out == kI32) return v;
  return cast_to(b, clip(b, v, qmin(out), qmax(out), s), out, s);
}

// Requantize with compute_dtype float32 or float64 (RequantizeLowerFP), in F:
// t = F(x) - F(in_zp); t = F(float64(in_scale) / float64(out_scale)) * t; t = t + F(out_zp);
// rounded as TVM emits it without SSE4.1 (the reference's fp_round: UPWARD b = t + 0.5,
// f = trunc(b), b == f or b >= 0 ? f : f - 1; TONEAREST s = t < 0 ? -1 : 1,
// trunc((t + 0.5 s) s) s; trunc keeps what the reference's round trip through an integer
// keeps, values past it being integral already), cast to int32 (saturating, NaN to 0).
// nullopt (the call stays) on the conditions of requantized_int32.
std::optional<NodeId> requantized_fp(GraphBuilder& b, DataType f, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                     NodeId out_scale, NodeId out_zp_arg, int64_t axis, bool upward, Span s) {
  const auto out_scale_value = scalar_constant(b.node(out_scale));
  if (!quantized_dtype(dtype_of(b, x)) || !out_scale_value || static_cast<float>(*out_scale_value) == 0.0f ||
      dtype_of(b, out_scale) != kF32)
    return std::nullopt;
  const auto in_scale = along_axis(b, in_scale_arg, kF32, x, axis, s), in_zp = along_axis(b, in_zp_arg, kI32, x, axis, s);
  const auto out_zp = along_axis(b, out_zp_arg, kI32, x, axis, s);
  if (!in_scale || !in_zp || !out_zp || concrete_shape(b.type_of(*out_zp))->size() != 0) return std::nullopt;
  auto c = [&](double v) { return scalar_of(b, f, v, s); };
  const NodeId ratio = call(b, "divide", {cast_to(b, *in_scale, kF64, s), cast_to(b, out_scale, kF64, s)}, s);
  NodeId t = call(b, "subtract", {cast_to(b, x, f, s), cast_to(b, *in_zp, f, s)}, s);
  t = call(b, "multiply", {cast_to(b, ratio, f, s), t}, s);
  t = call(b, "add", {t, cast_to(b, *out_zp, f, s)}, s);
  NodeId rounded;
  if (upward) {
    const NodeId biased = call(b, "add", {t, c(0.5)}, s);
    const NodeId whole = call(b, "trunc", {biased}, s);
    const NodeId keep = call(b, "logical_or", {call(b, "equal", {biased, whole}, s),
                                               call(b, "greater_equal", {biased, c(0)}, s)}, s);
    rounded = where(b, keep, whole, call(b, "subtract", {whole, c(1)}, s), s);
  } else {
    const NodeId sign = where(b, call(b, "less", {t, c(0)}, s), c(-1), c(1), s);
    const NodeId biased = call(b, "add", {t, call(b, "multiply", {c(0.5), sign}, s)}, s);
    rounded = call(b, "multiply", {call(b, "trunc", {call(b, "multiply", {biased, sign}, s)}, s), sign}, s);
  }
  return cast_to(b, rounded, kI32, s);
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

// qnn.avg_pool2d (data, input scale and zero point, output scale and zero point): the data
// requantized (UPWARD) to the output's parameters in int32, nn.avg_pool2d with the call's
// attributes on int32, saturated to the data's dtype.
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

// qnn.softmax (x, scale, zero point, output scale, output zero point) on int8 with a
// constant input scale in (0, 1]: the integer-only algorithm QnnSoftmaxCanonicalize lowers
// it to (interpreter/kernels/qnn_softmax.cpp states it), step by step in wrapping int32
// with arithmetic shifts and truncating division, along `axis`; x0 = round(1 / scale)
// (float32) is computed here. The result requantized from the scale 1/128 and saturated
// to int8. A sum of 0 fails as an integer division by zero (the reference names it).
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
  const int64_t zero = library_weight_zero(dtype_of(b, in[1]));
  const NodeId call_with_zero =
      b.call(*n.op, n.attrs, {in[0], in[1], in[2], scalar_of(b, kI32, static_cast<double>(zero), s), in[4], in[5]}, s);
  return {call_with_zero, call(b, "subtract", {cast_to(b, in[3], kI32, s), scalar_of(b, kI32, static_cast<double>(zero), s)}, s)};
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
    if (op == "qnn.avg_pool2d") return avg_pool2d(b, n, in);
    if (op == "qnn.softmax") return softmax(b, n, in);
    if (op == "qnn.conv2d" && weights_need_rewrite(b, n, in)) return conv2d_weight_zero_point(b, n, in);
    if (op == "qnn.dense" && weights_need_rewrite(b, n, in)) return dense_weight_zero_point(b, n, in);
    if (const auto f = rt::quantized_unary_function(op)) return unary(b, n, in, f);
    return b.copy(n, std::move(in));
  });
}

}  // namespace relay::compiler
