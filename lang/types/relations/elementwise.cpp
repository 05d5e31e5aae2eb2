// Relations of §3.2 (elementwise unary) and §3.3 (binary broadcasting) operators.
#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using rel::tensor_input;

// out = data's type (TVM's IdentityRel).
RelStatus identity(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return ctx.assign_output(data) ? RelStatus::Solved : RelStatus::Failed;
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
  return ctx.assign_output(rel::make_tensor(ctx, *shape, out_dtype.value_or(lhs->dtype)))
             ? RelStatus::Solved
             : RelStatus::Failed;
}

RelStatus broadcast(RelationContext& ctx) { return broadcast_with(ctx, std::nullopt); }
RelStatus broadcast_comp(RelationContext& ctx) { return broadcast_with(ctx, DataType::bool_()); }

}  // namespace

void register_elementwise_relations(RelationTable& t) {
  for (const char* op : {"abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos",
                         "cosh", "erf", "exp", "fast_erf", "fast_exp", "fast_tanh", "floor",
                         "log", "log10", "log2", "negative", "round", "rsqrt", "sigmoid", "sign",
                         "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "copy", "nn.relu",
                         "bitwise_not", "logical_not"})
    register_relation(t, op, identity);
  for (const char* op : {"add", "subtract", "multiply", "divide", "floor_divide", "floor_mod",
                         "trunc_divide", "trunc_mod", "mod", "power", "maximum", "minimum",
                         "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
                         "logical_and", "logical_or", "logical_xor"})
    register_relation(t, op, broadcast);
  for (const char* op : {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"})
    register_relation(t, op, broadcast_comp);
}

}  // namespace relay
