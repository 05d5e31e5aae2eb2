// The integer arithmetic canonicalize_qnn's rules are built from (the quantization
// parameters broadcast along an axis, the fixed-point multiplier of a scale ratio and its
// multiplication, requantize in int64 or float arithmetic, saturation), step for step the
// reference kernels' (interpreter/kernels/qnn*.cpp), and the rules for the operators next
// to the int8 library calls (canonicalize_qnn_nn.cpp). Private to the pass.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "compiler/graph/graph.h"

namespace relay::compiler::qnn {

inline const DataType kI32 = DataType::int_(32), kI64 = DataType::int_(64), kF32 = DataType::float_(32),
                        kF64 = DataType::float_(64);

// A quantized dtype the reference kernels produce: an integer of at most 32 bits.
bool quantized_dtype(DataType t);

// The range of integer dtype t as doubles (clip's attributes).
double qmin(DataType t);
double qmax(DataType t);

// A quantization parameter (a scale or zero point) of `dtype` made to broadcast against
// `x`: a scalar or one-value tensor as it is, one value per channel of `axis` expanded to
// (C, 1, ...); nullopt when it is neither (the reference kernel's error stands).
std::optional<NodeId> along_axis(GraphBuilder& b, NodeId param, DataType dtype, NodeId x, int64_t axis, Span s);

// Calls of `op` without attributes, clip and where.
NodeId call(GraphBuilder& b, std::string_view op, std::vector<NodeId> in, Span s);
NodeId clip(GraphBuilder& b, NodeId x, double lo, double hi, Span s);
NodeId where(GraphBuilder& b, NodeId cond, NodeId then, NodeId otherwise, Span s);

// The fixed-point form of a float64 `ratio` (in_scale / out_scale, float32 values divided
// in float64, or leaky_relu's alpha): multiplier q = round(f * 2^31) and shift e with
// ratio = f * 2^e, |f| in [0.5, 1) (frexp), a positive q = 2^31 carried into the shift,
// and (0, 0) for a ratio of 0. Two int64 tensors of the scale's shape. floor(log2) may be one off next to a power of two; the
// check of f fixes it, and the powers of two are exact. A negative ratio (a negative
// scale: meaningless, but the reference computes it) is frexp's: the magnitude's form
// negated, as round is symmetric, and never carried.
struct FixedPoint {
  NodeId multiplier, shift;
};
FixedPoint fixed_point(GraphBuilder& b, NodeId ratio, Span s);

// The int32 `x` times a fixed-point multiplier in int64 with the rounding (UPWARD:
// + 2^(r-1); TONEAREST: 2^(r-1) - 1 for a negative product) and an arithmetic shift right
// by r = 31 + max(-e, 0) after a shift left by max(e, 0) (a shift of 63 or more gives -1
// or 0 as the reference does), wrapped to int32: the reference's fixed_point_multiply.
NodeId fixed_point_multiplied(GraphBuilder& b, NodeId x, const FixedPoint& fp, bool upward, Span s);

// int32(x) - in_zp in int32, times the fixed-point form of in_scale / out_scale, + out_zp:
// requantize before it saturates. nullopt (the call stays) unless the output scale is a
// nonzero float32 constant, x an integer and the other parameters scalars or per channel
// of `axis`.
std::optional<NodeId> requantized_int32(GraphBuilder& b, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                        NodeId out_scale, NodeId out_zp_arg, int64_t axis, bool upward, Span s);

// An int32 result saturated to `out` (none for int32) and cast to it.
NodeId saturated(GraphBuilder& b, NodeId v, DataType out, Span s);

// Requantize with compute_dtype float32 or float64 (RequantizeLowerFP), in F:
// t = F(x) - F(in_zp); t = F(float64(in_scale) / float64(out_scale)) * t; t = t + F(out_zp);
// rounded as TVM emits it without SSE4.1 (the reference's fp_round: UPWARD b = t + 0.5,
// f = trunc(b), b == f or b >= 0 ? f : f - 1; TONEAREST s = t < 0 ? -1 : 1,
// trunc((t + 0.5 s) s) s; trunc keeps what the reference's round trip through an integer
// keeps, values past it being integral already), cast to int32 (saturating, NaN to 0).
// nullopt (the call stays) on the conditions of requantized_int32.
std::optional<NodeId> requantized_fp(GraphBuilder& b, DataType f, NodeId x, NodeId in_scale_arg, NodeId in_zp_arg,
                                     NodeId out_scale, NodeId out_zp_arg, int64_t axis, bool upward, Span s);

// ---- The rules of canonicalize_qnn_nn.cpp: each the call's rewrite, or a copy of it.

// qnn.avg_pool2d (data, input scale and zero point, output scale and zero point): the data
// requantized (UPWARD) to the output's parameters in int32, nn.avg_pool2d with the call's
// attributes on int32, saturated to the data's dtype.
NodeId avg_pool2d(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in);

// qnn.softmax (x, scale, zero point, output scale, output zero point) on int8 with a
// constant input scale in (0, 1]: the integer-only algorithm QnnSoftmaxCanonicalize lowers
// it to (interpreter/kernels/qnn_softmax.cpp states it), step by step in wrapping int32
// with arithmetic shifts and truncating division, along `axis`; x0 = round(1 / scale)
// (float32) is computed here. The result requantized from the scale 1/128 and saturated
// to int8. A sum of 0 fails as an integer division by zero (the reference names it).
NodeId softmax(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in);

// qnn.conv2d and qnn.dense whose weight zero point the int8 library kernels do not take
// (0 for int8 weights, 128 for uint8 ones): the zero point's term split off (TVM's
// four-term expansion). nullopt when the call needs no rewrite.
std::optional<NodeId> weight_zero_point_split(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in);

}  // namespace relay::compiler::qnn
