// Helpers shared by the tensor-transform relations (§3.5, transform_*.cpp): how they
// report, read attributes and inputs, and compare shapes. Internal to those files.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lang/types/relations/relation_util.h"

namespace relay::transform_detail {

using rel::assign_result;
using rel::compare_dims;
using rel::DimCmp;
using rel::dims_to_string;
using rel::shape_label;
using rel::tensor_input;
using Shape = std::vector<Dim>;
using Labels = std::vector<std::pair<size_t, std::string>>;

// Attributes can ask for absurd numbers of dims or tuple fields (`num_newaxis=1000000000`);
// past this the relation reports instead of allocating.
inline constexpr int64_t kMaxGenerated = 1 << 16;
inline constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

// ---------------------------------------------------------------------------------------
// Results and messages

inline RelStatus set_output(RelationContext& ctx, std::span<const Dim> shape, DataType dtype) {
  return assign_result(ctx, ctx.arena().tensor(shape, dtype));
}

// Every message starts with the operator: "`reshape`: ...".
inline std::string prefix(RelationContext& ctx) { return rel::op_tag(ctx) + ": "; }

inline std::string quoted(std::string_view s) { return "`" + std::string(s) + "`"; }

inline Shape shape_of(const TensorTy* t) { return Shape(t->shape.begin(), t->shape.end()); }

inline std::string has_dtype(const TensorTy* t) { return "has dtype " + dtype_name(t->dtype); }

// "1 dim", "3 dims"; `many` for irregular plurals ("entries").
inline std::string plural(size_t n, std::string_view one, std::string_view many = {}) {
  std::string word(n == 1 ? one : many);
  if (n != 1 && many.empty()) word = std::string(one) + "s";
  return std::to_string(n) + " " + word;
}

inline void report_attr(RelationContext& ctx, std::string_view attr, std::string message,
                 std::string attr_label, Labels inputs = {}, std::vector<std::string> notes = {}) {
  ctx.report(RelError{prefix(ctx) + message, std::move(inputs), std::string(attr),
                      std::move(attr_label), std::move(notes)});
}

inline RelStatus fail_attr(RelationContext& ctx, std::string_view attr, std::string message,
                    std::string attr_label, Labels inputs = {},
                    std::vector<std::string> notes = {}) {
  report_attr(ctx, attr, std::move(message), std::move(attr_label), std::move(inputs),
              std::move(notes));
  return RelStatus::Failed;
}

inline void report_inputs(RelationContext& ctx, std::string message, Labels inputs,
                   std::vector<std::string> notes = {}) {
  ctx.report(RelError{prefix(ctx) + message, std::move(inputs), {}, {}, std::move(notes)});
}

inline RelStatus fail_inputs(RelationContext& ctx, std::string message, Labels inputs,
                      std::vector<std::string> notes = {}) {
  report_inputs(ctx, std::move(message), std::move(inputs), std::move(notes));
  return RelStatus::Failed;
}

// ---------------------------------------------------------------------------------------
// Attributes (already checked for kind; what remains is what the relation needs to know)

// The attribute's value, or nullptr after reporting when the relation cannot see it: a
// required field of attributes given through meta[...], or a value written as an expression.
inline const AttrVal* known_attr(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = ctx.attrs().get(name);
  if (v && v->kind != AttrVal::Kind::Opaque) return v;
  report_attr(ctx, name,
              "the value of " + quoted(name) +
                  " is not known here, so the result type cannot be "
                  "computed",
              "not a literal value", {},
              {"attributes given through meta[...] or as expressions are opaque to the type "
               "checker; write the value in the call"});
  return nullptr;
}

inline bool attr_is_none(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = ctx.attrs().get(name);
  return v && v->kind == AttrVal::Kind::None;
}

inline bool is_int_value(const AttrVal& v) {
  return v.kind == AttrVal::Kind::Int || v.kind == AttrVal::Kind::Bool;
}

// A required integer attribute.
inline std::optional<int64_t> int_attr(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = known_attr(ctx, name);
  if (!v) return std::nullopt;
  if (is_int_value(*v)) return v->int_value;
  report_attr(ctx, name, quoted(name) + " must be an integer, found " + attr_to_string(*v),
              "expected an integer");
  return std::nullopt;
}

// An integer-list attribute. A bare integer reads as a one-element list, as TVM's parser
// allows.
inline std::optional<std::vector<int64_t>> int_list(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = known_attr(ctx, name);
  if (!v) return std::nullopt;
  if (is_int_value(*v)) return std::vector<int64_t>{v->int_value};
  if (v->kind != AttrVal::Kind::Array) {
    report_attr(ctx, name,
                quoted(name) + " must be a list of integers, found " + attr_to_string(*v),
                "expected a list of integers");
    return std::nullopt;
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < v->items.size(); ++i) {
    if (!is_int_value(v->items[i])) {
      report_attr(ctx, name,
                  quoted(name) + " must hold integers, but entry " + std::to_string(i) + " is " +
                      attr_to_string(v->items[i]),
                  "expected integers");
      return std::nullopt;
    }
    out.push_back(v->items[i].int_value);
  }
  return out;
}

// A shape attribute (`shape` of full/zeros/ones/broadcast_to, `output_shape`): non-negative
// integers, `?` read as an unknown dim.
inline std::optional<Shape> shape_attr(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = known_attr(ctx, name);
  if (!v) return std::nullopt;
  if (v->kind == AttrVal::Kind::None) {
    report_attr(ctx, name, quoted(name) + " is None, so the result shape is not known",
                "expected a list of dims", {},
                {"a shape computed at run time needs the dyn.* form of the operator"});
    return std::nullopt;
  }
  std::vector<AttrVal> items =
      v->kind == AttrVal::Kind::Array ? v->items : std::vector<AttrVal>{*v};
  Shape shape;
  for (const AttrVal& item : items) {
    if (item.kind == AttrVal::Kind::Any) {
      shape.push_back(Dim::any());
      continue;
    }
    if (!is_int_value(item) || item.int_value < 0) {
      report_attr(ctx, name,
                  quoted(name) + " must hold non-negative dims, found " + attr_to_string(item),
                  "in " + attr_to_string(*v));
      return std::nullopt;
    }
    shape.push_back(Dim::constant(item.int_value));
  }
  return shape;
}

// A required dtype attribute. Unset ("") reads as void, as in TVM (rel::dtype_attr_or_void).
inline std::optional<DataType> required_dtype(RelationContext& ctx, std::string_view name) {
  if (!known_attr(ctx, name)) return std::nullopt;
  return rel::dtype_attr_or_void(ctx.attrs(), name);
}

// A string attribute restricted to `allowed` values (take's `mode`, strided_slice's
// `slice_mode`, ...): TVM silently treats unknown spellings as one of them or aborts later.
inline std::optional<std::string> choice_attr(RelationContext& ctx, std::string_view name,
                                       std::initializer_list<std::string_view> allowed) {
  if (!known_attr(ctx, name)) return std::nullopt;
  std::string value = ctx.attrs().get_string(name);
  for (std::string_view a : allowed)
    if (value == a) return value;
  std::string list;
  for (std::string_view a : allowed) list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  report_attr(ctx, name, quoted(name) + " must be one of " + list + ", found \"" + value + "\"",
              "unknown " + std::string(name));
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// Inputs

inline bool is_integer(DataType t) { return t.is_int() || t.is_uint(); }

// Input `i` must have an integer dtype (indices, lengths); reports otherwise.
inline bool require_integer(RelationContext& ctx, size_t i, const TensorTy* t) {
  if (is_integer(t->dtype)) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must have an integer dtype, found " +
                    dtype_name(t->dtype),
                {{i, has_dtype(t)}});
  return false;
}

// Input `i` must have rank `rank`; reports otherwise.
inline bool require_rank(RelationContext& ctx, size_t i, const TensorTy* t, size_t rank) {
  if (t->rank() == rank) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must have rank " + std::to_string(rank) +
                    ", found rank " + std::to_string(t->rank()),
                {{i, shape_label(t)}});
  return false;
}

inline bool require_scalar(RelationContext& ctx, size_t i, const TensorTy* t) {
  if (t->rank() == 0) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must be a scalar (rank 0), found shape " +
                    dims_to_string(t->shape),
                {{i, shape_label(t)}});
  return false;
}

// Input `i` must have rank >= `min_rank`.
inline bool require_min_rank(RelationContext& ctx, size_t i, const TensorTy* t, size_t min_rank) {
  if (t->rank() >= min_rank) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must have rank " + std::to_string(min_rank) +
                    " or more, found rank " + std::to_string(t->rank()),
                {{i, shape_label(t)}});
  return false;
}

// The fields of tuple input `i` as tensors (concatenate, stack, meshgrid, einsum,
// adv_index). Pending while the tuple or any field is unknown; Failed (reported) when the
// input is not a tuple of tensors.
inline std::vector<const TensorTy*> tensor_fields(RelationContext& ctx, size_t i, RelStatus& status) {
  // Pending for a type not known yet; Failed for one already in error (reported where it arose).
  auto not_ready = [&status](Ty t) {
    if (t->kind != TyKind::Hole && t->kind != TyKind::Error) return false;
    status = t->kind == TyKind::Hole ? RelStatus::Pending : RelStatus::Failed;
    return true;
  };
  Ty t = ctx.input(i);
  if (not_ready(t)) return {};
  const auto* tuple = ty_as<TupleTy>(t);
  if (!tuple) {
    status =
        fail_inputs(ctx,
                    quoted(rel::input_name(ctx, i)) + " must be a tuple of tensors, found " +
                        quoted(type_to_string(t)),
                    {{i, "this is not a tuple"}},
                    {"the tensors are passed as one tuple argument: " + std::string(ctx.op_name()) +
                     "((%a, %b))"});
    return {};
  }
  std::vector<const TensorTy*> fields;
  for (size_t k = 0; k < tuple->fields.size(); ++k) {
    Ty f = tuple->fields[k];
    if (not_ready(f)) return {};
    const auto* tensor = ty_as<TensorTy>(f);
    if (!tensor) {
      status = fail_inputs(ctx,
                           "field " + std::to_string(k) + " of " + quoted(rel::input_name(ctx, i)) +
                               " is " + quoted(type_to_string(f)) + ", not a tensor",
                           {{i, "field " + std::to_string(k) + " is not a tensor"}});
      return {};
    }
    fields.push_back(tensor);
  }
  return fields;
}

inline std::string field_label(size_t k, const TensorTy* t) {
  return "field " + std::to_string(k) + " " + shape_label(t);
}

// The fields (of input 0) must share one dtype (concatenate, stack, meshgrid, einsum).
inline bool require_field_dtypes(RelationContext& ctx, const std::vector<const TensorTy*>& fields) {
  for (size_t k = 1; k < fields.size(); ++k) {
    if (fields[k]->dtype == fields[0]->dtype) continue;
    report_inputs(ctx,
                  "all tensors must have the same dtype, but field 0 has " +
                      dtype_name(fields[0]->dtype) + " and field " + std::to_string(k) + " has " +
                      dtype_name(fields[k]->dtype),
                  {{0, "field " + std::to_string(k) + " " + has_dtype(fields[k])}});
    return false;
  }
  return true;
}

// The fields (of input 0) must be non-empty and share one rank and one dtype (concatenate,
// stack).
inline bool require_uniform_fields(RelationContext& ctx, const std::vector<const TensorTy*>& fields) {
  if (fields.empty()) {
    report_inputs(ctx, "`data` must hold at least one tensor, found an empty tuple",
                  {{0, "is ()"}});
    return false;
  }
  for (size_t k = 1; k < fields.size(); ++k) {
    if (fields[k]->rank() == fields[0]->rank()) continue;
    report_inputs(ctx,
                  "all tensors must have the same rank, but field 0 has rank " +
                      std::to_string(fields[0]->rank()) + " and field " + std::to_string(k) +
                      " has rank " + std::to_string(fields[k]->rank()),
                  {{0, field_label(k, fields[k])}});
    return false;
  }
  return require_field_dtypes(ctx, fields);
}

// ---------------------------------------------------------------------------------------
// Shapes

inline bool all_constant(std::span<const Dim> shape) {
  return std::all_of(shape.begin(), shape.end(), [](const Dim& d) { return d.is_constant(); });
}

// Element counts that provably differ (constants, or polynomials over the function's own
// dimension names); unknown when either count involves `?`. A count of constant dims that
// overflows int64 (rel::product gives `?`) differs from one that does not.
inline bool counts_differ(std::span<const Dim> a, std::span<const Dim> b) {
  Dim ca = rel::product(a), cb = rel::product(b);
  if (ca.is_any() != cb.is_any() && all_constant(a) && all_constant(b)) return true;
  return compare_dims(ca, cb) == DimCmp::Unequal;
}

inline std::string count_text(std::span<const Dim> shape) {
  Dim n = rel::product(shape);
  return n.is_any() ? "an unknown number of" : n.to_string();
}

// "cannot reshape data of shape (2, 3) (6 elements) into (4) (4 elements)".
inline std::string reshape_mismatch(std::span<const Dim> from, std::span<const Dim> to) {
  return "cannot reshape data of shape " + dims_to_string(from) + " (" + count_text(from) +
         " elements) into " + dims_to_string(to) + " (" + count_text(to) + " elements)";
}

// Whether `from` broadcasts to exactly `to` (§3.0.1 with `to` as the result): aligned from
// the right, each dim of `from` is 1, equal to `to`'s, or not known statically. Reports with
// `what` naming `from` ("data") and `labels` on the inputs.
inline bool check_broadcasts_to(RelationContext& ctx, std::span<const Dim> from, std::span<const Dim> to,
                         const std::string& what, Labels labels) {
  std::string head =
      what + " of shape " + dims_to_string(from) + " cannot be broadcast to " + dims_to_string(to);
  if (from.size() > to.size()) {
    report_inputs(ctx, head + ": it has more dims", std::move(labels));
    return false;
  }
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    const Dim& f = from[i];
    const Dim& t = to[offset + i];
    if (f == 1 || compare_dims(f, t) != DimCmp::Unequal) continue;
    report_inputs(ctx,
                  head + ": its dim " + std::to_string(i) + " is " + f.to_string() +
                      ", which is neither 1 nor " + t.to_string(),
                  std::move(labels),
                  {"broadcasting aligns shapes from the right; each dim must be 1 or equal to "
                   "the target's"});
    return false;
  }
  return true;
}

// Broadcasts two shapes (§3.0.1) described as `a_what` and `b_what`, reporting with `labels`.
inline std::optional<Shape> broadcast_or_report(RelationContext& ctx, std::span<const Dim> a,
                                         const std::string& a_what, std::span<const Dim> b,
                                         const std::string& b_what, Labels labels) {
  size_t failed = 0;
  auto shape = rel::broadcast_shapes(a, b, &failed);
  if (shape) return shape;
  report_inputs(ctx,
                "incompatible broadcast of " + a_what + " " + dims_to_string(a) + " and " + b_what +
                    " " + dims_to_string(b) + " (at output dim " + std::to_string(failed) + ")",
                std::move(labels),
                {"shapes broadcast from the right: each pair of dims must be equal, or one of "
                 "them 1"});
  return std::nullopt;
}


// A list attribute of positive integers (`count` of them, when given).
inline std::optional<std::vector<int64_t>> positive_list(RelationContext& ctx, std::string_view name,
                                                         std::optional<size_t> count = std::nullopt) {
  auto list = int_list(ctx, name);
  if (!list) return std::nullopt;
  if (count && list->size() != *count) {
    report_attr(ctx, name,
                quoted(name) + " must have " + plural(*count, "entry", "entries") + ", found " +
                    std::to_string(list->size()),
                "wrong length");
    return std::nullopt;
  }
  for (int64_t v : *list)
    if (v <= 0) {
      report_attr(ctx, name,
                  quoted(name) + " must hold positive integers, found " + std::to_string(v),
                  "not positive");
      return std::nullopt;
    }
  return list;
}

// Normalised, distinct axes of a rank-`rank` tensor from an integer-list attribute.
inline std::optional<std::vector<size_t>> distinct_axes(RelationContext& ctx, std::string_view attr,
                                                        const std::vector<int64_t>& axes, size_t rank) {
  std::vector<size_t> out;
  for (int64_t a : axes) {
    auto axis = rel::normalize_axis(ctx, a, rank, attr);
    if (!axis) return std::nullopt;
    if (std::find(out.begin(), out.end(), *axis) != out.end()) {
      report_attr(ctx, attr, "axis " + std::to_string(*axis) + " appears twice in " + quoted(attr),
                  "repeats an axis");
      return std::nullopt;
    }
    out.push_back(*axis);
  }
  return out;
}

}  // namespace relay::transform_detail
