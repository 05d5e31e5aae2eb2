// The quantized unary operators (qnn.abs, qnn.erf, qnn.exp, qnn.hardswish, qnn.log,
// qnn.rsqrt, qnn.sigmoid, qnn.sqrt, qnn.tanh) as TVM 0.14 legalizes them
// (python/tvm/relay/qnn/op/legalizations.py): a lookup table holding
// quantize(f(dequantize(v))) in float32 for every value v of the 8-bit data type, taken
// at the data. The reference kernels compute each element so; the compiler
// (canonicalize_qnn) takes the same table as a constant, so both agree bit for bit.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

// The float32 function of quantized unary operator `op`, or nullptr when it is not one.
using QuantizedUnaryFunction = float (*)(float);
QuantizedUnaryFunction quantized_unary_function(std::string_view op);

// The scalar parameters of a quantized unary call.
struct QuantizedUnaryParams {
  float in_scale = 1;
  int32_t in_zero_point = 0;
  float out_scale = 1;
  int32_t out_zero_point = 0;
};

// One element: clip(round(f((v - in_zp) * in_scale) / out_scale) + out_zp) in `dtype`.
int64_t quantized_unary_value(QuantizedUnaryFunction f, int64_t v, const QuantizedUnaryParams& p, DataType dtype);

// Every element of `dtype` (int8 or uint8) in order from its smallest value: entry i is
// the result for integer_min(dtype) + i. A tensor of shape (256) and dtype `dtype`.
NDArray quantized_unary_table(QuantizedUnaryFunction f, const QuantizedUnaryParams& p, DataType dtype);

}  // namespace relay::rt
