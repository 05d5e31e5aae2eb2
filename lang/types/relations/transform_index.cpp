// Relations of §3.5 (tensor transforms), indexing: take, gather, gather_nd, scatter_*,
// adv_index, one_hot, reverse*, sequence_mask, unravel_index, argwhere.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

// ---------------------------------------------------------------------------------------
// Indexing: take, gather, gather_nd, scatter_*, adv_index, one_hot, reverse*, sequence_mask,
// unravel_index, argwhere

// The leading `count` dims of data and of indices (from indices dim `offset`) are batch dims
// and must agree.
bool check_batch_dims(RelationContext& ctx, const TensorTy* data, const TensorTy* indices,
                      size_t count, size_t offset) {
  for (size_t i = 0; i < count; ++i) {
    const Dim& a = data->shape[i];
    const Dim& b = indices->shape[i + offset];
    if (compare_dims(a, b) != DimCmp::Unequal) continue;
    report_attr(
        ctx, "batch_dims",
        "batch dim " + std::to_string(i) + " differs: data has " + a.to_string() +
            ", indices has " + b.to_string() + " (its dim " + std::to_string(i + offset) + ")",
        "covers dim " + std::to_string(i), {{0, shape_label(data)}, {1, shape_label(indices)}});
    return false;
  }
  return true;
}

// take with an axis: data[:axis] ++ indices[batch_dims:] ++ data[axis+1:]. A negative
// batch_dims counts from indices' rank (TVM adds that rank to `axis` instead, a bug that
// only shows for negative batch_dims).
RelStatus take_along_axis(RelationContext& ctx, const TensorTy* data, const TensorTy* indices) {
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis");
  if (!axis) return RelStatus::Failed;
  int64_t batch = ctx.attrs().get_int("batch_dims", 0);
  if (batch < 0) batch += static_cast<int64_t>(indices->rank());
  if (batch < 0 || batch > static_cast<int64_t>(std::min(*axis, indices->rank())))
    return fail_attr(ctx, "batch_dims",
                     "`batch_dims` " + std::to_string(ctx.attrs().get_int("batch_dims", 0)) +
                         " must be between 0 and both the axis (" + std::to_string(*axis) +
                         ") and the rank of indices (" + std::to_string(indices->rank()) + ")",
                     "out of range", {{1, shape_label(indices)}});
  size_t b = static_cast<size_t>(batch);
  if (!check_batch_dims(ctx, data, indices, b, 0)) return RelStatus::Failed;
  Shape out(data->shape.begin(), data->shape.begin() + *axis);
  out.insert(out.end(), indices->shape.begin() + b, indices->shape.end());
  out.insert(out.end(), data->shape.begin() + *axis + 1, data->shape.end());
  return set_output(ctx, out, data->dtype);
}

// take: integer indices; axis None takes from the flattened data (out = indices.shape).
RelStatus take_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *indices = in[1];
  if (!require_integer(ctx, 1, indices) || !choice_attr(ctx, "mode", {"clip", "wrap", "fast"}))
    return RelStatus::Failed;
  if (attr_is_none(ctx, "axis")) return set_output(ctx, indices->shape, data->dtype);
  return take_along_axis(ctx, data, indices);
}

// gather: integer indices of data's rank; dims other than axis must match; out =
// Tensor[indices.shape, data.dtype].
RelStatus gather_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *indices = in[1];
  if (!require_integer(ctx, 1, indices) || !require_rank(ctx, 1, indices, data->rank()))
    return RelStatus::Failed;
  if (attr_is_none(ctx, "axis")) return fail_attr(ctx, "axis", "`axis` must be given", "None");
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis");
  if (!axis) return RelStatus::Failed;
  for (size_t i = 0; i < data->rank(); ++i)
    if (i != *axis && compare_dims(data->shape[i], indices->shape[i]) == DimCmp::Unequal)
      return fail_inputs(ctx,
                         "dim " + std::to_string(i) + " differs (it is not the gather axis " +
                             std::to_string(*axis) + "): data has " + data->shape[i].to_string() +
                             ", indices has " + indices->shape[i].to_string(),
                         {{0, shape_label(data)}, {1, shape_label(indices)}});
  return set_output(ctx, indices->shape, data->dtype);
}

// The number M of dims an N-d index addresses: the constant first dim of `indices`, or
// `index_rank` when given (gather_nd). Must not exceed `limit`.
std::optional<size_t> index_depth(RelationContext& ctx, const TensorTy* indices, size_t limit,
                                  bool has_index_rank) {
  if (!require_min_rank(ctx, 1, indices, 1)) return std::nullopt;
  std::optional<int64_t> m = indices->shape[0].constant_value();
  if (!m && has_index_rank) m = ctx.attrs().get_opt_int("index_rank");
  if (!m)
    report_inputs(ctx,
                  "the first dim of `indices` (the number of indexed dims) must be a constant, "
                  "found " +
                      indices->shape[0].to_string(),
                  {{1, shape_label(indices)}});
  else if (*m < 0 || *m > static_cast<int64_t>(limit))
    report_inputs(ctx,
                  "`indices` address " + std::to_string(*m) + " dims, but data has only " +
                      std::to_string(limit) + " to index",
                  {{0, "has " + plural(limit, "indexable dim")}, {1, shape_label(indices)}});
  else
    return static_cast<size_t>(*m);
  return std::nullopt;
}

// gather_nd: indices (M, Y...); out = Y... ++ data.shape[M+batch_dims:]; the first
// batch_dims dims of data equal indices' dims after M.
RelStatus gather_nd_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *indices = in[1];
  int64_t batch = ctx.attrs().get_int("batch_dims", 0);
  if (batch < 0 || batch >= static_cast<int64_t>(std::max<size_t>(indices->rank(), 1)) ||
      batch > static_cast<int64_t>(data->rank()))
    return fail_attr(ctx, "batch_dims",
                     "`batch_dims` must be between 0 and the rank of indices minus 1, found " +
                         std::to_string(batch),
                     "out of range", {{1, shape_label(indices)}});
  size_t b = static_cast<size_t>(batch);
  auto m = index_depth(ctx, indices, data->rank() - b, true);
  if (!m || !check_batch_dims(ctx, data, indices, b, 1)) return RelStatus::Failed;
  Shape out(indices->shape.begin() + 1, indices->shape.end());
  out.insert(out.end(), data->shape.begin() + *m + b, data->shape.end());
  return set_output(ctx, out, data->dtype);
}

// scatter_elements: integer indices of data's rank; out = data's type.
RelStatus scatter_elements_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_integer(ctx, 1, in[1]) || !require_rank(ctx, 1, in[1], in[0]->rank()) ||
      !choice_attr(ctx, "reduction", {"update", "add", "mul", "mean", "min", "max"}))
    return RelStatus::Failed;
  return assign_result(ctx, in[0]);
}

// scatter_nd: indices (M, Y0..Yk-1), updates (Y0..Yk-1, X_M..X_{N-1}); out = data's type.
RelStatus scatter_nd_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *indices = in[1], *updates = in[2];
  auto m = index_depth(ctx, indices, data->rank(), false);
  if (!m) return RelStatus::Failed;
  Shape expected(indices->shape.begin() + 1, indices->shape.end());
  expected.insert(expected.end(), data->shape.begin() + *m, data->shape.end());
  bool fits = updates->rank() == expected.size();
  for (size_t i = 0; fits && i < expected.size(); ++i)
    fits = compare_dims(updates->shape[i], expected[i]) != DimCmp::Unequal;
  if (!fits)
    return fail_inputs(
        ctx,
        "`updates` must have shape " + dims_to_string(expected) +
            " (indices' dims after the first, then data's dims after the " + std::to_string(*m) +
            " indexed ones), found " + dims_to_string(updates->shape),
        {{0, shape_label(data)}, {1, shape_label(indices)}, {2, shape_label(updates)}});
  return assign_result(ctx, data);
}

// adv_index((data, i1, ..., ik)): broadcast(i1, ..., ik) ++ data.shape[k:], data's dtype.
RelStatus adv_index_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto fields = tensor_fields(ctx, 0, st);
  if (st != RelStatus::Solved) return st;
  if (fields.size() < 2)
    return fail_inputs(ctx,
                       "`inputs` must hold the data and at least one index tensor, found " +
                           plural(fields.size(), "tensor"),
                       {{0, "has " + plural(fields.size(), "field")}});
  const TensorTy* data = fields[0];
  size_t count = fields.size() - 1;
  if (count > data->rank())
    return fail_inputs(ctx,
                       "too many indices: " + std::to_string(count) + " for data of rank " +
                           std::to_string(data->rank()),
                       {{0, field_label(0, data)}});
  Shape index_shape = shape_of(fields[1]);
  for (size_t k = 2; k < fields.size(); ++k) {
    size_t failed = 0;
    auto next = rel::broadcast_shapes(index_shape, fields[k]->shape, &failed);
    if (!next)
      return fail_inputs(ctx,
                         "index field " + std::to_string(k) + " " + shape_label(fields[k]) +
                             ", which does not broadcast with the earlier indices " +
                             dims_to_string(index_shape),
                         {{0, field_label(k, fields[k])}});
    index_shape = *next;
  }
  index_shape.insert(index_shape.end(), data->shape.begin() + count, data->shape.end());
  return set_output(ctx, index_shape, data->dtype);
}

// one_hot: indices' shape with `depth` (> 0) inserted at axis (-1 = last; other negative
// axes wrap too, where TVM would not insert the dim at all); dtype.
RelStatus one_hot_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* indices = tensor_input(ctx, 0, st);
  if (!indices) return st;
  int64_t depth = ctx.attrs().get_int("depth", 1);
  if (depth <= 0)
    return fail_attr(ctx, "depth", "`depth` must be positive, found " + std::to_string(depth),
                     "not positive");
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis", -1), indices->rank(), "axis", 1);
  if (!axis) return RelStatus::Failed;
  Shape out = shape_of(indices);
  out.insert(out.begin() + static_cast<ptrdiff_t>(*axis), Dim::constant(depth));
  return set_output(ctx, out, rel::dtype_attr_or_void(ctx.attrs(), "dtype"));
}

// reverse: data's type; axis in [-ndim, ndim) (None: every axis).
RelStatus reverse_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!attr_is_none(ctx, "axis") &&
      !rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis"))
    return RelStatus::Failed;
  return assign_result(ctx, data);
}

// reverse_sequence: seq_lengths is 1-D, integer, of length data.shape[batch_axis]; out =
// data's type.
RelStatus reverse_sequence_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *lengths = in[1];
  auto seq = rel::normalize_axis(ctx, ctx.attrs().get_int("seq_axis", 1), data->rank(), "seq_axis");
  auto batch = seq ? rel::normalize_axis(ctx, ctx.attrs().get_int("batch_axis", 0), data->rank(),
                                         "batch_axis")
                   : std::nullopt;
  if (!batch || !require_integer(ctx, 1, lengths) || !require_rank(ctx, 1, lengths, 1))
    return RelStatus::Failed;
  if (compare_dims(lengths->shape[0], data->shape[*batch]) == DimCmp::Unequal)
    return fail_inputs(ctx,
                       "`seq_lengths` has " + lengths->shape[0].to_string() +
                           " entries but the batch axis (" + std::to_string(*batch) +
                           ") of data has " + data->shape[*batch].to_string(),
                       {{0, shape_label(data)}, {1, shape_label(lengths)}});
  return assign_result(ctx, data);
}

// sequence_mask: axis 0 or 1; valid_length is forced to (data.shape[1-axis]) of its own
// dtype; out = data's type.
RelStatus sequence_mask_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *valid = in[1];
  int64_t axis = ctx.attrs().get_int("axis", 0);
  if (axis != 0 && axis != 1)
    return fail_attr(ctx, "axis", "`axis` must be 0 or 1, found " + std::to_string(axis),
                     "not 0 or 1");
  if (!require_min_rank(ctx, 0, data, 2)) return RelStatus::Failed;
  Shape lengths{data->shape[static_cast<size_t>(1 - axis)]};
  if (!ctx.assign_input(1, rel::make_tensor(ctx, lengths, valid->dtype))) return RelStatus::Failed;
  return assign_result(ctx, data);
}

// unravel_index(data, shape): both integer, shape 1-D, data a scalar or vector; out =
// (len(shape)) ++ (data.shape[0] unless data is a scalar), data's dtype.
RelStatus unravel_index_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *indices = in[0], *shape = in[1];
  if (!require_integer(ctx, 0, indices) || !require_integer(ctx, 1, shape) ||
      !require_rank(ctx, 1, shape, 1))
    return RelStatus::Failed;
  if (indices->rank() > 1)
    return fail_inputs(
        ctx, "`data` must be a scalar or a vector, found shape " + dims_to_string(indices->shape),
        {{0, shape_label(indices)}});
  Shape out{shape->shape[0]};
  out.insert(out.end(), indices->shape.begin(), indices->shape.end());
  return set_output(ctx, out, indices->dtype);
}

// argwhere: Tensor[(?, rank(condition)), int32].
RelStatus argwhere_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* condition = tensor_input(ctx, 0, st);
  if (!condition) return st;
  Shape out{Dim::any(), Dim::constant(static_cast<int64_t>(condition->rank()))};
  return set_output(ctx, out, DataType::int_(32));
}

}  // namespace

void register_transform_index_relations(RelationTable& t) {
  register_relation(t, "take", take_rel);
  register_relation(t, "gather", gather_rel);
  register_relation(t, "gather_nd", gather_nd_rel);
  register_relation(t, "scatter_elements", scatter_elements_rel);
  register_relation(t, "scatter_nd", scatter_nd_rel);
  register_relation(t, "adv_index", adv_index_rel);
  register_relation(t, "one_hot", one_hot_rel);
  register_relation(t, "reverse", reverse_rel);
  register_relation(t, "reverse_sequence", reverse_sequence_rel);
  register_relation(t, "sequence_mask", sequence_mask_rel);
  register_relation(t, "unravel_index", unravel_index_rel);
  register_relation(t, "argwhere", argwhere_rel);
}

}  // namespace relay
