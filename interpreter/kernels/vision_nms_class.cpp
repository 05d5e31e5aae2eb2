// vision.all_class_non_max_suppression (ONNX / TensorFlow style, TOPI 0.14 nms.py +
// nms_util.py) and vision.regular_non_max_suppression (TFLite's detection postprocess,
// hybrid_regular_nms).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "interpreter/kernels/image_internal.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// calculate_overlap: IoU of two boxes whose corners may come in either order.
float overlap(const float* a, const float* b) {
  auto side = [](const float* r) {
    return std::array<float, 4>{std::min(r[0], r[2]), std::min(r[1], r[3]), std::max(r[0], r[2]), std::max(r[1], r[3])};
  };
  const auto p = side(a), q = side(b);
  const float w = std::max(0.0f, std::min(p[2], q[2]) - std::max(p[0], q[0]));
  const float h = std::max(0.0f, std::min(p[3], q[3]) - std::max(p[1], q[1]));
  const float area = h * w;
  const float u = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - area;
  return u <= 0.0f ? 0.0f : area / u;
}

void require_f32(const KernelCall& call, const NDArray& t, const char* name) {
  require(call, t.dtype() == DataType::float_(32), std::string(name) + " must be float32 (TOPI's kernels are float32)");
}

// all_class_non_max_suppression: per (batch, class), scores sorted descending (stable),
// the candidates those above score_threshold; greedily a candidate not yet suppressed is
// selected (up to max_output_boxes_per_class, all when it is <= 0) and suppresses later
// candidates with a positive score and IoU >= iou_threshold. iou_threshold <= 0 selects
// nothing (TOPI's loop only runs for a positive threshold). "onnx": rows (batch, class,
// box) in (batch, class) order, then zero rows, and the total; "tensorflow": per batch
// rows (class, box) with their scores, zero-padded, and the per-batch totals.
Value all_class_nms(const KernelCall& call) {
  const NDArray boxes = call.tensor(0), scores = call.tensor(1);
  require(call, boxes.ndim() == 3 && boxes.dim(2) == 4 && scores.ndim() == 3 && scores.dim(0) == boxes.dim(0) &&
                    scores.dim(2) == boxes.dim(1),
          "expects boxes (B, N, 4) and scores (B, C, N), found " + shape_to_string(boxes.shape()) + " and " +
              shape_to_string(scores.shape()));
  require_f32(call, boxes, "boxes");
  require_f32(call, scores, "scores");
  const int64_t max_out = call.tensor(2).get_int(0);
  const float iou_thr = static_cast<float>(call.tensor(3).get_double(0));
  const float score_thr = static_cast<float>(call.tensor(4).get_double(0));
  const std::string format = call.attrs.get_string("output_format");
  require(call, format == "onnx" || format == "tensorflow", "unknown output_format \"" + format + "\" (onnx, tensorflow)");
  const int64_t B = boxes.dim(0), N = boxes.dim(1), C = scores.dim(1);
  const float* bx = boxes.data<float>();
  const float* sc = scores.data<float>();
  std::vector<std::vector<int64_t>> sel(static_cast<size_t>(B * C));
  std::vector<std::vector<float>> sel_scores(static_cast<size_t>(B * C));
  for (int64_t bc = 0; bc < B * C; ++bc) {
    const float* row = sc + bc * N;
    const float* base = bx + (bc / C) * N * 4;
    std::vector<int64_t> order(static_cast<size_t>(N));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return row[a] > row[b]; });
    std::vector<float> s(order.size());
    for (size_t i = 0; i < order.size(); ++i) s[i] = row[order[i]];
    int64_t valid = 0;
    while (valid < N && s[valid] > score_thr) ++valid;
    if (!(iou_thr > 0.0f) || valid == 0) continue;
    const int64_t limit = max_out > 0 ? max_out : valid;
    for (int64_t j = 0; j < valid && static_cast<int64_t>(sel[bc].size()) < limit; ++j) {
      if (!(s[j] > -1.0f)) continue;
      sel[bc].push_back(order[j]);
      sel_scores[bc].push_back(s[j]);
      for (int64_t k = j + 1; k < valid; ++k)
        if (s[k] > 0.0f && overlap(base + order[j] * 4, base + order[k] * 4) >= iou_thr) s[k] = -1.0f;
    }
  }
  if (format == "onnx") {
    NDArray out = NDArray::zeros({B * C * N, 3}, DataType::int_(64));
    int64_t* o = out.data<int64_t>();
    int64_t row = 0;
    for (int64_t bc = 0; bc < B * C; ++bc)
      for (int64_t idx : sel[bc]) {
        o[row * 3] = bc / C;
        o[row * 3 + 1] = bc % C;
        o[row * 3 + 2] = idx;
        ++row;
      }
    NDArray total = NDArray::empty({1}, DataType::int_(64));
    total.data<int64_t>()[0] = row;
    return make_tuple({Value(out), Value(total)});
  }
  NDArray idx = NDArray::zeros({B, C * N, 2}, DataType::int_(64));
  NDArray out_scores = NDArray::zeros({B, C * N}, DataType::float_(32));
  NDArray totals = NDArray::empty({B}, DataType::int_(64));
  for (int64_t b = 0; b < B; ++b) {
    int64_t row = 0;
    for (int64_t c = 0; c < C; ++c) {
      const size_t bc = static_cast<size_t>(b * C + c);
      for (size_t k = 0; k < sel[bc].size(); ++k, ++row) {
        idx.data<int64_t>()[(b * C * N + row) * 2] = c;
        idx.data<int64_t>()[(b * C * N + row) * 2 + 1] = sel[bc][k];
        out_scores.data<float>()[b * C * N + row] = sel_scores[bc][k];
      }
    }
    totals.data<int64_t>()[b] = row;
  }
  return make_tuple({Value(idx), Value(out_scores), Value(totals)});
}

// regular_non_max_suppression: per batch and per class (skipping the leading background
// classes: scores has num_classes_with_background columns), boxes with score >=
// score_threshold, sorted descending (stable), greedily selected up to
// max_detections_per_class, suppressing later ones with IoU > iou_threshold (boxes are
// [ymin, xmin, ymax, xmax]; an empty box has IoU 0); the selections of all classes merged
// by score (stable), the best max_detections kept. Rows past the count are zero.
Value regular_nms(const KernelCall& call) {
  const NDArray boxes = call.tensor(0), scores = call.tensor(1);
  require(call, boxes.ndim() == 3 && boxes.dim(2) == 4 && scores.ndim() == 3 && scores.dim(0) == boxes.dim(0) &&
                    scores.dim(1) == boxes.dim(1),
          "expects boxes (B, N, 4) and scores (B, N, classes), found " + shape_to_string(boxes.shape()) + " and " +
              shape_to_string(scores.shape()));
  require_f32(call, boxes, "boxes");
  require_f32(call, scores, "scores");
  const int64_t per_class = call.attrs.get_int("max_detections_per_class"), max_det = call.attrs.get_int("max_detections");
  const int64_t classes = call.attrs.get_int("num_classes");
  const float iou_thr = static_cast<float>(call.attrs.get_double("iou_threshold"));
  const float score_thr = static_cast<float>(call.attrs.get_double("score_threshold"));
  const int64_t B = boxes.dim(0), N = boxes.dim(1), CB = scores.dim(2);
  require(call, max_det >= 0 && classes >= 0 && classes <= CB, "max_detections and num_classes must fit the scores");
  const int64_t offset = CB - classes;
  const float* bx = boxes.data<float>();
  const float* sc = scores.data<float>();
  NDArray out_boxes = NDArray::zeros({B, max_det, 4}, DataType::float_(32));
  NDArray out_classes = NDArray::zeros({B, max_det}, DataType::float_(32));
  NDArray out_scores = NDArray::zeros({B, max_det}, DataType::float_(32));
  NDArray count = NDArray::empty({B}, DataType::int_(32));
  auto iou = [](const float* i, const float* j) {
    const float ai = (i[2] - i[0]) * (i[3] - i[1]), aj = (j[2] - j[0]) * (j[3] - j[1]);
    if (!(ai > 0.0f && aj > 0.0f)) return 0.0f;
    const float inter = std::max(std::min(i[2], j[2]) - std::max(i[0], j[0]), 0.0f) *
                        std::max(std::min(i[3], j[3]) - std::max(i[1], j[1]), 0.0f);
    return inter / (ai + aj - inter);
  };
  for (int64_t b = 0; b < B; ++b) {
    std::vector<std::pair<int64_t, float>> kept;  // (anchor * CB + column, score)
    for (int64_t c = 0; c < classes; ++c) {
      std::vector<int64_t> cand;
      for (int64_t i = 0; i < N; ++i)
        if (sc[(b * N + i) * CB + c + offset] >= score_thr) cand.push_back(i);
      std::stable_sort(cand.begin(), cand.end(), [&](int64_t x, int64_t y) {
        return sc[(b * N + x) * CB + c + offset] > sc[(b * N + y) * CB + c + offset];
      });
      std::vector<bool> active(cand.size(), true);
      const int64_t limit = std::min<int64_t>(static_cast<int64_t>(cand.size()), per_class);
      int64_t selected = 0;
      for (size_t i = 0; i < cand.size(); ++i) {
        if (!active[i] || selected >= limit) continue;
        active[i] = false;
        kept.emplace_back(cand[i] * CB + c + offset, sc[(b * N + cand[i]) * CB + c + offset]);
        ++selected;
        for (size_t j = i + 1; j < cand.size(); ++j)
          if (active[j] && iou(bx + (b * N + cand[i]) * 4, bx + (b * N + cand[j]) * 4) > iou_thr) active[j] = false;
      }
      std::stable_sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
      if (static_cast<int64_t>(kept.size()) > max_det) kept.resize(static_cast<size_t>(max_det));
    }
    for (size_t k = 0; k < kept.size(); ++k) {
      const int64_t anchor = kept[k].first / CB;
      std::copy(bx + (b * N + anchor) * 4, bx + (b * N + anchor + 1) * 4, out_boxes.data<float>() + (b * max_det + static_cast<int64_t>(k)) * 4);
      out_classes.data<float>()[b * max_det + static_cast<int64_t>(k)] = static_cast<float>(kept[k].first - anchor * CB - offset);
      out_scores.data<float>()[b * max_det + static_cast<int64_t>(k)] = kept[k].second;
    }
    count.data<int32_t>()[b] = static_cast<int32_t>(kept.size());
  }
  return make_tuple({Value(out_boxes), Value(out_classes), Value(out_scores), Value(count)});
}

}  // namespace

void register_vision_nms_class_kernels(KernelTable& table) {
  register_kernel(table, "vision.all_class_non_max_suppression", all_class_nms);
  register_kernel(table, "vision.regular_non_max_suppression", regular_nms);
}

}  // namespace relay::rt
