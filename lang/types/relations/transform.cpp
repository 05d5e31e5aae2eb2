// Relations of §3.5 (tensor transforms): casts and constructors, reshaping, joining and
// splitting, slicing, repetition and broadcasting, indexing, sparse helpers and the rest of
// that table. Each relation states the rule of the reference it implements; where TVM only
// has an internal check (an abort), the relation reports an error instead.
//
// Symbolic dims (an extension, docs/types.md) are computed with Dim arithmetic where TVM
// would compute with its own expressions (reshape's products, split's quotients, tile's
// multiples); `?` propagates as the reference says.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

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
constexpr int64_t kMaxGenerated = 1 << 16;
constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

// ---------------------------------------------------------------------------------------
// Results and messages

RelStatus set_output(RelationContext& ctx, std::span<const Dim> shape, DataType dtype) {
  return assign_result(ctx, ctx.arena().tensor(shape, dtype));
}

// Every message starts with the operator: "`reshape`: ...".
std::string prefix(RelationContext& ctx) { return rel::op_tag(ctx) + ": "; }

std::string quoted(std::string_view s) { return "`" + std::string(s) + "`"; }

Shape shape_of(const TensorTy* t) { return Shape(t->shape.begin(), t->shape.end()); }

std::string has_dtype(const TensorTy* t) { return "has dtype " + dtype_name(t->dtype); }

// "1 dim", "3 dims"; `many` for irregular plurals ("entries").
std::string plural(size_t n, std::string_view one, std::string_view many = {}) {
  std::string word(n == 1 ? one : many);
  if (n != 1 && many.empty()) word = std::string(one) + "s";
  return std::to_string(n) + " " + word;
}

void report_attr(RelationContext& ctx, std::string_view attr, std::string message,
                 std::string attr_label, Labels inputs = {}, std::vector<std::string> notes = {}) {
  ctx.report(RelError{prefix(ctx) + message, std::move(inputs), std::string(attr),
                      std::move(attr_label), std::move(notes)});
}

RelStatus fail_attr(RelationContext& ctx, std::string_view attr, std::string message,
                    std::string attr_label, Labels inputs = {},
                    std::vector<std::string> notes = {}) {
  report_attr(ctx, attr, std::move(message), std::move(attr_label), std::move(inputs),
              std::move(notes));
  return RelStatus::Failed;
}

void report_inputs(RelationContext& ctx, std::string message, Labels inputs,
                   std::vector<std::string> notes = {}) {
  ctx.report(RelError{prefix(ctx) + message, std::move(inputs), {}, {}, std::move(notes)});
}

RelStatus fail_inputs(RelationContext& ctx, std::string message, Labels inputs,
                      std::vector<std::string> notes = {}) {
  report_inputs(ctx, std::move(message), std::move(inputs), std::move(notes));
  return RelStatus::Failed;
}

// ---------------------------------------------------------------------------------------
// Attributes (already checked for kind; what remains is what the relation needs to know)

// The attribute's value, or nullptr after reporting when the relation cannot see it: a
// required field of attributes given through meta[...], or a value written as an expression.
const AttrVal* known_attr(RelationContext& ctx, std::string_view name) {
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

bool attr_is_none(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = ctx.attrs().get(name);
  return v && v->kind == AttrVal::Kind::None;
}

bool is_int_value(const AttrVal& v) {
  return v.kind == AttrVal::Kind::Int || v.kind == AttrVal::Kind::Bool;
}

// A required integer attribute.
std::optional<int64_t> int_attr(RelationContext& ctx, std::string_view name) {
  const AttrVal* v = known_attr(ctx, name);
  if (!v) return std::nullopt;
  if (is_int_value(*v)) return v->int_value;
  report_attr(ctx, name, quoted(name) + " must be an integer, found " + attr_to_string(*v),
              "expected an integer");
  return std::nullopt;
}

// An integer-list attribute. A bare integer reads as a one-element list, as TVM's parser
// allows.
std::optional<std::vector<int64_t>> int_list(RelationContext& ctx, std::string_view name) {
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
std::optional<Shape> shape_attr(RelationContext& ctx, std::string_view name) {
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
std::optional<DataType> required_dtype(RelationContext& ctx, std::string_view name) {
  if (!known_attr(ctx, name)) return std::nullopt;
  return rel::dtype_attr_or_void(ctx.attrs(), name);
}

// A string attribute restricted to `allowed` values (take's `mode`, strided_slice's
// `slice_mode`, ...): TVM silently treats unknown spellings as one of them or aborts later.
std::optional<std::string> choice_attr(RelationContext& ctx, std::string_view name,
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

bool is_integer(DataType t) { return t.is_int() || t.is_uint(); }

// Input `i` must have an integer dtype (indices, lengths); reports otherwise.
bool require_integer(RelationContext& ctx, size_t i, const TensorTy* t) {
  if (is_integer(t->dtype)) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must have an integer dtype, found " +
                    dtype_name(t->dtype),
                {{i, has_dtype(t)}});
  return false;
}

// Input `i` must have rank `rank`; reports otherwise.
bool require_rank(RelationContext& ctx, size_t i, const TensorTy* t, size_t rank) {
  if (t->rank() == rank) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must have rank " + std::to_string(rank) +
                    ", found rank " + std::to_string(t->rank()),
                {{i, shape_label(t)}});
  return false;
}

bool require_scalar(RelationContext& ctx, size_t i, const TensorTy* t) {
  if (t->rank() == 0) return true;
  report_inputs(ctx,
                quoted(rel::input_name(ctx, i)) + " must be a scalar (rank 0), found shape " +
                    dims_to_string(t->shape),
                {{i, shape_label(t)}});
  return false;
}

// Input `i` must have rank >= `min_rank`.
bool require_min_rank(RelationContext& ctx, size_t i, const TensorTy* t, size_t min_rank) {
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
std::vector<const TensorTy*> tensor_fields(RelationContext& ctx, size_t i, RelStatus& status) {
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

std::string field_label(size_t k, const TensorTy* t) {
  return "field " + std::to_string(k) + " " + shape_label(t);
}

// The fields (of input 0) must share one dtype (concatenate, stack, meshgrid, einsum).
bool require_field_dtypes(RelationContext& ctx, const std::vector<const TensorTy*>& fields) {
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
bool require_uniform_fields(RelationContext& ctx, const std::vector<const TensorTy*>& fields) {
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

bool all_constant(std::span<const Dim> shape) {
  return std::all_of(shape.begin(), shape.end(), [](const Dim& d) { return d.is_constant(); });
}

// Element counts that provably differ (constants, or polynomials over the function's own
// dimension names); unknown when either count involves `?`. A count of constant dims that
// overflows int64 (rel::product gives `?`) differs from one that does not.
bool counts_differ(std::span<const Dim> a, std::span<const Dim> b) {
  Dim ca = rel::product(a), cb = rel::product(b);
  if (ca.is_any() != cb.is_any() && all_constant(a) && all_constant(b)) return true;
  return compare_dims(ca, cb) == DimCmp::Unequal;
}

std::string count_text(std::span<const Dim> shape) {
  Dim n = rel::product(shape);
  return n.is_any() ? "an unknown number of" : n.to_string();
}

// "cannot reshape data of shape (2, 3) (6 elements) into (4) (4 elements)".
std::string reshape_mismatch(std::span<const Dim> from, std::span<const Dim> to) {
  return "cannot reshape data of shape " + dims_to_string(from) + " (" + count_text(from) +
         " elements) into " + dims_to_string(to) + " (" + count_text(to) + " elements)";
}

// Whether `from` broadcasts to exactly `to` (§3.0.1 with `to` as the result): aligned from
// the right, each dim of `from` is 1, equal to `to`'s, or not known statically. Reports with
// `what` naming `from` ("data") and `labels` on the inputs.
bool check_broadcasts_to(RelationContext& ctx, std::span<const Dim> from, std::span<const Dim> to,
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
std::optional<Shape> broadcast_or_report(RelationContext& ctx, std::span<const Dim> a,
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

// Normalised, distinct axes of a rank-`rank` tensor from an integer-list attribute.
std::optional<std::vector<size_t>> distinct_axes(RelationContext& ctx, std::string_view attr,
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

// ---------------------------------------------------------------------------------------
// Slicing: strided_slice (§3.0.5), strided_set, slice_like, sliding_window

// One sliced axis of strided_slice.
struct SliceAxis {
  size_t axis;
  int64_t begin, end, stride;
};

// With `axes` None, TVM pads short lists to the rank: strides with 1, begin with 0 (the
// largest index where the stride is negative), end with the largest index (0 where the
// stride is negative).
void pad_slice(std::vector<int64_t>& begin, std::vector<int64_t>& end,
               std::vector<int64_t>& strides, size_t rank) {
  strides.resize(std::max(strides.size(), rank), 1);
  for (size_t i = begin.size(); i < rank; ++i) begin.push_back(strides[i] > 0 ? 0 : kMaxIndex);
  for (size_t i = end.size(); i < rank; ++i) end.push_back(strides[i] < 0 ? 0 : kMaxIndex);
}

// The sliced axes: every axis (lists padded) when `axes` is None, else the normalised `axes`
// paired with lists of the same length.
std::optional<std::vector<SliceAxis>> slice_axes(RelationContext& ctx, size_t rank) {
  auto begin = int_list(ctx, "begin");
  auto end = begin ? int_list(ctx, "end") : std::nullopt;
  auto strides = end ? int_list(ctx, "strides") : std::nullopt;
  if (!strides) return std::nullopt;
  std::vector<size_t> axes;
  if (attr_is_none(ctx, "axes")) {
    for (const auto& [name, list] :
         std::initializer_list<std::pair<const char*, const std::vector<int64_t>*>>{
             {"begin", &*begin}, {"end", &*end}, {"strides", &*strides}})
      if (list->size() > rank) {
        report_attr(ctx, name,
                    quoted(name) + " has " + plural(list->size(), "entry", "entries") +
                        " but data has rank " + std::to_string(rank),
                    "too long", {{0, "has rank " + std::to_string(rank)}});
        return std::nullopt;
      }
    pad_slice(*begin, *end, *strides, rank);
    for (size_t i = 0; i < rank; ++i) axes.push_back(i);
  } else {
    auto list = int_list(ctx, "axes");
    auto normalized = list ? distinct_axes(ctx, "axes", *list, rank) : std::nullopt;
    if (!normalized) return std::nullopt;
    axes = *normalized;
    if (begin->size() != axes.size() || end->size() != axes.size() ||
        strides->size() != axes.size()) {
      report_attr(ctx, "axes",
                  "`axes`, `begin`, `end` and `strides` must have the same length, found " +
                      std::to_string(axes.size()) + ", " + std::to_string(begin->size()) + ", " +
                      std::to_string(end->size()) + " and " + std::to_string(strides->size()),
                  "lengths differ");
      return std::nullopt;
    }
  }
  std::vector<SliceAxis> out;
  for (size_t i = 0; i < axes.size(); ++i)
    out.push_back({axes[i], (*begin)[i], (*end)[i], (*strides)[i]});
  return out;
}

// In "size" mode the stride is 1 and `end` is a length from `begin` (negative: to the end),
// as TVM's ConvertToVec reads it.
SliceAxis size_mode_bounds(SliceAxis s) {
  s.stride = 1;
  if (s.end < 0)
    s.end = kMaxIndex;
  else
    s.end = s.end > kMaxIndex - std::max<int64_t>(s.begin, 0) ? kMaxIndex : s.begin + s.end;
  return s;
}

// An index made non-negative against extent `d` and clamped to [0, d] for a positive stride
// or [-1, d-1] for a negative one (topi's CanonicalizeIndex).
int64_t canonical_index(int64_t index, int64_t d, int64_t stride) {
  if (index < 0) index += d;
  return stride < 0 ? std::clamp<int64_t>(index, -1, d - 1) : std::clamp<int64_t>(index, 0, d);
}

// The extent of one sliced axis: ceil(|end - begin| / |stride|) for a constant extent;
// otherwise the whole axis when the slice is [0, max) by 1, else `?`.
std::optional<Dim> sliced_extent(RelationContext& ctx, const Dim& d, const SliceAxis& s) {
  int64_t begin = s.begin, end = s.end;
  auto extent = d.constant_value();
  if (!extent) {
    bool whole = s.stride == 1 && begin == 0 && end == kMaxIndex;
    return whole ? d : Dim::any();
  }
  int64_t b = canonical_index(begin, *extent, s.stride);
  int64_t e = canonical_index(end, *extent, s.stride);
  if (s.stride < 0 ? e > b : b > e) {
    report_attr(
        ctx, "begin",
        "on axis " + std::to_string(s.axis) + " (extent " + std::to_string(*extent) + "), begin " +
            std::to_string(begin) + " is past end " + std::to_string(end) + " for stride " +
            std::to_string(s.stride),
        "empty or reversed slice",
        {{0, "has extent " + std::to_string(*extent) + " at axis " + std::to_string(s.axis)}});
    return std::nullopt;
  }
  uint64_t step = s.stride < 0 ? uint64_t{0} - static_cast<uint64_t>(s.stride)
                               : static_cast<uint64_t>(s.stride);
  uint64_t span = static_cast<uint64_t>(std::max(b, e) - std::min(b, e));
  return Dim::constant(static_cast<int64_t>((span + step - 1) / step));
}

// strided_slice (§3.0.5): begin/end/strides on every axis or on `axes`; slice_mode "end" or
// "size".
RelStatus strided_slice_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto mode = choice_attr(ctx, "slice_mode", {"end", "size"});
  auto slices = mode ? slice_axes(ctx, data->rank()) : std::nullopt;
  if (!slices) return RelStatus::Failed;
  Shape out = shape_of(data);
  for (const SliceAxis& written : *slices) {
    if (*mode == "end" && written.stride == 0)
      return fail_attr(ctx, "strides",
                       "the stride of axis " + std::to_string(written.axis) + " is 0",
                       "zero stride");
    SliceAxis slice = *mode == "size" ? size_mode_bounds(written) : written;
    auto extent = sliced_extent(ctx, out[slice.axis], slice);
    if (!extent) return RelStatus::Failed;
    out[slice.axis] = *extent;
  }
  return set_output(ctx, out, data->dtype);
}

// strided_set(data, v, begin, end, strides): data's type.
RelStatus strided_set_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto inputs = rel::tensor_inputs(ctx, st);
  if (inputs.empty()) return st;
  return assign_result(ctx, inputs[0]);
}

// slice_like: data's shape with the listed axes (None: the first rank(shape_like)) replaced
// by shape_like's dims, each no larger than data's.
RelStatus slice_like_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *like = in[1];
  if (!known_attr(ctx, "axes")) return RelStatus::Failed;
  std::vector<size_t> axes;
  if (attr_is_none(ctx, "axes")) {
    for (size_t i = 0; i < std::min(data->rank(), like->rank()); ++i) axes.push_back(i);
  } else {
    auto list = int_list(ctx, "axes");
    auto normalized = list ? distinct_axes(ctx, "axes", *list, data->rank()) : std::nullopt;
    if (!normalized) return RelStatus::Failed;
    if (normalized->empty()) return fail_attr(ctx, "axes", "`axes` cannot be empty", "empty");
    axes = *normalized;
  }
  Shape out = shape_of(data);
  for (size_t axis : axes) {
    if (axis >= like->rank())
      return fail_attr(ctx, "axes",
                       "axis " + std::to_string(axis) +
                           " is not a dim of shape_like, which has rank " +
                           std::to_string(like->rank()),
                       "out of range for shape_like", {{1, shape_label(like)}});
    auto want = like->shape[axis].constant_value(), have = data->shape[axis].constant_value();
    if (want && have && *want > *have)
      return fail_inputs(ctx,
                         "cannot slice dim " + std::to_string(axis) + " of data (" +
                             std::to_string(*have) + ") to " + std::to_string(*want),
                         {{0, shape_label(data)}, {1, shape_label(like)}});
    out[axis] = like->shape[axis];
  }
  return set_output(ctx, out, data->dtype);
}

// A list attribute of positive integers (`count` of them, when given).
std::optional<std::vector<int64_t>> positive_list(RelationContext& ctx, std::string_view name,
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

// sliding_window: data[:axis] ++ per window dim floor((d - w + s) / s) ++ window_shape, the
// windows covering the dims from `axis` to the end.
RelStatus sliding_window_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto a = int_attr(ctx, "axis");
  auto axis = a ? rel::normalize_axis(ctx, *a, data->rank(), "axis") : std::nullopt;
  if (!axis) return RelStatus::Failed;
  size_t windowed = data->rank() - *axis;
  auto window = positive_list(ctx, "window_shape", windowed);
  auto strides = window ? positive_list(ctx, "strides", windowed) : std::nullopt;
  if (!strides) return RelStatus::Failed;
  Shape out(data->shape.begin(), data->shape.begin() + *axis);
  for (size_t i = 0; i < windowed; ++i) {
    const Dim& d = data->shape[*axis + i];
    int64_t w = (*window)[i], s = (*strides)[i];
    if (auto c = d.constant_value(); c && *c < w)
      return fail_attr(ctx, "window_shape",
                       "window " + std::to_string(w) + " is larger than dim " +
                           std::to_string(*axis + i) + " of data (" + std::to_string(*c) + ")",
                       "too large", {{0, shape_label(data)}});
    out.push_back(d.is_any() ? Dim::any() : *floordiv(d - w + s, s));
  }
  for (int64_t w : *window) out.push_back(Dim::constant(w));
  return set_output(ctx, out, data->dtype);
}

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

// ---------------------------------------------------------------------------------------
// Sparse helpers: sparse_to_dense, sparse_fill_empty_rows, sparse_reshape

// sparse_to_dense: integer sparse_indices of rank <= 3 (TVM's check; documented as 0-2),
// sparse_values of rank <= 2, a scalar default_value; Tensor[output_shape, values' dtype].
RelStatus sparse_to_dense_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  for (const auto& [i, max_rank] : std::initializer_list<std::pair<size_t, size_t>>{{0, 3}, {1, 2}})
    if (in[i]->rank() > max_rank)
      return fail_inputs(ctx,
                         quoted(rel::input_name(ctx, i)) + " must have rank " +
                             std::to_string(max_rank) + " or less, found rank " +
                             std::to_string(in[i]->rank()),
                         {{i, shape_label(in[i])}});
  if (!require_integer(ctx, 0, in[0]) || !require_scalar(ctx, 2, in[2])) return RelStatus::Failed;
  auto shape = shape_attr(ctx, "output_shape");
  if (!shape) return RelStatus::Failed;
  return set_output(ctx, *shape, in[1]->dtype);
}

// sparse_fill_empty_rows: (Tensor[(?, ndims), int64], Tensor[(?), int64], Tensor[(?), int64])
// where ndims = sparse_indices.shape[1].
RelStatus sparse_fill_empty_rows_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* indices = tensor_input(ctx, 0, st);
  if (!indices) return st;
  if (!require_integer(ctx, 0, indices) || !require_rank(ctx, 0, indices, 2))
    return RelStatus::Failed;
  DataType i64 = DataType::int_(64);
  TypeArena& arena = ctx.arena();
  Ty vector = arena.tensor({Dim::any()}, i64);
  return assign_result(
      ctx, arena.tuple({arena.tensor({Dim::any(), indices->shape[1]}, i64), vector, vector}));
}

// sparse_reshape: all integer; sparse_indices 2-D, the shapes 1-D; out =
// (Tensor[(nnz, len(new_shape)), indices' dtype], new_shape's type).
RelStatus sparse_reshape_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  for (size_t i = 0; i < 3; ++i)
    if (!require_integer(ctx, i, in[i]) || !require_rank(ctx, i, in[i], i == 0 ? 2 : 1))
      return RelStatus::Failed;
  Ty indices = ctx.arena().tensor({in[0]->shape[0], in[2]->shape[0]}, in[0]->dtype);
  return assign_result(ctx, ctx.arena().tuple({indices, in[2]}));
}

// ---------------------------------------------------------------------------------------
// Remaining ops: matrix_set_diag, cumsum/cumprod, unique, trilu,
// fixed_point_multiply_per_axis, stft, dft, einsum

// The shape the diagonal of matrix_set_diag must have for band k1..k2 of `input` (..., m, n):
// the batch dims, then k2-k1+1 when a band, then the longest diagonal's length
// min(m + min(k2, 0), n - max(k1, 0)) (`?` unless m and n are constants).
Shape diagonal_shape(const TensorTy* input, int64_t k1, int64_t k2) {
  size_t r = input->rank();
  Shape out(input->shape.begin(), input->shape.end() - 2);
  if (k1 != k2) out.push_back(Dim::constant(k2) - k1 + 1);  // `?` if it overflows
  auto m = input->shape[r - 2].constant_value(), n = input->shape[r - 1].constant_value();
  out.push_back(
      m && n ? Dim::constant(std::min(*m + std::min<int64_t>(k2, 0), *n - std::max<int64_t>(k1, 0)))
             : Dim::any());
  return out;
}

// matrix_set_diag: k1 <= k2, the band inside the matrix, the diagonal shaped for it; out =
// input's type.
RelStatus matrix_set_diag_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *input = in[0], *diagonal = in[1];
  if (!require_min_rank(ctx, 0, input, 2)) return RelStatus::Failed;
  int64_t k1 = ctx.attrs().get_int("k1", 0), k2 = ctx.attrs().get_int("k2", 0);
  if (k1 > k2)
    return fail_attr(
        ctx, "k1",
        "`k1` (" + std::to_string(k1) + ") must not exceed `k2` (" + std::to_string(k2) + ")",
        "greater than k2");
  const Dim& rows = input->shape[input->rank() - 2];
  const Dim& cols = input->shape[input->rank() - 1];
  auto outside = [&](const char* attr, int64_t k) {
    return fail_attr(ctx, attr,
                     "diagonal " + std::to_string(k) + " is outside a matrix of " +
                         rows.to_string() + " by " + cols.to_string(),
                     "outside the matrix", {{0, shape_label(input)}});
  };
  if (auto m = rows.constant_value(); m && k1 <= -*m) return outside("k1", k1);
  if (auto n = cols.constant_value(); n && k2 >= *n) return outside("k2", k2);
  Shape expected = diagonal_shape(input, k1, k2);
  bool fits = diagonal->rank() == expected.size();
  for (size_t i = 0; fits && i < expected.size(); ++i)
    fits = compare_dims(diagonal->shape[i], expected[i]) != DimCmp::Unequal;
  if (!fits)
    return fail_inputs(ctx,
                       "`diagonal` must have shape " + dims_to_string(expected) +
                           " for diagonals " + std::to_string(k1) + ".." + std::to_string(k2) +
                           ", found " + dims_to_string(diagonal->shape),
                       {{0, shape_label(input)}, {1, shape_label(diagonal)}});
  return assign_result(ctx, input);
}

// cumsum, cumprod: dtype (void: data's); axis given -> data's shape, None -> the flattened
// length (prod(shape)).
RelStatus scan_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  DataType dtype = ctx.attrs().get_dtype("dtype").value_or(data->dtype);
  if (attr_is_none(ctx, "axis") || !ctx.attrs().get("axis"))
    return set_output(ctx, Shape{rel::product(data->shape)}, dtype);
  if (!rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis"))
    return RelStatus::Failed;
  return set_output(ctx, data->shape, dtype);
}

// unique: 1-D data (n); (data's type, int32[n] indices, int32[n] inverse_indices, int32[1]
// num_unique) plus int32[n] counts with return_counts.
RelStatus unique_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!require_rank(ctx, 0, data, 1)) return RelStatus::Failed;
  TypeArena& arena = ctx.arena();
  Ty per_element = arena.tensor(data->shape, DataType::int_(32));
  std::vector<Ty> fields{data, per_element, per_element,
                         arena.tensor({Dim::constant(1)}, DataType::int_(32))};
  if (ctx.attrs().get_bool("return_counts")) fields.push_back(per_element);
  return assign_result(ctx, arena.tuple(std::span<const Ty>(fields.data(), fields.size())));
}

// trilu(data, k): k is a scalar; out = data's type.
RelStatus trilu_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *k = in[1];
  if (!require_scalar(ctx, 1, k)) return RelStatus::Failed;
  return assign_result(ctx, data);
}

// fixed_point_multiply_per_axis: all four inputs tensors; out = data's type.
RelStatus first_input_type_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  return assign_result(ctx, in[0]);
}

// stft: [batch if data is 2-D] ++ (n_fft/2+1 if onesided else n_fft, (len-n_fft)/hop_length+1,
// 2), data's dtype.
RelStatus stft_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->rank() != 1 && data->rank() != 2)
    return fail_inputs(ctx,
                       "`data` must be a signal (1-D) or a batch of signals (2-D), found shape " +
                           dims_to_string(data->shape),
                       {{0, shape_label(data)}});
  int64_t n_fft = ctx.attrs().get_int("n_fft", -1), hop = ctx.attrs().get_int("hop_length", -1);
  for (const auto& [name, value] : std::initializer_list<std::pair<const char*, int64_t>>{
           {"n_fft", n_fft}, {"hop_length", hop}})
    if (value <= 0)
      return fail_attr(ctx, name,
                       quoted(name) + " must be positive, found " + std::to_string(value),
                       "not positive");
  Shape out(data->shape.begin(), data->shape.end() - 1);
  const Dim& length = data->shape[data->rank() - 1];
  if (auto c = length.constant_value(); c && *c < n_fft)
    return fail_attr(ctx, "n_fft",
                     "the signal (" + std::to_string(*c) + " samples) is shorter than n_fft (" +
                         std::to_string(n_fft) + ")",
                     "too large", {{0, shape_label(data)}});
  out.push_back(Dim::constant(ctx.attrs().get_bool("onesided", true) ? n_fft / 2 + 1 : n_fft));
  out.push_back(length.is_any() ? Dim::any() : *floordiv(length - n_fft, hop) + 1);
  out.push_back(Dim::constant(2));
  return set_output(ctx, out, data->dtype);
}

// dft(re_data, im_data): (re_data's type, im_data's type).
RelStatus dft_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  return assign_result(ctx, ctx.arena().tuple({in[0], in[1]}));
}

// einsum's equation: one term per operand, optionally "->" and the output term. A term is
// letters with at most one "..." (the dims not named, broadcast across operands).
struct EinsumTerm {
  std::string labels;
  std::optional<size_t> ellipsis;  // the number of labels before "..."
};

std::optional<EinsumTerm> parse_einsum_term(std::string_view text) {
  EinsumTerm term;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (std::isalpha(static_cast<unsigned char>(c)))
      term.labels += c;
    else if (text.substr(i, 3) == "..." && !term.ellipsis) {
      term.ellipsis = term.labels.size();
      i += 2;
    } else if (c != ' ') {
      return std::nullopt;
    }
  }
  return term;
}

struct EinsumEquation {
  std::vector<EinsumTerm> inputs;
  std::optional<EinsumTerm> output;  // nullopt: implicit
};

std::optional<EinsumEquation> parse_einsum(std::string_view text) {
  EinsumEquation eq;
  size_t arrow = text.find("->");
  std::string_view lhs = text.substr(0, arrow);
  if (arrow != std::string_view::npos) {
    eq.output = parse_einsum_term(text.substr(arrow + 2));
    if (!eq.output) return std::nullopt;
  }
  size_t start = 0;
  while (true) {
    size_t comma = lhs.find(',', start);
    auto term = parse_einsum_term(lhs.substr(start, comma - start));
    if (!term) return std::nullopt;
    eq.inputs.push_back(*term);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return eq;
}

// Computes einsum's output shape (topi's InferEinsumShape): a label's dims must agree across
// operands (1 broadcasts), the "..." dims broadcast together.
class EinsumShape {
 public:
  EinsumShape(RelationContext& ctx, const EinsumEquation& eq) : ctx_(ctx), eq_(eq) {}

  std::optional<Shape> infer(const std::vector<const TensorTy*>& operands) {
    if (operands.size() != eq_.inputs.size())
      return fail("the equation has " + plural(eq_.inputs.size(), "operand") +
                  " but the tuple has " + plural(operands.size(), "tensor"));
    for (size_t k = 0; k < operands.size(); ++k)
      if (!bind(k, eq_.inputs[k], operands[k])) return std::nullopt;
    return eq_.output ? explicit_output(*eq_.output) : implicit_output();
  }

 private:
  // Records the dims operand `k` gives its labels and its "..." part.
  bool bind(size_t k, const EinsumTerm& term, const TensorTy* t) {
    size_t named = term.labels.size();
    if (term.ellipsis ? named > t->rank() : named != t->rank()) {
      fail("operand " + std::to_string(k) + " " + shape_label(t) + " but its term names " +
           plural(named, "dim"));
      return false;
    }
    size_t extra = t->rank() - named;
    size_t before = term.ellipsis.value_or(named);
    for (size_t j = 0; j < named; ++j) {
      const Dim& d = t->shape[j < before ? j : j + extra];
      if (!merge_label(term.labels[j], d, k)) return false;
    }
    std::span<const Dim> rest = t->shape.subspan(before, extra);
    auto merged = rel::broadcast_shapes(ellipsis_, rest);
    if (!merged) {
      fail("the \"...\" dims of operand " + std::to_string(k) + " " + dims_to_string(rest) +
           " do not broadcast with " + dims_to_string(ellipsis_));
      return false;
    }
    ellipsis_ = *merged;
    return true;
  }

  bool merge_label(char label, const Dim& d, size_t k) {
    ++uses_[label];
    auto [it, fresh] = extents_.emplace(label, d);
    if (fresh || d == 1) return true;
    if (it->second == 1 || it->second.is_any()) {
      it->second = d;
      return true;
    }
    if (compare_dims(it->second, d) != DimCmp::Unequal) return true;
    fail("label '" + std::string(1, label) + "' stands for " + it->second.to_string() +
         " and, in operand " + std::to_string(k) + ", for " + d.to_string());
    return false;
  }

  std::optional<Shape> explicit_output(const EinsumTerm& term) {
    Shape out;
    for (size_t j = 0; j <= term.labels.size(); ++j) {
      if (term.ellipsis == j) out.insert(out.end(), ellipsis_.begin(), ellipsis_.end());
      if (j == term.labels.size()) break;
      char label = term.labels[j];
      if (!extents_.count(label))
        return fail("output label '" + std::string(1, label) + "' does not appear in any operand");
      if (term.labels.find(label) != j)
        return fail("output label '" + std::string(1, label) + "' appears twice");
      out.push_back(extents_.at(label));
    }
    if (!term.ellipsis && !ellipsis_.empty())
      return fail("the operands have \"...\" dims " + dims_to_string(ellipsis_) +
                  " but the output term has no \"...\"");
    return out;
  }

  // Without "->": the "..." dims, then the labels used exactly once, in alphabetical order.
  std::optional<Shape> implicit_output() {
    Shape out = ellipsis_;
    for (const auto& [label, count] : uses_)
      if (count == 1) out.push_back(extents_.at(label));
    return out;
  }

  // Reports; returns nullopt so that a shape-returning step can `return fail(...)`.
  std::nullopt_t fail(std::string message) {
    report_attr(ctx_, "equation", std::move(message), "this equation", {{0, "the operands"}});
    return std::nullopt;
  }

  RelationContext& ctx_;
  const EinsumEquation& eq_;
  std::map<char, Dim> extents_;
  std::map<char, int> uses_;
  Shape ellipsis_;
};

// einsum: a tuple of tensors of one dtype; the shape given by `equation`.
RelStatus einsum_rel(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto fields = tensor_fields(ctx, 0, st);
  if (st != RelStatus::Solved) return st;
  if (!known_attr(ctx, "equation")) return RelStatus::Failed;
  std::string text = ctx.attrs().get_string("equation");
  auto eq = parse_einsum(text);
  if (!eq)
    return fail_attr(ctx, "equation", "\"" + text + "\" is not an einsum equation", "invalid", {},
                     {"an equation names each operand's dims with letters, e.g. \"ij,jk->ik\""});
  if (!require_field_dtypes(ctx, fields)) return RelStatus::Failed;
  // infer() fails unless there is one tensor per term, and there is at least one term.
  auto out = EinsumShape(ctx, *eq).infer(fields);
  if (!out) return RelStatus::Failed;
  return set_output(ctx, *out, fields[0]->dtype);
}

}  // namespace

void register_transform_relations(RelationTable& t) {
  register_relation(t, "cast", cast_rel);
  register_relation(t, "reinterpret", cast_rel);
  register_relation(t, "cast_like", cast_like_rel);
  register_relation(t, "zeros", init_rel);
  register_relation(t, "ones", init_rel);
  register_relation(t, "full", full_rel);
  register_relation(t, "full_like", full_like_rel);
  register_relation(t, "arange", arange_rel);

  register_relation(t, "reshape", reshape_rel);
  register_relation(t, "contrib_reverse_reshape", reverse_reshape_rel);
  register_relation(t, "reshape_like", reshape_like_rel);
  register_relation(t, "expand_dims", expand_dims_rel);
  register_relation(t, "squeeze", squeeze_rel);
  register_relation(t, "transpose", transpose_rel);
  register_relation(t, "layout_transform", layout_transform_rel);
  register_relation(t, "auto_scheduler_layout_transform", auto_scheduler_layout_transform_rel);
  register_relation(t, "meta_schedule_layout_transform", meta_schedule_layout_transform_rel);

  register_relation(t, "concatenate", concatenate_rel);
  register_relation(t, "stack", stack_rel);
  register_relation(t, "split", split_rel);
  register_relation(t, "meshgrid", meshgrid_rel);

  register_relation(t, "strided_slice", strided_slice_rel);
  register_relation(t, "strided_set", strided_set_rel);
  register_relation(t, "slice_like", slice_like_rel);
  register_relation(t, "sliding_window", sliding_window_rel);

  register_relation(t, "repeat", repeat_rel);
  register_relation(t, "tile", tile_rel);
  register_relation(t, "broadcast_to", broadcast_to_rel);
  register_relation(t, "broadcast_to_like", broadcast_to_like_rel);
  register_relation(t, "collapse_sum_like", collapse_sum_like_rel);
  register_relation(t, "collapse_sum_to", collapse_sum_to_rel);
  register_relation(t, "where", where_rel);

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

  register_relation(t, "sparse_to_dense", sparse_to_dense_rel);
  register_relation(t, "sparse_fill_empty_rows", sparse_fill_empty_rows_rel);
  register_relation(t, "sparse_reshape", sparse_reshape_rel);

  register_relation(t, "matrix_set_diag", matrix_set_diag_rel);
  register_relation(t, "cumsum", scan_rel);
  register_relation(t, "cumprod", scan_rel);
  register_relation(t, "unique", unique_rel);
  register_relation(t, "trilu", trilu_rel);
  register_relation(t, "fixed_point_multiply_per_axis", first_input_type_rel);
  register_relation(t, "stft", stft_rel);
  register_relation(t, "dft", dft_rel);
  register_relation(t, "einsum", einsum_rel);
}

}  // namespace relay
