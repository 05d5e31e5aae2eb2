// Relations of dyn.* (reference §3.9; TVM v0.14.0 src/relay/op/dyn/): the static op's
// attributes that became tensor inputs are known only at run time, so the dims they
// decide are `?`. What the relation can still check is what TVM's checks: the rank of
// the shape-like inputs, and that their length (which decides the output's rank) is
// static.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

Shape anys(size_t n) { return Shape(n, Dim::any()); }

// The static length of 1-D input `i` (newshape, shape, reps, axes, begin, ...), which
// gives the output's rank. nullopt with `st` Pending / Failed (reported).
std::optional<size_t> static_length(RelationContext& ctx, size_t i, RelStatus& st) {
  const TensorTy* t = tensor_input(ctx, i, st);
  if (!t) return std::nullopt;
  if (!require_rank(ctx, i, t, 1) || !require_integer(ctx, i, t)) {
    st = RelStatus::Failed;
    return std::nullopt;
  }
  if (!t->shape[0].is_constant()) {
    st = fail_inputs(ctx, quoted(rel::input_name(ctx, i)) + " must have a static length, which gives the result's rank",
                     {{i, shape_label(t)}});
    return std::nullopt;
  }
  if (*t->shape[0].constant_value() > kMaxGenerated) {
    st = fail_inputs(ctx, quoted(rel::input_name(ctx, i)) + " is too long to be a shape", {{i, shape_label(t)}});
    return std::nullopt;
  }
  return static_cast<size_t>(*t->shape[0].constant_value());
}

// An input that holds one value: a scalar, or (1,) as frontends pass it.
bool require_one_value(RelationContext& ctx, size_t i, const TensorTy* t) {
  if (t->rank() == 0 || (t->rank() == 1 && t->shape[0] == 1)) return true;
  report_inputs(ctx, quoted(rel::input_name(ctx, i)) + " must hold one value (shape () or (1)), found shape " +
                         dims_to_string(t->shape),
                {{i, shape_label(t)}});
  return false;
}

// dyn.reshape(data, newshape: (r)) -> r `?` dims, data's dtype.
RelStatus reshape_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto r = static_length(ctx, 1, st);
  if (!r) return st;
  return set_output(ctx, anys(*r), data->dtype);
}

// dyn.broadcast_to(data, shape: (r)) -> r `?` dims, data's dtype.
RelStatus broadcast_to_rel(RelationContext& ctx) { return reshape_rel(ctx); }

// dyn.zeros / dyn.ones(shape: (r)) -> r `?` dims of `dtype`.
RelStatus init_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto r = static_length(ctx, 0, st);
  if (!r) return st;
  return set_output(ctx, anys(*r), rel::dtype_attr_or_void(ctx.attrs(), "dtype"));
}

// dyn.full(fill_value: scalar, shape: (r)) -> r `?` dims of `dtype`, else fill_value's.
RelStatus full_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* fill = tensor_input(ctx, 0, st);
  if (!fill) return st;
  if (!require_scalar(ctx, 0, fill)) return RelStatus::Failed;
  auto r = static_length(ctx, 1, st);
  if (!r) return st;
  return set_output(ctx, anys(*r), ctx.attrs().get_dtype("dtype").value_or(fill->dtype));
}

// dyn.expand_dims(data, axis: one value) -> rank(data) + num_newaxis dims, all `?`.
RelStatus expand_dims_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_integer(ctx, 1, in[1]) || !require_one_value(ctx, 1, in[1])) return RelStatus::Failed;
  auto n = int_attr(ctx, "num_newaxis");
  if (!n) return RelStatus::Failed;
  if (*n < 0 || *n > kMaxGenerated)
    return fail_attr(ctx, "num_newaxis", "`num_newaxis` must be between 0 and " + std::to_string(kMaxGenerated),
                     "out of range");
  return set_output(ctx, anys(in[0]->rank() + static_cast<size_t>(*n)), in[0]->dtype);
}

// dyn.squeeze(data, axes: (k)) -> rank(data) - k dims, all `?`.
RelStatus squeeze_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto k = static_length(ctx, 1, st);
  if (!k) return st;
  if (*k > data->rank())
    return fail_inputs(ctx, "cannot squeeze " + plural(*k, "axis", "axes") + " from data of rank " +
                                std::to_string(data->rank()),
                       {{0, shape_label(data)}});
  return set_output(ctx, anys(data->rank() - *k), data->dtype);
}

// dyn.tile(data, reps: (r)) -> max(rank(data), r) dims, all `?`.
RelStatus tile_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto r = static_length(ctx, 1, st);
  if (!r) return st;
  return set_output(ctx, anys(std::max(*r, data->rank())), data->dtype);
}

// dyn.strided_slice(data, begin, end, strides: (k)) -> the first k dims `?`, the rest kept.
RelStatus strided_slice_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  std::optional<size_t> k;
  for (size_t i = 1; i <= 3; ++i) {
    auto len = static_length(ctx, i, st);
    if (!len) return st;
    if (k && *len != *k)
      return fail_inputs(ctx, "`begin`, `end` and `strides` must have the same length", {{i, "has length " + std::to_string(*len)}});
    k = len;
  }
  if (*k > data->rank())
    return fail_inputs(ctx, "`begin` has " + std::to_string(*k) + " entries for data of rank " + std::to_string(data->rank()),
                       {{1, "too long"}});
  Shape out = shape_of(data);
  for (size_t i = 0; i < *k; ++i) out[i] = Dim::any();
  return set_output(ctx, out, data->dtype);
}

// dyn.one_hot(indices, on_value, off_value, depth) -> indices' shape with a `?` dim
// inserted at axis; `dtype`.
RelStatus one_hot_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_integer(ctx, 0, in[0])) return RelStatus::Failed;
  for (size_t i = 1; i <= 2; ++i)
    if (!require_scalar(ctx, i, in[i])) return RelStatus::Failed;
  if (!require_integer(ctx, 3, in[3]) || !require_one_value(ctx, 3, in[3])) return RelStatus::Failed;
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis", -1), in[0]->rank() + 1, "axis");
  if (!axis) return RelStatus::Failed;
  Shape out = shape_of(in[0]);
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*axis), Dim::any());
  return set_output(ctx, out, rel::dtype_attr_or_void(ctx.attrs(), "dtype"));
}

// dyn.topk(data, k: one value) -> as topk with the axis dim `?`.
RelStatus topk_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_integer(ctx, 1, in[1]) || !require_one_value(ctx, 1, in[1])) return RelStatus::Failed;
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis", -1), in[0]->rank(), "axis");
  if (!axis) return RelStatus::Failed;
  Shape shape = shape_of(in[0]);
  shape[*axis] = Dim::any();
  Ty values = rel::make_tensor(ctx, shape, in[0]->dtype);
  Ty indices = rel::make_tensor(ctx, shape, rel::dtype_attr_or_void(ctx.attrs(), "dtype"));
  auto ret = choice_attr(ctx, "ret_type", {"both", "values", "indices"});
  if (!ret) return RelStatus::Failed;
  if (*ret == "both") return assign_result(ctx, ctx.arena().tuple({values, indices}));
  return assign_result(ctx, *ret == "values" ? values : indices);
}

// dyn.nn.pad(data, pad_width: (rank, 2), pad_val: scalar) -> every dim `?`.
RelStatus pad_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_rank(ctx, 1, in[1], 2) || !require_integer(ctx, 1, in[1])) return RelStatus::Failed;
  if (compare_dims(in[1]->shape[0], Dim::constant(static_cast<int64_t>(in[0]->rank()))) == DimCmp::Unequal ||
      compare_dims(in[1]->shape[1], Dim::constant(2)) == DimCmp::Unequal)
    return fail_inputs(ctx, "`pad_width` must have shape (" + std::to_string(in[0]->rank()) + ", 2) for data of rank " +
                                std::to_string(in[0]->rank()),
                       {{1, shape_label(in[1])}});
  if (!require_scalar(ctx, 2, in[2])) return RelStatus::Failed;
  return set_output(ctx, anys(in[0]->rank()), in[0]->dtype);
}

// The positions of `letters` in the `layout` attribute for data of that rank.
std::optional<std::vector<size_t>> layout_positions(RelationContext& ctx, const TensorTy* data, std::string_view letters) {
  std::string layout = ctx.attrs().get_string("layout");
  auto parsed = rel::Layout::parse(layout);
  if (!parsed || parsed->size() != data->rank()) {
    report_attr(ctx, "layout", "`layout` \"" + layout + "\" does not describe data of rank " + std::to_string(data->rank()),
                "unusable layout", {{0, shape_label(data)}});
    return std::nullopt;
  }
  std::vector<size_t> pos;
  for (char c : letters) {
    int p = parsed->index_of(c);
    if (p < 0) {
      report_attr(ctx, "layout", "`layout` \"" + layout + "\" has no " + std::string(1, c) + " dimension", "no " + std::string(1, c));
      return std::nullopt;
    }
    pos.push_back(static_cast<size_t>(p));
  }
  return pos;
}

// dyn.nn.upsampling(data, scale_h, scale_w) / upsampling3d(data, scale_d, scale_h,
// scale_w): the scaled dims `?`, the rest kept.
template <int N> RelStatus upsampling_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  for (size_t i = 1; i <= N; ++i)
    if (!require_one_value(ctx, i, in[i])) return RelStatus::Failed;
  auto pos = layout_positions(ctx, in[0], N == 2 ? "HW" : "DHW");
  if (!pos) return RelStatus::Failed;
  Shape out = shape_of(in[0]);
  for (size_t p : *pos) out[p] = Dim::any();
  return set_output(ctx, out, in[0]->dtype);
}

// dyn.image.resize2d(data, size: (2), roi: (4)) -> H and W `?`; out_dtype or data's.
RelStatus resize2d_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_rank(ctx, 1, in[1], 1) || !require_integer(ctx, 1, in[1])) return RelStatus::Failed;
  auto pos = layout_positions(ctx, in[0], "HW");
  if (!pos) return RelStatus::Failed;
  Shape out = shape_of(in[0]);
  for (size_t p : *pos) out[p] = Dim::any();
  return set_output(ctx, out, ctx.attrs().get_dtype("out_dtype").value_or(in[0]->dtype));
}

// dyn.sparse_to_dense(sparse_indices, sparse_values, default_value, output_shape: (r))
// -> r `?` dims, sparse_values' dtype.
RelStatus sparse_to_dense_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!require_integer(ctx, 0, in[0])) return RelStatus::Failed;
  if (in[0]->rank() > 2)
    return fail_inputs(ctx, "`sparse_indices` must have rank 2 or less", {{0, shape_label(in[0])}});
  if (!require_scalar(ctx, 2, in[2])) return RelStatus::Failed;
  auto r = static_length(ctx, 3, st);
  if (!r) return st;
  return set_output(ctx, anys(*r), in[1]->dtype);
}

}  // namespace

void register_dyn_relations(RelationTable& t) {
  register_relation(t, "dyn.reshape", reshape_rel);
  register_relation(t, "dyn.broadcast_to", broadcast_to_rel);
  register_relation(t, "dyn.zeros", init_rel);
  register_relation(t, "dyn.ones", init_rel);
  register_relation(t, "dyn.full", full_rel);
  register_relation(t, "dyn.expand_dims", expand_dims_rel);
  register_relation(t, "dyn.squeeze", squeeze_rel);
  register_relation(t, "dyn.tile", tile_rel);
  register_relation(t, "dyn.strided_slice", strided_slice_rel);
  register_relation(t, "dyn.one_hot", one_hot_rel);
  register_relation(t, "dyn.topk", topk_rel);
  register_relation(t, "dyn.nn.pad", pad_rel);
  register_relation(t, "dyn.nn.upsampling", upsampling_rel<2>);
  register_relation(t, "dyn.nn.upsampling3d", upsampling_rel<3>);
  register_relation(t, "dyn.image.resize2d", resize2d_rel);
  register_relation(t, "dyn.sparse_to_dense", sparse_to_dense_rel);
}

}  // namespace relay
