// Relations of §3.5 (tensor transforms), sparse helpers (sparse_to_dense,
// sparse_fill_empty_rows, sparse_reshape) and the rest: matrix_set_diag, cumsum/cumprod,
// unique, trilu, stft, dft, einsum.
// Helpers shared with the other transform families are in transform_util.h.
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace transform_detail;

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

void register_transform_misc_relations(RelationTable& t) {
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
