// Slicing and masking: strided_slice (§3.0.5), strided_set, slice_like, sliding_window,
// reverse_sequence, sequence_mask, trilu, matrix_set_diag.
#include <algorithm>
#include <limits>

#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {
namespace {

using namespace transform;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// One axis of a slice after canonicalisation: the first index, the step, the count.
struct Range {
  int64_t begin = 0, stride = 1, extent = 0;
};

// topi's CanonicalizeIndex: negatives wrap once, then clamp to [0, d] for a positive stride
// or [-1, d-1] for a negative one.
int64_t canonical(int64_t index, int64_t d, int64_t stride) {
  if (index < 0) index += d;
  return stride < 0 ? std::clamp<int64_t>(index, -1, d - 1) : std::clamp<int64_t>(index, 0, d);
}

Range canonical_range(const KernelCall& call, size_t axis, int64_t d, int64_t begin, int64_t end, int64_t stride) {
  if (stride == 0) fail(call, "the stride of axis " + std::to_string(axis) + " is 0");
  const int64_t b = canonical(begin, d, stride), e = canonical(end, d, stride);
  if (stride < 0 ? e > b : b > e)
    fail(call, "on axis " + std::to_string(axis) + " (extent " + std::to_string(d) + "), begin " + std::to_string(begin) +
                   " is past end " + std::to_string(end) + " for stride " + std::to_string(stride));
  const uint64_t step = stride < 0 ? uint64_t{0} - static_cast<uint64_t>(stride) : static_cast<uint64_t>(stride);
  const uint64_t span = static_cast<uint64_t>(std::max(b, e) - std::min(b, e));
  return {b, stride, static_cast<int64_t>((span + step - 1) / step)};
}

// The per-axis ranges of a strided slice of `shape` from begin/end/strides lists, on
// `axes` (every axis, lists padded as TVM pads them, when empty).
std::vector<Range> slice_ranges(const KernelCall& call, const Shape& shape, std::vector<int64_t> begin,
                                std::vector<int64_t> end, std::vector<int64_t> strides,
                                std::vector<int64_t> axes, bool size_mode) {
  const size_t rank = shape.size();
  std::vector<Range> ranges(rank);
  for (size_t i = 0; i < rank; ++i) ranges[i] = {0, 1, shape[i]};
  if (axes.empty()) {
    if (begin.size() > rank || end.size() > rank || strides.size() > rank)
      fail(call, "`begin`, `end` or `strides` is longer than the rank of data of shape " + str(shape));
    strides.resize(rank, 1);
    for (size_t i = begin.size(); i < rank; ++i) begin.push_back(strides[i] > 0 ? 0 : kMax);
    for (size_t i = end.size(); i < rank; ++i) end.push_back(strides[i] < 0 ? 0 : kMax);
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  } else if (begin.size() != axes.size() || end.size() != axes.size() || strides.size() != axes.size()) {
    fail(call, "`axes`, `begin`, `end` and `strides` must have the same length");
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    const size_t a = static_cast<size_t>(normalize_axis(axes[i], rank, call.op.name));
    int64_t b = begin[i], e = end[i], s = strides[i];
    if (size_mode) {
      s = 1;
      e = e < 0 ? kMax : (e > kMax - std::max<int64_t>(b, 0) ? kMax : b + e);
    }
    ranges[a] = canonical_range(call, a, shape[a], b, e, s);
  }
  return ranges;
}

// The slice as (shape, strides, offset) into a contiguous tensor of `shape`.
void slice_view(const Shape& shape, const std::vector<Range>& ranges, Shape& out, std::vector<int64_t>& strides, int64_t& offset) {
  const auto own = contiguous_strides(shape);
  out.clear(), strides.clear(), offset = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    out.push_back(ranges[d].extent);
    // A stride from data (dyn.strided_slice) can be huge; it only matters, and then its
    // product with the dim's stride fits (it stays inside the tensor), when 2+ are taken.
    strides.push_back(ranges[d].extent > 1 ? ranges[d].stride * own[d] : 0);
    if (ranges[d].extent > 0) offset += ranges[d].begin * own[d];
  }
}

Value strided_slice_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const std::string mode = call.attrs.get_string("slice_mode");
  if (mode != "end" && mode != "size") fail(call, "`slice_mode` must be \"end\" or \"size\", found \"" + mode + "\"");
  auto ranges = slice_ranges(call, data.shape(), call.attrs.get_ints("begin"), call.attrs.get_ints("end"),
                             call.attrs.get_ints("strides"), call.attrs.get_ints("axes"), mode == "size");
  Shape out;
  std::vector<int64_t> strides;
  int64_t offset;
  slice_view(data.shape(), ranges, out, strides, offset);
  if (shape_size(out) == 0) return NDArray::empty(out, data.dtype());
  return strided_copy(data, out, strides, offset);
}

// strided_set(data, v, begin, end, strides): data with the slice replaced by v (broadcast to
// the slice's shape).
Value strided_set_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), v = call.tensor(1);
  if (v.dtype() != data.dtype()) fail(call, "`v` has dtype " + dtype_name(v.dtype()) + ", data " + dtype_name(data.dtype()));
  auto ranges = slice_ranges(call, data.shape(), int_values(call.tensor(2)), int_values(call.tensor(3)),
                             int_values(call.tensor(4)), {}, false);
  Shape slice;
  std::vector<int64_t> strides;
  int64_t offset;
  slice_view(data.shape(), ranges, slice, strides, offset);
  if (broadcast_shapes(v.shape(), slice, call.op.name) != slice)
    fail(call, "`v` of shape " + str(v.shape()) + " does not fit the slice of shape " + str(slice));
  NDArray out = data.copy();
  const std::vector<int64_t> st[2] = {strides, broadcast_strides(v.shape(), slice)};
  dispatch_width(data.dtype(), [&]<class W>(TypeTag<W>) {
    W* d = out.data<W>() + offset;
    const W* s = v.data<W>();
    for_each_strided(slice, st, [&](int64_t, const int64_t* o) { d[o[0]] = s[o[1]]; });
  });
  return out;
}

Value slice_like_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), like = call.tensor(1);
  std::vector<int64_t> axes = call.attrs.get_ints("axes");
  if (axes.empty())
    for (size_t i = 0; i < std::min(data.ndim(), like.ndim()); ++i) axes.push_back(static_cast<int64_t>(i));
  Shape out = data.shape();
  for (int64_t a : axes) {
    const int64_t ax = normalize_axis(a, data.ndim(), call.op.name);
    if (ax >= static_cast<int64_t>(like.ndim())) fail(call, "axis " + std::to_string(a) + " is past the rank of shape_like " + str(like.shape()));
    if (like.dim(ax) > data.dim(ax))
      fail(call, "shape_like " + str(like.shape()) + " is larger than data " + str(data.shape()) + " on axis " + std::to_string(ax));
    out[ax] = like.dim(ax);
  }
  return strided_copy(data, out, contiguous_strides(data.shape()));
}

// sliding_window: data[:axis] ++ window counts ++ window_shape; the windows span the dims
// from `axis` to the end.
Value sliding_window_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const size_t axis = static_cast<size_t>(axis_attr(call, "axis", data.ndim()));
  auto window = call.attrs.get_ints("window_shape"), strides = call.attrs.get_ints("strides");
  const size_t n = data.ndim() - axis;
  if (window.size() != n || strides.size() != n)
    fail(call, "`window_shape` and `strides` need " + std::to_string(n) + " entries for axis " + std::to_string(axis) +
                   " of data of shape " + str(data.shape()));
  const auto own = contiguous_strides(data.shape());
  Shape out(data.shape().begin(), data.shape().begin() + axis);
  std::vector<int64_t> st(own.begin(), own.begin() + axis);
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = data.dim(axis + i);
    if (window[i] <= 0 || strides[i] <= 0 || window[i] > d)
      fail(call, "window " + std::to_string(window[i]) + " with stride " + std::to_string(strides[i]) + " does not fit dim " + std::to_string(d));
    out.push_back((d - window[i]) / strides[i] + 1);
    st.push_back(own[axis + i] * strides[i]);
  }
  for (size_t i = 0; i < n; ++i) out.push_back(window[i]), st.push_back(own[axis + i]);
  return strided_copy(data, out, st);
}

// reverse_sequence: per batch b, the first seq_lengths[b] entries along seq_axis reversed
// (all of them when the length exceeds the axis; none when it is <= 1), as topi selects.
Value reverse_sequence_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const auto lengths = int_values(call.tensor(1));
  const size_t seq = static_cast<size_t>(axis_attr(call, "seq_axis", data.ndim()));
  const size_t batch = static_cast<size_t>(axis_attr(call, "batch_axis", data.ndim()));
  if (static_cast<int64_t>(lengths.size()) != data.dim(batch))
    fail(call, "seq_lengths has " + std::to_string(lengths.size()) + " entries but data of shape " + str(data.shape()) +
                   " has " + std::to_string(data.dim(batch)) + " along batch_axis");
  const auto own = contiguous_strides(data.shape());
  const int64_t dim = data.dim(seq);
  std::vector<int64_t> src(static_cast<size_t>(data.size()));
  std::vector<int64_t> idx(data.ndim(), 0);
  for (size_t i = 0; i < src.size(); ++i) {
    const int64_t len = lengths[idx[batch]], t = idx[seq];
    int64_t from = t;
    if (!(len <= 1 || len <= t)) from = len > dim ? dim - 1 - t : len - 1 - t;
    src[i] = static_cast<int64_t>(i) + (from - t) * own[seq];
    for (size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < data.dim(k)) break;
      idx[k] = 0;
    }
  }
  NDArray out = NDArray::empty(data.shape(), data.dtype());
  gather_elements(data, out, src);
  return out;
}

// sequence_mask: entries at or past valid_length[b] along the time axis become mask_value;
// axis 0 is (T, B, ...), axis 1 is (B, T, ...).
Value sequence_mask_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0), valid = call.tensor(1);
  const int64_t axis = call.attrs.get_int("axis", 0);
  if (axis != 0 && axis != 1) fail(call, "`axis` must be 0 or 1, found " + std::to_string(axis));
  if (data.ndim() < 2) fail(call, "data must have rank 2 or more, found shape " + str(data.shape()));
  const int64_t b_dim = data.dim(1 - axis);
  if (valid.size() != b_dim)
    fail(call, "valid_length of shape " + str(valid.shape()) + " does not match data of shape " + str(data.shape()));
  const double mask = call.attrs.get_double("mask_value", 0);
  NDArray out = data.copy();
  int64_t inner = 1;
  for (size_t d = 2; d < data.ndim(); ++d) inner *= data.dim(d);
  dispatch_dtype(data.dtype(), [&]<class T>(TypeTag<T>) {
    const T m = cast_to<T>(mask);
    T* d = out.data<T>();
    for (int64_t i = 0; i < data.dim(0); ++i)
      for (int64_t j = 0; j < data.dim(1); ++j) {
        const int64_t t = axis == 0 ? i : j, b = axis == 0 ? j : i;
        if (static_cast<double>(t) >= valid.get_double(b)) std::fill_n(d + (i * data.dim(1) + j) * inner, inner, m);
      }
  });
  return out;
}

// trilu(data, k): the upper (j - i >= k) or lower (j - i <= k) triangle of the last two dims.
Value trilu_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  NDArray kt = call.tensor(1);
  if (kt.size() != 1) fail(call, "`k` must be a scalar, found shape " + str(kt.shape()));
  if (data.ndim() < 2) fail(call, "data must have rank 2 or more, found shape " + str(data.shape()));
  const int64_t k = kt.get_int(0);
  const bool upper = call.attrs.get_bool("upper", true);
  const int64_t rows = data.dim(data.ndim() - 2), cols = data.dim(data.ndim() - 1);
  NDArray out = data.copy();
  dispatch_width(data.dtype(), [&]<class W>(TypeTag<W>) {
    W* d = out.data<W>();
    const int64_t mats = rows * cols != 0 ? data.size() / (rows * cols) : 0;
    for (int64_t m = 0; m < mats; ++m)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          const bool keep = upper ? j - i >= k : j - i <= k;
          if (!keep) d[(m * rows + i) * cols + j] = W{0};
        }
  });
  return out;
}

// matrix_set_diag: diagonals k1..k2 of the last two dims replaced from `diagonal`, laid out
// as TensorFlow's MatrixSetDiagV3 (one row per diagonal, k2 first; short diagonals aligned
// right or left by the *_right_align attributes).
Value matrix_set_diag_kernel(const KernelCall& call) {
  NDArray input = call.tensor(0), diag = call.tensor(1);
  if (input.ndim() < 2) fail(call, "input must have rank 2 or more, found shape " + str(input.shape()));
  if (diag.dtype() != input.dtype()) fail(call, "diagonal and input have different dtypes");
  const int64_t k1 = call.attrs.get_int("k1", 0), k2 = call.attrs.get_int("k2", 0);
  const bool super_right = call.attrs.get_bool("super_diag_right_align", true);
  const bool sub_right = call.attrs.get_bool("sub_diag_right_align", false);
  const size_t r = input.ndim();
  const int64_t m = input.dim(r - 2), n = input.dim(r - 1);
  if (k1 > k2 || (m > 0 && k1 <= -m) || (n > 0 && k2 >= n)) fail(call, "diagonals " + std::to_string(k1) + ".." + std::to_string(k2) + " do not fit a matrix of " + std::to_string(m) + " by " + std::to_string(n));
  const int64_t max_len = std::min(m + std::min<int64_t>(k2, 0), n - std::max<int64_t>(k1, 0));
  Shape expected(input.shape().begin(), input.shape().end() - 2);
  if (k1 != k2) expected.push_back(k2 - k1 + 1);
  expected.push_back(std::max<int64_t>(max_len, 0));
  if (diag.shape() != expected)
    fail(call, "`diagonal` must have shape " + str(expected) + ", found " + str(diag.shape()));
  NDArray out = input.copy();
  const int64_t mats = m * n != 0 ? input.size() / (m * n) : 0;
  const int64_t per_diag = std::max<int64_t>(max_len, 0), ndiag = k2 - k1 + 1;
  dispatch_width(input.dtype(), [&]<class W>(TypeTag<W>) {
    W* d = out.data<W>();
    const W* s = diag.data<W>();
    for (int64_t b = 0; b < mats; ++b)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          const int64_t k = j - i;
          if (k < k1 || k > k2) continue;
          const int64_t len = std::min(m + std::min<int64_t>(k, 0), n - std::max<int64_t>(k, 0));
          const bool right = k >= 0 ? super_right : sub_right;
          const int64_t pos = std::min(i, j) + (right ? per_diag - len : 0);
          d[(b * m + i) * n + j] = s[(b * ndiag + (k2 - k)) * per_diag + pos];
        }
  });
  return out;
}

}  // namespace

void register_transform_slice_kernels(KernelTable& t) {
  register_kernel(t, "strided_slice", strided_slice_kernel);
  register_kernel(t, "strided_set", strided_set_kernel);
  register_kernel(t, "slice_like", slice_like_kernel);
  register_kernel(t, "sliding_window", sliding_window_kernel);
  register_kernel(t, "reverse_sequence", reverse_sequence_kernel);
  register_kernel(t, "sequence_mask", sequence_mask_kernel);
  register_kernel(t, "trilu", trilu_kernel);
  register_kernel(t, "matrix_set_diag", matrix_set_diag_kernel);
}

}  // namespace relay::rt
