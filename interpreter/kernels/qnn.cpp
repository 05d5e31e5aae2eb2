// qnn.quantize, qnn.dequantize, qnn.requantize and the simulated pair (reference §3.10),
// plus the fixed-point helpers every qnn kernel shares (qnn_internal.h). The arithmetic is
// that of TVM 0.14's QNN canonicalisation (QuantizeLower, DequantizeLower,
// RequantizeLowerInt with compute_dtype int64, RequantizeLowerFP with float32 or float64,
// utils.cc's GetFixedPointMultiplierShift, FixedPointMultiply and
// FixedPointMultiplyToNearest) and TOPI's simulated_(de)quantize.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interpreter/kernels/qnn_internal.h"

namespace relay::rt {

FixedPoint fixed_point_of(double m) {
  if (m == 0.0) return {};
  int exponent = 0;
  const double significand = std::frexp(m, &exponent);
  auto q = static_cast<int64_t>(std::round(significand * static_cast<double>(int64_t{1} << 31)));
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  return {static_cast<int32_t>(q), exponent};
}

Rounding rounding_attr(const KernelCall& call) {
  const std::string r = call.attrs.get_string("rounding");
  if (r == "TONEAREST") return Rounding::ToNearest;
  if (r == "UPWARD" || r == "None" || r.empty()) return Rounding::Upward;
  throw RuntimeError("`" + op_name(call) + "`: rounding must be \"UPWARD\", \"TONEAREST\" or \"None\", found \"" + r +
                     "\"");
}

int32_t fixed_point_multiply(int32_t x, const FixedPoint& fp, Rounding r) {
  const int left = fp.shift > 0 ? fp.shift : 0;
  const int right = fp.shift > 0 ? 0 : -fp.shift;
  // int64 arithmetic that wraps like TVM's (unsigned, then back).
  uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(x));
  if (left != 0) v <<= left;
  v *= static_cast<uint64_t>(static_cast<int64_t>(fp.multiplier));
  const int total = right + 31;
  // A multiplier below 2^-32 shifts by 64 or more, which TVM's int64 cannot express; every
  // int32 times it rounds to 0 (or -1 for a negative product under UPWARD's floor).
  if (total >= 63) return static_cast<int64_t>(v) < 0 && r == Rounding::Upward ? -1 : 0;
  const int64_t half = int64_t{1} << (total - 1);
  const int64_t round = (r == Rounding::ToNearest && static_cast<int64_t>(v) < 0) ? half - 1 : half;
  v += static_cast<uint64_t>(round);
  return wrap32(static_cast<int64_t>(v) >> total);
}

QParam qparam(const KernelCall& call, size_t arg, const Shape& shape, int64_t axis, const char* what) {
  const NDArray t = call.tensor(arg);
  QParam p;
  p.values = to_doubles(t);
  if (p.values.size() == 1) return p;
  const int64_t ax = normalize_axis(axis, shape.size(), op_name(call));
  if (t.ndim() != 1 || t.dim(0) != shape[static_cast<size_t>(ax)])
    throw RuntimeError("`" + op_name(call) + "`: " + what + " has " + std::to_string(t.size()) +
                       " values; it must be one value or one per channel of axis " + std::to_string(ax) + " (" +
                       std::to_string(shape[static_cast<size_t>(ax)]) + ")");
  p.inner = axis_view(shape, static_cast<size_t>(ax)).inner;
  return p;
}

double clip_float(double x, double lo, double hi) {
  const double m = x < hi ? x : hi;
  return m > lo ? m : lo;
}

std::vector<int32_t> requantize_values(const NDArray& x, const QParam& in_scale, const QParam& in_zp,
                                       double out_scale, int32_t out_zp, Rounding r) {
  const std::vector<int64_t> in = to_int64s(x);
  // One multiplier per channel (or one): float32 scales divided in double, as TVM does.
  std::vector<FixedPoint> fps;
  std::vector<bool> identity;
  for (double s : in_scale.values) {
    const float in_f = static_cast<float>(s), out_f = static_cast<float>(out_scale);
    fps.push_back(fixed_point_of(static_cast<double>(in_f) / static_cast<double>(out_f)));
    // TVM skips the multiplication when a per-tensor scale equals the output scale; the
    // multiplier 1.0 gives the same values, so this only saves time.
    identity.push_back(!in_scale.per_channel() && in_f == out_f);
  }
  std::vector<int32_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto fi = static_cast<int64_t>(i);
    const int32_t shifted = wrap32(static_cast<int64_t>(wrap32(in[i])) - static_cast<int64_t>(in_zp.at(fi)));
    const size_t c = in_scale.per_channel() ? static_cast<size_t>((fi / in_scale.inner) % static_cast<int64_t>(fps.size())) : 0;
    const int32_t scaled = identity[c] ? shifted : fixed_point_multiply(shifted, fps[c], r);
    out[i] = wrap32(static_cast<int64_t>(scaled) + out_zp);
  }
  return out;
}

NDArray saturate_to(const Shape& shape, DataType dtype, const std::vector<int32_t>& v) {
  std::vector<int64_t> out(v.size());
  const bool clip = !(dtype == DataType::int_(32));
  const int64_t lo = integer_min(dtype), hi = integer_max(dtype);
  for (size_t i = 0; i < v.size(); ++i) out[i] = clip ? std::clamp<int64_t>(v[i], lo, hi) : v[i];
  return from_int64s(shape, dtype, out);
}

int64_t quantize_value(float x, float scale, int32_t zp, DataType out) {
  // Round(Divide(x, scale)) in float32; `round` takes halves away from zero (§8).
  const float q = std::round(x / scale) + static_cast<float>(zp);
  return static_cast<int64_t>(clip_float(q, static_cast<double>(integer_min(out)), static_cast<double>(integer_max(out))));
}

double scalar_arg(const KernelCall& call, size_t arg, const char* what) {
  const NDArray t = call.tensor(arg);
  if (t.size() != 1)
    throw RuntimeError("`" + op_name(call) + "`: " + what + " must be a scalar, found " + std::to_string(t.size()) +
                       " values");
  return t.get_double(0);
}

namespace {

void require_quantized_dtype(const KernelCall& call, DataType t) {
  require(call, (t.is_int() || t.is_uint()) && t.bits <= 32,
          "out_dtype must be an integer type of at most 32 bits, found `" + dtype_name(t) + "`");
}

Value quantize(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const int64_t axis = call.attrs.get_int("axis", -1);
  const DataType out = attr_out_dtype(call, DataType::int_(8));
  require_quantized_dtype(call, out);
  const QParam scale = qparam(call, 1, x.shape(), axis, "output_scale");
  const QParam zp = qparam(call, 2, x.shape(), axis, "output_zero_point");
  const std::vector<double> in = to_doubles(x);
  std::vector<int64_t> res(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto fi = static_cast<int64_t>(i);
    res[i] = quantize_value(static_cast<float>(in[i]), static_cast<float>(scale.at(fi)),
                            static_cast<int32_t>(zp.at(fi)), out);
  }
  return from_int64s(x.shape(), out, res);
}

Value dequantize(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const int64_t axis = call.attrs.get_int("axis", -1);
  const DataType out = attr_out_dtype(call, DataType::float_(32));
  const QParam scale = qparam(call, 1, x.shape(), axis, "input_scale");
  const QParam zp = qparam(call, 2, x.shape(), axis, "input_zero_point");
  const std::vector<int64_t> in = to_int64s(x);
  std::vector<double> res(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto fi = static_cast<int64_t>(i);
    // Cast(x, int32) - zp in int32, then float32(shift) * scale in float32.
    const int32_t shift = wrap32(static_cast<int64_t>(wrap32(in[i])) - static_cast<int64_t>(zp.at(fi)));
    res[i] = static_cast<double>(static_cast<float>(shift) * static_cast<float>(scale.at(fi)));
  }
  return from_doubles(x.shape(), out, res);
}

// The rounding of RequantizeLowerFP<Bits> (TVM's Upward/Tonearest) as TVM emits it for a
// target without SSE4.1, in F = float32 or float64 arithmetic and I = int32 or int64:
//   UPWARD:    b = t + 0.5; f = F(I(b)); b == f or b >= 0 ? f : f - 1
//   TONEAREST: s = t < 0 ? -1 : 1; f = F(I((t + 0.5 * s) * s)) * s
// and a non-finite t is kept. (With SSE4.1 TVM uses floor(t + 0.5) and round(t) instead.)
// Beyond I's range TVM's cast is undefined; such a value is already integral (it exceeds
// 2^24 and 2^53), so it is kept as it is.
template <class F, class I>
F fp_round(F t, Rounding r) {
  if (!std::isfinite(t)) return t;
  const auto trunc_via_int = [](F v) {
    if (v >= static_cast<F>(std::numeric_limits<I>::max()) || v < static_cast<F>(std::numeric_limits<I>::min()))
      return v;
    return static_cast<F>(static_cast<I>(v));
  };
  if (r == Rounding::Upward) {
    const F b = t + F(0.5);
    const F f = trunc_via_int(b);
    return (b == f || b >= F(0)) ? f : f - F(1);
  }
  const F s = t < F(0) ? F(-1) : F(1);
  const F biased = t + F(0.5) * s;
  const F scaled = biased * s;
  return trunc_via_int(scaled) * s;
}

// RequantizeLowerFP<Bits> (compute_dtype float32 or float64), in F:
//   t = F(x) - F(input_zp); t = F(float64(float32 in_scale) / float64(float32 out_scale)) * t;
//   t = t + F(output_zp); round as fp_round; Cast(int32)
// per channel along `axis` where the scale or zero point is a vector. TVM's cast of a value
// outside int32 (or of a NaN) is undefined; here it saturates (a NaN becomes 0).
template <class F, class I>
std::vector<int32_t> requantize_values_fp(const NDArray& x, const QParam& in_scale, const QParam& in_zp,
                                          double out_scale, int32_t out_zp, Rounding r) {
  const std::vector<int64_t> in = to_int64s(x);
  const auto out_f = static_cast<double>(static_cast<float>(out_scale));
  std::vector<int32_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto fi = static_cast<int64_t>(i);
    F t = static_cast<F>(in[i]) - static_cast<F>(static_cast<int32_t>(in_zp.at(fi)));
    const auto m = static_cast<F>(static_cast<double>(static_cast<float>(in_scale.at(fi))) / out_f);
    t = m * t;
    t = t + static_cast<F>(out_zp);
    const F v = fp_round<F, I>(t, r);
    if (std::isnan(v))
      out[i] = 0;
    else
      out[i] = static_cast<int32_t>(std::clamp<double>(static_cast<double>(v), std::numeric_limits<int32_t>::min(),
                                                       std::numeric_limits<int32_t>::max()));
  }
  return out;
}

Value requantize(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  const int64_t axis = call.attrs.get_int("axis", -1);
  const auto out = call.attrs.get_dtype("out_dtype");
  require(call, out.has_value(), "out_dtype is required");
  require_quantized_dtype(call, *out);
  // "None" is TVM's configured default, int64 (RequantizeConfig::get_compute_dtype).
  const std::string compute = call.attrs.get_string("compute_dtype");
  require(call, compute.empty() || compute == "None" || compute == "int64" || compute == "float32" || compute == "float64",
          "compute_dtype must be \"int64\", \"float32\", \"float64\" or \"None\", found \"" + compute + "\"");
  const QParam in_scale = qparam(call, 1, x.shape(), axis, "input_scale");
  const QParam in_zp = qparam(call, 2, x.shape(), axis, "input_zero_point");
  const double out_scale = scalar_arg(call, 3, "output_scale");
  require(call, static_cast<float>(out_scale) != 0.0f, "the output scale can not be 0");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 4, "output_zero_point"));
  const Rounding r = rounding_attr(call);
  if (compute == "float32")
    return saturate_to(x.shape(), *out, requantize_values_fp<float, int32_t>(x, in_scale, in_zp, out_scale, out_zp, r));
  if (compute == "float64")
    return saturate_to(x.shape(), *out, requantize_values_fp<double, int64_t>(x, in_scale, in_zp, out_scale, out_zp, r));
  return saturate_to(x.shape(), *out, requantize_values(x, in_scale, in_zp, out_scale, out_zp, r));
}

// TOPI's dtype codes: 0 disable (pass through), 1 int8, 2 uint8, 3 int32.
DataType simulated_dtype(const KernelCall& call, bool& disabled) {
  const int64_t code = static_cast<int64_t>(scalar_arg(call, 1, "dtype"));
  disabled = code == 0;
  switch (code) {
    case 0:
    case 1: return DataType::int_(8);
    case 2: return DataType::uint_(8);
    case 3: return DataType::int_(32);
    default:
      throw RuntimeError("`" + op_name(call) + "`: dtype code " + std::to_string(code) +
                         " is not one of 0 (disable), 1 (int8), 2 (uint8), 3 (int32)");
  }
}

Value simulated_quantize(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  bool disabled = false;
  const DataType q = simulated_dtype(call, disabled);
  if (disabled) return x.copy();
  const int64_t axis = call.attrs.get_int("axis", -1);
  const QParam scale = qparam(call, 2, x.shape(), axis, "output_scale");
  const QParam zp = qparam(call, 3, x.shape(), axis, "output_zero_point");
  const std::vector<double> in = to_doubles(x);
  std::vector<double> res(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto fi = static_cast<int64_t>(i);
    // max(min(round(x / scale) + zp, qmax), qmin) in the data's (float) type.
    const float v = std::round(static_cast<float>(in[i]) / static_cast<float>(scale.at(fi))) + static_cast<float>(zp.at(fi));
    res[i] = clip_float(v, static_cast<double>(integer_min(q)), static_cast<double>(integer_max(q)));
  }
  return from_doubles(x.shape(), x.dtype(), res);
}

Value simulated_dequantize(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  bool disabled = false;
  simulated_dtype(call, disabled);
  if (disabled) return x.copy();
  const int64_t axis = call.attrs.get_int("axis", -1);
  const QParam scale = qparam(call, 2, x.shape(), axis, "input_scale");
  const QParam zp = qparam(call, 3, x.shape(), axis, "input_zero_point");
  const std::vector<double> in = to_doubles(x);
  std::vector<double> res(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const auto fi = static_cast<int64_t>(i);
    res[i] = (static_cast<float>(in[i]) - static_cast<float>(zp.at(fi))) * static_cast<float>(scale.at(fi));
  }
  return from_doubles(x.shape(), x.dtype(), res);
}

}  // namespace

void register_qnn_quantize_kernels(KernelTable& t) {
  register_kernel(t, "qnn.quantize", quantize);
  register_kernel(t, "qnn.dequantize", dequantize);
  register_kernel(t, "qnn.requantize", requantize);
  register_kernel(t, "qnn.simulated_quantize", simulated_quantize);
  register_kernel(t, "qnn.simulated_dequantize", simulated_dequantize);
}

}  // namespace relay::rt

namespace relay::rt {
void register_qnn_kernels(KernelTable& t) {
  register_qnn_quantize_kernels(t);
  register_qnn_binary_kernels(t);
  register_qnn_unary_kernels(t);
  register_qnn_nn_kernels(t);
  register_qnn_softmax_kernels(t);
}
}  // namespace relay::rt
