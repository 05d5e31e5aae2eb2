// Shared building blocks for operator relations: reading tensor inputs, axes, dimension
// comparison with `?` and symbolic dims, broadcasting, layouts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lang/types/relation.h"

namespace relay::rel {

// Input `i` as a tensor. nullptr with `status` = Pending while it is unknown, or Failed
// (reported: "`op` expects a tensor for input `name`, found ...") when it is not a tensor.
const TensorTy* tensor_input(RelationContext& ctx, size_t i, RelStatus& status);

// All inputs as tensors; empty + status set when any is unknown or not a tensor.
std::vector<const TensorTy*> tensor_inputs(RelationContext& ctx, RelStatus& status);

// The input argument's documented name (`data`, `weight`), for messages.
std::string input_name(RelationContext& ctx, size_t i);

// Normalises a possibly negative axis against `rank` (accepting [-rank, rank + extra)).
// nullopt after reporting "axis A is out of range for a tensor of rank R" at `attr`.
std::optional<size_t> normalize_axis(RelationContext& ctx, int64_t axis, size_t rank,
                                     std::string_view attr, size_t extra = 0);

// How two dimensions compare statically.
enum class DimCmp { Equal, Unequal, Unknown };
// Equal when identical after normalisation. Unknown when either side is `?` or mentions
// a dimension the solver has not determined yet (an instantiated signature dim). Two
// different expressions over the function's own dimension names are Unequal: inside a
// function body `n` is one fixed but unknown size, so `n` vs `m` or `n` vs `4` is a
// mismatch (docs/types.md).
DimCmp compare_dims(const Dim& a, const Dim& b);

// Broadcasts two shapes (reference §3.0.1). On failure returns nullopt and sets
// `failed_axis` to the output axis (counted from the left of the longer shape) whose
// dims were incompatible.
std::optional<std::vector<Dim>> broadcast_shapes(std::span<const Dim> a, std::span<const Dim> b,
                                                 size_t* failed_axis = nullptr);

// Product of dims (Any if any is Any).
Dim product(std::span<const Dim> dims);

// Shortcut for building a tensor type in the relation's arena.
inline Ty make_tensor(RelationContext& ctx, const std::vector<Dim>& shape, DataType dtype) {
  return ctx.arena().tensor(std::span<const Dim>(shape.data(), shape.size()), dtype);
}

std::string dims_to_string(std::span<const Dim> shape);  // "(1, 3, ?)"

// Layouts (reference §3.0.2): "NCHW", "NCHW16c", "OIHW", ...
struct Layout {
  struct Axis {
    char name;        // upper case for a primal axis, lower case for a sub-axis
    int64_t factor;   // sub-axis size (0 for a primal axis)
  };
  std::vector<Axis> axes;
  static std::optional<Layout> parse(std::string_view text);
  // Position of the primal axis `c` (upper case), or -1.
  int index_of(char c) const;
  // Position of the sub-axis of `c` (lower case), or -1.
  int sub_index_of(char c) const;
  size_t size() const { return axes.size(); }
  std::string to_string() const;
};

// Converts `shape` from layout `from` to layout `to` (both naming the same primal axes),
// folding or splitting sub-axes. nullopt when the layouts are not convertible.
std::optional<std::vector<Dim>> convert_layout(std::span<const Dim> shape, const Layout& from,
                                               const Layout& to);

// Message and result helpers that every family needs.

// The operator's name in backquotes, the way messages start: "`nn.dense`".
std::string op_tag(RelationContext& ctx);

// The usual label on a tensor input: "has shape (1, 784)".
std::string shape_label(const TensorTy* t);

// Assigns `t` to the output: Solved, or Failed when it cannot be unified (reported).
RelStatus assign_result(RelationContext& ctx, Ty t);

// A DataType attribute for a rule that has no input dtype to fall back to (shape_of,
// argsort, topk's indices): unset ("") reads as void, because TVM's relations then build
// a void tensor type rather than reject the call. (TVM's Python builders always pass a
// dtype, so printed programs spell it out.)
DataType dtype_attr_or_void(const CallAttrs& attrs, std::string_view name);

}  // namespace relay::rel
