// vision.roi_align and vision.roi_pool (TOPI 0.14 topi/vision/rcnn/roi_align.py and
// roi_pool.py), NCHW and NHWC. A roi row is [batch_index, x1, y1, x2, y2] in image
// coordinates, scaled by spatial_scale onto the feature map.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interpreter/kernels/image_internal.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// The feature map as (N, C, H, W) whatever its layout: element (n, c, y, x).
struct FeatureMap {
  std::vector<double> v;
  int64_t N = 0, C = 0, H = 0, W = 0;
  bool nhwc = false;
  double at(int64_t n, int64_t c, int64_t y, int64_t x) const {
    return nhwc ? v[static_cast<size_t>(((n * H + y) * W + x) * C + c)] : v[static_cast<size_t>(((n * C + c) * H + y) * W + x)];
  }
};

FeatureMap feature_map(const KernelCall& call, const NDArray& data) {
  const std::string layout = call.attrs.get_string("layout");
  require(call, layout == "NCHW" || layout == "NHWC", "unsupported layout \"" + layout + "\" (NCHW or NHWC)");
  require(call, data.ndim() == 4, "data must be 4-D, found " + shape_to_string(data.shape()));
  FeatureMap f{to_doubles(data), data.dim(0), 0, 0, 0, layout == "NHWC"};
  f.C = data.dim(f.nhwc ? 3 : 1);
  f.H = data.dim(f.nhwc ? 1 : 2);
  f.W = data.dim(f.nhwc ? 2 : 3);
  return f;
}

// The output shape and flat index of (roi, c, ph, pw) in it.
struct PooledOut {
  Shape shape;
  int64_t C, PH, PW;
  bool nhwc;
  size_t index(int64_t r, int64_t c, int64_t y, int64_t x) const {
    return static_cast<size_t>(nhwc ? ((r * PH + y) * PW + x) * C + c : ((r * C + c) * PH + y) * PW + x);
  }
};

PooledOut pooled_out(const KernelCall& call, const FeatureMap& f, const NDArray& rois) {
  require(call, rois.ndim() == 2 && rois.dim(1) == 5, "rois must have shape (num_roi, 5), found " + shape_to_string(rois.shape()));
  const std::vector<int64_t> ps = call.attrs.get_ints("pooled_size");
  require(call, ps.size() == 2 && ps[0] >= 0 && ps[1] >= 0, "pooled_size needs 2 non-negative values");
  const int64_t R = rois.dim(0);
  PooledOut o{f.nhwc ? Shape{R, ps[0], ps[1], f.C} : Shape{R, f.C, ps[0], ps[1]}, f.C, ps[0], ps[1], f.nhwc};
  return o;
}

int64_t roi_batch(const KernelCall& call, const FeatureMap& f, double v) {
  const int64_t b = static_cast<int64_t>(v);  // astype("int32") truncates
  require(call, b >= 0 && b < f.N, "roi batch index " + std::to_string(b) + " is outside the batch of " + std::to_string(f.N));
  return b;
}

// roi_align in float32 (TOPI's dtype is the rois'; float32 rois here): each output bin
// averages (or takes the max of) grid_h x grid_w bilinear samples; the grid is
// sample_ratio per axis, else ceil(roi extent / pooled size). A sample beyond one pixel
// outside the map reads 0; others clamp to the map and interpolate as
// bilinear_sample_nchw (neighbours past the last row/column weigh 0).
Value roi_align(const KernelCall& call) {
  const NDArray data = call.tensor(0), rois_t = call.tensor(1);
  const FeatureMap f = feature_map(call, data);
  const PooledOut o = pooled_out(call, f, rois_t);
  const std::string mode = call.attrs.get_string("mode");
  require(call, mode == "avg" || mode == "max", "unknown mode \"" + mode + "\" (avg or max)");
  const float scale = static_cast<float>(call.attrs.get_double("spatial_scale"));
  const int64_t ratio = call.attrs.get_int("sample_ratio", -1);
  const std::vector<double> rois = to_doubles(rois_t);
  std::vector<double> out(static_cast<size_t>(shape_size(o.shape)));
  const float Hf = static_cast<float>(f.H), Wf = static_cast<float>(f.W);
  auto sample = [&](int64_t n, int64_t c, float y, float x) -> float {
    if (y < -1.0f || x < -1.0f || y > Hf || x > Wf) return 0.0f;
    y = std::min(std::max(y, 0.0f), Hf - 1);
    x = std::min(std::max(x, 0.0f), Wf - 1);
    const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
    const float wy1 = y - static_cast<float>(y0), wx1 = x - static_cast<float>(x0);
    const float wy0 = 1 - wy1, wx0 = 1 - wx1;
    float v = 0;
    const int64_t xs[2] = {x0, x0 + 1}, ys[2] = {y0, y0 + 1};
    const float wxs[2] = {wx0, wx1}, wys[2] = {wy0, wy1};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        if (ys[j] >= 0 && ys[j] <= f.H - 1 && xs[i] >= 0 && xs[i] <= f.W - 1)
          v += wxs[i] * wys[j] * static_cast<float>(f.at(n, c, ys[j], xs[i]));
    return v;
  };
  for (int64_t r = 0; r < o.shape[0]; ++r) {
    const double* roi = rois.data() + r * 5;
    const int64_t n = roi_batch(call, f, roi[0]);
    const float sw = static_cast<float>(roi[1]) * scale, sh = static_cast<float>(roi[2]) * scale;
    const float ew = static_cast<float>(roi[3]) * scale, eh = static_cast<float>(roi[4]) * scale;
    const float rh = std::max(eh - sh, 1.0f), rw = std::max(ew - sw, 1.0f);
    const float bin_h = rh / static_cast<float>(o.PH), bin_w = rw / static_cast<float>(o.PW);
    const int64_t gh = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rh / static_cast<float>(o.PH)));
    const int64_t gw = ratio > 0 ? ratio : static_cast<int64_t>(std::ceil(rw / static_cast<float>(o.PW)));
    const float count = static_cast<float>(gh * gw);
    for (int64_t c = 0; c < o.C; ++c)
      for (int64_t ph = 0; ph < o.PH; ++ph)
        for (int64_t pw = 0; pw < o.PW; ++pw) {
          const float y0 = sh + static_cast<float>(ph) * bin_h, x0 = sw + static_cast<float>(pw) * bin_w;
          float acc = mode == "avg" ? 0.0f : -std::numeric_limits<float>::infinity();
          for (int64_t iy = 0; iy < gh; ++iy)
            for (int64_t ix = 0; ix < gw; ++ix) {
              const float y = y0 + (static_cast<float>(iy) + 0.5f) * bin_h / static_cast<float>(gh);
              const float x = x0 + (static_cast<float>(ix) + 0.5f) * bin_w / static_cast<float>(gw);
              const float v = sample(n, c, y, x);
              acc = mode == "avg" ? acc + v / count : std::max(acc, v);
            }
          out[o.index(r, c, ph, pw)] = acc;
        }
  }
  return Value(from_doubles(o.shape, data.dtype(), out));
}

// roi_pool: the roi rounded to whole pixels (TVM's round: halves away from zero), split
// into pooled_size bins (floor/ceil with a 1e-5 margin), each bin the max of its pixels
// clipped to the map; an empty bin is 0.
Value roi_pool(const KernelCall& call) {
  const NDArray data = call.tensor(0), rois_t = call.tensor(1);
  const FeatureMap f = feature_map(call, data);
  const PooledOut o = pooled_out(call, f, rois_t);
  const float scale = static_cast<float>(call.attrs.get_double("spatial_scale"));
  const std::vector<double> rois = to_doubles(rois_t);
  std::vector<double> out(static_cast<size_t>(shape_size(o.shape)));
  for (int64_t r = 0; r < o.shape[0]; ++r) {
    const double* roi = rois.data() + r * 5;
    const int64_t n = roi_batch(call, f, roi[0]);
    auto px = [&](double v) { return static_cast<int64_t>(std::round(static_cast<float>(v) * scale)); };
    const int64_t sw = px(roi[1]), sh = px(roi[2]), ew = px(roi[3]), eh = px(roi[4]);
    const float bin_h = static_cast<float>(std::max<int64_t>(eh - sh + 1, 1)) / static_cast<float>(o.PH);
    const float bin_w = static_cast<float>(std::max<int64_t>(ew - sw + 1, 1)) / static_cast<float>(o.PW);
    const float eps = 1e-5f;
    for (int64_t ph = 0; ph < o.PH; ++ph)
      for (int64_t pw = 0; pw < o.PW; ++pw) {
        auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
        const int64_t hs = clip(static_cast<int64_t>(std::floor(static_cast<float>(ph) * bin_h + eps)) + sh, f.H);
        const int64_t ws = clip(static_cast<int64_t>(std::floor(static_cast<float>(pw) * bin_w + eps)) + sw, f.W);
        const int64_t he = clip(static_cast<int64_t>(std::ceil(static_cast<float>(ph + 1) * bin_h - eps)) + sh, f.H);
        const int64_t we = clip(static_cast<int64_t>(std::ceil(static_cast<float>(pw + 1) * bin_w - eps)) + sw, f.W);
        for (int64_t c = 0; c < o.C; ++c) {
          double m = 0;
          if (hs < he && ws < we) {
            m = -std::numeric_limits<double>::infinity();
            for (int64_t y = hs; y < he; ++y)
              for (int64_t x = ws; x < we; ++x) m = std::max(m, f.at(n, c, y, x));
          }
          out[o.index(r, c, ph, pw)] = m;
        }
      }
  }
  return Value(from_doubles(o.shape, data.dtype(), out));
}

}  // namespace

void register_vision_roi_kernels(KernelTable& table) {
  register_kernel(table, "vision.roi_align", roi_align);
  register_kernel(table, "vision.roi_pool", roi_pool);
}

}  // namespace relay::rt
