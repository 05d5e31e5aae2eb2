// Relations of §3.5 (tensor transforms), joining and splitting: concatenate, stack,
// split, meshgrid.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

// ---------------------------------------------------------------------------------------
// Joining and splitting: concatenate, stack, split, meshgrid

// The dim of the fields at `dim` that is not the concatenation axis: the first non-`?` one,
// after checking that the others agree with it. `keep_static` says whether a mix of `?` and
// constants keeps the constant (TVM keeps it only when the concatenation axis is `?`).
std::optional<Dim> agreed_dim(RelationContext& ctx, const std::vector<const TensorTy*>& fields,
                              size_t dim, size_t axis, bool keep_static) {
  std::optional<size_t> first;
  size_t known = 0;
  for (size_t k = 0; k < fields.size(); ++k) {
    const Dim& d = fields[k]->shape[dim];
    if (d.is_any()) continue;
    ++known;
    if (!first) {
      first = k;
      continue;
    }
    const Dim& ref = fields[*first]->shape[dim];
    if (compare_dims(ref, d) == DimCmp::Unequal) {
      report_inputs(ctx,
                    "the tensors differ at dim " + std::to_string(dim) +
                        ", which is not the concatenation axis (" + std::to_string(axis) +
                        "): field " + std::to_string(*first) + " has " + ref.to_string() +
                        ", field " + std::to_string(k) + " has " + d.to_string(),
                    {{0, field_label(k, fields[k])}},
                    {"field " + std::to_string(*first) + " " + shape_label(fields[*first])});
      return std::nullopt;
    }
  }
  if (known == fields.size() || (known > 0 && keep_static)) return fields[*first]->shape[dim];
  return Dim::any();
}

// concatenate: one tuple of tensors of equal rank and dtype; the axis dims add up (`?` if any
// is `?`); the other dims must agree (rule of §3.5 for mixes of `?` and constants).
RelStatus concatenate_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto fields = tensor_fields(ctx, 0, st);
  if (st != RelStatus::Solved) return st;
  if (!require_uniform_fields(ctx, fields)) return RelStatus::Failed;
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis", 0), fields[0]->rank(), "axis");
  if (!axis) return RelStatus::Failed;
  Dim total = Dim::constant(0);
  for (const TensorTy* f : fields)
    total = f->shape[*axis].is_any() || total.is_any() ? Dim::any() : total + f->shape[*axis];
  Shape out(fields[0]->rank());
  out[*axis] = total;
  for (size_t dim = 0; dim < out.size(); ++dim) {
    if (dim == *axis) continue;
    auto d = agreed_dim(ctx, fields, dim, *axis, total.is_any());
    if (!d) return RelStatus::Failed;
    out[dim] = *d;
  }
  return set_output(ctx, out, fields[0]->dtype);
}

// stack: one tuple of tensors of equal shape and dtype; a new dim of size len(tuple) at axis
// in [-(ndim+1), ndim+1). Dims are taken from the first tensor, `?` tolerated.
RelStatus stack_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto fields = tensor_fields(ctx, 0, st);
  if (st != RelStatus::Solved) return st;
  if (!require_uniform_fields(ctx, fields)) return RelStatus::Failed;
  const TensorTy* first = fields[0];
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis", 0), first->rank(), "axis", 1);
  if (!axis) return RelStatus::Failed;
  for (size_t k = 1; k < fields.size(); ++k)
    for (size_t dim = 0; dim < first->rank(); ++dim)
      if (compare_dims(first->shape[dim], fields[k]->shape[dim]) == DimCmp::Unequal)
        return fail_inputs(ctx,
                           "all tensors must have the same shape, but field 0 " +
                               shape_label(first) + " and field " + std::to_string(k) + " " +
                               shape_label(fields[k]) + " (dim " + std::to_string(dim) + ")",
                           {{0, field_label(k, fields[k])}});
  Shape out = shape_of(first);
  out.insert(out.begin() + static_cast<ptrdiff_t>(*axis),
             Dim::constant(static_cast<int64_t>(fields.size())));
  return set_output(ctx, out, first->dtype);
}

// split into `sections` equal parts along `axis` (divisibility checked for a constant dim).
std::optional<Shape> section_sizes(RelationContext& ctx, const TensorTy* data, size_t axis,
                                   int64_t sections) {
  if (sections < 1 || sections > kMaxGenerated) {
    report_attr(ctx, "indices_or_sections",
                "the number of sections must be between 1 and " + std::to_string(kMaxGenerated) +
                    ", found " + std::to_string(sections),
                "out of range");
    return std::nullopt;
  }
  const Dim& d = data->shape[axis];
  if (auto c = d.constant_value(); c && *c % sections != 0) {
    report_attr(ctx, "indices_or_sections",
                "dim " + std::to_string(axis) + " of data (" + std::to_string(*c) +
                    ") cannot be split into " + std::to_string(sections) + " equal sections",
                "does not divide " + std::to_string(*c), {{0, shape_label(data)}});
    return std::nullopt;
  }
  Dim part = d.is_any() ? Dim::any() : *floordiv(d, sections);
  return Shape(static_cast<size_t>(sections), part);
}

// split at `indices` (strictly ascending, positive, below a constant dim): sizes i1, i2-i1,
// ..., dim-ik.
std::optional<Shape> index_sizes(RelationContext& ctx, const TensorTy* data, size_t axis,
                                 const std::vector<int64_t>& indices) {
  const Dim& d = data->shape[axis];
  Shape sizes;
  int64_t begin = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] <= begin) {
      report_attr(ctx, "indices_or_sections",
                  "split indices must be positive and strictly ascending, but entry " +
                      std::to_string(i) + " is " + std::to_string(indices[i]),
                  "not ascending");
      return std::nullopt;
    }
    sizes.push_back(Dim::constant(indices[i] - begin));
    begin = indices[i];
  }
  if (auto c = d.constant_value(); c && begin >= *c) {
    report_attr(ctx, "indices_or_sections",
                "split index " + std::to_string(begin) + " is not inside dim " +
                    std::to_string(axis) + " of data (" + std::to_string(*c) + ")",
                "out of range", {{0, shape_label(data)}});
    return std::nullopt;
  }
  sizes.push_back(d.is_any() ? Dim::any() : d - begin);
  return sizes;
}

// split: a tuple of parts along `axis`; indices_or_sections is an integer (that many equal
// sections) or a list of integers (split points).
RelStatus split_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto axis = rel::normalize_axis(ctx, ctx.attrs().get_int("axis", 0), data->rank(), "axis");
  const AttrVal* spec = axis ? known_attr(ctx, "indices_or_sections") : nullptr;
  if (!spec) return RelStatus::Failed;
  std::optional<Shape> sizes;
  if (is_int_value(*spec)) {
    sizes = section_sizes(ctx, data, *axis, spec->int_value);
  } else if (spec->kind == AttrVal::Kind::Array) {
    auto indices = int_list(ctx, "indices_or_sections");
    if (indices) sizes = index_sizes(ctx, data, *axis, *indices);
  } else {
    return fail_attr(ctx, "indices_or_sections",
                     "`indices_or_sections` must be an integer (a number of sections) or a list "
                     "of integers (split points), found " +
                         attr_to_string(*spec),
                     "neither sections nor indices");
  }
  if (!sizes) return RelStatus::Failed;
  std::vector<Ty> parts;
  Shape part = shape_of(data);
  for (const Dim& size : *sizes) {
    part[*axis] = size;
    parts.push_back(rel::make_tensor(ctx, part, data->dtype));
  }
  return assign_result(ctx, ctx.arena().tuple(std::span<const Ty>(parts.data(), parts.size())));
}

// meshgrid: a tuple of scalars or vectors of one dtype; one grid per input, shaped by their
// lengths (a scalar counts 1), the first two swapped for indexing "xy".
RelStatus meshgrid_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto fields = tensor_fields(ctx, 0, st);
  if (st != RelStatus::Solved) return st;
  auto indexing = choice_attr(ctx, "indexing", {"ij", "xy"});
  if (!indexing || !require_field_dtypes(ctx, fields)) return RelStatus::Failed;
  Shape grid;
  for (size_t k = 0; k < fields.size(); ++k) {
    const TensorTy* f = fields[k];
    if (f->rank() > 1)
      return fail_inputs(ctx,
                         "every tensor must be a scalar or a vector, but field " +
                             std::to_string(k) + " " + shape_label(f),
                         {{0, field_label(k, f)}});
    grid.push_back(f->rank() == 0 ? Dim::constant(1) : f->shape[0]);
  }
  if (*indexing == "xy" && grid.size() >= 2) std::swap(grid[0], grid[1]);
  if (fields.empty()) return assign_result(ctx, ctx.arena().unit());
  std::vector<Ty> grids(fields.size(), rel::make_tensor(ctx, grid, fields[0]->dtype));
  return assign_result(ctx, ctx.arena().tuple(std::span<const Ty>(grids.data(), grids.size())));
}

}  // namespace

void register_transform_join_relations(RelationTable& t) {
  register_relation(t, "concatenate", concatenate_rel);
  register_relation(t, "stack", stack_rel);
  register_relation(t, "split", split_rel);
  register_relation(t, "meshgrid", meshgrid_rel);
}

}  // namespace relay
