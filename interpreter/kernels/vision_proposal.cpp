// vision.proposal (Faster R-CNN's region proposal layer, TOPI 0.14 topi/vision/rcnn/
// proposal.py): anchors per feature-map cell, box regression, clipping to the image,
// small boxes scored -1, a descending sort of all boxes, the best rpn_pre_nms_top_n kept,
// NMS on them (IoU > threshold, +1 pixel areas), then the kept boxes written cyclically
// until rpn_post_nms_top_n rows per batch are filled: [batch, x1, y1, x2, y2].
#include <algorithm>
#include <cmath>
#include <numeric>

#include "interpreter/kernels/image_internal.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// generate_anchor: computed in Python doubles by TOPI, used as float32 constants.
std::array<float, 4> anchor_box(double ratio, double scale, double base) {
  const double w = base, h = base, xc = 0.5 * (w - 1.0), yc = 0.5 * (h - 1.0);
  const double size_ratios = std::floor(w * h / ratio);
  const double nw = std::floor(std::sqrt(size_ratios) + 0.5) * scale;
  const double nh = std::floor(nw / scale * ratio + 0.5) * scale;
  return {static_cast<float>(xc - 0.5 * (nw - 1.0)), static_cast<float>(yc - 0.5 * (nh - 1.0)),
          static_cast<float>(xc + 0.5 * (nw - 1.0)), static_cast<float>(yc + 0.5 * (nh - 1.0))};
}

Value proposal(const KernelCall& call) {
  const NDArray cls = call.tensor(0), delta_t = call.tensor(1), info_t = call.tensor(2);
  for (const NDArray* t : {&cls, &delta_t, &info_t})
    require(call, t->dtype() == DataType::float_(32), "inputs must be float32");
  const std::vector<double> scales = call.attrs.get_doubles("scales"), ratios = call.attrs.get_doubles("ratios");
  const int64_t A = static_cast<int64_t>(scales.size() * ratios.size());
  require(call, A > 0 && cls.ndim() == 4 && cls.dim(1) == 2 * A && delta_t.ndim() == 4 &&
                    delta_t.dim(1) == 4 * A && info_t.ndim() == 2 && info_t.dim(1) == 3 &&
                    delta_t.dim(0) == cls.dim(0) && info_t.dim(0) == cls.dim(0) && delta_t.dim(2) == cls.dim(2) &&
                    delta_t.dim(3) == cls.dim(3),
          "expects cls_prob (B, 2A, H, W), bbox_pred (B, 4A, H, W) and im_info (B, 3), A = len(scales) * len(ratios)");
  const int64_t B = cls.dim(0), H = cls.dim(2), W = cls.dim(3), N = H * W * A;
  const float stride = static_cast<float>(call.attrs.get_int("feature_stride"));
  const float min_size_attr = static_cast<float>(call.attrs.get_int("rpn_min_size"));
  const bool iou_loss = call.attrs.get_bool("iou_loss");
  const float thr = static_cast<float>(call.attrs.get_double("threshold"));
  const int64_t pre_attr = call.attrs.get_int("rpn_pre_nms_top_n"), post = call.attrs.get_int("rpn_post_nms_top_n");
  require(call, post >= 0, "rpn_post_nms_top_n must not be negative");
  const int64_t pre = pre_attr > 0 ? std::min(pre_attr, N) : N;
  const float* score = cls.data<float>();
  const float* delta = delta_t.data<float>();
  const float* info = info_t.data<float>();
  std::vector<float> bbox(static_cast<size_t>(B * N * 5));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w)
        for (int64_t k = 0; k < A; ++k) {
          const auto an = anchor_box(ratios[static_cast<size_t>(k) / scales.size()], scales[static_cast<size_t>(k) % scales.size()],
                                     static_cast<double>(stride));
          const float im_h = info[b * 3], im_w = info[b * 3 + 1];
          const float x1 = an[0] + static_cast<float>(w) * stride, y1 = an[1] + static_cast<float>(h) * stride;
          const float x2 = an[2] + static_cast<float>(w) * stride, y2 = an[3] + static_cast<float>(h) * stride;
          float d[4];
          for (int i = 0; i < 4; ++i) d[i] = delta[(((b * A + k) * 4 + i) * H + h) * W + w];
          float px1, py1, px2, py2;
          if (iou_loss) {
            px1 = x1 + d[0], py1 = y1 + d[1], px2 = x2 + d[2], py2 = y2 + d[3];
          } else {
            const float bw = x2 - x1 + 1.0f, bh = y2 - y1 + 1.0f;
            const float cx = x1 + 0.5f * (bw - 1.0f), cy = y1 + 0.5f * (bh - 1.0f);
            const float pcx = d[0] * bw + cx, pcy = d[1] * bh + cy;
            const float pw = std::exp(d[2]) * bw, ph = std::exp(d[3]) * bh;
            px1 = pcx - 0.5f * (pw - 1.0f), py1 = pcy - 0.5f * (ph - 1.0f);
            px2 = pcx + 0.5f * (pw - 1.0f), py2 = pcy + 0.5f * (ph - 1.0f);
          }
          auto clip = [](float v, float hi) { return std::max(std::min(v, hi - 1.0f), 0.0f); };
          px1 = clip(px1, im_w), py1 = clip(py1, im_h), px2 = clip(px2, im_w), py2 = clip(py2, im_h);
          const int64_t real_h = static_cast<int64_t>(im_h / stride), real_w = static_cast<int64_t>(im_w / stride);
          const float min_size = info[b * 3 + 2] * min_size_attr;
          float s = score[((b * A * 2 + A + k) * H + h) * W + w];
          if (h >= real_h || w >= real_w) s = -1.0f;
          float* o = bbox.data() + ((b * H * W + h * W + w) * A + k) * 5;
          o[0] = px1, o[1] = py1, o[2] = px2, o[3] = py2, o[4] = s;
          if (px2 - px1 + 1.0f < min_size || py2 - py1 + 1.0f < min_size) {
            o[0] -= min_size / 2.0f, o[1] -= min_size / 2.0f, o[2] += min_size / 2.0f, o[3] += min_size / 2.0f;
            o[4] = -1.0f;
          }
        }
  NDArray out = NDArray::zeros({B * post, 5}, DataType::float_(32));
  float* po = out.data<float>();
  for (int64_t b = 0; b < B; ++b) {
    const float* bb = bbox.data() + b * N * 5;
    std::vector<int64_t> order(static_cast<size_t>(N));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return bb[x * 5 + 4] > bb[y * 5 + 4]; });
    order.resize(static_cast<size_t>(pre));
    // nms_ir: a box not removed removes every later box overlapping it by more than thr
    std::vector<bool> removed(order.size(), false);
    auto iou = [&](const float* a, const float* c) {
      const float w = std::max(0.0f, std::min(a[2], c[2]) - std::max(a[0], c[0]) + 1.0f);
      const float h = std::max(0.0f, std::min(a[3], c[3]) - std::max(a[1], c[1]) + 1.0f);
      const float i = w * h;
      return i / ((a[2] - a[0] + 1.0f) * (a[3] - a[1] + 1.0f) + (c[2] - c[0] + 1.0f) * (c[3] - c[1] + 1.0f) - i);
    };
    for (size_t l = 0; l + 1 < order.size(); ++l)
      if (!removed[l])
        for (size_t i = l + 1; i < order.size(); ++i)
          if (iou(bb + order[l] * 5, bb + order[i] * 5) > thr) removed[i] = true;
    std::vector<int64_t> kept;
    for (size_t j = 0; j < order.size(); ++j)
      if (!removed[j]) kept.push_back(order[j]);
    // prepare_output_ir: the kept boxes again and again until post rows are written;
    // TOPI leaves a batch with no kept box unwritten (zeros here)
    for (int64_t i = 0; !kept.empty() && i < post; ++i) {
      float* row = po + (b * post + i) * 5;
      row[0] = static_cast<float>(b);
      std::copy(bb + kept[static_cast<size_t>(i) % kept.size()] * 5, bb + kept[static_cast<size_t>(i) % kept.size()] * 5 + 4, row + 1);
    }
  }
  return Value(out);
}

}  // namespace

void register_vision_proposal_kernels(KernelTable& table) { register_kernel(table, "vision.proposal", proposal); }

}  // namespace relay::rt
