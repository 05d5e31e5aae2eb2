// Relations of §3.5 (tensor transforms), reshaping: reshape (InferNewShape),
// reverse_reshape, reshape_like, expand_dims, squeeze, transpose, layout transforms.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

// ---------------------------------------------------------------------------------------
// reshape and contrib_reverse_reshape (§3.0.4, InferNewShape)

// Resolves `newshape` against an input shape, left to right with a cursor into the input.
// contrib_reverse_reshape runs it on both sequences reversed (`reversed_` only changes which
// position a message names).
class NewShapeResolver {
 public:
  NewShapeResolver(RelationContext& ctx, Shape input, std::vector<int64_t> spec, bool allowzero,
                   bool reversed)
      : ctx_(ctx),
        in_(std::move(input)),
        spec_(std::move(spec)),
        allowzero_(allowzero),
        reversed_(reversed),
        input_used_(in_.size(), false) {}

  // The new shape, or nullopt after reporting.
  std::optional<Shape> resolve() {
    for (k_ = 0; k_ < spec_.size(); ++k_)
      if (!step()) return std::nullopt;
    if (placeholder_ && !infer_placeholder()) return std::nullopt;
    return out_;
  }

  // True when a dim was computed by division (-1 or a -1 inside -4): the element count of a
  // symbolic shape can then differ by the division's remainder, a run-time matter.
  bool inferred() const { return inferred_; }

 private:
  bool step() {
    int64_t v = spec_[k_];
    if (v > 0 || (v == 0 && allowzero_)) return literal(v);
    switch (v) {
      case 0:
        return copy_one();
      case -1:
        return start_placeholder();
      case -2:
        return copy_rest();
      case -3:
        return merge_two();
      case -4:
        return split_one();
      default:
        return fail("unsupported special value " + std::to_string(v) + " at position " +
                    std::to_string(position(k_)) + " of `newshape`");
    }
  }

  // v > 0, or 0 with allowzero: the dim itself.
  bool literal(int64_t v) {
    push(Dim::constant(v), false);
    ++src_;
    return true;
  }

  // 0: copy the input dim under the cursor.
  bool copy_one() {
    if (inputs_left() == 0)
      return fail("0 at position " + std::to_string(position(k_)) +
                  " copies a dim of data, but data has no dims left (it has rank " +
                  std::to_string(in_.size()) + ")");
    push(take_input(), true);
    return true;
  }

  // -1: a placeholder (1 for now) filled in by infer_placeholder.
  bool start_placeholder() {
    if (placeholder_)
      return fail("only one dim can be inferred, but -1 appears at positions " +
                  std::to_string(std::min(position(*placeholder_spec_), position(k_))) + " and " +
                  std::to_string(std::max(position(*placeholder_spec_), position(k_))));
    placeholder_ = out_.size();
    placeholder_spec_ = k_;
    push(Dim::constant(1), false);
    ++src_;
    return true;
  }

  // -2: copy all remaining input dims.
  bool copy_rest() {
    while (src_ < in_.size()) push(take_input(), true);
    return true;
  }

  // -3: the product of the next two input dims (`?` if either is).
  bool merge_two() {
    if (inputs_left() < 2)
      return fail("-3 at position " + std::to_string(position(k_)) +
                  " merges two dims of data, but data has only " + plural(inputs_left(), "dim") +
                  " left");
    Dim a = take_input();
    Dim b = take_input();
    push(a.is_any() || b.is_any() ? Dim::any() : a * b, true);
    return true;
  }

  // -4, a, b: split the input dim under the cursor into a and b, one of which may be -1.
  bool split_one() {
    size_t at = position(k_);
    std::string where = "-4 at position " + std::to_string(at);
    if (k_ + 2 >= spec_.size()) return fail(where + " must be followed by two sizes");
    if (inputs_left() == 0)
      return fail(where + " splits a dim of data, but data has no dims left (it has rank " +
                  std::to_string(in_.size()) + ")");
    int64_t a = spec_[++k_];
    int64_t b = spec_[++k_];
    for (int64_t part : {a, b})
      if (part == 0 || part < -1)
        return fail(where + ": split size " + std::to_string(part) +
                    " is invalid (a size must be positive, or -1 to infer it)");
    if (a == -1 && b == -1) return fail(where + ": only one of the two split sizes can be -1");
    Dim whole = take_input();
    if (a == -1 || b == -1) {
      int64_t known = a == -1 ? b : a;
      auto rest = split_rest(whole, known, where);
      if (!rest) return false;
      push(a == -1 ? *rest : Dim::constant(a), true);
      push(b == -1 ? *rest : Dim::constant(b), true);
      return true;
    }
    if (compare_dims(whole, Dim::constant(a) * b) == DimCmp::Unequal)
      return fail(where + " splits a dim of size " + whole.to_string() + " into " +
                  std::to_string(a) + " * " + std::to_string(b));
    push(Dim::constant(a), true);
    push(Dim::constant(b), true);
    return true;
  }

  // The inferred half of a -4 split: whole / known (`?` if whole is).
  std::optional<Dim> split_rest(const Dim& whole, int64_t known, const std::string& where) {
    inferred_ = true;
    if (whole.is_any()) return Dim::any();
    if (auto w = whole.constant_value(); w && *w % known != 0) {
      fail(where + ": a dim of size " + std::to_string(*w) + " is not divisible by " +
           std::to_string(known));
      return std::nullopt;
    }
    return floordiv(whole, known);
  }

  // -1 = (product of the input dims not consumed by 0/-2/-3/-4) / (product of the output
  // dims not produced by them), `?` if any involved dim is `?`.
  bool infer_placeholder() {
    inferred_ = true;
    Shape unused_in;
    for (size_t i = 0; i < in_.size(); ++i)
      if (!input_used_[i]) unused_in.push_back(in_[i]);
    Shape literal_out;
    for (size_t i = 0; i < out_.size(); ++i)
      if (!from_input_[i] && i != *placeholder_) literal_out.push_back(out_[i]);
    Dim divisor = rel::product(literal_out);
    auto d = divisor.constant_value();
    if (d && *d == 0)
      return fail("cannot infer the -1 at position " +
                  std::to_string(position(*placeholder_spec_)) +
                  ": the other new dims multiply to 0");
    Dim dividend = rel::product(unused_in);
    out_[*placeholder_] = dividend.is_any() || !d ? Dim::any() : *floordiv(dividend, *d);
    return true;
  }

  // Input dims not consumed yet (positive sizes and -1 move the cursor too, possibly past
  // the end).
  size_t inputs_left() const { return src_ < in_.size() ? in_.size() - src_ : 0; }

  Dim take_input() {
    input_used_[src_] = true;
    return in_[src_++];
  }

  void push(Dim d, bool from_input) {
    out_.push_back(std::move(d));
    from_input_.push_back(from_input);
  }

  // The position of spec entry `k` in `newshape` as written.
  size_t position(size_t k) const { return reversed_ ? spec_.size() - 1 - k : k; }

  bool fail(std::string message) {
    report_attr(ctx_, "newshape", std::move(message), "in this newshape");
    return false;
  }

  RelationContext& ctx_;
  Shape in_;
  std::vector<int64_t> spec_;
  bool allowzero_, reversed_;
  std::vector<bool> input_used_;
  Shape out_;
  std::vector<bool> from_input_;       // per output dim: produced by 0/-2/-3/-4
  std::optional<size_t> placeholder_;  // output position of the -1
  std::optional<size_t> placeholder_spec_;
  bool inferred_ = false;
  size_t k_ = 0;    // cursor into spec_
  size_t src_ = 0;  // cursor into in_
};

// The element counts of a reshape's input and output must agree. TVM checks this when every
// dim is a constant; symbolic counts are compared too, unless a dim was inferred by division
// (then they may differ by its remainder, which only the run time knows).
bool check_reshape_count(RelationContext& ctx, const TensorTy* data, const Shape& out,
                         bool inferred) {
  bool comparable = !inferred || (all_constant(data->shape) && all_constant(out));
  if (!comparable || !counts_differ(data->shape, out)) return true;
  report_attr(ctx, "newshape", reshape_mismatch(data->shape, out), "gives " + dims_to_string(out),
              {{0, shape_label(data)}});
  return false;
}

RelStatus reshape_with(RelationContext& ctx, bool reversed) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto spec = int_list(ctx, "newshape");
  if (!spec) return RelStatus::Failed;
  Shape input = shape_of(data);
  if (reversed) {
    std::reverse(input.begin(), input.end());
    std::reverse(spec->begin(), spec->end());
  }
  NewShapeResolver resolver(ctx, std::move(input), std::move(*spec),
                            ctx.attrs().get_bool("allowzero"), reversed);
  auto out = resolver.resolve();
  if (!out) return RelStatus::Failed;
  if (reversed) std::reverse(out->begin(), out->end());
  if (!check_reshape_count(ctx, data, *out, resolver.inferred())) return RelStatus::Failed;
  return set_output(ctx, *out, data->dtype);
}

RelStatus reshape_rel(RelationContext& ctx) { return reshape_with(ctx, false); }
RelStatus reverse_reshape_rel(RelationContext& ctx) { return reshape_with(ctx, true); }

// ---------------------------------------------------------------------------------------
// Other reshaping: reshape_like, expand_dims, squeeze, transpose, layout transforms

// A [begin, end) range of dims of a rank-`rank` tensor from attributes `begin_attr` and
// `end_attr` (None end = rank; negative values wrap). nullopt after reporting.
std::optional<std::pair<size_t, size_t>> dim_range(RelationContext& ctx, size_t rank,
                                                   const char* begin_attr, const char* end_attr,
                                                   const std::string& whose, size_t input) {
  int64_t r = static_cast<int64_t>(rank);
  int64_t begin = ctx.attrs().get_int(begin_attr, 0);
  int64_t end = ctx.attrs().get_opt_int(end_attr).value_or(r);
  if (begin < 0) begin += r;
  if (end < 0) end += r;
  if (0 <= begin && begin <= end && end <= r)
    return std::pair{static_cast<size_t>(begin), static_cast<size_t>(end)};
  report_attr(ctx, begin_attr,
              std::string(begin_attr) + ".." + end_attr + " does not select a range of the " +
                  plural(rank, "dim") + " of " + whose,
              "selects dims " + std::to_string(begin) + " to " + std::to_string(end),
              {{input, "has rank " + std::to_string(rank)}});
  return std::nullopt;
}

// reshape_like: data[:lhs_begin] ++ shape_like[rhs_begin:rhs_end] ++ data[lhs_end:]; the
// element counts must agree.
RelStatus reshape_like_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *like = in[1];
  auto lhs = dim_range(ctx, data->rank(), "lhs_begin", "lhs_end", "data", 0);
  auto rhs =
      lhs ? dim_range(ctx, like->rank(), "rhs_begin", "rhs_end", "shape_like", 1) : std::nullopt;
  if (!lhs || !rhs) return RelStatus::Failed;
  Shape out(data->shape.begin(), data->shape.begin() + lhs->first);
  out.insert(out.end(), like->shape.begin() + rhs->first, like->shape.begin() + rhs->second);
  out.insert(out.end(), data->shape.begin() + lhs->second, data->shape.end());
  if (counts_differ(data->shape, out))
    return fail_inputs(ctx, reshape_mismatch(data->shape, out),
                       {{0, shape_label(data)}, {1, shape_label(like)}});
  return set_output(ctx, out, data->dtype);
}

// expand_dims: num_newaxis 1s inserted at axis in [-ndim-1, ndim].
RelStatus expand_dims_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  int64_t count = ctx.attrs().get_int("num_newaxis", 1);
  if (count < 0 || count > kMaxGenerated)
    return fail_attr(ctx, "num_newaxis",
                     "`num_newaxis` must be between 0 and " + std::to_string(kMaxGenerated) +
                         ", found " + std::to_string(count),
                     "out of range");
  auto axis = int_attr(ctx, "axis");
  if (!axis) return RelStatus::Failed;
  auto pivot = rel::normalize_axis(ctx, *axis, data->rank(), "axis", 1);
  if (!pivot) return RelStatus::Failed;
  Shape out(data->shape.begin(), data->shape.begin() + *pivot);
  out.insert(out.end(), static_cast<size_t>(count), Dim::constant(1));
  out.insert(out.end(), data->shape.begin() + *pivot, data->shape.end());
  return set_output(ctx, out, data->dtype);
}

// squeeze with axis None: drop every dim equal to 1; all dims must be constants.
RelStatus squeeze_all(RelationContext& ctx, const TensorTy* data) {
  Shape out;
  for (size_t i = 0; i < data->rank(); ++i) {
    const Dim& d = data->shape[i];
    if (!d.is_constant())
      return fail_inputs(ctx,
                         "without `axis`, every dim must be a constant, but dim " +
                             std::to_string(i) + " is " + d.to_string(),
                         {{0, shape_label(data)}}, {"give `axis` to name the dims to drop"});
    if (d != 1) out.push_back(d);
  }
  return set_output(ctx, out, data->dtype);
}

// squeeze: drop the listed axes (each must be 1 when constant), or every 1 when axis is None.
RelStatus squeeze_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!known_attr(ctx, "axis")) return RelStatus::Failed;
  if (attr_is_none(ctx, "axis")) return squeeze_all(ctx, data);
  auto list = int_list(ctx, "axis");
  auto axes = list ? distinct_axes(ctx, "axis", *list, data->rank()) : std::nullopt;
  if (!axes) return RelStatus::Failed;
  for (size_t axis : *axes) {
    const Dim& d = data->shape[axis];
    if (d.is_constant() && d != 1)
      return fail_attr(ctx, "axis",
                       "cannot squeeze dim " + std::to_string(axis) + " of data: it is " +
                           d.to_string() + ", not 1",
                       "names dim " + std::to_string(axis), {{0, shape_label(data)}});
  }
  Shape out;
  for (size_t i = 0; i < data->rank(); ++i)
    if (std::find(axes->begin(), axes->end(), i) == axes->end()) out.push_back(data->shape[i]);
  return set_output(ctx, out, data->dtype);
}

// transpose: out[i] = data[axes[i]]; axes a permutation (negative wraps), None reverses.
RelStatus transpose_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!known_attr(ctx, "axes")) return RelStatus::Failed;
  if (attr_is_none(ctx, "axes"))
    return set_output(ctx, Shape(data->shape.rbegin(), data->shape.rend()), data->dtype);
  auto list = int_list(ctx, "axes");
  if (!list) return RelStatus::Failed;
  if (list->size() != data->rank())
    return fail_attr(ctx, "axes",
                     "`axes` has " + plural(list->size(), "entry", "entries") +
                         " but data has rank " + std::to_string(data->rank()),
                     "must list every axis once", {{0, shape_label(data)}});
  auto axes = distinct_axes(ctx, "axes", *list, data->rank());
  if (!axes) return RelStatus::Failed;
  Shape out;
  for (size_t axis : *axes) out.push_back(data->shape[axis]);
  return set_output(ctx, out, data->dtype);
}

// A layout attribute parsed (§3.0.2); nullopt after reporting.
std::optional<rel::Layout> layout_attr(RelationContext& ctx, std::string_view name) {
  if (!known_attr(ctx, name)) return std::nullopt;
  std::string text = ctx.attrs().get_string(name);
  if (auto layout = rel::Layout::parse(text); layout && layout->size() > 0) return layout;
  report_attr(ctx, name, "\"" + text + "\" is not a valid layout", "invalid layout", {},
              {"a layout is a sequence of axes: an upper-case letter for a primal axis, a size "
               "and a lower-case letter for a sub-axis (\"NCHW16c\")"});
  return std::nullopt;
}

// Whether two layouts name the same primal axes (so that a bijective mapping exists).
bool same_primal_axes(const rel::Layout& a, const rel::Layout& b) {
  auto primal = [](const rel::Layout& l) {
    std::set<char> s;
    for (const auto& axis : l.axes)
      if (axis.factor == 0) s.insert(axis.name);
    return s;
  };
  return primal(a) == primal(b);
}

// layout_transform: data's shape mapped from src_layout to dst_layout.
RelStatus layout_transform_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto src = layout_attr(ctx, "src_layout");
  auto dst = src ? layout_attr(ctx, "dst_layout") : std::nullopt;
  if (!src || !dst) return RelStatus::Failed;
  if (src->size() != data->rank())
    return fail_attr(ctx, "src_layout",
                     "src_layout \"" + src->to_string() + "\" has " +
                         plural(src->size(), "axis", "axes") + " but data has rank " +
                         std::to_string(data->rank()),
                     "does not match data", {{0, shape_label(data)}});
  auto out =
      same_primal_axes(*src, *dst) ? rel::convert_layout(data->shape, *src, *dst) : std::nullopt;
  if (!out)
    return fail_attr(ctx, "dst_layout",
                     "cannot convert from \"" + src->to_string() + "\" to \"" + dst->to_string() +
                         "\": the layouts must name the same primal axes",
                     "not convertible from src_layout");
  return set_output(ctx, *out, data->dtype);
}

// auto_scheduler_layout_transform: the shape is written in dst_layout as size-name pairs
// ("16n4c": dims 16 and 4), the way the auto-scheduler writes rewritten layouts.
RelStatus auto_scheduler_layout_transform_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!known_attr(ctx, "dst_layout")) return RelStatus::Failed;
  std::string text = ctx.attrs().get_string("dst_layout");
  Shape out;
  size_t i = 0;
  while (i < text.size()) {
    int64_t size = 0;
    size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) &&
           size < kMaxIndex / 10)
      size = size * 10 + (text[i++] - '0');
    size_t letters = i;
    while (i < text.size() && (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_'))
      ++i;
    if (digits == letters || letters == i || size == 0)
      return fail_attr(ctx, "dst_layout",
                       "\"" + text +
                           "\" is not an auto-scheduler layout (sizes each followed by an "
                           "axis name, like \"16n4c\")",
                       "invalid layout");
    out.push_back(Dim::constant(size));
  }
  return set_output(ctx, out, data->dtype);
}

// meta_schedule_layout_transform: the shape comes from an IndexMap object, which text cannot
// carry and the checker cannot evaluate.
RelStatus meta_schedule_layout_transform_rel(RelationContext& ctx) {
  return fail_attr(ctx, "index_map",
                   "the result shape is given by `index_map`, which the type checker cannot "
                   "evaluate",
                   "an opaque IndexMap", {},
                   {"this operator is internal to MetaSchedule's layout rewriting"});
}

}  // namespace

void register_transform_reshape_relations(RelationTable& t) {
  register_relation(t, "reshape", reshape_rel);
  register_relation(t, "contrib_reverse_reshape", reverse_reshape_rel);
  register_relation(t, "reshape_like", reshape_like_rel);
  register_relation(t, "expand_dims", expand_dims_rel);
  register_relation(t, "squeeze", squeeze_rel);
  register_relation(t, "transpose", transpose_rel);
  register_relation(t, "layout_transform", layout_transform_rel);
  register_relation(t, "auto_scheduler_layout_transform", auto_scheduler_layout_transform_rel);
  register_relation(t, "meta_schedule_layout_transform", meta_schedule_layout_transform_rel);
}

}  // namespace relay
