// Relations of §3.5 (tensor transforms), casts and constructors: cast, reinterpret,
// cast_like, zeros, ones, full, full_like, arange.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

// ---------------------------------------------------------------------------------------
// Casts and constructors

// cast, reinterpret: Tensor[data.shape, dtype] (CastRel; reinterpret reuses it).
RelStatus cast_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto dtype = required_dtype(ctx, "dtype");
  if (!dtype) return RelStatus::Failed;
  return set_output(ctx, data->shape, *dtype);
}

// cast_like: Tensor[data.shape, dtype_like.dtype].
RelStatus cast_like_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *like = in[1];
  return set_output(ctx, data->shape, like->dtype);
}

// zeros, ones: Tensor[shape, dtype], no inputs.
RelStatus init_rel(RelationContext& ctx) {
  auto shape = shape_attr(ctx, "shape");
  if (!shape) return RelStatus::Failed;
  return set_output(ctx, *shape, rel::dtype_attr_or_void(ctx.attrs(), "dtype"));
}

// full: fill_value is a scalar; Tensor[shape, dtype, or fill_value's dtype when void].
RelStatus full_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* fill = tensor_input(ctx, 0, st);
  if (!fill) return st;
  if (!require_scalar(ctx, 0, fill)) return RelStatus::Failed;
  auto shape = shape_attr(ctx, "shape");
  if (!shape) return RelStatus::Failed;
  return set_output(ctx, *shape, ctx.attrs().get_dtype("dtype").value_or(fill->dtype));
}

// full_like: fill_value is a scalar; out = data's type.
RelStatus full_like_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *fill = in[1];
  if (!require_scalar(ctx, 1, fill)) return RelStatus::Failed;
  return assign_result(ctx, data);
}

// An arange bound (`start`, `stop`, `step`) when written as a literal number; those given as
// expressions (TVM prints meta[relay.Constant]) are not visible to the relation.
std::optional<double> literal_number(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = ctx.attrs().get(name);
  if (!v) return std::nullopt;
  if (v->kind == AttrVal::Kind::Int) return static_cast<double>(v->int_value);
  if (v->kind == AttrVal::Kind::Float) return v->float_value;
  return std::nullopt;
}

// The length of arange(start, stop, step) when all three are known: ceil((stop-start)/step),
// which must be positive. nullopt when not all known; Failed via `ok` when invalid.
std::optional<Dim> arange_length(RelationContext& ctx, bool& ok) {
  auto start = literal_number(ctx, "start");
  auto stop = literal_number(ctx, "stop");
  auto step = literal_number(ctx, "step");
  if (!start || !stop || !step) return std::nullopt;
  double n = *step == 0 ? 0 : std::ceil((*stop - *start) / *step);
  if (!(n > 0) || n > static_cast<double>(std::numeric_limits<int32_t>::max())) {
    ok = false;
    std::string bounds = "start " + attr_to_string(*ctx.attrs().get("start")) + ", stop " +
                         attr_to_string(*ctx.attrs().get("stop")) + ", step " +
                         attr_to_string(*ctx.attrs().get("step"));
    report_attr(ctx, "step", bounds + " do not give between 1 and 2^31-1 elements",
                n > 0 ? "too many elements" : "no elements");
    return std::nullopt;
  }
  return Dim::constant(static_cast<int64_t>(n));
}

// arange: start/stop/step are each unified with Tensor[(), dtype]; the result is
// (ceil((stop-start)/step)) when the attrs hold constants, else (?).
RelStatus arange_rel(RelationContext& ctx) {
  auto dtype = required_dtype(ctx, "dtype");
  if (!dtype) return RelStatus::Failed;
  Ty scalar = ctx.arena().scalar(*dtype);
  for (size_t i = 0; i < ctx.num_inputs(); ++i)
    if (!ctx.assign_input(i, scalar)) return RelStatus::Failed;
  bool ok = true;
  std::optional<Dim> length = arange_length(ctx, ok);
  if (!ok) return RelStatus::Failed;
  return set_output(ctx, Shape{length.value_or(Dim::any())}, *dtype);
}

}  // namespace

void register_transform_create_relations(RelationTable& t) {
  register_relation(t, "cast", cast_rel);
  register_relation(t, "reinterpret", cast_rel);
  register_relation(t, "cast_like", cast_like_rel);
  register_relation(t, "zeros", init_rel);
  register_relation(t, "ones", init_rel);
  register_relation(t, "full", full_rel);
  register_relation(t, "full_like", full_like_rel);
  register_relation(t, "arange", arange_rel);
}

}  // namespace relay
