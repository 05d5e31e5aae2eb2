// vision.get_valid_counts and vision.non_max_suppression (TOPI 0.14 topi/vision/nms.py:
// hybrid_get_valid_counts, hybrid_nms, hybrid_rearrange_*), all_class_non_max_suppression
// and regular_non_max_suppression (vision_nms_class.cpp).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "interpreter/kernels/image_internal.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// A (B, N, k) box tensor: each of the B*N rows holds k values.
void require_boxes(const KernelCall& call, const NDArray& data) {
  require(call, data.ndim() == 3, "data must be 3-D (batch, num_anchors, elements), found " + shape_to_string(data.shape()));
}

// hybrid_get_valid_counts: rows whose score is above the threshold (and whose id is not
// negative, when id_index >= 0) move to the front in order; the rest become -1.
template <class T>
Value valid_counts(const KernelCall& call, const NDArray& data, double threshold) {
  const int64_t B = data.dim(0), N = data.dim(1), K = data.dim(2);
  const int64_t id_index = call.attrs.get_int("id_index", 0), score_index = call.attrs.get_int("score_index", 1);
  require(call, score_index >= 0 && score_index < K && id_index < K, "score_index or id_index is outside the box of " + std::to_string(K) + " elements");
  const T thr = static_cast<T>(threshold);
  NDArray count = NDArray::empty({B}, DataType::int_(32));
  NDArray out = NDArray::empty(data.shape(), data.dtype());
  NDArray idx = NDArray::empty({B, N}, DataType::int_(32));
  const T* in = data.data<T>();
  T* o = out.data<T>();
  int32_t* ix = idx.data<int32_t>();
  for (int64_t b = 0; b < B; ++b) {
    int64_t valid = 0;
    for (int64_t j = 0; j < N; ++j) {
      const T* row = in + (b * N + j) * K;
      if (row[score_index] > thr && (id_index < 0 || row[id_index] >= T(0))) {
        std::copy(row, row + K, o + (b * N + valid) * K);
        ix[b * N + valid] = static_cast<int32_t>(j);
        ++valid;
      }
    }
    for (int64_t j = valid; j < N; ++j) {
      std::fill(o + (b * N + j) * K, o + (b * N + j + 1) * K, T(-1));
      ix[b * N + j] = -1;
    }
    count.data<int32_t>()[b] = static_cast<int32_t>(valid);
  }
  return make_tuple({Value(count), Value(out), Value(idx)});
}

Value get_valid_counts(const KernelCall& call) {
  const NDArray data = call.tensor(0), thr = call.tensor(1);
  require_boxes(call, data);
  require(call, thr.size() == 1, "score_threshold must be a scalar, found " + shape_to_string(thr.shape()));
  return with_float(call, data.dtype(), [&](auto tag) { return valid_counts<decltype(tag)>(call, data, thr.get_double(0)); });
}

// The box of `row` as (left, top, right, bottom), corners in either order.
template <class T>
std::array<T, 4> corners(const T* row) {
  return {std::min(row[0], row[2]), std::min(row[1], row[3]), std::max(row[0], row[2]), std::max(row[1], row[3])};
}

// Intersection over union as hybrid_nms computes it (0 for an empty union).
template <class T>
T iou(const std::array<T, 4>& a, const std::array<T, 4>& b) {
  const T w = std::max(T(0), std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const T h = std::max(T(0), std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const T area = h * w;
  const T u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - area;
  return u <= T(0) ? T(0) : area / u;
}

// non_max_suppression: per batch, the first valid_count rows sorted by score (descending,
// ties in input order: TVM's argsort_nms is a stable sort), the first top_k kept; then
// greedily, a row with a positive score is dropped (-1) when its IoU with an earlier kept
// row (of the same class unless force_suppress) reaches iou_threshold, and rows after
// max_output_size kept ones are dropped. iou_threshold <= 0 skips all of it (rows stay in
// input order). Returns the boxes (rows with id >= 0 moved up when invalid_to_bottom) or,
// with return_indices, the kept rows' `indices` compacted to the front and their count.
template <class T>
Value nms(const KernelCall& call, const NDArray& data, const NDArray& valid_count, const NDArray& indices,
          int64_t max_output_size, double iou_threshold_d) {
  const int64_t B = data.dim(0), N = data.dim(1), K = data.dim(2);
  const int64_t top_k = call.attrs.get_int("top_k", -1), coord = call.attrs.get_int("coord_start", 2);
  const int64_t score_index = call.attrs.get_int("score_index", 1), id_index = call.attrs.get_int("id_index", 0);
  const bool force = call.attrs.get_bool("force_suppress"), return_indices = call.attrs.get_bool("return_indices", true);
  require(call, coord >= 0 && coord + 4 <= K && score_index >= 0 && score_index < K && id_index < K,
          "coord_start, score_index or id_index is outside the box of " + std::to_string(K) + " elements");
  const T iou_threshold = static_cast<T>(iou_threshold_d);
  const T* in = data.data<T>();
  NDArray out = NDArray::empty(data.shape(), data.dtype());
  T* o = out.data<T>();
  std::vector<int64_t> box_index(static_cast<size_t>(B * N), -1);
  const std::vector<int64_t> counts = to_int64s(valid_count);
  const std::vector<int64_t> ind = return_indices ? to_int64s(indices) : std::vector<int64_t>{};
  for (int64_t b = 0; b < B; ++b) {
    const int64_t valid = std::clamp<int64_t>(counts[b], 0, N);
    T* rows = o + b * N * K;
    int64_t* bi = box_index.data() + b * N;
    if (iou_threshold > T(0)) {
      std::vector<int64_t> order(static_cast<size_t>(valid));
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
        return in[(b * N + x) * K + score_index] > in[(b * N + y) * K + score_index];
      });
      const int64_t keep = top_k > 0 && top_k < valid ? top_k : valid;
      for (int64_t j = 0; j < valid; ++j) {
        if (j < keep) {
          std::copy(in + (b * N + order[j]) * K, in + (b * N + order[j] + 1) * K, rows + j * K);
          bi[j] = order[j];
        } else {
          std::fill(rows + j * K, rows + (j + 1) * K, T(-1));
        }
      }
      int64_t kept = 0;
      for (int64_t j = 0; j < valid; ++j) {
        T* row = rows + j * K;
        if (kept == max_output_size) {
          std::fill(row, row + K, T(-1));
          bi[j] = -1;
          continue;
        }
        if (!(row[score_index] > T(0))) continue;
        const auto a = corners(row + coord);
        bool is_valid = true;
        for (int64_t k = 0; k < j && is_valid; ++k) {
          const T* other = rows + k * K;
          if (!(other[score_index] > T(0)) || (id_index >= 0 && other[id_index] < T(0))) continue;
          if (!force && id_index >= 0 && row[id_index] != other[id_index]) continue;
          if (iou(a, corners(other + coord)) >= iou_threshold) is_valid = false;
        }
        if (is_valid) {
          ++kept;
        } else {
          std::fill(row, row + K, T(-1));
          bi[j] = -1;
        }
      }
    } else {
      for (int64_t j = 0; j < valid; ++j) {
        std::copy(in + (b * N + j) * K, in + (b * N + j + 1) * K, rows + j * K);
        bi[j] = j;
      }
    }
    for (int64_t j = valid; j < N; ++j) {
      std::fill(rows + j * K, rows + (j + 1) * K, T(-1));
      bi[j] = -1;
    }
    if (return_indices)
      for (int64_t j = 0; j < valid; ++j)
        if (bi[j] >= 0) bi[j] = ind[b * indices.dim(1) + bi[j]];
  }
  if (return_indices) {
    // hybrid_rearrange_indices_out: non-negative entries to the front; an entry outside
    // [-N, N] (TOPI's guard against garbage) counts as index 0.
    NDArray idx = NDArray::zeros({B, N}, DataType::int_(32));
    NDArray count = NDArray::empty({B, 1}, DataType::int_(32));
    int32_t* ix = idx.data<int32_t>();
    for (int64_t b = 0; b < B; ++b) {
      int64_t n = 0;
      for (int64_t j = 0; j < N; ++j) {
        const int64_t v = box_index[b * N + j];
        if (v >= 0) ix[b * N + n++] = static_cast<int32_t>(v);
        if (v > N || v < -N) ix[b * N + n++] = 0;
        if (j >= n) ix[b * N + j] = -1;
      }
      count.data<int32_t>()[b] = static_cast<int32_t>(n);
    }
    return make_tuple({Value(idx), Value(count)});
  }
  if (!call.attrs.get_bool("invalid_to_bottom")) return Value(out);
  // hybrid_rearrange_box_out: rows whose first element (the class id) is >= 0 move up.
  NDArray moved = NDArray::empty(data.shape(), data.dtype());
  T* m = moved.data<T>();
  for (int64_t b = 0; b < B; ++b) {
    int64_t n = 0;
    for (int64_t j = 0; j < N; ++j) {
      const T* row = o + (b * N + j) * K;
      if (row[0] >= T(0)) std::copy(row, row + K, m + (b * N + n++) * K);
      if (j >= n) std::fill(m + (b * N + j) * K, m + (b * N + j + 1) * K, T(-1));
    }
  }
  return Value(moved);
}

Value non_max_suppression(const KernelCall& call) {
  const NDArray data = call.tensor(0), valid = call.tensor(1), indices = call.tensor(2);
  const NDArray max_out = call.tensor(3), thr = call.tensor(4);
  require_boxes(call, data);
  require(call, valid.ndim() == 1 && valid.dim(0) == data.dim(0),
          "valid_count must have shape (" + std::to_string(data.dim(0)) + "), found " + shape_to_string(valid.shape()));
  // indices are read only with return_indices (TVM's SSD import passes valid_count there)
  require(call, !call.attrs.get_bool("return_indices", true) ||
                    (indices.ndim() == 2 && indices.dim(0) == data.dim(0) && indices.dim(1) >= data.dim(1)),
          "indices must have shape (" + std::to_string(data.dim(0)) + ", " + std::to_string(data.dim(1)) +
              "), found " + shape_to_string(indices.shape()));
  require(call, max_out.size() == 1 && thr.size() == 1, "max_output_size and iou_threshold must be scalars");
  return with_float(call, data.dtype(), [&](auto tag) {
    return nms<decltype(tag)>(call, data, valid, indices, max_out.get_int(0), thr.get_double(0));
  });
}

}  // namespace

void register_vision_nms_kernels(KernelTable& table) {
  register_kernel(table, "vision.get_valid_counts", get_valid_counts);
  register_kernel(table, "vision.non_max_suppression", non_max_suppression);
}

}  // namespace relay::rt
