// qnn.add, qnn.subtract, qnn.mul and qnn.leaky_relu (reference §3.10), as TVM 0.14
// lowers them: add/subtract requantize each operand to the output's scale and zero point
// in int32 (QnnAddCanonicalize / QnnSubtractCanonicalize with RequantizeOrUpcast), mul
// requantizes the int32 product of the zero-point-shifted operands from scale
// lhs_scale * rhs_scale (QnnMulCanonicalize). The unary operators: qnn_unary.cpp.
#include <cmath>

#include "interpreter/kernels/qnn_internal.h"

namespace relay::rt {
namespace {

// Operand indices of the binary ops: lhs, rhs, lhs_scale, lhs_zp, rhs_scale, rhs_zp,
// output_scale, output_zp.
enum class BinOp { Add, Subtract };

// Applies `f` to the two int32 operand arrays broadcast against each other.
template <class F>
std::vector<int32_t> broadcast_int32(const Shape& a_shape, const std::vector<int32_t>& a, const Shape& b_shape,
                                     const std::vector<int32_t>& b, const Shape& out_shape, F&& f) {
  const std::vector<int64_t> strides[2] = {broadcast_strides(a_shape, out_shape), broadcast_strides(b_shape, out_shape)};
  int64_t total = 1;
  for (int64_t d : out_shape) total *= d;
  std::vector<int32_t> out(static_cast<size_t>(total));
  for_each_strided(out_shape, strides, [&](int64_t i, const int64_t* off) {
    out[static_cast<size_t>(i)] = f(a[static_cast<size_t>(off[0])], b[static_cast<size_t>(off[1])]);
  });
  return out;
}

// RequantizeOrUpcast: the operand unchanged (as int32) when its scale and zero point are
// the output's, else requantized to them with int32 output (no clip).
std::vector<int32_t> requantize_or_upcast(const KernelCall& call, size_t x, size_t scale, size_t zp, int64_t axis,
                                          double out_scale, int32_t out_zp) {
  const NDArray t = call.tensor(x);
  const QParam s = qparam(call, scale, t.shape(), axis, "scale");
  const QParam z = qparam(call, zp, t.shape(), axis, "zero point");
  return requantize_values(t, s, z, out_scale, out_zp, Rounding::Upward);
}

template <BinOp Op>
Value add_sub(const KernelCall& call) {
  const NDArray lhs = call.tensor(0), rhs = call.tensor(1);
  const double out_scale = scalar_arg(call, 6, "output_scale");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 7, "output_zero_point"));
  const auto a = requantize_or_upcast(call, 0, 2, 3, call.attrs.get_int("lhs_axis", -1), out_scale, out_zp);
  const auto b = requantize_or_upcast(call, 1, 4, 5, call.attrs.get_int("rhs_axis", -1), out_scale, out_zp);
  const Shape shape = broadcast_shapes(lhs.shape(), rhs.shape(), op_name(call));
  // add: (a + b) - zp_out; subtract: (a - b) + zp_out; all in wrapping int32.
  const auto out = broadcast_int32(lhs.shape(), a, rhs.shape(), b, shape, [&](int32_t x, int32_t y) {
    if constexpr (Op == BinOp::Add) return wrap32(static_cast<int64_t>(wrap32(static_cast<int64_t>(x) + y)) - out_zp);
    else return wrap32(static_cast<int64_t>(wrap32(static_cast<int64_t>(x) - y)) + out_zp);
  });
  return saturate_to(shape, lhs.dtype(), out);
}

// Cast to int32 minus the zero point (per channel along `axis` when a vector).
std::vector<int32_t> shifted(const KernelCall& call, size_t x, size_t zp, int64_t axis) {
  const NDArray t = call.tensor(x);
  const QParam z = qparam(call, zp, t.shape(), axis, "zero point");
  const std::vector<int64_t> v = to_int64s(t);
  std::vector<int32_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = wrap32(static_cast<int64_t>(wrap32(v[i])) - static_cast<int64_t>(z.at(static_cast<int64_t>(i))));
  return out;
}

Value mul(const KernelCall& call) {
  const NDArray lhs = call.tensor(0), rhs = call.tensor(1);
  const int64_t lhs_axis = call.attrs.get_int("lhs_axis", -1), rhs_axis = call.attrs.get_int("rhs_axis", -1);
  const QParam ls = qparam(call, 2, lhs.shape(), lhs_axis, "lhs_scale");
  const QParam rs = qparam(call, 4, rhs.shape(), rhs_axis, "rhs_scale");
  const bool per_tensor = !ls.per_channel() && !rs.per_channel();
  require(call, per_tensor || lhs_axis == rhs_axis, "per-channel scales need lhs_axis == rhs_axis (as in TVM)");
  require(call, per_tensor || ls.values.size() == rs.values.size(), "per-channel scales must have the same length");
  const Shape shape = broadcast_shapes(lhs.shape(), rhs.shape(), op_name(call));
  const auto a = shifted(call, 0, 3, lhs_axis), b = shifted(call, 1, 5, rhs_axis);
  const auto prod = broadcast_int32(lhs.shape(), a, rhs.shape(), b, shape,
                                    [](int32_t x, int32_t y) { return wrap32(static_cast<int64_t>(x) * y); });
  // The product's scale: lhs_scale * rhs_scale rounded to float32 (per channel along lhs_axis).
  QParam scale;
  for (size_t c = 0; c < ls.values.size(); ++c)
    scale.values.push_back(static_cast<double>(static_cast<float>(ls.values[c]) * static_cast<float>(rs.values[c])));
  if (scale.per_channel()) scale.inner = axis_view(shape, static_cast<size_t>(normalize_axis(lhs_axis, shape.size(), op_name(call)))).inner;
  NDArray p = from_int64s(shape, DataType::int_(32), std::vector<int64_t>(prod.begin(), prod.end()));
  const double out_scale = scalar_arg(call, 6, "output_scale");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 7, "output_zero_point"));
  return saturate_to(shape, lhs.dtype(), requantize_values(p, scale, QParam{{0.0}}, out_scale, out_zp, Rounding::Upward));
}

// qnn.leaky_relu (QnnLeakyReluCanonicalize): x' = requantize-or-widen(x) to the output's
// parameters; where x < input_zp the result is alpha * x' + (1 - alpha) * output_zp, each
// product an UPWARD fixed-point multiplication of the double alpha; saturated.
Value leaky_relu(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const double alpha = call.attrs.get_double("alpha", 0.25);
  const double in_scale = scalar_arg(call, 1, "input_scale");
  const auto in_zp = static_cast<int32_t>(scalar_arg(call, 2, "input_zero_point"));
  const double out_scale = scalar_arg(call, 3, "output_scale");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 4, "output_zero_point"));
  const auto rq = requantize_values(x, QParam{{in_scale}}, QParam{{static_cast<double>(in_zp)}}, out_scale, out_zp,
                                    Rounding::Upward);
  const FixedPoint a = fixed_point_of(alpha), rest = fixed_point_of(1.0 - alpha);
  const int32_t scaled_zp = fixed_point_multiply(out_zp, rest, Rounding::Upward);
  const std::vector<int64_t> v = to_int64s(x);
  std::vector<int32_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = v[i] < in_zp ? wrap32(static_cast<int64_t>(fixed_point_multiply(rq[i], a, Rounding::Upward)) + scaled_zp)
                          : rq[i];
  return saturate_to(x.shape(), x.dtype(), out);
}

}  // namespace

void register_qnn_binary_kernels(KernelTable& t) {
  register_kernel(t, "qnn.leaky_relu", leaky_relu);
  register_kernel(t, "qnn.add", add_sub<BinOp::Add>);
  register_kernel(t, "qnn.subtract", add_sub<BinOp::Subtract>);
  register_kernel(t, "qnn.mul", mul);
}

}  // namespace relay::rt
