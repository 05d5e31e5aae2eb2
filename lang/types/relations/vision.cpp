// Relations of §3.8's vision.* operators (TVM 0.14's src/relay/op/vision/*.cc).
#include "lang/types/relations/relation_util.h"
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace rel;
using namespace transform_detail;

RelStatus fail_rank(RelationContext& ctx, size_t i, const TensorTy* t, size_t rank) {
  return fail_inputs(ctx, input_name(ctx, i) + " must have rank " + std::to_string(rank), {{i, shape_label(t)}});
}

// The first `n` inputs as tensors; empty with `st` set (Pending, or Failed after the
// report) when one is unknown or not a tensor.
std::vector<const TensorTy*> leading_tensors(RelationContext& ctx, size_t n, RelStatus& st) {
  std::vector<const TensorTy*> in;
  for (size_t i = 0; i < n; ++i) {
    const TensorTy* t = tensor_input(ctx, i, st);
    if (!t) return {};
    in.push_back(t);
  }
  return in;
}

// The first input of `in` whose rank is not its entry of `ranks`, reported; else nullopt.
std::optional<RelStatus> wrong_rank(RelationContext& ctx, const std::vector<const TensorTy*>& in,
                                    std::initializer_list<size_t> ranks) {
  size_t i = 0;
  for (size_t rank : ranks) {
    if (in[i]->rank() != rank) return fail_rank(ctx, i, in[i], rank);
    ++i;
  }
  return std::nullopt;
}

Ty tensor(RelationContext& ctx, const std::vector<Dim>& shape, DataType dtype) { return make_tensor(ctx, shape, dtype); }

const DataType kInt32 = DataType::int_(32);

// multibox_prior (MultiboxPriorRel): data 4-D; (1, H*W*(len(sizes)+len(ratios)-1), 4).
RelStatus multibox_prior(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->rank() != 4) return fail_rank(ctx, 0, data, 4);
  const int64_t per_cell = static_cast<int64_t>(ctx.attrs().get_doubles("sizes").size() +
                                                ctx.attrs().get_doubles("ratios").size()) - 1;
  const Dim boxes = data->shape[2] * data->shape[3] * per_cell;
  return assign_result(ctx, tensor(ctx, {Dim::constant(1), boxes, Dim::constant(4)}, data->dtype));
}

// multibox_transform_loc: cls_prob (B, C, A), loc_pred (B, A*4), anchor (1, A, 4) ->
// ((B, A, 6) cls_prob's dtype, (B) int32).
RelStatus multibox_transform_loc(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (auto bad = wrong_rank(ctx, in, {3, 2})) return *bad;
  if (in[2]->rank() != 3) return fail_rank(ctx, 2, in[2], 3);
  const Labels all{{0, shape_label(in[0])}, {1, shape_label(in[1])}, {2, shape_label(in[2])}};
  if (compare_dims(in[0]->shape[2], in[2]->shape[1]) == DimCmp::Unequal ||
      compare_dims(in[0]->shape[2] * 4, in[1]->shape[1]) == DimCmp::Unequal ||
      compare_dims(in[2]->shape[2], Dim::constant(4)) == DimCmp::Unequal)
    return fail_inputs(ctx, "the number of anchors disagrees: cls_prob (B, C, A), loc_pred (B, A*4) and anchor (1, A, 4)", all);
  return assign_result(ctx, ctx.arena().tuple({tensor(ctx, {in[0]->shape[0], in[2]->shape[1], Dim::constant(6)}, in[0]->dtype),
                                               tensor(ctx, {in[0]->shape[0]}, kInt32)}));
}

// get_valid_counts: data (B, N, k) -> ((B) int32, data's type, (B, N) int32).
RelStatus get_valid_counts(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->rank() != 3) return fail_rank(ctx, 0, data, 3);
  const std::vector<Dim> shape(data->shape.begin(), data->shape.end());
  return assign_result(ctx, ctx.arena().tuple({tensor(ctx, {shape[0]}, kInt32), tensor(ctx, shape, data->dtype),
                                               tensor(ctx, {shape[0], shape[1]}, kInt32)}));
}

// non_max_suppression (NMSRel): data 3-D, valid_count 1-D; return_indices gives
// ((B, N) int32, (B, 1) int32), else data's type.
RelStatus non_max_suppression(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = leading_tensors(ctx, 2, st);
  if (in.empty()) return st;
  if (auto bad = wrong_rank(ctx, in, {3, 1})) return *bad;
  const TensorTy* data = in[0];
  const std::vector<Dim> shape(data->shape.begin(), data->shape.end());
  if (!ctx.attrs().get_bool("return_indices", true)) return assign_result(ctx, tensor(ctx, shape, data->dtype));
  return assign_result(ctx, ctx.arena().tuple({tensor(ctx, {shape[0], shape[1]}, kInt32),
                                               tensor(ctx, {shape[0], Dim::constant(1)}, kInt32)}));
}

// roi_align / roi_pool: data 4-D, rois (num_roi, 5); NCHW -> (num_roi, C, ph, pw), NHWC ->
// (num_roi, ph, pw, C).
RelStatus roi_relation(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (auto bad = wrong_rank(ctx, in, {4, 2})) return *bad;
  const std::vector<Dim> ps = ctx.attrs().get_dims("pooled_size");
  if (ps.size() != 2) return fail_attr(ctx, "pooled_size", "`pooled_size` needs 2 values", "has " + std::to_string(ps.size()));
  const std::string layout = ctx.attrs().get_string("layout");
  const auto& d = in[0]->shape;
  const Dim rois = in[1]->shape[0];
  if (layout == "NCHW") return assign_result(ctx, tensor(ctx, {rois, d[1], ps[0], ps[1]}, in[0]->dtype));
  if (layout == "NHWC") return assign_result(ctx, tensor(ctx, {rois, ps[0], ps[1], d[3]}, in[0]->dtype));
  return fail_attr(ctx, "layout", "`layout` must be \"NCHW\" or \"NHWC\"", "unsupported");
}

// yolo_reorg: (N, C*s*s, H/s, W/s).
RelStatus yolo_reorg(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->rank() != 4) return fail_rank(ctx, 0, data, 4);
  const int64_t s = ctx.attrs().get_int("stride", 1);
  if (s <= 0) return fail_attr(ctx, "stride", "`stride` must be positive", "not positive");
  const auto& d = data->shape;
  auto h = floordiv(d[2], s), w = floordiv(d[3], s);
  return assign_result(ctx, tensor(ctx, {d[0], d[1] * (s * s), h ? *h : Dim::any(), w ? *w : Dim::any()}, data->dtype));
}

// all_class_non_max_suppression (AllClassNMSRel): boxes (B, N, 4), scores (B, C, N).
// "onnx": ((B*C*N, 3) int64, (1) int64), the first `?` when B or N is; "tensorflow":
// ((B, C*N, 2) int64, (B, C*N) float32, (B) int64).
RelStatus all_class_nms(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = leading_tensors(ctx, 2, st);
  if (in.empty()) return st;
  if (auto bad = wrong_rank(ctx, in, {3, 3})) return *bad;
  const TensorTy *boxes = in[0], *scores = in[1];
  const Dim B = boxes->shape[0], N = boxes->shape[1], C = scores->shape[1];
  const DataType i64 = DataType::int_(64);
  const std::string format = ctx.attrs().get_string("output_format");
  if (format == "onnx") {
    const Dim total = B.is_any() || N.is_any() ? Dim::any() : B * C * N;
    return assign_result(ctx, ctx.arena().tuple({tensor(ctx, {total, Dim::constant(3)}, i64), tensor(ctx, {Dim::constant(1)}, i64)}));
  }
  if (format != "tensorflow")
    return fail_attr(ctx, "output_format", "`output_format` must be \"onnx\" or \"tensorflow\"", "unknown format");
  const Dim per_batch = N.is_any() ? Dim::any() : C * N;
  return assign_result(ctx, ctx.arena().tuple({tensor(ctx, {B, per_batch, Dim::constant(2)}, i64),
                                               tensor(ctx, {B, per_batch}, DataType::float_(32)), tensor(ctx, {B}, i64)}));
}

// regular_non_max_suppression (RegularNMSRel): ((B, M, 4), (B, M), (B, M)) float32 and (B)
// int32, M = max_detections.
RelStatus regular_nms(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = leading_tensors(ctx, 2, st);
  if (in.empty()) return st;
  if (auto bad = wrong_rank(ctx, in, {3, 3})) return *bad;
  const Dim B = in[0]->shape[0], M = Dim::constant(ctx.attrs().get_int("max_detections"));
  const DataType f32 = DataType::float_(32);
  return assign_result(ctx, ctx.arena().tuple({tensor(ctx, {B, M, Dim::constant(4)}, f32), tensor(ctx, {B, M}, f32),
                                               tensor(ctx, {B, M}, f32), tensor(ctx, {B}, kInt32)}));
}

// proposal (ProposalRel): cls_prob (B, 2A, H, W) -> (B * rpn_post_nms_top_n, 5).
RelStatus proposal(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = tensor_inputs(ctx, st);
  if (in.empty()) return st;
  if (auto bad = wrong_rank(ctx, in, {4, 4, 2})) return *bad;
  const int64_t post = ctx.attrs().get_int("rpn_post_nms_top_n");
  if (post < 0) return fail_attr(ctx, "rpn_post_nms_top_n", "`rpn_post_nms_top_n` must not be negative", "negative");
  return assign_result(ctx, tensor(ctx, {in[0]->shape[0] * post, Dim::constant(5)}, in[0]->dtype));
}

}  // namespace

void register_vision_relations(RelationTable& t) {
  register_relation(t, "vision.multibox_prior", multibox_prior);
  register_relation(t, "vision.multibox_transform_loc", multibox_transform_loc);
  register_relation(t, "vision.get_valid_counts", get_valid_counts);
  register_relation(t, "vision.non_max_suppression", non_max_suppression);
  register_relation(t, "vision.roi_align", roi_relation);
  register_relation(t, "vision.roi_pool", roi_relation);
  register_relation(t, "vision.yolo_reorg", yolo_reorg);
  register_relation(t, "vision.all_class_non_max_suppression", all_class_nms);
  register_relation(t, "vision.regular_non_max_suppression", regular_nms);
  register_relation(t, "vision.proposal", proposal);
}

}  // namespace relay
