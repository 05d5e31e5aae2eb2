// TOPI's resize (python/tvm/topi/image/resize.py, TVM 0.14): one axis at a time, every
// output coordinate maps to an input coordinate (get_inx), then to 1, 2 or 4 input samples
// with weights (nearest, linear, cubic); the samples of all spatial axes combine
// separably, the last axis innermost, exactly in TOPI's order of float32 operations.
#include "interpreter/kernels/image_resize.h"

#include <array>
#include <cmath>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

[[noreturn]] void fail(std::string_view op, const std::string& message) {
  throw RuntimeError("`" + std::string(op) + "`: " + message);
}

// The input samples one output coordinate reads along one axis.
struct Taps {
  int count = 1;
  std::array<int64_t, 4> index{};
  std::array<float, 4> weight{1, 0, 0, 0};
  bool outside = false;  // tf_crop_and_resize: the coordinate lies outside the image
  // resize3d's cubic_exclude quirk: TOPI builds the depth weights from the width axis's
  // coordinate and weights, masked against the image height (see quirk_depth_weights).
  std::array<float, 4> depth_weight{};
};

// can_convert_multiply_to_intdiv: nearest asymmetric resizing by an integral factor is
// done with integer division (2-D only in TOPI).
bool integral_factor(int64_t in, int64_t out) {
  if (in <= 0) return false;
  const float div = static_cast<float>(out) / static_cast<float>(in);
  if (std::fmod(div, 1.0f) != 0.0f) return false;
  const float check = 1.0f / (1e-5f * static_cast<float>(in) + 1e-5f);
  return !(div > check);
}

// get_inx: the input coordinate of output coordinate x, in float32.
float input_coordinate(std::string_view op, int64_t xi, int64_t in, int64_t out, const std::string& mode, float start,
                       float end) {
  const float x = static_cast<float>(xi);
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  if (mode == "half_pixel") return (x + 0.5f) * scale - 0.5f;
  // TOPI divides by (out - 1); with one output sample that is 0/0 there, read as 0 here.
  if (mode == "align_corners") return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) * x : 0.0f;
  if (mode == "asymmetric") return scale * x;
  if (mode == "pytorch_half_pixel") return out > 1 ? (x + 0.5f) * scale - 0.5f : 0.0f;
  if (mode == "tf_half_pixel_for_nn") return (x + 0.5f) * scale;
  if (mode == "tf_crop_and_resize") {
    const float span = static_cast<float>(in - 1);
    if (out > 1) return start * span + x * (end - start) * span / static_cast<float>(out - 1);
    return 0.5f * (start + end) * span;
  }
  fail(op, "unsupported coordinate_transformation_mode \"" + mode +
               "\" (half_pixel, align_corners, asymmetric, pytorch_half_pixel, tf_half_pixel_for_nn, "
               "tf_crop_and_resize)");
}

// get_closest_index (the coordinate is float32; TVM's round rounds halves away from zero).
int64_t closest_index(std::string_view op, float x, const std::string& rounding) {
  float r;
  if (rounding == "round") r = std::round(x);
  else if (rounding == "round_prefer_floor") r = std::ceil(x - 0.5f);
  else if (rounding == "round_prefer_ceil") r = std::floor(x + 0.5f);
  else if (rounding == "floor") r = std::floor(x + 1e-5f);
  else if (rounding == "ceil") r = std::ceil(x - 1e-5f);
  else fail(op, "unknown rounding_method \"" + rounding + "\" (round, floor, ceil, round_prefer_floor, round_prefer_ceil)");
  return static_cast<int64_t>(r);
}

std::array<float, 4> cubic_weights(float t, float a) {
  const float t2 = t * t, t3 = t * t * t;
  return {a * (t3 - 2 * t2 + t), (a + 2) * t3 - (3 + a) * t2 + 1, -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t,
          -a * t3 + a * t2};
}

// cubic_exclude: weights of samples outside the image become 0 and the rest are
// renormalised. `base` is floor(coordinate); TOPI's test is `base - 1 + i < 0 or
// base + i > limit`, with limit the image size.
std::array<float, 4> exclude_outside(std::array<float, 4> w, int64_t base, int64_t limit) {
  for (int i = 0; i < 4; ++i)
    if (base - 1 + i < 0 || base + i > limit) w[i] = 0.0f;
  const float sum = ((0.0f + w[0]) + w[1] + w[2]) + w[3];
  for (float& v : w) v = v / sum;
  return w;
}

struct AxisRule {
  std::string_view op;
  std::string method;    // nearest_neighbor, linear, cubic
  std::string rounding;  // resolved ("" already replaced by TOPI's default)
  float alpha = -0.5f;
  bool exclude = false;
};

int64_t clamp_index(int64_t i, int64_t in) { return std::max<int64_t>(0, std::min<int64_t>(i, in - 1)); }

// The samples at input coordinate `x` of an axis of `in` samples.
Taps taps_at(const AxisRule& rule, float x, int64_t in) {
  Taps t;
  if (rule.method == "nearest_neighbor") {
    t.index[0] = clamp_index(closest_index(rule.op, x, rule.rounding), in);
    return t;
  }
  const float f = std::floor(x);
  const int64_t base = static_cast<int64_t>(f);
  const float frac = x - f;
  if (rule.method == "linear") {
    t.count = 2;
    t.index = {clamp_index(base, in), clamp_index(base + 1, in), 0, 0};
    t.weight = {1.0f - frac, frac, 0, 0};
    return t;
  }
  if (rule.method != "cubic") fail(rule.op, "unknown method \"" + rule.method + "\" (nearest_neighbor, linear, cubic)");
  t.count = 4;
  for (int i = 0; i < 4; ++i) t.index[i] = clamp_index(base - 1 + i, in);
  t.weight = cubic_weights(frac, rule.alpha);
  if (rule.exclude) t.weight = exclude_outside(t.weight, base, in);
  return t;
}

// A spatial layout's axes: letters and sub-axis factors ("NCHW4c" -> N C H W c).
std::vector<char> layout_axes(std::string_view op, const std::string& layout) {
  std::vector<char> axes;
  bool digits = false;
  for (char c : layout) {
    if (c >= '0' && c <= '9') {
      digits = true;
      continue;
    }
    const bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!upper && !lower) fail(op, "invalid layout \"" + layout + "\"");
    if (lower && !digits) fail(op, "invalid layout \"" + layout + "\" (a sub-axis needs its factor)");
    digits = false;
    axes.push_back(c);
  }
  return axes;
}

// The resampling loop shared by resize and crop_and_resize. taps[g][s][o]: the samples of
// output coordinate o along spatial axis s for output batch g (one group when every batch
// reads the same way); source[n]: the input batch output batch n reads.
struct Plan {
  std::vector<size_t> spatial;  // positions of the spatial axes, outermost first
  size_t batch = 0;
  Shape out_shape;
  std::vector<std::vector<std::vector<Taps>>> taps;
  std::vector<int64_t> source;
  bool depth_quirk = false;  // 3-D cubic_exclude: depth weights come from the width taps
  float extrapolation = 0.0f;
};

std::vector<float> evaluate(const NDArray& data, const Plan& plan) {
  const std::vector<double> in_d = to_doubles(data);
  std::vector<float> in(in_d.begin(), in_d.end());
  const auto in_strides = contiguous_strides(data.shape());
  const size_t rank = plan.out_shape.size(), S = plan.spatial.size();
  std::vector<int> axis_of(rank, -1);
  for (size_t s = 0; s < S; ++s) axis_of[plan.spatial[s]] = static_cast<int>(s);
  std::vector<float> out(static_cast<size_t>(shape_size(plan.out_shape)));
  std::vector<int64_t> idx(rank, 0);
  std::array<const Taps*, 3> t{};
  std::array<int64_t, 3> stride{};
  for (size_t s = 0; s < S; ++s) stride[s] = in_strides[plan.spatial[s]];
  // sum over the samples of axis `level` (the innermost axis first, as TOPI nests them)
  auto sample = [&](auto& self, size_t level, int64_t offset) -> float {
    if (level == S) return in[static_cast<size_t>(offset)];
    const Taps& tp = *t[level];
    const bool quirk = plan.depth_quirk && level == 0;
    float acc = 0.0f;
    for (int k = 0; k < tp.count; ++k) {
      const float w = quirk ? t[S - 1]->depth_weight[k] : tp.weight[k];
      acc += self(self, level + 1, offset + tp.index[k] * stride[level]) * w;
    }
    return acc;
  };
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t n = idx[plan.batch];
    const auto& group = plan.taps[plan.taps.size() == 1 ? 0 : static_cast<size_t>(n)];
    int64_t base = 0;
    bool outside = false;
    for (size_t d = 0; d < rank; ++d) {
      if (axis_of[d] >= 0) {
        t[axis_of[d]] = &group[axis_of[d]][idx[d]];
        outside = outside || t[axis_of[d]]->outside;
      } else {
        base += (d == plan.batch ? plan.source[n] : idx[d]) * in_strides[d];
      }
    }
    out[i] = outside ? plan.extrapolation : sample(sample, 0, base);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < plan.out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

NDArray to_output(const NDArray& data, const Plan& plan, const ResizeSpec& spec, const std::vector<float>& out) {
  return from_doubles(plan.out_shape, spec.out_dtype.value_or(data.dtype()), std::vector<double>(out.begin(), out.end()));
}

AxisRule axis_rule(std::string_view op, const ResizeSpec& spec) {
  AxisRule rule{op, spec.method, spec.rounding_method, static_cast<float>(spec.cubic_alpha), spec.cubic_exclude != 0};
  if (rule.method == "nearest_neighbor" && rule.rounding.empty())
    rule.rounding = spec.coordinate_transformation_mode == "align_corners" ? "round" : "floor";
  return rule;
}

}  // namespace

ResizeSpec resize_spec_from_attrs(const CallAttrs& attrs) {
  ResizeSpec spec;
  spec.layout = attrs.get_string("layout");
  spec.method = attrs.get_string("method");
  spec.coordinate_transformation_mode = attrs.get_string("coordinate_transformation_mode");
  spec.rounding_method = attrs.get_string("rounding_method");
  spec.cubic_alpha = attrs.get_double("cubic_alpha", -0.5);
  spec.cubic_exclude = attrs.get_int("cubic_exclude", 0);
  spec.extrapolation_value = attrs.get_double("extrapolation_value", 0.0);
  spec.roi = attrs.get_doubles("roi");
  spec.out_dtype = attrs.get_dtype("out_dtype");
  return spec;
}

std::vector<size_t> resize_spatial_axes(std::string_view op, const std::string& layout, size_t rank,
                                        std::string_view letters) {
  const std::vector<char> axes = layout_axes(op, layout);
  auto find = [&](char c) {
    size_t at = axes.size();
    for (size_t i = 0; i < axes.size(); ++i)
      if (axes[i] == c) at = i;
    return at;
  };
  if (find('N') == axes.size() || find('C') == axes.size())
    fail(op, "layout \"" + layout + "\" has no N or C axis");
  std::vector<size_t> pos;
  for (char c : letters) {
    const size_t at = find(c);
    if (at == axes.size()) fail(op, "layout \"" + layout + "\" has no " + std::string(1, c) + " axis");
    pos.push_back(at);
  }
  if (axes.size() != rank) fail(op, "data of rank " + std::to_string(rank) + " does not match layout \"" + layout + "\"");
  return pos;
}

namespace {

// resize_image's plan: everything but the data's values.
Plan resize_plan(std::string_view op, const Shape& shape, std::string_view letters, const std::vector<int64_t>& sizes,
                 const ResizeSpec& spec) {
  const auto dim = [&](size_t d) { return shape[d]; };
  Plan plan;
  plan.spatial = resize_spatial_axes(op, spec.layout, shape.size(), letters);
  plan.batch = resize_spatial_axes(op, spec.layout, shape.size(), "N")[0];
  if (sizes.size() != letters.size())
    fail(op, "size has " + std::to_string(sizes.size()) + " values, expected " + std::to_string(letters.size()));
  const AxisRule rule = axis_rule(op, spec);
  const std::string& mode = spec.coordinate_transformation_mode;
  const size_t S = letters.size();
  // roi as TOPI indexes it: 1-D [start_w, end_w]; 2-D [y1, x1, y2, x2]; 3-D starts and
  // ends with z taken from roi[2] and roi[5], x from roi[0] and roi[3] (TOPI's indexing).
  std::vector<double> roi = spec.roi;
  roi.resize(2 * S, 0.0);
  static const size_t roi_start_3d[3] = {2, 1, 0};
  plan.out_shape = shape;
  plan.taps.assign(1, std::vector<std::vector<Taps>>(S));
  for (size_t s = 0; s < S; ++s) {
    const int64_t in = dim(plan.spatial[s]), out = sizes[s];
    if (out < 0) fail(op, "negative output size " + std::to_string(out));
    if (in == 0 && out > 0) fail(op, "cannot resize an empty spatial axis to " + std::to_string(out));
    plan.out_shape[plan.spatial[s]] = out;
    const size_t r0 = S == 3 ? roi_start_3d[s] : s;
    const float start = static_cast<float>(roi[r0]), end = static_cast<float>(roi[r0 + S]);
    const bool int_div = S == 2 && rule.method == "nearest_neighbor" && mode == "asymmetric" && integral_factor(in, out);
    auto& axis = plan.taps[0][s];
    axis.resize(static_cast<size_t>(out));
    for (int64_t o = 0; o < out; ++o) {
      if (int_div) {
        axis[o].index[0] = clamp_index(o / (out / in), in);
        continue;
      }
      const float x = input_coordinate(op, o, in, out, mode, start, end);
      axis[o] = taps_at(rule, x, in);
      // TOPI's 3-D tf_crop_and_resize overwrites its depth test, so only H and W count.
      if (mode == "tf_crop_and_resize" && !(S == 3 && s == 0))
        axis[o].outside = x < 0.0f || x > static_cast<float>(in - 1);
    }
  }
  if (S == 3 && rule.method == "cubic" && rule.exclude) {
    // resize3d masks its depth weights with the width's floor and the image height and
    // takes the width's unnormalised weights (TOPI 0.14 _resize_3d): reproduced as is.
    plan.depth_quirk = true;
    const int64_t in_w = dim(plan.spatial[2]), in_h = dim(plan.spatial[1]);
    const float alpha = rule.alpha;
    for (int64_t o = 0; o < sizes[2]; ++o) {
      const float x = input_coordinate(op, o, in_w, sizes[2], mode, static_cast<float>(roi[0]), static_cast<float>(roi[3]));
      const float f = std::floor(x);
      plan.taps[0][2][o].depth_weight = exclude_outside(cubic_weights(x - f, alpha), static_cast<int64_t>(f), in_h);
    }
  }
  plan.source.resize(static_cast<size_t>(plan.out_shape[plan.batch]));
  for (size_t n = 0; n < plan.source.size(); ++n) plan.source[n] = static_cast<int64_t>(n);
  plan.extrapolation = static_cast<float>(spec.extrapolation_value);
  return plan;
}

}  // namespace

NDArray resize_image(std::string_view op, const NDArray& data, std::string_view letters,
                     const std::vector<int64_t>& sizes, const ResizeSpec& spec) {
  const Plan plan = resize_plan(op, data.shape(), letters, sizes, spec);
  return to_output(data, plan, spec, evaluate(data, plan));
}

std::optional<std::vector<ResizeAxisTaps>> resize_taps(std::string_view op, const Shape& shape, std::string_view letters,
                                                       const std::vector<int64_t>& sizes, const ResizeSpec& spec) {
  const Plan plan = resize_plan(op, shape, letters, sizes, spec);
  if (plan.depth_quirk) return std::nullopt;
  std::vector<ResizeAxisTaps> axes;
  for (size_t s = 0; s < plan.spatial.size(); ++s) {
    ResizeAxisTaps a;
    a.axis = plan.spatial[s];
    for (const Taps& t : plan.taps[0][s]) {
      if (t.outside) return std::nullopt;
      a.count = t.count;
    }
    for (const Taps& t : plan.taps[0][s])
      for (int k = 0; k < a.count; ++k) {
        a.index.push_back(t.index[static_cast<size_t>(k)]);
        a.weight.push_back(t.weight[static_cast<size_t>(k)]);
      }
    axes.push_back(std::move(a));
  }
  return axes;
}


NDArray crop_and_resize_image(std::string_view op, const NDArray& data, const NDArray& boxes,
                              const NDArray& box_indices, const std::vector<int64_t>& crop_size,
                              const ResizeSpec& spec) {
  Plan plan;
  plan.spatial = resize_spatial_axes(op, spec.layout, data.ndim(), "HW");
  plan.batch = resize_spatial_axes(op, spec.layout, data.ndim(), "N")[0];
  if (crop_size.size() != 2) fail(op, "crop_size must have 2 values");
  if (boxes.ndim() != 2 || boxes.dim(1) != 4)
    fail(op, "boxes must have shape (num_boxes, 4), found " + shape_to_string(boxes.shape()));
  if (box_indices.ndim() != 1 || box_indices.dim(0) != boxes.dim(0))
    fail(op, "box_indices must have shape (" + std::to_string(boxes.dim(0)) + "), found " +
                 shape_to_string(box_indices.shape()));
  std::string method = spec.method == "bilinear" ? "linear" : spec.method;
  if (method != "linear" && method != "nearest_neighbor")
    fail(op, "unknown method \"" + spec.method + "\" (bilinear, nearest_neighbor)");
  // TOPI passes the boxes to its resize, which then always rounds with `round`.
  AxisRule rule{op, method, "round", -0.5f, false};
  const int64_t num_boxes = boxes.dim(0);
  plan.out_shape = data.shape();
  plan.out_shape[plan.batch] = num_boxes;
  for (size_t s = 0; s < 2; ++s) {
    if (crop_size[s] < 0) fail(op, "negative crop_size " + std::to_string(crop_size[s]));
    plan.out_shape[plan.spatial[s]] = crop_size[s];
  }
  const std::vector<double> box = to_doubles(boxes);
  const std::vector<int64_t> index = to_int64s(box_indices);
  plan.taps.assign(static_cast<size_t>(num_boxes), std::vector<std::vector<Taps>>(2));
  for (int64_t b = 0; b < num_boxes; ++b) {
    if (index[b] < 0 || index[b] >= data.dim(plan.batch))
      fail(op, "box_indices[" + std::to_string(b) + "] = " + std::to_string(index[b]) + " is outside the batch of " +
                   std::to_string(data.dim(plan.batch)));
    plan.source.push_back(index[b]);
    for (size_t s = 0; s < 2; ++s) {
      const int64_t in = data.dim(plan.spatial[s]), out = crop_size[s];
      if (in == 0 && out > 0) fail(op, "cannot crop an empty image");
      const float lo = static_cast<float>(box[b * 4 + s]), hi = static_cast<float>(box[b * 4 + s + 2]);
      const float span = static_cast<float>(in - 1);
      auto& axis = plan.taps[b][s];
      axis.resize(static_cast<size_t>(out));
      for (int64_t o = 0; o < out; ++o) {
        // TOPI divides by (crop - 1); for a crop of 1 that is 0/0, so this takes the box's
        // centre as TensorFlow's CropAndResize does.
        const float x = out > 1 ? lo * span + span * (hi - lo) / static_cast<float>(out - 1) * static_cast<float>(o)
                                : 0.5f * (lo + hi) * span;
        axis[o] = taps_at(rule, x, in);
        axis[o].outside = x < 0.0f || x > span;
      }
    }
  }
  plan.extrapolation = static_cast<float>(spec.extrapolation_value);
  return to_output(data, plan, spec, evaluate(data, plan));
}

}  // namespace relay::rt
