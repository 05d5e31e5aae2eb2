// Relations of random.* (reference §3.8; TVM v0.14.0 src/relay/op/random/kernel.cc).
// Every one forces its key to Tensor[(10), uint64] (the Threefry key) and returns the
// next key with its values.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

Ty key_type(RelationContext& ctx) { return ctx.arena().tensor({Dim::constant(10)}, DataType::uint_(64)); }

// random.threefry_generate: (key, Tensor[out_shape, uint64]).
RelStatus threefry_generate_rel(RelationContext& ctx) {
  Ty key = key_type(ctx);
  if (!ctx.assign_input(0, key)) return RelStatus::Failed;
  auto shape = shape_attr(ctx, "out_shape");
  if (!shape) return RelStatus::Failed;
  return assign_result(ctx, ctx.arena().tuple({key, rel::make_tensor(ctx, *shape, DataType::uint_(64))}));
}

// random.threefry_split: (key, key).
RelStatus threefry_split_rel(RelationContext& ctx) {
  Ty key = key_type(ctx);
  if (!ctx.assign_input(0, key)) return RelStatus::Failed;
  return assign_result(ctx, ctx.arena().tuple({key, key}));
}

// random.uniform, random.normal: the two parameters are scalars of out_dtype, which must
// be float32 or float64 (TVM rejects anything else, void included).
RelStatus uniform_rel(RelationContext& ctx) {
  DataType dt = rel::dtype_attr_or_void(ctx.attrs(), "out_dtype");
  if (!(dt.is_float() && dt.code == DataType::Float && (dt.bits == 32 || dt.bits == 64)))
    return fail_attr(ctx, "out_dtype",
                     "`out_dtype` must be float32 or float64, found " +
                         (dt.is_void() ? std::string("none") : dtype_name(dt)),
                     "unsupported dtype", {}, {"TVM's generator only converts random bits to float32 or float64"});
  Ty key = key_type(ctx);
  if (!ctx.assign_input(0, key)) return RelStatus::Failed;
  Ty scalar = ctx.arena().scalar(dt);
  if (!ctx.assign_input(1, scalar) || !ctx.assign_input(2, scalar)) return RelStatus::Failed;
  auto shape = shape_attr(ctx, "out_shape");
  if (!shape) return RelStatus::Failed;
  return assign_result(ctx, ctx.arena().tuple({key, rel::make_tensor(ctx, *shape, dt)}));
}

// random.multinomial: (key, Tensor[probs.shape[:-1] ++ (num_samples), int32]).
RelStatus multinomial_rel(RelationContext& ctx) {
  Ty key = key_type(ctx);
  if (!ctx.assign_input(0, key)) return RelStatus::Failed;
  RelStatus st = RelStatus::Solved;
  const TensorTy* probs = tensor_input(ctx, 1, st);
  if (!probs) return st;
  if (!require_min_rank(ctx, 1, probs, 1)) return RelStatus::Failed;
  auto n = int_attr(ctx, "num_samples");
  if (!n) return RelStatus::Failed;
  if (*n < 0) return fail_attr(ctx, "num_samples", "`num_samples` must not be negative", "negative");
  Shape shape(probs->shape.begin(), probs->shape.end() - 1);
  shape.push_back(Dim::constant(*n));
  return assign_result(ctx, ctx.arena().tuple({key, rel::make_tensor(ctx, shape, DataType::int_(32))}));
}

}  // namespace

void register_random_relations(RelationTable& t) {
  register_relation(t, "random.threefry_generate", threefry_generate_rel);
  register_relation(t, "random.threefry_split", threefry_split_rel);
  register_relation(t, "random.uniform", uniform_rel);
  register_relation(t, "random.normal", uniform_rel);
  register_relation(t, "random.multinomial", multinomial_rel);
}

}  // namespace relay
