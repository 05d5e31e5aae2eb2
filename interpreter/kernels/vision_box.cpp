// vision.multibox_prior, vision.multibox_transform_loc (SSD's anchors and box decoding,
// TOPI 0.14 topi/vision/ssd/multibox.py) and vision.yolo_reorg (topi/vision/reorg.h).
#include <cmath>

#include "interpreter/kernels/image_internal.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// hybrid_multibox_prior: for each cell (i, j), len(sizes) + len(ratios) - 1 boxes
// (xmin, ymin, xmax, ymax) around the centre ((j + offset_w) * step_w, (i + offset_h) *
// step_h); a step <= 0 means 1 / the feature map's extent. float32 as in TOPI.
Value multibox_prior(const KernelCall& call) {
  const NDArray data = call.tensor(0);
  require(call, data.ndim() == 4, "data must be 4-D, found " + shape_to_string(data.shape()));
  const std::vector<double> sizes = call.attrs.get_doubles("sizes"), ratios = call.attrs.get_doubles("ratios");
  const std::vector<double> steps = call.attrs.get_doubles("steps"), offsets = call.attrs.get_doubles("offsets");
  require(call, !sizes.empty() && !ratios.empty(), "sizes and ratios must not be empty");
  require(call, steps.size() == 2 && offsets.size() == 2, "steps and offsets need 2 values");
  const int64_t H = data.dim(2), W = data.dim(3);
  const size_t per_cell = sizes.size() + ratios.size() - 1;
  // H and W come from data whose batch may be 0, so their product is checked.
  int64_t boxes = 0;
  require(call, !__builtin_mul_overflow(H, W, &boxes) &&
                    !__builtin_mul_overflow(boxes, static_cast<int64_t>(per_cell), &boxes),
          "the number of boxes of data " + shape_to_string(data.shape()) + " does not fit in 64 bits");
  const Shape shape{1, boxes, 4};
  std::vector<double> out(static_cast<size_t>(shape_size(shape)));
  const float step_h = steps[0] > 0 ? static_cast<float>(steps[0]) : 1.0f / static_cast<float>(H);
  const float step_w = steps[1] > 0 ? static_cast<float>(steps[1]) : 1.0f / static_cast<float>(W);
  const float off_h = static_cast<float>(offsets[0]), off_w = static_cast<float>(offsets[1]);
  const bool clip = call.attrs.get_bool("clip");
  size_t at = 0;
  for (int64_t i = 0; i < H; ++i) {
    const float cy = (static_cast<float>(i) + off_h) * step_h;
    for (int64_t j = 0; j < W; ++j) {
      const float cx = (static_cast<float>(j) + off_w) * step_w;
      for (size_t k = 0; k < per_cell; ++k) {
        float w, h;
        const float size0 = static_cast<float>(sizes[0]);
        if (k < sizes.size()) {
          const float s = static_cast<float>(sizes[k]);
          w = s * static_cast<float>(H) / static_cast<float>(W) / 2.0f;
          h = s / 2.0f;
        } else {
          const float r = std::sqrt(static_cast<float>(ratios[k - sizes.size() + 1]));
          w = size0 * static_cast<float>(H) / static_cast<float>(W) * r / 2.0f;
          h = size0 / r / 2.0f;
        }
        const float box[4] = {cx - w, cy - h, cx + w, cy + h};
        for (float v : box) out[at++] = clip ? std::min(1.0f, std::max(0.0f, v)) : v;
      }
    }
  }
  return Value(from_doubles(shape, data.dtype(), out));
}

// hybrid_multibox_transform_loc: per anchor, the best class (from class 1 unless
// keep_background; a non-background best below `threshold` becomes background) and, for
// kept anchors, [class id, score, decoded box] packed to the front; valid_count counts them.
// TOPI leaves the rows after valid_count uninitialised; they are -1 here (what
// get_valid_counts and non_max_suppression write for rows that hold no box).
template <class T>
Value transform_loc(const KernelCall& call, const NDArray& cls, const NDArray& loc, const NDArray& anchor) {
  const int64_t B = cls.dim(0), C = cls.dim(1), A = cls.dim(2);
  const T* p = cls.data<T>();
  const T* l = loc.data<T>();
  const T* a = anchor.data<T>();
  const bool clip = call.attrs.get_bool("clip"), keep_bg = call.attrs.get_bool("keep_background");
  const T threshold = static_cast<T>(call.attrs.get_double("threshold"));
  const std::vector<double> var = call.attrs.get_doubles("variances");
  require(call, var.size() == 4, "variances needs 4 values");
  const T vx = static_cast<T>(var[0]), vy = static_cast<T>(var[1]), vw = static_cast<T>(var[2]), vh = static_cast<T>(var[3]);
  NDArray out = NDArray::empty({B, A, 6}, cls.dtype());
  NDArray count = NDArray::empty({B}, DataType::int_(32));
  T* o = out.data<T>();
  for (int64_t i = 0; i < B * A * 6; ++i) o[i] = T(-1);
  auto clamp = [&](T v) { return clip ? std::max(T(0), std::min(T(1), v)) : v; };
  for (int64_t b = 0; b < B; ++b) {
    int32_t valid = 0;
    for (int64_t j = 0; j < A; ++j) {
      T score = T(-1);
      int64_t id = 0;
      for (int64_t k = keep_bg ? 0 : 1; k < C; ++k) {
        const T v = p[(b * C + k) * A + j];
        if (v > score) id = k;
        score = std::max(v, score);
      }
      if (id > 0 && score < threshold) id = 0;
      if (!keep_bg && id == 0) continue;
      T* row = o + (b * A + valid) * 6;
      row[0] = static_cast<T>(keep_bg ? id : id - 1);
      row[1] = score;
      const T* an = a + j * 4;
      const T* pr = l + b * A * 4 + j * 4;
      const T aw = an[2] - an[0], ah = an[3] - an[1];
      const T ax = (an[0] + an[2]) / T(2), ay = (an[1] + an[3]) / T(2);
      const T ox = pr[0] * vx * aw + ax, oy = pr[1] * vy * ah + ay;
      const T ow = std::exp(pr[2] * vw) * aw / T(2), oh = std::exp(pr[3] * vh) * ah / T(2);
      row[2] = clamp(ox - ow);
      row[3] = clamp(oy - oh);
      row[4] = clamp(ox + ow);
      row[5] = clamp(oy + oh);
      ++valid;
    }
    count.data<int32_t>()[b] = valid;
  }
  return make_tuple({Value(out), Value(count)});
}

Value multibox_transform_loc(const KernelCall& call) {
  const NDArray cls = call.tensor(0), loc = call.tensor(1), anchor = call.tensor(2);
  require(call, cls.ndim() == 3 && loc.ndim() == 2 && anchor.ndim() == 3,
          "expects cls_prob (B, C, A), loc_pred (B, A*4) and anchor (1, A, 4)");
  require(call, anchor.dim(1) == cls.dim(2) && anchor.dim(2) == 4 && loc.dim(0) == cls.dim(0) &&
                    loc.dim(1) == cls.dim(2) * 4,
          "cls_prob " + shape_to_string(cls.shape()) + ", loc_pred " + shape_to_string(loc.shape()) + " and anchor " +
              shape_to_string(anchor.shape()) + " disagree on the number of anchors");
  require(call, loc.dtype() == cls.dtype() && anchor.dtype() == cls.dtype(), "inputs must share one dtype");
  if (cls.dtype() == DataType::float_(32)) return transform_loc<float>(call, cls, loc, anchor);
  require(call, cls.dtype() == DataType::float_(64), "needs float32 or float64 inputs");
  return transform_loc<double>(call, cls, loc, anchor);
}

// topi::vision::reorg: output (b, k, j, i) of the input-shaped intermediate reads input
// (b*s*s, (k % out_c)*s*s, (j*s + (k / out_c) / s)*s, i*s + (k / out_c) % s) through the
// flat index, out_c = C / (s*s); the result is reshaped to (N, C*s*s, H/s, W/s). TOPI's
// batch index b*s*s lands outside the tensor for b > 0 (reads out of bounds); here every
// batch is reorganised as batch 0 is (the offset of batch b is b*C*H*W).
Value yolo_reorg(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  require(call, x.ndim() == 4, "data must be 4-D, found " + shape_to_string(x.shape()));
  const int64_t s = call.attrs.get_int("stride", 1);
  require(call, s > 0, "stride must be positive");
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  require(call, s <= 3037000499 && C % (s * s) == 0 && H % s == 0 && W % s == 0,
          "data " + shape_to_string(x.shape()) + " is not divisible by the stride " + std::to_string(s) +
              " (channels by stride * stride, height and width by stride)");
  const int64_t out_c = C / (s * s), plane = C * H * W;
  const std::vector<double> in = to_doubles(x);
  std::vector<double> out(in.size());
  size_t at = 0;
  for (int64_t b = 0; b < N; ++b)
    for (int64_t k = 0; k < C; ++k)
      for (int64_t j = 0; j < H; ++j)
        for (int64_t i = 0; i < W; ++i) {
          const int64_t q = k / out_c;
          const int64_t c2 = (k % out_c) * s * s, h2 = (j * s + q / s) * s, w2 = i * s + q % s;
          out[at++] = in[static_cast<size_t>(b * plane + (c2 * H + h2) * W + w2)];
        }
  return Value(from_doubles({N, C * s * s, H / s, W / s}, x.dtype(), out));
}

}  // namespace

void register_vision_box_kernels(KernelTable& table) {
  register_kernel(table, "vision.multibox_prior", multibox_prior);
  register_kernel(table, "vision.multibox_transform_loc", multibox_transform_loc);
  register_kernel(table, "vision.yolo_reorg", yolo_reorg);
}

}  // namespace relay::rt
