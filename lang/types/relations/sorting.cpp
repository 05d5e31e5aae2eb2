// Relations of the §3.6 sorting and search operators: sort, argsort, topk, searchsorted.
#include <optional>
#include <string>
#include <vector>

#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

using rel::assign_result;
using rel::compare_dims;
using rel::DimCmp;
using rel::input_name;
using rel::op_tag;
using rel::shape_label;
using rel::tensor_input;

// The dtype of the indices argsort, topk and searchsorted return (an unset one is void,
// as in TVM).
DataType index_dtype(RelationContext& ctx) {
  return rel::dtype_attr_or_void(ctx.attrs(), "dtype");
}

// The data input of sort/argsort/topk and the dimension its `axis` attribute names.
struct SortInput {
  const TensorTy* data;
  size_t axis;
};

// nullopt with `status` Pending while data is unknown, or Failed after reporting data
// that is not a tensor or an axis outside [-rank, rank). TVM's topk checks the axis;
// sort and argsort only fail later when their kernels are built, but the call is as
// wrong, so it is reported here too.
std::optional<SortInput> sort_input(RelationContext& ctx, RelStatus& status) {
  const TensorTy* data = tensor_input(ctx, 0, status);
  if (!data) return std::nullopt;
  std::optional<size_t> axis =
      rel::normalize_axis(ctx, ctx.attrs().get_int("axis"), data->rank(), "axis");
  if (!axis) {
    status = RelStatus::Failed;
    return std::nullopt;
  }
  return SortInput{data, *axis};
}

// sort: out = data's type.
RelStatus sort(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::optional<SortInput> in = sort_input(ctx, st);
  if (!in) return st;
  return assign_result(ctx, in->data);
}

// argsort: out = Tensor[data.shape, dtype] (TVM's ArgsortRel).
RelStatus argsort(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::optional<SortInput> in = sort_input(ctx, st);
  if (!in) return st;
  return assign_result(ctx, ctx.arena().tensor(in->data->shape, index_dtype(ctx)));
}

// The size of topk's result along its axis (TVM's TopKRel): `k`, or the whole dimension
// when k < 1; a None `k` is only known at run time.
Dim topk_extent(const CallAttrs& attrs, const Dim& full) {
  std::optional<int64_t> k = attrs.get_opt_int("k");
  if (!k) return Dim::any();
  return *k < 1 ? full : Dim::constant(*k);
}

// topk: values (data's dtype) and/or indices (`dtype`), each shaped like data with the
// axis dimension replaced by topk_extent; `ret_type` picks which are returned.
RelStatus topk(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  std::optional<SortInput> in = sort_input(ctx, st);
  if (!in) return st;
  std::vector<Dim> shape(in->data->shape.begin(), in->data->shape.end());
  shape[in->axis] = topk_extent(ctx.attrs(), shape[in->axis]);
  Ty values = rel::make_tensor(ctx, shape, in->data->dtype);
  Ty indices = rel::make_tensor(ctx, shape, index_dtype(ctx));
  std::string ret_type = ctx.attrs().get_string("ret_type");
  if (ret_type == "both") return assign_result(ctx, ctx.arena().tuple({values, indices}));
  if (ret_type == "values") return assign_result(ctx, values);
  if (ret_type == "indices") return assign_result(ctx, indices);
  return ctx.fail(RelError{op_tag(ctx) + ": unknown ret_type \"" + ret_type + "\"", {},
                           "ret_type", "must be \"both\", \"values\" or \"indices\"", {}});
}

// Reports that input `i` has the wrong rank; `expected` describes the rule.
RelStatus fail_rank(RelationContext& ctx, size_t i, const TensorTy* t,
                    const std::string& expected) {
  return ctx.fail(RelError{op_tag(ctx) + " expects `" + input_name(ctx, i) + "` of " + expected +
                               ", found `" + type_to_string(t) + "`",
                           {{i, "has rank " + std::to_string(t->rank())}}, {}, {}, {}});
}

// An N-D sorted_sequence holds one sorted row per position of values' leading
// dimensions, so it must have values' rank and agree with it on every dimension but the
// last (TVM's SearchSortedRel; `?` and undetermined dims pass).
RelStatus check_sequence_rows(RelationContext& ctx, const TensorTy* sequence,
                              const TensorTy* values) {
  if (sequence->rank() != values->rank())
    return fail_rank(ctx, 0, sequence,
                     "rank 1 or the rank of `values` (" + std::to_string(values->rank()) + ")");
  for (size_t d = 0; d + 1 < sequence->rank(); ++d) {
    if (compare_dims(sequence->shape[d], values->shape[d]) != DimCmp::Unequal) continue;
    return ctx.fail(RelError{
        op_tag(ctx) + ": leading dimension " + std::to_string(d) +
            " differs: sorted_sequence has " + sequence->shape[d].to_string() +
            ", values has " + values->shape[d].to_string(),
        {{0, shape_label(sequence)}, {1, shape_label(values)}}, {}, {},
        {"an N-D sorted_sequence holds one sorted row (its last dimension) for each position "
         "of the other dimensions, which must match those of values"}});
  }
  return RelStatus::Solved;
}

// searchsorted: out = Tensor[values.shape, dtype]. A rank-0 sorted_sequence has no row
// to search (TVM's kernel reads its last dimension), so it is reported as well.
RelStatus searchsorted(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* sequence = tensor_input(ctx, 0, st);
  const TensorTy* values = tensor_input(ctx, 1, st);
  if (!sequence || !values) return st;
  if (values->rank() == 0) return fail_rank(ctx, 1, values, "rank at least 1");
  if (sequence->rank() == 0) return fail_rank(ctx, 0, sequence, "rank at least 1");
  if (sequence->rank() > 1 && check_sequence_rows(ctx, sequence, values) == RelStatus::Failed)
    return RelStatus::Failed;
  return assign_result(ctx, ctx.arena().tensor(values->shape, index_dtype(ctx)));
}

}  // namespace

void register_sorting_relations(RelationTable& t) {
  register_relation(t, "sort", sort);
  register_relation(t, "argsort", argsort);
  register_relation(t, "topk", topk);
  register_relation(t, "searchsorted", searchsorted);
}

}  // namespace relay
