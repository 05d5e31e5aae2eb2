// The quantized unary operators' kernels and their lookup table (qnn_unary.h says what
// they compute and why the table is shared).
#include "interpreter/kernels/qnn_unary.h"

#include <cmath>

#include "interpreter/kernels/qnn_internal.h"

namespace relay::rt {
namespace {

// The float32 functions of legalizations.py's table (numpy on float32 arrays).
float f_abs(float x) { return std::fabs(x); }
float f_erf(float x) { return std::erf(x); }
float f_exp(float x) { return std::exp(x); }
float f_log(float x) { return std::log(x); }
float f_sqrt(float x) { return std::sqrt(x); }
float f_rsqrt(float x) { return 1.0f / std::sqrt(x); }
float f_sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
float f_tanh(float x) { return std::tanh(x); }
float f_hardswish(float x) { return x * static_cast<float>(clip_float(x + 3.0f, 0.0, 6.0)) / 6.0f; }

struct NamedFunction {
  std::string_view op;
  QuantizedUnaryFunction f;
};
constexpr NamedFunction kFunctions[] = {
    {"qnn.abs", f_abs},   {"qnn.erf", f_erf},     {"qnn.exp", f_exp},         {"qnn.hardswish", f_hardswish},
    {"qnn.log", f_log},   {"qnn.rsqrt", f_rsqrt}, {"qnn.sigmoid", f_sigmoid}, {"qnn.sqrt", f_sqrt},
    {"qnn.tanh", f_tanh},
};

Value unary(const KernelCall& call) {
  const QuantizedUnaryFunction f = quantized_unary_function(op_name(call));
  const NDArray x = call.tensor(0);
  require(call, (x.dtype().is_int() || x.dtype().is_uint()) && x.dtype().bits <= 16,
          "needs int8/uint8 (or 16-bit) data, found `" + dtype_name(x.dtype()) + "`");
  const QuantizedUnaryParams p{static_cast<float>(scalar_arg(call, 1, "scale")),
                               static_cast<int32_t>(scalar_arg(call, 2, "zero_point")),
                               static_cast<float>(scalar_arg(call, 3, "output_scale")),
                               static_cast<int32_t>(scalar_arg(call, 4, "output_zero_point"))};
  std::vector<int64_t> v = to_int64s(x);
  for (int64_t& e : v) e = quantized_unary_value(f, e, p, x.dtype());
  return from_int64s(x.shape(), x.dtype(), v);
}

}  // namespace

QuantizedUnaryFunction quantized_unary_function(std::string_view op) {
  for (const NamedFunction& n : kFunctions)
    if (n.op == op) return n.f;
  return nullptr;
}

int64_t quantized_unary_value(QuantizedUnaryFunction f, int64_t v, const QuantizedUnaryParams& p, DataType dtype) {
  const float real = static_cast<float>(wrap32(v - p.in_zero_point)) * p.in_scale;
  return quantize_value(f(real), p.out_scale, p.out_zero_point, dtype);
}

NDArray quantized_unary_table(QuantizedUnaryFunction f, const QuantizedUnaryParams& p, DataType dtype) {
  std::vector<int64_t> table;
  for (int64_t v = integer_min(dtype); v <= integer_max(dtype); ++v) table.push_back(quantized_unary_value(f, v, p, dtype));
  return from_int64s(Shape{static_cast<int64_t>(table.size())}, dtype, table);
}

void register_qnn_unary_kernels(KernelTable& t) {
  for (const NamedFunction& n : kFunctions) register_kernel(t, n.op, unary);
}

}  // namespace relay::rt
