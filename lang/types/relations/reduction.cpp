// Relations of the §3.4 reductions: `sum`-like ops (TVM's ReduceRel), `argmax`/`argmin`
// (ArgReduceRel) and `variance` (VarianceRel). All three share the reduce-axes rule of
// reference §3.0.3, implemented once below.
#include <optional>
#include <string>
#include <vector>

#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using rel::assign_result;
using rel::op_tag;
using rel::shape_label;
using rel::tensor_input;

// `first` and `second` were both written in `axis` and name dimension `dim`.
void report_repeated_axis(RelationContext& ctx, int64_t first, int64_t second, size_t dim,
                          size_t rank) {
  std::string what = first == second
                         ? "axis " + std::to_string(first) + " is listed twice"
                         : "axes " + std::to_string(first) + " and " + std::to_string(second) +
                               " both name dimension " + std::to_string(dim) + " of a rank-" +
                               std::to_string(rank) + " tensor";
  ctx.report(RelError{op_tag(ctx) + ": " + what, {{0, "has rank " + std::to_string(rank)}},
                      "axis", "lists dimension " + std::to_string(dim) + " twice", {}});
}

// Which dimensions of a rank-`rank` tensor the call reduces (reference §3.0.3, TVM's
// GetReduceAxes): `axis` None or empty means all of them (`exclude` is then ignored);
// otherwise the listed axes, negative ones counted from the end, or with `exclude=True`
// every axis *not* listed. nullopt after reporting an axis out of range or one listed
// twice (TVM would index past its output shape there).
std::optional<std::vector<bool>> reduced_axes(RelationContext& ctx, size_t rank) {
  const CallAttrs& attrs = ctx.attrs();
  std::vector<int64_t> listed = attrs.get_ints("axis");
  if (listed.empty()) return std::vector<bool>(rank, true);
  std::vector<bool> named(rank, false);
  std::vector<int64_t> written_as(rank, 0);
  for (int64_t axis : listed) {
    std::optional<size_t> a = rel::normalize_axis(ctx, axis, rank, "axis");
    if (!a) return std::nullopt;
    if (named[*a]) {
      report_repeated_axis(ctx, written_as[*a], axis, *a, rank);
      return std::nullopt;
    }
    named[*a] = true;
    written_as[*a] = axis;
  }
  if (attrs.get_bool("exclude")) named.flip();  // reduce the axes not named instead
  return named;
}

// The shape after reducing the marked dimensions: with `keepdims` they become 1, else
// they are dropped (so reducing everything gives a rank-0 result). An empty reduce set
// (everything excluded) leaves the shape as it is.
std::vector<Dim> reduced_shape(std::span<const Dim> shape, const std::vector<bool>& reduced,
                               bool keepdims) {
  std::vector<Dim> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) out.push_back(shape[d]);
    else if (keepdims) out.push_back(Dim::constant(1));
  }
  return out;
}

// Assigns Tensor[data reduced per the call's axis/exclude/keepdims, out_dtype].
RelStatus assign_reduction(RelationContext& ctx, const TensorTy* data, DataType out_dtype) {
  std::optional<std::vector<bool>> reduced = reduced_axes(ctx, data->rank());
  if (!reduced) return RelStatus::Failed;
  std::vector<Dim> shape = reduced_shape(data->shape, *reduced, ctx.attrs().get_bool("keepdims"));
  return assign_result(ctx, rel::make_tensor(ctx, shape, out_dtype));
}

// sum, max, min, mean, prod, all, any: data's dtype (TVM's ReduceRel).
RelStatus reduce(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return assign_reduction(ctx, data, data->dtype);
}

// argmax, argmin (TVM's ArgReduceRel). The result dtype is that of the shape's
// dimension expressions, which is int32 for every shape written in text. TVM rejects a
// rank-0 input: there is no axis to return a position along.
RelStatus arg_reduce(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->rank() == 0)
    return ctx.fail(RelError{op_tag(ctx) + " needs a tensor of rank at least 1, found `" +
                                 type_to_string(data) + "`",
                             {{0, "is a rank-0 tensor"}}, {}, {},
                             {"it returns the position of an element along an axis, and a "
                              "rank-0 tensor has no axes"}});
  return assign_reduction(ctx, data, DataType::int_(32));
}

// variance(data, mean) (TVM's VarianceRel): data and mean must have the same rank (mean
// is normally `mean(data, axis, keepdims=True)`); the result is data reduced, in data's
// dtype. `unbiased` only changes the values.
RelStatus variance(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  const TensorTy* mean = tensor_input(ctx, 1, st);
  if (!data || !mean) return st;
  if (data->rank() != mean->rank())
    return ctx.fail(RelError{op_tag(ctx) + ": data and mean must have the same rank: data has " +
                                 std::to_string(data->rank()) + " dimensions " +
                                 rel::dims_to_string(data->shape) + ", mean has " +
                                 std::to_string(mean->rank()) + " " +
                                 rel::dims_to_string(mean->shape),
                             {{0, shape_label(data)}, {1, shape_label(mean)}}, {}, {},
                             {"`mean` is normally the mean of `data` over the same axes with "
                              "keepdims=True"}});
  return assign_reduction(ctx, data, data->dtype);
}

}  // namespace

void register_reduction_relations(RelationTable& t) {
  for (const char* op : {"sum", "max", "min", "mean", "prod", "all", "any"})
    register_relation(t, op, reduce);
  register_relation(t, "argmax", arg_reduce);
  register_relation(t, "argmin", arg_reduce);
  register_relation(t, "variance", variance);
}

}  // namespace relay
