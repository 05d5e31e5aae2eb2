// Relations of §3.8's image.* operators (TVM 0.14's src/relay/op/image/*.cc): resize1d/2d/3d,
// crop_and_resize, grid_sample, affine_grid, dilation2d.
#include "lang/types/relations/relation_util.h"
#include "lang/types/relations/transform_util.h"

namespace relay {
namespace {

using namespace rel;
using namespace transform_detail;

// Positions of `letters` (primal axes) in the layout attribute `attr`, whose length must
// be the data's rank. nullopt after reporting.
std::optional<std::vector<size_t>> axes_of(RelationContext& ctx, const TensorTy* data, std::string_view attr,
                                           std::string_view letters) {
  const std::string text = ctx.attrs().get_string(attr);
  auto layout = Layout::parse(text);
  if (!layout) {
    fail_attr(ctx, attr, "`" + std::string(attr) + "` \"" + text + "\" is not a valid layout", "not a layout");
    return std::nullopt;
  }
  std::vector<size_t> pos;
  for (char c : letters) {
    const int at = layout->index_of(c);
    if (at < 0) {
      fail_attr(ctx, attr, "`" + std::string(attr) + "` \"" + text + "\" has no " + std::string(1, c) + " axis",
                "needs " + std::string(letters));
      return std::nullopt;
    }
    pos.push_back(static_cast<size_t>(at));
  }
  if (data->rank() != layout->size()) {
    fail_inputs(ctx,
                "data has rank " + std::to_string(data->rank()) + ", but `" + std::string(attr) + "` \"" + text +
                    "\" has " + std::to_string(layout->size()) + " axes",
                {{0, shape_label(data)}});
    return std::nullopt;
  }
  return pos;
}

DataType out_dtype_or(RelationContext& ctx, DataType fallback) {
  return ctx.attrs().get_dtype("out_dtype").value_or(fallback);
}

// resize1d/2d/3d: the spatial axes `letters` of `layout` become `size`.
RelStatus resize(RelationContext& ctx, std::string_view letters) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  auto pos = axes_of(ctx, data, "layout", "N" + std::string(letters));
  if (!pos) return RelStatus::Failed;
  const std::vector<Dim> size = ctx.attrs().get_dims("size");
  if (size.size() != letters.size())
    return fail_attr(ctx, "size", "`size` needs " + std::to_string(letters.size()) + " values (" + std::string(letters) + ")",
                     "has " + std::to_string(size.size()));
  std::vector<Dim> shape(data->shape.begin(), data->shape.end());
  for (size_t s = 0; s < letters.size(); ++s) shape[(*pos)[s + 1]] = size[s];
  return assign_result(ctx, make_tensor(ctx, shape, out_dtype_or(ctx, data->dtype)));
}

// crop_and_resize: (num_boxes, C, crop_h, crop_w) in the NCHW view of `layout`.
RelStatus crop_and_resize(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = tensor_inputs(ctx, st);
  if (in.empty()) return st;
  auto pos = axes_of(ctx, in[0], "layout", "NHW");
  if (!pos) return RelStatus::Failed;
  if (in[1]->rank() != 2) return fail_inputs(ctx, "boxes must have rank 2 (num_boxes, 4)", {{1, shape_label(in[1])}});
  if (in[2]->rank() != 1) return fail_inputs(ctx, "box_indices must have rank 1", {{2, shape_label(in[2])}});
  const std::vector<Dim> crop = ctx.attrs().get_dims("crop_size");
  if (crop.size() != 2) return fail_attr(ctx, "crop_size", "`crop_size` needs 2 values", "has " + std::to_string(crop.size()));
  std::vector<Dim> shape(in[0]->shape.begin(), in[0]->shape.end());
  shape[(*pos)[0]] = in[2]->shape[0];
  shape[(*pos)[1]] = crop[0];
  shape[(*pos)[2]] = crop[1];
  return assign_result(ctx, make_tensor(ctx, shape, out_dtype_or(ctx, in[0]->dtype)));
}

// grid_sample: NCHW data with a (N, 2, H', W') grid gives (N, C, H', W'); NCDHW with
// (N, 3, D', H', W') gives (N, C, D', H', W').
RelStatus grid_sample(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = tensor_inputs(ctx, st);
  if (in.empty()) return st;
  const std::string layout = ctx.attrs().get_string("layout");
  const size_t rank = layout == "NCHW" ? 4 : layout == "NCDHW" ? 5 : 0;
  if (rank == 0) return fail_attr(ctx, "layout", "`layout` must be \"NCHW\" or \"NCDHW\"", "unsupported");
  if (in[0]->rank() != rank) return fail_inputs(ctx, "data must have rank " + std::to_string(rank) + " for " + layout, {{0, shape_label(in[0])}});
  if (in[1]->rank() != rank) return fail_inputs(ctx, "grid must have rank " + std::to_string(rank) + " for " + layout, {{1, shape_label(in[1])}});
  std::vector<Dim> shape{in[0]->shape[0], in[0]->shape[1]};
  for (size_t d = 2; d < rank; ++d) shape.push_back(in[1]->shape[d]);
  return assign_result(ctx, make_tensor(ctx, shape, in[0]->dtype));
}

// affine_grid: (N, 2, 3) -> (N, 2, target_h, target_w).
RelStatus affine_grid(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  const TensorTy* data = tensor_input(ctx, 0, st);
  if (!data) return st;
  if (data->rank() != 3) return fail_inputs(ctx, "data must have shape (N, 2, 3)", {{0, shape_label(data)}});
  const std::vector<Dim> target = ctx.attrs().get_dims("target_shape");
  if (target.size() != 2)
    return fail_attr(ctx, "target_shape", "`target_shape` needs 2 values", "has " + std::to_string(target.size()));
  return assign_result(ctx, make_tensor(ctx, {data->shape[0], Dim::constant(2), target[0], target[1]}, data->dtype));
}

// dilation2d (Dilation2DRel): NCHW view of data_layout, weight (C, kh, kw) in the IHW view
// of kernel_layout; out = (in + pad - (1 + (k - 1) * dilation)) / stride + 1, with the
// padding read as GetPaddingHeightWidth does (1, 2 or 4 values).
RelStatus dilation2d(RelationContext& ctx) {
  RelStatus st = RelStatus::Solved;
  auto in = tensor_inputs(ctx, st);
  if (in.empty()) return st;
  auto dpos = axes_of(ctx, in[0], "data_layout", "NCHW");
  if (!dpos) return RelStatus::Failed;
  auto wpos = axes_of(ctx, in[1], "kernel_layout", "IHW");
  if (!wpos) return RelStatus::Failed;
  const auto strides = ctx.attrs().get_ints("strides"), dil = ctx.attrs().get_ints("dilations");
  const auto pad = ctx.attrs().get_ints("padding");
  if (strides.size() != 2 || dil.size() != 2) return fail_attr(ctx, "strides", "`strides` and `dilations` need 2 values", "");
  for (int64_t s : strides)
    if (s <= 0) return fail_attr(ctx, "strides", "`strides` must be positive", "not positive");
  for (int64_t d : dil)
    if (d <= 0) return fail_attr(ctx, "dilations", "`dilations` must be positive", "not positive");
  int64_t ph, pw;
  if (pad.size() == 1) ph = pw = 2 * pad[0];
  else if (pad.size() == 2) ph = 2 * pad[0], pw = 2 * pad[1];
  else if (pad.size() == 4) ph = pad[0] + pad[2], pw = pad[1] + pad[3];
  else return fail_attr(ctx, "padding", "`padding` needs 1, 2 or 4 values", "has " + std::to_string(pad.size()));
  const auto& d = in[0]->shape;
  const auto& w = in[1]->shape;
  std::vector<Dim> shape(d.begin(), d.end());
  const Dim kh = 1 + (w[(*wpos)[1]] - 1) * dil[0], kw = 1 + (w[(*wpos)[2]] - 1) * dil[1];
  auto extent = [](const Dim& x, int64_t p, const Dim& k, int64_t s) {
    if (x.is_any()) return x;
    auto q = floordiv(x + p - k, s);
    return q ? *q + 1 : Dim::any();
  };
  shape[(*dpos)[1]] = w[(*wpos)[0]];
  shape[(*dpos)[2]] = extent(d[(*dpos)[2]], ph, kh, strides[0]);
  shape[(*dpos)[3]] = extent(d[(*dpos)[3]], pw, kw, strides[1]);
  return assign_result(ctx, make_tensor(ctx, shape, out_dtype_or(ctx, in[0]->dtype)));
}

}  // namespace

void register_image_relations(RelationTable& t) {
  register_relation(t, "image.resize1d", [](RelationContext& c) { return resize(c, "W"); });
  register_relation(t, "image.resize2d", [](RelationContext& c) { return resize(c, "HW"); });
  register_relation(t, "image.resize3d", [](RelationContext& c) { return resize(c, "DHW"); });
  register_relation(t, "image.crop_and_resize", crop_and_resize);
  register_relation(t, "image.grid_sample", grid_sample);
  register_relation(t, "image.affine_grid", affine_grid);
  register_relation(t, "image.dilation2d", dilation2d);
}

}  // namespace relay
