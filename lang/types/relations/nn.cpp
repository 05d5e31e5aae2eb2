// Relations of the §3.7 `nn.*` operators other than convolution, pooling and spatial
// resampling (those live in conv_pool.cpp): matrix products, per-channel operators and
// normalisations, softmax, padding, losses, sparse and bit-serial operators.
//
// Each relation follows its TVM 0.14 counterpart (named in its comment). Where TVM only
// has an internal check (a crash, not a diagnostic) the relation reports a type error
// instead, naming the input, dimension or attribute at fault.
#include <initializer_list>

#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using rel::compare_dims;
using rel::DimCmp;
using rel::input_name;
using rel::assign_result;
using rel::op_tag;
using rel::shape_label;
using rel::tensor_input;

// ---------------------------------------------------------------------------------------
// Shared pieces

// Reports `problem` (prefixed with the operator) with a shape label on each input shown.
RelStatus fail_with_shapes(RelationContext& ctx, const std::string& problem,
                           std::initializer_list<std::pair<size_t, const TensorTy*>> shown) {
  RelError e{op_tag(ctx) + ": " + problem, {}, {}, {}, {}};
  for (const auto& [i, t] : shown) e.input_labels.emplace_back(i, shape_label(t));
  return ctx.fail(std::move(e));
}

// Reports an attribute whose value the operator cannot use.
RelStatus fail_attr(RelationContext& ctx, std::string_view attr, const std::string& problem,
                    std::string label) {
  return ctx.fail(
      RelError{op_tag(ctx) + ": " + problem, {}, std::string(attr), std::move(label), {}});
}

// Checks a rank requirement of input `i`; `expected` describes it ("rank 3").
bool rank_ok(RelationContext& ctx, size_t i, const TensorTy* t, bool ok,
             std::string_view expected) {
  if (ok) return true;
  ctx.report(RelError{op_tag(ctx) + " expects `" + input_name(ctx, i) + "` of " +
                          std::string(expected) + ", found `" + type_to_string(t) + "`",
                      {{i, "has rank " + std::to_string(t->rank())}}, {}, {}, {}});
  return false;
}

// Checks that dimension `da` of input `ia` and dimension `db` of input `ib` may be equal
// (`?` and undetermined dims pass); `what` names them in the message.
bool dims_agree(RelationContext& ctx, std::string_view what, size_t ia, const TensorTy* a,
                size_t da, size_t ib, const TensorTy* b, size_t db) {
  if (compare_dims(a->shape[da], b->shape[db]) != DimCmp::Unequal) return true;
  fail_with_shapes(ctx,
                   std::string(what) + " differs: " + input_name(ctx, ia) + " has " +
                       a->shape[da].to_string() + " (its dim " + std::to_string(da) + "), " +
                       input_name(ctx, ib) + " has " + b->shape[db].to_string() + " (its dim " +
                       std::to_string(db) + ")",
                   {{ia, a}, {ib, b}});
  return false;
}

// Whether a known type can still unify with `expected` (same dtype and rank, no dimension
// provably different).
bool compatible(Ty actual, const TensorTy* expected) {
  if (actual->kind == TyKind::Hole || actual->kind == TyKind::Error) return true;
  auto* t = ty_as<TensorTy>(actual);
  if (!t || t->dtype != expected->dtype || t->rank() != expected->rank()) return false;
  for (size_t d = 0; d < t->rank(); ++d)
    if (compare_dims(t->shape[d], expected->shape[d]) == DimCmp::Unequal) return false;
  return true;
}

// Forces input `i` to `expected`, the way TVM relations fix parameter types (bias_add's
// bias, batch_norm's statistics, dense's weight). A known type that cannot match is
// reported here, with `why` saying where `expected` comes from, rather than as a bare
// unification failure.
bool force_input(RelationContext& ctx, size_t i, const TensorTy* expected, const std::string& why) {
  Ty actual = ctx.input(i);
  if (!compatible(actual, expected)) {
    ctx.report(RelError{op_tag(ctx) + " expects `" + input_name(ctx, i) + "` of type `" +
                            type_to_string(expected) + "` (" + why + "), found `" +
                            type_to_string(actual) + "`",
                        {{i, "has type " + type_to_string(actual)}}, {}, {}, {}});
    return false;
  }
  return ctx.assign_input(i, expected);
}

// An IndexExpr attribute (`units`): nullopt for None, `?` for `?` (or an unevaluated
// expression), else the constant.
std::optional<Dim> index_attr(const CallAttrs& attrs, std::string_view name) {
  const AttrVal* v = attrs.get(name);
  if (!v || v->kind == AttrVal::Kind::None) return std::nullopt;
  if (v->kind == AttrVal::Kind::Int) return Dim::constant(v->int_value);
  return Dim::any();
}

DataType out_dtype_or(RelationContext& ctx, DataType fallback) {
  return ctx.attrs().get_dtype("out_dtype").value_or(fallback);
}

// ---------------------------------------------------------------------------------------
// Operators whose result has their input's type

// out = data's type (TVM's IdentityRel: nn.leaky_relu, nn.lrn, nn.l2_normalize).
RelStatus same_as_data(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return assign_result(ctx, data);
}

// TVM's SoftmaxRel: `axis` must lie in [-ndim, ndim); out = data's type.
RelStatus softmax(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis"))
    return RelStatus::Failed;
  return assign_result(ctx, data);
}

// TVM's DropoutRel: (result, mask), both of data's type.
RelStatus dropout(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  return assign_result(ctx, ctx.arena().tuple({data, data}));
}

// TVM's BatchFlattenRel: (d0, d1 * d2 * ...); a `?` among the trailing dims makes the
// second dim `?`.
RelStatus batch_flatten(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!rank_ok(ctx, 0, data, data->rank() >= 1, "rank at least 1")) return RelStatus::Failed;
  std::vector<Dim> shape{data->shape[0], rel::product(data->shape.subspan(1))};
  return assign_result(ctx, rel::make_tensor(ctx, shape, data->dtype));
}

// ---------------------------------------------------------------------------------------
// Per-channel operators: a parameter vector of length C = data.shape[axis]

// Which negative `axis` values an operator accepts. Most normalise any axis in
// [-rank, rank); TVM's BatchNormRel checks `axis >= -1` and PReluRel indexes the shape
// with the raw axis, so they accept less.
enum class NegativeAxes { All, OnlyMinusOne, None };

std::optional<size_t> channel_axis(RelationContext& ctx, const TensorTy* data, NegativeAxes rule) {
  int64_t axis = ctx.attrs().get_int("axis");
  if (rule == NegativeAxes::All) return rel::normalize_axis(ctx, axis, data->rank(), "axis");
  int64_t rank = static_cast<int64_t>(data->rank());
  int64_t lowest = rule == NegativeAxes::OnlyMinusOne ? -1 : 0;
  if (axis >= lowest && axis >= -rank && axis < rank)
    return static_cast<size_t>(axis < 0 ? axis + rank : axis);
  std::string valid = rank == 0 ? "no axis is valid for a rank-0 tensor"
                                : "valid axes are " + std::to_string(lowest) + " to " +
                                      std::to_string(rank - 1);
  ctx.report(RelError{"axis " + std::to_string(axis) + " is out of range for " + op_tag(ctx) +
                          " on a tensor of rank " + std::to_string(rank),
                      {{0, "has rank " + std::to_string(rank)}}, "axis", valid, {}});
  return std::nullopt;
}

// Tensor[(data.shape[axis]), data.dtype]: the type of a per-channel parameter.
const TensorTy* channel_vector(RelationContext& ctx, const TensorTy* data, size_t axis) {
  return ty_as<TensorTy>(ctx.arena().tensor({data->shape[axis]}, data->dtype));
}

// Forces each input in `params` to the per-channel vector of `data` along `axis`.
bool force_channel_params(RelationContext& ctx, const TensorTy* data, size_t axis,
                          std::initializer_list<size_t> params) {
  const TensorTy* vec = channel_vector(ctx, data, axis);
  std::string why = "one value per element of axis " + std::to_string(axis) + " of `" +
                    input_name(ctx, 0) + "`, which has shape " + rel::dims_to_string(data->shape);
  for (size_t i : params)
    if (!force_input(ctx, i, vec, why)) return false;
  return true;
}

// out = data's type, with per-channel parameter inputs: TVM's BiasAddRel (bias), PReluRel
// (alpha), LayerNormRel, GroupNormRel and InstanceNormRel (gamma, beta).
RelStatus channelwise(RelationContext& ctx, NegativeAxes rule, std::initializer_list<size_t> params,
                      size_t min_rank = 0) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (min_rank && !rank_ok(ctx, 0, data, data->rank() >= min_rank,
                           "rank at least " + std::to_string(min_rank)))
    return RelStatus::Failed;
  std::optional<size_t> axis = channel_axis(ctx, data, rule);
  if (!axis || !force_channel_params(ctx, data, *axis, params)) return RelStatus::Failed;
  return assign_result(ctx, data);
}

// TVM's BatchNormRel: gamma, beta, moving_mean and moving_var are per-channel vectors;
// out = (normalised data, new mean, new variance).
RelStatus batch_norm(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  std::optional<size_t> axis = channel_axis(ctx, data, NegativeAxes::OnlyMinusOne);
  if (!axis || !force_channel_params(ctx, data, *axis, {1, 2, 3, 4})) return RelStatus::Failed;
  const TensorTy* vec = channel_vector(ctx, data, *axis);
  return assign_result(ctx, ctx.arena().tuple({data, vec, vec}));
}

// ---------------------------------------------------------------------------------------
// Matrix products

// The weight of nn.dense / nn.matmul when `units` fixes its type: (units, K) or, without
// transpose_b, (K, units). Checks a known weight first so that a mismatch names the
// attribute or dimension at fault.
bool force_weight_from_units(RelationContext& ctx, const TensorTy* a, size_t k_axis,
                             const Dim& units, bool transpose_b) {
  size_t units_axis = transpose_b ? 0 : 1;
  RelStatus st = RelStatus::Solved;
  const TensorTy* b = tensor_input(ctx, 1, st);
  if (!b && st == RelStatus::Failed) return false;
  if (b) {
    if (!rank_ok(ctx, 1, b, b->rank() == 2, "rank 2")) return false;
    if (compare_dims(units, b->shape[units_axis]) == DimCmp::Unequal) {
      ctx.report(RelError{op_tag(ctx) + ": `units` is " + units.to_string() + " but " +
                              input_name(ctx, 1) + " has " + b->shape[units_axis].to_string() +
                              " (its dim " + std::to_string(units_axis) + ")",
                          {{1, shape_label(b)}}, "units", "the output size", {}});
      return false;
    }
    if (!dims_agree(ctx, "the reduction dimension", 0, a, k_axis, 1, b, 1 - units_axis))
      return false;
  }
  const Dim& k = a->shape[k_axis];
  std::vector<Dim> shape = transpose_b ? std::vector<Dim>{units, k} : std::vector<Dim>{k, units};
  // TVM keeps a known weight's dtype (a quantised weight may differ from the data).
  auto* expected = ty_as<TensorTy>(rel::make_tensor(ctx, shape, b ? b->dtype : a->dtype));
  return force_input(ctx, 1, expected, "from `units` and the reduction dimension of `" +
                                           input_name(ctx, 0) + "`");
}

// TVM's MatmulRel, shared by nn.matmul and nn.dense (which is matmul with transpose_a =
// false, transpose_b = true): out = a.shape with the last dim = units (or b's output dim),
// and with transpose_a a[-1] moved to position -2. The weight must be 2-D.
RelStatus matmul_with(RelationContext& ctx, bool transpose_a, bool transpose_b) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* a = tensor_input(ctx, 0, st);
  if (!a) return st;
  size_t min_rank = transpose_a ? 2 : 1;
  if (!rank_ok(ctx, 0, a, a->rank() >= min_rank, "rank at least " + std::to_string(min_rank)))
    return RelStatus::Failed;
  size_t rank = a->rank();
  size_t k_axis = transpose_a ? rank - 2 : rank - 1;
  std::vector<Dim> out(a->shape.begin(), a->shape.end());
  if (transpose_a) out[rank - 2] = a->shape[rank - 1];

  if (std::optional<Dim> units = index_attr(ctx.attrs(), "units")) {
    if (!force_weight_from_units(ctx, a, k_axis, *units, transpose_b)) return RelStatus::Failed;
    out.back() = *units;
  } else {
    const TensorTy* b = tensor_input(ctx, 1, st);
    if (!b) return st;
    if (!rank_ok(ctx, 1, b, b->rank() == 2, "rank 2")) return RelStatus::Failed;
    if (!dims_agree(ctx, "the reduction dimension", 0, a, k_axis, 1, b, transpose_b ? 1 : 0))
      return RelStatus::Failed;
    out.back() = b->shape[transpose_b ? 0 : 1];
  }
  return assign_result(ctx, rel::make_tensor(ctx, out, out_dtype_or(ctx, a->dtype)));
}

RelStatus dense(RelationContext& ctx) { return matmul_with(ctx, false, true); }

RelStatus matmul(RelationContext& ctx) {
  const CallAttrs& attrs = ctx.attrs();
  return matmul_with(ctx, attrs.get_bool("transpose_a"), attrs.get_bool("transpose_b"));
}

// max(xb, yb) for batch dims that broadcast: `?` when either is `?` (as TVM), the other
// one when one is 1, and `?` when they are not provably equal (dims still being solved).
Dim broadcast_batch(const Dim& xb, const Dim& yb) {
  if (xb.is_any() || yb.is_any()) return Dim::any();
  if (xb == 1) return yb;
  if (yb == 1 || xb == yb) return xb;
  return Dim::any();
}

// TVM's BatchMatmulRel: x (b, i, k) and y (b, k, j), each modulo its transpose flag;
// out = (max(xb, yb), i, j). Batches must be equal or 1 and k must match. (TVM skips both
// checks when any dim is `?`; here each pair is checked unless one of its dims is.)
RelStatus batch_matmul(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *x = in[0], *y = in[1];
  if (!rank_ok(ctx, 0, x, x->rank() == 3, "rank 3") ||
      !rank_ok(ctx, 1, y, y->rank() == 3, "rank 3"))
    return RelStatus::Failed;
  bool ta = ctx.attrs().get_bool("transpose_a"), tb = ctx.attrs().get_bool("transpose_b");
  const Dim &xb = x->shape[0], &yb = y->shape[0];
  if (!(xb == 1 || yb == 1) && !dims_agree(ctx, "the batch dimension", 0, x, 0, 1, y, 0))
    return RelStatus::Failed;
  size_t xk = ta ? 1 : 2, yk = tb ? 2 : 1;
  if (!dims_agree(ctx, "the reduction dimension", 0, x, xk, 1, y, yk)) return RelStatus::Failed;
  std::vector<Dim> out{broadcast_batch(xb, yb), x->shape[ta ? 2 : 1], y->shape[tb ? 1 : 2]};
  return assign_result(ctx, rel::make_tensor(ctx, out, out_dtype_or(ctx, x->dtype)));
}

// TVM's DensePackRel: data (N, K), weight packed as (units / tile, K, tile[, ...]);
// out = (N, weight[0] * weight[2]).
RelStatus dense_pack(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *weight = in[1];
  if (!rank_ok(ctx, 0, data, data->rank() == 2, "rank 2") ||
      !rank_ok(ctx, 1, weight, weight->rank() == 3 || weight->rank() == 4, "rank 3 or 4"))
    return RelStatus::Failed;
  std::vector<Dim> out{data->shape[0], weight->shape[0] * weight->shape[2]};
  return assign_result(ctx, rel::make_tensor(ctx, out, out_dtype_or(ctx, data->dtype)));
}

// ---------------------------------------------------------------------------------------
// Padding

// The (before, after) pairs of `pad_width`, one per dimension of `data`; each must be an
// integer constant (TVM's PadRel and MirrorPadRel read them with as_const_int).
std::optional<std::vector<std::pair<int64_t, int64_t>>> pad_pairs(RelationContext& ctx,
                                                                  const TensorTy* data) {
  const AttrVal* v = ctx.attrs().get("pad_width");
  size_t rows = v ? v->items.size() : 0;
  if (rows != data->rank()) {
    fail_attr(ctx, "pad_width",
              "`pad_width` has " + std::to_string(rows) + " pairs but `" + input_name(ctx, 0) +
                  "` has rank " + std::to_string(data->rank()),
              "one (before, after) pair is needed per dimension");
    return std::nullopt;
  }
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (size_t i = 0; i < rows; ++i) {
    const std::vector<AttrVal>& row = v->items[i].items;
    bool constant_pair = row.size() == 2 && row[0].kind == AttrVal::Kind::Int &&
                         row[1].kind == AttrVal::Kind::Int;
    if (!constant_pair) {
      fail_attr(ctx, "pad_width",
                "entry " + std::to_string(i) + " of `pad_width` is " + attr_to_string(v->items[i]) +
                    ", not a pair of integer constants",
                "each entry is [before, after]");
      return std::nullopt;
    }
    pairs.emplace_back(row[0].int_value, row[1].int_value);
  }
  return pairs;
}

// TVM's PadRel (nn.pad; pad_val is not constrained) and MirrorPadRel (`mirror`):
// out[i] = d + before + after, `?` kept. Constant pads may be negative as long as the
// padded constant size stays >= 0; mirror pads must be >= 0.
RelStatus pad_with(RelationContext& ctx, bool mirror) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto pairs = pad_pairs(ctx, data);
  if (!pairs) return RelStatus::Failed;
  std::vector<Dim> out;
  for (size_t i = 0; i < pairs->size(); ++i) {
    auto [before, after] = (*pairs)[i];
    if (mirror && (before < 0 || after < 0))
      return fail_attr(ctx, "pad_width",
                       "mirror padding cannot be negative, but entry " + std::to_string(i) +
                           " of `pad_width` is [" + std::to_string(before) + ", " +
                           std::to_string(after) + "]",
                       "pads must be >= 0");
    Dim padded = data->shape[i] + before + after;
    if (std::optional<int64_t> size = padded.constant_value(); size && *size < 0)
      return fail_with_shapes(ctx,
                              "padding dimension " + std::to_string(i) + " (" +
                                  data->shape[i].to_string() + ") by [" + std::to_string(before) +
                                  ", " + std::to_string(after) + "] leaves a negative size " +
                                  std::to_string(*size),
                              {{0, data}});
    out.push_back(padded);
  }
  return assign_result(ctx, rel::make_tensor(ctx, out, data->dtype));
}

RelStatus pad(RelationContext& ctx) { return pad_with(ctx, false); }
RelStatus mirror_pad(RelationContext& ctx) { return pad_with(ctx, true); }

// ---------------------------------------------------------------------------------------
// Buffers and losses

// TVM's FIFOBufferRel: data and buffer of equal rank, equal outside `axis` (normalised
// against the buffer), data smaller along it; out = buffer's type.
RelStatus fifo_buffer(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *buffer = in[1];
  if (data->rank() != buffer->rank())
    return fail_with_shapes(ctx, "`" + input_name(ctx, 0) + "` and `" + input_name(ctx, 1) +
                                     "` must have the same rank",
                            {{0, data}, {1, buffer}});
  std::optional<size_t> axis =
      rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), buffer->rank(), "axis");
  if (!axis) return RelStatus::Failed;
  for (size_t d = 0; d < buffer->rank(); ++d)
    if (d != *axis && !dims_agree(ctx, "dimension " + std::to_string(d), 0, data, d, 1, buffer, d))
      return RelStatus::Failed;
  auto incoming = data->shape[*axis].constant_value();
  auto capacity = buffer->shape[*axis].constant_value();
  if (incoming && capacity && *incoming >= *capacity)
    return fail_with_shapes(ctx,
                            "`" + input_name(ctx, 0) + "` must be shorter than `" +
                                input_name(ctx, 1) + "` along axis " + std::to_string(*axis) +
                                ", but has " + std::to_string(*incoming) + " against " +
                                std::to_string(*capacity),
                            {{0, data}, {1, buffer}});
  return assign_result(ctx, buffer);
}

// TVM's CrossEntropyRel (nn.cross_entropy, nn.cross_entropy_with_logits): x and y 2-D with
// equal shapes; out = a scalar of x's dtype.
RelStatus cross_entropy(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *x = in[0], *y = in[1];
  if (!rank_ok(ctx, 0, x, x->rank() == 2, "rank 2") ||
      !rank_ok(ctx, 1, y, y->rank() == 2, "rank 2"))
    return RelStatus::Failed;
  for (size_t d = 0; d < 2; ++d)
    if (!dims_agree(ctx, "dimension " + std::to_string(d), 0, x, d, 1, y, d))
      return RelStatus::Failed;
  return assign_result(ctx, ctx.arena().scalar(x->dtype));
}

// TVM's NLLLossRel: predictions (N, C, d1, ...) of a float dtype, targets (N, d1, ...) of an
// int dtype, weights (C) of the predictions' dtype; out = targets' shape for reduction
// "none", else a scalar, in the predictions' dtype.
RelStatus nll_loss(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *pred = in[0], *targets = in[1], *weights = in[2];
  if (!rank_ok(ctx, 0, pred, pred->rank() >= 2, "rank at least 2 (batch, classes, ...)") ||
      !rank_ok(ctx, 1, targets, targets->rank() + 1 == pred->rank(),
               "rank " + std::to_string(pred->rank() - 1) + " (one less than `" +
                   input_name(ctx, 0) + "`)") ||
      !rank_ok(ctx, 2, weights, weights->rank() == 1, "rank 1 (one weight per class)"))
    return RelStatus::Failed;
  // targets has one entry per position of predictions outside the class axis 1
  for (size_t d = 0; d < targets->rank(); ++d) {
    size_t pred_dim = d == 0 ? 0 : d + 1;
    if (!dims_agree(ctx, d == 0 ? "the batch dimension" : "a spatial dimension", 0, pred, pred_dim,
                    1, targets, d))
      return RelStatus::Failed;
  }
  if (!dims_agree(ctx, "the number of classes", 0, pred, 1, 2, weights, 0))
    return RelStatus::Failed;
  if (!pred->dtype.is_float() || weights->dtype != pred->dtype)
    return ctx.fail(RelError{op_tag(ctx) + ": `" + input_name(ctx, 0) + "` and `" +
                                 input_name(ctx, 2) + "` must have the same float dtype, found " +
                                 dtype_name(pred->dtype) + " and " + dtype_name(weights->dtype),
                             {{0, "has dtype " + dtype_name(pred->dtype)},
                              {2, "has dtype " + dtype_name(weights->dtype)}},
                             {}, {}, {}});
  if (!targets->dtype.is_int())
    return ctx.fail(RelError{op_tag(ctx) + ": `" + input_name(ctx, 1) +
                                 "` must have an int dtype (class indices), found " +
                                 dtype_name(targets->dtype),
                             {{1, "has dtype " + dtype_name(targets->dtype)}}, {}, {}, {}});
  if (ctx.attrs().get_string("reduction") == "none")
    return assign_result(ctx, ctx.arena().tensor(targets->shape, pred->dtype));
  return assign_result(ctx, ctx.arena().scalar(pred->dtype));
}

// ---------------------------------------------------------------------------------------
// Sparse operators (CSR: data 1-D; BSR: data (nnz_blocks, block_rows, block_cols))

// Number of compressed rows described by an indptr vector: len(indptr) - 1.
Dim compressed_rows(const TensorTy* indptr) { return indptr->shape[0] - 1; }

// TVM's SparseDenseRel (also nn.internal.sparse_dense_padded). Inputs (dense, sparse_data,
// sparse_indices, sparse_indptr). out = (dense[0], rows) or, with sparse_lhs,
// (rows, dense[0]), where rows = len(indptr) - 1, times the block height for BSR; dtype
// of the dense input.
RelStatus sparse_dense(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *dense_in = in[0], *sparse = in[1], *indptr = in[3];
  if (!rank_ok(ctx, 1, sparse, sparse->rank() == 1 || sparse->rank() == 3,
               "rank 1 (CSR) or 3 (BSR)") ||
      !rank_ok(ctx, 3, indptr, indptr->rank() == 1, "rank 1") ||
      !rank_ok(ctx, 0, dense_in, dense_in->rank() >= 1, "rank at least 1"))
    return RelStatus::Failed;
  Dim rows = compressed_rows(indptr);
  if (sparse->rank() == 3) rows = rows * sparse->shape[1];
  std::vector<Dim> out = ctx.attrs().get_bool("sparse_lhs")
                             ? std::vector<Dim>{rows, dense_in->shape[0]}
                             : std::vector<Dim>{dense_in->shape[0], rows};
  return assign_result(ctx, rel::make_tensor(ctx, out, dense_in->dtype));
}

// TVM's SparseTransposeRel: a CSR matrix (data and indices 1-D); out = the tuple of the
// three input types.
RelStatus sparse_transpose(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (!rank_ok(ctx, 0, in[0], in[0]->rank() == 1, "rank 1") ||
      !rank_ok(ctx, 1, in[1], in[1]->rank() == 1, "rank 1"))
    return RelStatus::Failed;
  return assign_result(ctx, ctx.arena().tuple({in[0], in[1], in[2]}));
}

// TVM's SparseAddRel: dense + CSR matrix of the same dtype; out = the dense input's type.
RelStatus sparse_add(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *dense_in = in[0], *sparse = in[1];
  if (sparse->dtype != dense_in->dtype)
    return ctx.fail(RelError{op_tag(ctx) + ": the dense and sparse data dtypes differ: " +
                                 dtype_name(dense_in->dtype) + " and " + dtype_name(sparse->dtype),
                             {{0, "has dtype " + dtype_name(dense_in->dtype)},
                              {1, "has dtype " + dtype_name(sparse->dtype)}},
                             {}, {}, {}});
  if (!rank_ok(ctx, 1, sparse, sparse->rank() == 1, "rank 1") ||
      !rank_ok(ctx, 2, in[2], in[2]->rank() == 1, "rank 1"))
    return RelStatus::Failed;
  return assign_result(ctx, dense_in);
}

// TVM's SparseConv2dRel: a 1x1 convolution with BSR weights (weight data of rank 2 or 3);
// out channels = (len(indptr) - 1) * block height, placed by `layout` (NHWC or NCHW).
RelStatus sparse_conv2d(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::vector<const TensorTy*> in = rel::tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const TensorTy *data = in[0], *weight = in[1], *indptr = in[3];
  if (!rank_ok(ctx, 0, data, data->rank() == 4, "rank 4") ||
      !rank_ok(ctx, 1, weight, weight->rank() == 2 || weight->rank() == 3, "rank 2 or 3 (BSR)") ||
      !rank_ok(ctx, 3, indptr, indptr->rank() == 1, "rank 1"))
    return RelStatus::Failed;
  std::string layout = ctx.attrs().get_string("layout");
  if (layout != "NHWC" && layout != "NCHW")
    return fail_attr(ctx, "layout", "unsupported layout \"" + layout + "\"",
                     "must be \"NHWC\" or \"NCHW\"");
  Dim channels = compressed_rows(indptr) * weight->shape[1];
  std::vector<Dim> out(data->shape.begin(), data->shape.end());
  out[layout == "NHWC" ? 3 : 1] = channels;
  return assign_result(ctx, rel::make_tensor(ctx, out, data->dtype));
}

// ---------------------------------------------------------------------------------------
// Bit-serial operators

// TVM's BitPackRel: dims at pack_axis are divided by the bit width of pack_type, and a
// dim of size `bits` is inserted before position bit_axis (or appended when bit_axis =
// rank); out dtype = pack_type. TVM compares the raw axes with dimension positions, so a
// negative pack_axis packs nothing and a negative bit_axis inserts nothing: kept as is.
RelStatus bitpack(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  const CallAttrs& attrs = ctx.attrs();
  std::optional<DataType> pack_type = attrs.get_dtype("pack_type");
  if (!pack_type || pack_type->bits == 0)
    return fail_attr(ctx, "pack_type", "`pack_type` must be set (the packed integer dtype)",
                     "for example pack_type=\"uint32\"");
  int64_t pack_axis = attrs.get_int("pack_axis"), bit_axis = attrs.get_int("bit_axis");
  Dim bits = Dim::constant(attrs.get_int("bits"));
  int64_t rank = static_cast<int64_t>(data->rank());
  std::vector<Dim> out;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == bit_axis) out.push_back(bits);
    const Dim& d = data->shape[static_cast<size_t>(i)];
    out.push_back(i == pack_axis ? *floordiv(d, pack_type->bits) : d);
  }
  if (bit_axis == rank) out.push_back(bits);
  return assign_result(ctx, rel::make_tensor(ctx, out, *pack_type));
}

// TVM's BinaryDenseRel: out = data.shape[:-1] ++ (units); dtype out_dtype or data's. The
// (packed) weight is not constrained.
RelStatus bitserial_dense(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (!rank_ok(ctx, 0, data, data->rank() >= 1, "rank at least 1")) return RelStatus::Failed;
  std::optional<Dim> units = index_attr(ctx.attrs(), "units");
  if (!units)
    return fail_attr(ctx, "units", "`units` must be given", "the output size; None is not allowed");
  std::vector<Dim> out(data->shape.begin(), data->shape.end());
  out.back() = *units;
  return assign_result(ctx, rel::make_tensor(ctx, out, out_dtype_or(ctx, data->dtype)));
}

}  // namespace

void register_nn_relations(RelationTable& t) {
  for (const char* op : {"nn.leaky_relu", "nn.lrn", "nn.l2_normalize"})
    register_relation(t, op, same_as_data);
  for (const char* op : {"nn.softmax", "nn.log_softmax", "nn.fast_softmax"})
    register_relation(t, op, softmax);
  register_relation(t, "nn.dropout", dropout);
  register_relation(t, "nn.batch_flatten", batch_flatten);

  register_relation(t, "nn.bias_add", [](RelationContext& c) {
    return channelwise(c, NegativeAxes::All, {1});
  });
  register_relation(t, "nn.prelu", [](RelationContext& c) {
    return channelwise(c, NegativeAxes::None, {1});
  });
  for (const char* op : {"nn.layer_norm", "nn.group_norm"})
    register_relation(t, op, [](RelationContext& c) {
      return channelwise(c, NegativeAxes::All, {1, 2});
    });
  register_relation(t, "nn.instance_norm", [](RelationContext& c) {
    return channelwise(c, NegativeAxes::All, {1, 2}, /*min_rank=*/3);
  });
  register_relation(t, "nn.batch_norm", batch_norm);

  register_relation(t, "nn.dense", dense);
  register_relation(t, "nn.matmul", matmul);
  register_relation(t, "nn.batch_matmul", batch_matmul);
  register_relation(t, "nn.contrib_dense_pack", dense_pack);

  register_relation(t, "nn.pad", pad);
  register_relation(t, "nn.mirror_pad", mirror_pad);
  register_relation(t, "nn.fifo_buffer", fifo_buffer);
  for (const char* op : {"nn.cross_entropy", "nn.cross_entropy_with_logits"})
    register_relation(t, op, cross_entropy);
  register_relation(t, "nn.nll_loss", nll_loss);

  for (const char* op : {"nn.sparse_dense", "nn.internal.sparse_dense_padded"})
    register_relation(t, op, sparse_dense);
  register_relation(t, "nn.sparse_transpose", sparse_transpose);
  register_relation(t, "nn.sparse_add", sparse_add);
  register_relation(t, "nn.sparse_conv2d", sparse_conv2d);

  register_relation(t, "nn.bitpack", bitpack);
  register_relation(t, "nn.bitserial_dense", bitserial_dense);
}

}  // namespace relay
