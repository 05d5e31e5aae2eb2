// Shared by the qnn*.cpp kernel files (reference §3.10): the integer arithmetic TVM 0.14's
// QNN canonicalisation lowers quantized operators to (src/relay/qnn/op/*.cc, utils.cc),
// written out so that every kernel rounds and saturates exactly as the lowered graph does.
// docs/interpreter.md states the formulas.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {

void register_qnn_quantize_kernels(KernelTable& table);  // qnn.cpp
void register_qnn_binary_kernels(KernelTable& table);    // qnn_binary.cpp
void register_qnn_unary_kernels(KernelTable& table);     // qnn_unary.cpp
void register_qnn_nn_kernels(KernelTable& table);        // qnn_nn.cpp
void register_qnn_softmax_kernels(KernelTable& table);   // qnn_softmax.cpp

// A real multiplier as TVM's GetFixedPointMultiplierShift encodes it: m = multiplier *
// 2^(shift - 31) with multiplier a Q31 int32 (frexp's significand scaled by 2^31 and
// rounded; 2^31 itself becomes 2^30 with shift + 1).
struct FixedPoint {
  int32_t multiplier = 0;
  int32_t shift = 0;
};
FixedPoint fixed_point_of(double m);

// UPWARD adds half and shifts (x.5 goes towards +inf); TONEAREST adds one less than half
// for negative products (x.5 goes away from zero). "None" is TVM's configured default,
// UPWARD (RequantizeConfig::get_rounding).
enum class Rounding { Upward, ToNearest };
Rounding rounding_attr(const KernelCall& call);

// round(x * m) for an int32 x in TVM's int64 sequence: x << left_shift, * multiplier,
// + rounding constant, >> (31 + right_shift); the result wraps to int32 as TVM's cast does.
int32_t fixed_point_multiply(int32_t x, const FixedPoint& fp, Rounding r);

// A scale or zero point input: one value for the whole tensor, or one per channel along
// an axis. `at(i)` is the value for flat element i of a tensor of `shape`.
struct QParam {
  std::vector<double> values;
  int64_t inner = 1;  // elements per step along the axis (per-channel only)
  bool per_channel() const { return values.size() != 1; }
  double at(int64_t i) const {
    return per_channel() ? values[static_cast<size_t>((i / inner) % static_cast<int64_t>(values.size()))] : values[0];
  }
};
// Reads argument `arg` as a QParam for a tensor of `shape` along `axis` (negative counts
// from the end). RuntimeError when it is neither one value nor one per channel.
QParam qparam(const KernelCall& call, size_t arg, const Shape& shape, int64_t axis, const char* what);

// Clip to [lo, hi] in TVM's order, max(min(x, hi), lo) with min(a, b) = a < b ? a : b, so a
// NaN becomes hi, as the lowered select does.
double clip_float(double x, double lo, double hi);
// int32 wrapping arithmetic, as TVM's int32 adds and subtracts wrap.
inline int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// qnn.requantize's lowering (RequantizeLowerInt) of a whole tensor to int32 values before
// the output clip: (x - input_zp) * (input_scale / output_scale) + output_zp, per channel
// along `axis` where the input scale or zero point is a vector.
std::vector<int32_t> requantize_values(const NDArray& x, const QParam& in_scale, const QParam& in_zp,
                                       double out_scale, int32_t out_zp, Rounding r);
// Saturates int32 values to `dtype` (no clip for int32) and stores them.
NDArray saturate_to(const Shape& shape, DataType dtype, const std::vector<int32_t>& v);

// qnn.quantize of float values: clip(round(x / scale) + zp) in float32, then a cast.
int64_t quantize_value(float x, float scale, int32_t zp, DataType out);

// A scalar input (a rank-0 or one-element tensor) as a double / an integer.
double scalar_arg(const KernelCall& call, size_t arg, const char* what);

}  // namespace relay::rt
