// Relations of §3.2 (elementwise unary and per-tensor) and §3.3 (binary broadcasting)
// operators.
#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using rel::assign_result;
using rel::dtype_attr_or_void;
using rel::tensor_input;

// out = data's type (TVM's IdentityRel).
RelStatus identity(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return assign_result(ctx, data);
}

// out = Tensor[data.shape, bool] (TVM's IdentityCompRel: isfinite, isinf, isnan).
RelStatus identity_comp(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return assign_result(ctx, ctx.arena().tensor(data->shape, DataType::bool_()));
}

// out = Tensor[(rank), dtype] (TVM's ShapeOfRel). Its RankShape gives an empty shape for
// a rank-0 input, so a scalar's shape is a rank-0 tensor, not a 1-D tensor of length 0.
RelStatus shape_of(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  std::vector<Dim> rank_shape;
  if (data->rank() > 0) rank_shape.push_back(Dim::constant(static_cast<int64_t>(data->rank())));
  DataType dtype = dtype_attr_or_void(ctx.attrs(), "dtype");
  return assign_result(ctx, rel::make_tensor(ctx, rank_shape, dtype));
}

// out = Tensor[(), dtype]: the element count (TVM's NdarraySizeRel).
RelStatus ndarray_size(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  if (!tensor_input(ctx, 0, st)) return st;
  return assign_result(ctx, ctx.arena().scalar(dtype_attr_or_void(ctx.attrs(), "dtype")));
}

// Broadcast of lhs and rhs (reference §3.0.1); `out_dtype` overrides the result dtype
// (bool for comparisons).
RelStatus broadcast_with(RelationContext& ctx, std::optional<DataType> out_dtype) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* lhs = tensor_input(ctx, 0, st);
  const TensorTy* rhs = tensor_input(ctx, 1, st);
  if (!lhs || !rhs) return st;
  if (lhs->dtype != rhs->dtype)
    return ctx.fail(RelError{"data types " + dtype_name(lhs->dtype) + " and " +
                                 dtype_name(rhs->dtype) + " do not match in `" +
                                 std::string(ctx.op_name()) + "`",
                             {{0, "has dtype " + dtype_name(lhs->dtype)},
                              {1, "has dtype " + dtype_name(rhs->dtype)}},
                             {}, {},
                             {"Relay has no implicit dtype promotion; use `cast` or a literal "
                              "with the right suffix (`1f` is float32, `1` is int32)"}});
  size_t failed = 0;
  auto shape = rel::broadcast_shapes(lhs->shape, rhs->shape, &failed);
  if (!shape) {
    size_t n = std::max(lhs->rank(), rhs->rank());
    size_t from_right = n - 1 - failed;
    const Dim& a = lhs->shape[lhs->rank() - 1 - from_right];
    const Dim& b = rhs->shape[rhs->rank() - 1 - from_right];
    return ctx.fail(RelError{
        "incompatible broadcast: dimension " + std::to_string(failed) + " is " + a.to_string() +
            " in `" + type_to_string(lhs) + "` and " + b.to_string() + " in `" +
            type_to_string(rhs) + "`",
        {{0, "has shape " + rel::dims_to_string(lhs->shape)},
         {1, "has shape " + rel::dims_to_string(rhs->shape)}},
        {}, {},
        {"shapes broadcast from the right: each pair of dimensions must be equal, or one "
         "of them 1"}});
  }
  return assign_result(ctx, rel::make_tensor(ctx, *shape, out_dtype.value_or(lhs->dtype)));
}

RelStatus broadcast(RelationContext& ctx) { return broadcast_with(ctx, std::nullopt); }
RelStatus broadcast_comp(RelationContext& ctx) { return broadcast_with(ctx, DataType::bool_()); }

}  // namespace

void register_elementwise_relations(RelationTable& t) {
  // §3.2: the attribute-free math ops, and those whose attributes only matter at run time
  // (clip's bounds, fixed_point_multiply's multiplier and shift). invert_permutation and
  // logical_not expect integer/bool data, but TVM's relation does not check it.
  for (const char* op : {"abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos",
                         "cosh", "erf", "exp", "fast_erf", "fast_exp", "fast_tanh", "floor",
                         "log", "log10", "log2", "negative", "round", "rsqrt", "sigmoid", "sign",
                         "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "copy", "nn.relu",
                         "bitwise_not", "logical_not", "ones_like", "zeros_like",
                         "invert_permutation", "clip", "fixed_point_multiply"})
    register_relation(t, op, identity);
  for (const char* op : {"isfinite", "isinf", "isnan"}) register_relation(t, op, identity_comp);
  register_relation(t, "shape_of", shape_of);
  register_relation(t, "ndarray_size", ndarray_size);
  // §3.3
  for (const char* op : {"add", "subtract", "multiply", "divide", "floor_divide", "floor_mod",
                         "trunc_divide", "trunc_mod", "mod", "power", "maximum", "minimum",
                         "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
                         "logical_and", "logical_or", "logical_xor"})
    register_relation(t, op, broadcast);
  for (const char* op : {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"})
    register_relation(t, op, broadcast_comp);
}

}  // namespace relay
