// The building blocks of canonicalize_qnn's rules (qnn_rewrite.h says what each computes).
#include "compiler/graph/qnn_rewrite.h"

#include <cmath>

#include "compiler/graph/rewrite_util.h"

namespace relay::compiler::qnn {

bool quantized_dtype(DataType t) { return (t.is_int() || t.is_uint()) && t.bits <= 32 && t.lanes == 1; }

double qmin(DataType t) { return static_cast<double>(integer_min(t)); }
double qmax(DataType t) { return static_cast<double>(integer_max(t)); }

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

namespace {

// What both requantize forms read: the parameters made to broadcast against x and the
// float64 ratio in_scale / out_scale; nullopt on the conditions requantized_int32 states.
struct RequantizeParams {
  NodeId in_zp, out_zp, ratio;
};
std::optional<RequantizeParams> requantize_params(GraphBuilder& b, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                                  NodeId out_scale, NodeId out_zp_arg, int64_t axis, Span s) {
  const auto out_scale_value = scalar_constant(b.node(out_scale));
  if (!quantized_dtype(dtype_of(b, x)) || !out_scale_value || static_cast<float>(*out_scale_value) == 0.0f ||
      dtype_of(b, out_scale) != kF32)
    return std::nullopt;
  const auto in_scale = along_axis(b, in_scale_arg, kF32, x, axis, s), in_zp = along_axis(b, in_zp_arg, kI32, x, axis, s);
  const auto out_zp = along_axis(b, out_zp_arg, kI32, x, axis, s);
  if (!in_scale || !in_zp || !out_zp || concrete_shape(b.type_of(*out_zp))->size() != 0) return std::nullopt;
  return RequantizeParams{*in_zp, *out_zp,
                          call(b, "divide", {cast_to(b, *in_scale, kF64, s), cast_to(b, out_scale, kF64, s)}, s)};
}

}  // namespace

std::optional<NodeId> requantized_int32(GraphBuilder& b, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                        NodeId out_scale, NodeId out_zp_arg, int64_t axis, bool upward, Span s) {
  const auto p = requantize_params(b, x, in_scale_arg, in_zp_arg, out_scale, out_zp_arg, axis, s);
  if (!p) return std::nullopt;
  const NodeId shifted = call(b, "subtract", {cast_to(b, x, kI32, s), p->in_zp}, s);
  return call(b, "add", {fixed_point_multiplied(b, shifted, fixed_point(b, p->ratio, s), upward, s), p->out_zp}, s);
}

NodeId saturated(GraphBuilder& b, NodeId v, DataType out, Span s) {
  if (out == kI32) return v;
  return cast_to(b, clip(b, v, qmin(out), qmax(out), s), out, s);
}

std::optional<NodeId> requantized_fp(GraphBuilder& b, DataType f, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                     NodeId out_scale, NodeId out_zp_arg, int64_t axis, bool upward, Span s) {
  const auto p = requantize_params(b, x, in_scale_arg, in_zp_arg, out_scale, out_zp_arg, axis, s);
  if (!p) return std::nullopt;
  auto c = [&](double v) { return scalar_of(b, f, v, s); };
  NodeId t = call(b, "subtract", {cast_to(b, x, f, s), cast_to(b, p->in_zp, f, s)}, s);
  t = call(b, "multiply", {cast_to(b, p->ratio, f, s), t}, s);
  t = call(b, "add", {t, cast_to(b, p->out_zp, f, s)}, s);
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

}  // namespace relay::compiler::qnn
