// §3.10 qnn.* relations. Like TVM's (src/relay/qnn/op/*.cc), each checks the quantization
// parameters' dtypes (scales float32, zero points int32, each a scalar or a per-channel
// vector) and then reuses the float operator's relation on the data inputs: qnn.conv2d is
// nn.conv2d's relation on (data, weight), qnn.add is add's broadcast, and so on. The
// quantize family sets the result dtype from out_dtype.
#include <string>

#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using namespace rel;

// The first `n` inputs of a call, for handing a qnn call's data inputs to the float
// operator's relation; everything else (name, attrs, output, reports) is the qnn call's.
class PrefixContext final : public RelationContext {
 public:
  PrefixContext(RelationContext& base, size_t n) : base_(base), n_(n) {}
  std::string_view op_name() const override { return base_.op_name(); }
  size_t num_inputs() const override { return n_; }
  Ty input(size_t i) override { return base_.input(i); }
  Ty output() override { return base_.output(); }
  const CallAttrs& attrs() const override { return base_.attrs(); }
  TypeArena& arena() override { return base_.arena(); }
  bool assign_input(size_t i, Ty t) override { return base_.assign_input(i, t); }
  bool assign_output(Ty t) override { return base_.assign_output(t); }
  Ty fresh() override { return base_.fresh(); }
  void report(RelError error) override { base_.report(std::move(error)); }

 private:
  RelationContext& base_;
  size_t n_;
};

bool is_quantized_dtype(DataType t) { return (t.is_int() || t.is_uint()) && t.bits >= 8 && t.bits <= 32; }

// Inputs [from, to) must be tensors of `dtype` with rank 0 or 1 when known (a hole is left
// alone: the parameter gets its type elsewhere). Failed after reporting otherwise.
RelStatus check_params(RelationContext& ctx, size_t from, size_t to, DataType dtype) {
  for (size_t i = from; i < to && i < ctx.num_inputs(); ++i) {
    const Ty t = ctx.input(i);
    const auto* tensor = ty_as<TensorTy>(t);
    if (!tensor) continue;
    if (tensor->dtype != dtype || tensor->shape.size() > 1)
      return ctx.fail(RelError{op_tag(ctx) + " expects `" + input_name(ctx, i) + "` to be a scalar or per-channel vector of dtype " +
                                   dtype_name(dtype),
                               {{i, "has type " + type_to_string(t)}}, {}, {}, {}});
  }
  return RelStatus::Solved;
}

// (scale, zero point) pairs in [from, to): scales float32, zero points int32.
RelStatus check_scale_zp_pairs(RelationContext& ctx, size_t from, size_t to) {
  for (size_t i = from; i < to; i += 2) {
    if (check_params(ctx, i, i + 1, DataType::float_(32)) == RelStatus::Failed) return RelStatus::Failed;
    if (check_params(ctx, i + 1, i + 2, DataType::int_(32)) == RelStatus::Failed) return RelStatus::Failed;
  }
  return RelStatus::Solved;
}

RelStatus delegate(RelationContext& ctx, const char* op, size_t n) {
  PrefixContext sub(ctx, n);
  return find_relation(op)(sub);
}

// data's shape with dtype `out`.
RelStatus same_shape_as(RelationContext& ctx, DataType out) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  std::vector<Dim> shape(data->shape.begin(), data->shape.end());
  return ctx.assign_output(make_tensor(ctx, shape, out)) ? RelStatus::Solved : RelStatus::Failed;
}

RelStatus require_out_dtype(RelationContext& ctx, std::optional<DataType> out, bool quantized) {
  if (!out) return ctx.fail(RelError{op_tag(ctx) + " needs `out_dtype`", {}, "out_dtype", "required", {}});
  if (quantized && !is_quantized_dtype(*out))
    return ctx.fail(RelError{op_tag(ctx) + ": out_dtype must be int8, uint8, int16, uint16 or int32, found " +
                                 dtype_name(*out),
                             {}, "out_dtype", "not an integer type", {}});
  return RelStatus::Solved;
}

// qnn.quantize(data, output_scale, output_zero_point)
RelStatus quantize(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 1, 3) == RelStatus::Failed) return RelStatus::Failed;
  const auto out = ctx.attrs().get_dtype("out_dtype");
  if (require_out_dtype(ctx, out, true) == RelStatus::Failed) return RelStatus::Failed;
  return same_shape_as(ctx, *out);
}

// qnn.dequantize(data, input_scale, input_zero_point): float32 unless out_dtype says.
RelStatus dequantize(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 1, 3) == RelStatus::Failed) return RelStatus::Failed;
  return same_shape_as(ctx, ctx.attrs().get_dtype("out_dtype").value_or(DataType::float_(32)));
}

// qnn.requantize(data, input_scale, input_zero_point, output_scale, output_zero_point)
RelStatus requantize(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 1, 5) == RelStatus::Failed) return RelStatus::Failed;
  const auto out = ctx.attrs().get_dtype("out_dtype");
  if (require_out_dtype(ctx, out, true) == RelStatus::Failed) return RelStatus::Failed;
  const std::string rounding = ctx.attrs().get_string("rounding");
  if (rounding != "None" && rounding != "UPWARD" && rounding != "TONEAREST" && !rounding.empty())
    return ctx.fail(RelError{op_tag(ctx) + ": rounding must be \"UPWARD\", \"TONEAREST\" or \"None\", found \"" +
                                 rounding + "\"",
                             {}, "rounding", "unknown rounding mode", {}});
  return same_shape_as(ctx, *out);
}

// qnn.simulated_(de)quantize(data, dtype, scale, zero_point): the data's type.
RelStatus simulated(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return ctx.assign_output(ctx.input(0)) ? RelStatus::Solved : RelStatus::Failed;
}

// qnn.add/subtract/mul(lhs, rhs, lhs_scale, lhs_zp, rhs_scale, rhs_zp, out_scale, out_zp)
RelStatus binary(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 2, 8) == RelStatus::Failed) return RelStatus::Failed;
  return delegate(ctx, "add", 2);
}

// The unary ops: data (int8/uint8), scale, zero_point, output_scale, output_zero_point.
RelStatus unary(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 1, 5) == RelStatus::Failed) return RelStatus::Failed;
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!(data->dtype == DataType::int_(8) || data->dtype == DataType::uint_(8) ||
        data->dtype == DataType::int_(16) || data->dtype == DataType::uint_(16)))
    return ctx.fail(RelError{op_tag(ctx) + " expects int8 or uint8 data", {{0, "has dtype " + dtype_name(data->dtype)}},
                             {}, {}, {}});
  return ctx.assign_output(ctx.input(0)) ? RelStatus::Solved : RelStatus::Failed;
}

// Convolutions and products: (data, weight, input_zp, kernel_zp, input_scale, kernel_scale).
template <const char* Op>
RelStatus product(RelationContext& ctx) {
  if (check_params(ctx, 2, 4, DataType::int_(32)) == RelStatus::Failed) return RelStatus::Failed;
  if (check_params(ctx, 4, 6, DataType::float_(32)) == RelStatus::Failed) return RelStatus::Failed;
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!is_quantized_dtype(data->dtype) || data->dtype.bits > 16)
    return ctx.fail(RelError{op_tag(ctx) + " expects int8, uint8 or int16 data",
                             {{0, "has dtype " + dtype_name(data->dtype)}}, {}, {}, {}});
  return delegate(ctx, Op, 2);
}

// qnn.concatenate(data, input_scales, input_zero_points, output_scale, output_zero_point)
RelStatus concatenate(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 3, 5) == RelStatus::Failed) return RelStatus::Failed;
  return delegate(ctx, "concatenate", 1);
}

// qnn.avg_pool2d(data, input_scale, input_zero_point, output_scale, output_zero_point)
RelStatus avg_pool2d(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 1, 5) == RelStatus::Failed) return RelStatus::Failed;
  return delegate(ctx, "nn.avg_pool2d", 1);
}

// qnn.softmax(x, scale, zero_point, output_scale, output_zero_point), TVM's QnnSoftmaxRel:
// int8 data only, the four parameters rank-0 (float32 scales, int32 zero points; no
// per-channel form), the result x's type. The axis is checked as nn.softmax's.
RelStatus softmax(RelationContext& ctx) {
  if (check_scale_zp_pairs(ctx, 1, 5) == RelStatus::Failed) return RelStatus::Failed;
  for (size_t i = 1; i < 5 && i < ctx.num_inputs(); ++i) {
    const auto* tensor = ty_as<TensorTy>(ctx.input(i));
    if (tensor && !tensor->shape.empty())
      return ctx.fail(RelError{op_tag(ctx) + " expects `" + input_name(ctx, i) + "` to be a scalar",
                               {{i, "has type " + type_to_string(ctx.input(i))}}, {}, {}, {}});
  }
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->dtype != DataType::int_(8))
    return ctx.fail(RelError{op_tag(ctx) + " expects int8 data", {{0, "has dtype " + dtype_name(data->dtype)}}, {}, {},
                             {}});
  return delegate(ctx, "nn.softmax", 1);
}

constexpr char kConv2d[] = "nn.conv2d", kConv2dTranspose[] = "nn.conv2d_transpose", kDense[] = "nn.dense",
               kDensePack[] = "nn.contrib_dense_pack", kBatchMatmul[] = "nn.batch_matmul";

}  // namespace

void register_qnn_relations(RelationTable& t) {
  register_relation(t, "qnn.quantize", quantize);
  register_relation(t, "qnn.dequantize", dequantize);
  register_relation(t, "qnn.requantize", requantize);
  register_relation(t, "qnn.simulated_quantize", simulated);
  register_relation(t, "qnn.simulated_dequantize", simulated);
  for (const char* op : {"qnn.add", "qnn.subtract", "qnn.mul"}) register_relation(t, op, binary);
  for (const char* op : {"qnn.abs", "qnn.erf", "qnn.exp", "qnn.hardswish", "qnn.log", "qnn.rsqrt", "qnn.sigmoid",
                         "qnn.sqrt", "qnn.tanh"})
    register_relation(t, op, unary);
  register_relation(t, "qnn.conv2d", product<kConv2d>);
  register_relation(t, "qnn.conv2d_transpose", product<kConv2dTranspose>);
  register_relation(t, "qnn.dense", product<kDense>);
  register_relation(t, "qnn.contrib_dense_pack", product<kDensePack>);
  register_relation(t, "qnn.batch_matmul", product<kBatchMatmul>);
  register_relation(t, "qnn.concatenate", concatenate);
  register_relation(t, "qnn.avg_pool2d", avg_pool2d);
  register_relation(t, "qnn.leaky_relu", unary);
  register_relation(t, "qnn.softmax", softmax);
}

}  // namespace relay
