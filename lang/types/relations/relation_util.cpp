#include "lang/types/relations/relation_util.h"

#include <cctype>

#include "lang/ops/op_schema.h"

namespace relay::rel {

std::string input_name(RelationContext& ctx, size_t i) {
  if (const OpSignature* sig = find_op_signature(ctx.op_name()))
    if (i < sig->args.size()) return std::string(sig->args[i]);
  return "input " + std::to_string(i);
}

const TensorTy* tensor_input(RelationContext& ctx, size_t i, RelStatus& status) {
  Ty t = ctx.input(i);
  if (t->kind == TyKind::Hole) {
    if (status != RelStatus::Failed) status = RelStatus::Pending;  // an earlier failure wins
    return nullptr;
  }
  if (t->kind == TyKind::Error) {
    status = RelStatus::Failed;  // already reported elsewhere
    return nullptr;
  }
  if (auto* tt = ty_as<TensorTy>(t)) return tt;
  status = ctx.fail(RelError{"`" + std::string(ctx.op_name()) + "` expects a tensor for `" +
                                 input_name(ctx, i) + "`, found `" + type_to_string(t) + "`",
                             {{i, "this is not a tensor"}}, {}, {}, {}});
  return nullptr;
}

std::vector<const TensorTy*> tensor_inputs(RelationContext& ctx, RelStatus& status) {
  std::vector<const TensorTy*> out;
  RelStatus worst = RelStatus::Solved;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    RelStatus s = RelStatus::Solved;
    const TensorTy* t = tensor_input(ctx, i, s);
    if (!t) {
      if (s == RelStatus::Failed) {
        status = s;
        return {};
      }
      worst = s;
    }
    out.push_back(t);
  }
  if (worst != RelStatus::Solved) {
    status = worst;
    return {};
  }
  return out;
}

std::optional<size_t> normalize_axis(RelationContext& ctx, int64_t axis, size_t rank,
                                     std::string_view attr, size_t extra) {
  int64_t r = static_cast<int64_t>(rank);
  int64_t hi = r + static_cast<int64_t>(extra);
  if (axis >= -hi && axis < hi) return static_cast<size_t>(axis < 0 ? axis + hi : axis);
  ctx.report(RelError{"axis " + std::to_string(axis) + " is out of range for a tensor of rank " +
                          std::to_string(rank),
                      {{0, "has rank " + std::to_string(rank)}}, std::string(attr),
                      "valid axes are " + std::to_string(-hi) + " to " + std::to_string(hi - 1),
                      {}});
  return std::nullopt;
}

DimCmp compare_dims(const Dim& a, const Dim& b) {
  if (a.is_any() || b.is_any()) return DimCmp::Unknown;
  if (a == b) return DimCmp::Equal;
  if (dim_has_hole(a) || dim_has_hole(b)) return DimCmp::Unknown;
  return DimCmp::Unequal;
}

std::optional<std::vector<Dim>> broadcast_shapes(std::span<const Dim> a, std::span<const Dim> b,
                                                 size_t* failed_axis) {
  size_t n = std::max(a.size(), b.size());
  std::vector<Dim> out(n);
  for (size_t k = 0; k < n; ++k) {  // k counts from the right
    size_t oi = n - 1 - k;
    bool has_a = k < a.size(), has_b = k < b.size();
    if (!has_a) {
      out[oi] = b[b.size() - 1 - k];
      continue;
    }
    if (!has_b) {
      out[oi] = a[a.size() - 1 - k];
      continue;
    }
    const Dim& x = a[a.size() - 1 - k];
    const Dim& y = b[b.size() - 1 - k];
    if (x == 1) out[oi] = y;
    else if (y == 1) out[oi] = x;
    else if (x.is_any()) out[oi] = y;
    else if (y.is_any()) out[oi] = x;
    else if (x == y) out[oi] = x;
    else if (dim_has_hole(x) || dim_has_hole(y)) out[oi] = Dim::any();
    else {
      if (failed_axis) *failed_axis = oi;
      return std::nullopt;
    }
  }
  return out;
}

Dim product(std::span<const Dim> dims) {
  Dim p = Dim::constant(1);
  for (const Dim& d : dims) {
    if (d.is_any()) return Dim::any();
    p = p * d;
  }
  return p;
}

std::string dims_to_string(std::span<const Dim> shape) { return shape_to_string(shape); }

std::optional<Layout> Layout::parse(std::string_view text) {
  Layout l;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (l.index_of(c) >= 0) return std::nullopt;
      l.axes.push_back({c, 0});
      ++i;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    int64_t f = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      f = f * 10 + (text[i] - '0');
      if (f > (int64_t(1) << 40)) return std::nullopt;
      ++i;
    }
    if (i >= text.size() || !std::islower(static_cast<unsigned char>(text[i])) || f <= 0)
      return std::nullopt;
    if (l.sub_index_of(text[i]) >= 0) return std::nullopt;
    l.axes.push_back({text[i], f});
    ++i;
  }
  // every sub-axis needs its primal axis
  for (const Axis& a : l.axes)
    if (a.factor && l.index_of(static_cast<char>(std::toupper(a.name))) < 0) return std::nullopt;
  return l;
}

int Layout::index_of(char c) const {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].factor == 0 && axes[i].name == c) return static_cast<int>(i);
  return -1;
}

int Layout::sub_index_of(char c) const {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].factor != 0 && axes[i].name == c) return static_cast<int>(i);
  return -1;
}

std::string Layout::to_string() const {
  std::string s;
  for (const Axis& a : axes) {
    if (a.factor) s += std::to_string(a.factor);
    s += a.name;
  }
  return s;
}

std::optional<std::vector<Dim>> convert_layout(std::span<const Dim> shape, const Layout& from,
                                               const Layout& to) {
  if (shape.size() != from.size()) return std::nullopt;
  // Full extent of every primal axis in `from`.
  std::vector<Dim> out;
  for (const Layout::Axis& a : to.axes) {
    char primal = static_cast<char>(std::toupper(static_cast<unsigned char>(a.name)));
    int pi = from.index_of(primal);
    if (pi < 0) return std::nullopt;
    int si = from.sub_index_of(static_cast<char>(std::tolower(static_cast<unsigned char>(primal))));
    Dim full = shape[pi];
    if (si >= 0) full = full * shape[si];
    if (a.factor) {
      out.push_back(Dim::constant(a.factor));
      continue;
    }
    int to_sub = to.sub_index_of(static_cast<char>(std::tolower(static_cast<unsigned char>(primal))));
    if (to_sub >= 0) {
      auto q = floordiv(full, to.axes[to_sub].factor);
      if (!q) return std::nullopt;
      out.push_back(*q);
    } else {
      out.push_back(full);
    }
  }
  return out;
}

std::string op_tag(RelationContext& ctx) { return "`" + std::string(ctx.op_name()) + "`"; }

std::string shape_label(const TensorTy* t) { return "has shape " + dims_to_string(t->shape); }

RelStatus assign_result(RelationContext& ctx, Ty t) {
  return ctx.assign_output(t) ? RelStatus::Solved : RelStatus::Failed;
}

DataType dtype_attr_or_void(const CallAttrs& attrs, std::string_view name) {
  return attrs.get_dtype(name).value_or(DataType::void_());
}

}  // namespace relay::rel
