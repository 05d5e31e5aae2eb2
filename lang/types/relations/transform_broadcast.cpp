// Relations of §3.5 (tensor transforms), repetition and broadcasting: repeat, tile,
// broadcast_to(_like), collapse_sum_*, where.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

// ---------------------------------------------------------------------------------------
// Repetition and broadcasting: repeat, tile, broadcast_to(_like), collapse_sum_*, where

// repeat: dim `axis` multiplied by repeats (>= 1); `?` stays `?`.
RelStatus repeat_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto repeats = int_attr(ctx, "repeats");
  if (!repeats) return RelStatus::Failed;
  if (*repeats < 1)
    return fail_attr(ctx, "repeats",
                     "`repeats` must be at least 1, found " + std::to_string(*repeats),
                     "not positive");
  if (attr_is_none(ctx, "axis"))
    return fail_attr(ctx, "axis", "`axis` must be given", "None", {},
                     {"flatten first with reshape(newshape=[-1]) to repeat every element"});
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis");
  if (!axis) return RelStatus::Failed;
  Shape out = shape_of(data);
  out[*axis] = out[*axis].is_any() ? Dim::any() : out[*axis] * *repeats;
  return set_output(ctx, out, data->dtype);
}

// tile: shape and reps left-padded with 1s to one length; out[i] = data[i] * reps[i].
RelStatus tile_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto reps = positive_list(ctx, "reps");
  if (!reps) return RelStatus::Failed;
  size_t rank = std::max(data->rank(), reps->size());
  Shape dims(rank - data->rank(), Dim::constant(1));
  dims.insert(dims.end(), data->shape.begin(), data->shape.end());
  reps->insert(reps->begin(), rank - reps->size(), 1);
  Shape out;
  for (size_t i = 0; i < rank; ++i)
    out.push_back(dims[i].is_any() ? Dim::any() : dims[i] * (*reps)[i]);
  return set_output(ctx, out, data->dtype);
}

// broadcast_to: Tensor[shape, data.dtype]; data must broadcast to shape.
RelStatus broadcast_to_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto shape = shape_attr(ctx, "shape");
  if (!shape) return RelStatus::Failed;
  if (!check_broadcasts_to(ctx, data->shape, *shape, "data", {{0, shape_label(data)}}))
    return RelStatus::Failed;
  return set_output(ctx, *shape, data->dtype);
}

// Input `a` and input `b` must have one dtype (the broadcast relations have no promotion).
bool require_same_dtype(RelationContext& ctx, const TensorTy* a, size_t ia, const TensorTy* b,
                        size_t ib) {
  if (a->dtype == b->dtype) return true;
  report_inputs(
      ctx, "data types " + dtype_name(a->dtype) + " and " + dtype_name(b->dtype) + " do not match",
      {{ia, has_dtype(a)}, {ib, has_dtype(b)}});
  return false;
}

// broadcast_to_like: broadcast_type's type; data must broadcast to it.
// collapse_sum_like: collapse_type's type; it must broadcast to data.
// Both go through TVM's BroadcastRel, so the dtypes must match.
RelStatus like_with(RelationContext& ctx, bool data_broadcasts) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *like = in[1];
  if (!require_same_dtype(ctx, data, 0, like, 1)) return RelStatus::Failed;
  Labels labels{{0, shape_label(data)}, {1, shape_label(like)}};
  bool ok = data_broadcasts
                ? check_broadcasts_to(ctx, data->shape, like->shape, "data", labels)
                : check_broadcasts_to(ctx, like->shape, data->shape, "collapse_type", labels);
  return ok ? assign_result(ctx, like) : RelStatus::Failed;
}

RelStatus broadcast_to_like_rel(RelationContext& ctx) { return like_with(ctx, true); }
RelStatus collapse_sum_like_rel(RelationContext& ctx) { return like_with(ctx, false); }

// collapse_sum_to(data, shape): Tensor[attrs shape, or (?, ...) of the shape tensor's static
// length, data.dtype]; it must broadcast to data.
RelStatus collapse_sum_to_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *shape = in[1];
  if (!require_rank(ctx, 1, shape, 1)) return RelStatus::Failed;
  auto length = shape->shape[0].constant_value();
  if (!length || *length > kMaxGenerated)
    return fail_inputs(ctx,
                       "the length of `shape` must be a constant (the rank of the result), "
                       "found " +
                           shape->shape[0].to_string(),
                       {{1, shape_label(shape)}});
  const AttrVal* attr = ctx.attrs().get("shape");
  Shape out(static_cast<size_t>(*length), Dim::any());
  if (attr && attr->kind != AttrVal::Kind::None && attr->kind != AttrVal::Kind::Opaque) {
    auto written = shape_attr(ctx, "shape");
    if (!written) return RelStatus::Failed;
    out = *written;
  }
  if (!check_broadcasts_to(ctx, out, data->shape, "the result", {{0, shape_label(data)}}))
    return RelStatus::Failed;
  return set_output(ctx, out, data->dtype);
}

// where: x and y share a dtype; broadcast(condition, broadcast(x, y)) with x's dtype.
RelStatus where_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *condition = in[0], *x = in[1], *y = in[2];
  if (!require_same_dtype(ctx, x, 1, y, 2)) return RelStatus::Failed;
  auto xy = broadcast_or_report(ctx, x->shape, "`x`", y->shape, "`y`",
                                {{1, shape_label(x)}, {2, shape_label(y)}});
  auto out = xy ? broadcast_or_report(
                      ctx, condition->shape, "`condition`", *xy, "the shape of `x` and `y`",
                      {{0, shape_label(condition)}, {1, shape_label(x)}, {2, shape_label(y)}})
                : std::nullopt;
  if (!out) return RelStatus::Failed;
  return set_output(ctx, *out, x->dtype);
}

}  // namespace

void register_transform_broadcast_relations(RelationTable& t) {
  register_relation(t, "repeat", repeat_rel);
  register_relation(t, "tile", tile_rel);
  register_relation(t, "broadcast_to", broadcast_to_rel);
  register_relation(t, "broadcast_to_like", broadcast_to_like_rel);
  register_relation(t, "collapse_sum_like", collapse_sum_like_rel);
  register_relation(t, "collapse_sum_to", collapse_sum_to_rel);
  register_relation(t, "where", where_rel);
}

}  // namespace relay
