// Winograd weight transforms and the convolutions that take their output (reference §3.7).
//
// TVM builds F(m, r) from Cook-Toom interpolation points (topi/nn/winograd_util.py, after
// Barabasz et al.): with the alpha-1 = m+r-2 points a_i and f_i = prod_{k != i} (a_i - a_k)
// (f_0 made positive), G is the alpha x r matrix with rows a_i^j / f_i and a last row
// (0, ..., 0, 1). The weight transform is U = G g G^T over each transformed kernel axis.
// The *_without_weight_transform kernels read the kernel back from U with G's left inverse
// (G has full column rank) and convolve: for any U that is a transformed weight this equals
// TVM's Winograd result, up to rounding.
#include <algorithm>
#include <cmath>

#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {
namespace {

using namespace convpool;

// Interpolation points per degree (number of points = degree), from TVM's table.
std::vector<double> interpolation_points(int64_t degree) {
  static const std::vector<std::vector<double>> table = {
      {0, -1, 1},
      {0, -1, 1, 1. / 2},
      {0, -1, 1, 1. / 2, -2},
      {0, -1, 1, 1. / 2, -2, -1. / 2},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 3. / 4, -4. / 3},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 3. / 4, -4. / 3},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 3. / 4, -4. / 3, 1. / 4},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 1. / 4, -3. / 4, 4. / 3, -4},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 1. / 4, -3. / 4, 4. / 3, 3. / 4, -4. / 3},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 1. / 4, -3. / 4, 4. / 3, -4, 3. / 4, -4. / 3},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 1. / 4, -3. / 4, 4. / 3, -4, 2. / 3, -3. / 2, 3. / 2},
      {0, -1, 1, 1. / 2, -1. / 2, 2, -2, -1. / 4, 4, 1. / 4, -3. / 4, 4. / 3, -4, 2. / 3, -3. / 2, -2. / 3,
       3. / 2},
  };
  return table[static_cast<size_t>(degree - 3)];
}

// G (alpha x r, row-major) for F(tile, r); RuntimeError outside TVM's supported sizes.
std::vector<double> winograd_g(const KernelCall& call, int64_t tile, int64_t r) {
  if (tile <= 1 || tile >= 9) fail(call, "unsupported Winograd tile_size " + std::to_string(tile) + " (TVM supports 2..8)");
  if (r <= 2 || r >= 8) fail(call, "unsupported Winograd kernel size " + std::to_string(r) + " (TVM supports 3..7)");
  const int64_t alpha = tile + r - 1;
  std::vector<double> a = interpolation_points(alpha - 1), G(static_cast<size_t>(alpha * r), 0.0);
  for (int64_t i = 0; i + 1 < alpha; ++i) {
    double f = 1;
    for (int64_t k = 0; k + 1 < alpha; ++k)
      if (k != i) f *= a[i] - a[k];
    if (i == 0 && f < 0) f = -f;
    for (int64_t j = 0; j < r; ++j) G[i * r + j] = std::pow(a[i], double(j)) / f;
  }
  G[(alpha - 1) * r + r - 1] = 1;
  return G;
}

// (G^T G)^-1 G^T (r x alpha), by Gauss-Jordan on the small r x r normal matrix.
std::vector<double> left_inverse(const std::vector<double>& G, int64_t alpha, int64_t r) {
  std::vector<double> M(static_cast<size_t>(r * 2 * r), 0.0);
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < r; ++j)
      for (int64_t e = 0; e < alpha; ++e) M[i * 2 * r + j] += G[e * r + i] * G[e * r + j];
    M[i * 2 * r + r + i] = 1;
  }
  for (int64_t c = 0; c < r; ++c) {
    int64_t piv = c;
    for (int64_t i = c + 1; i < r; ++i)
      if (std::fabs(M[i * 2 * r + c]) > std::fabs(M[piv * 2 * r + c])) piv = i;
    for (int64_t j = 0; j < 2 * r; ++j) std::swap(M[c * 2 * r + j], M[piv * 2 * r + j]);
    double d = M[c * 2 * r + c];
    for (int64_t j = 0; j < 2 * r; ++j) M[c * 2 * r + j] /= d;
    for (int64_t i = 0; i < r; ++i)
      if (i != c) {
        double f = M[i * 2 * r + c];
        for (int64_t j = 0; j < 2 * r; ++j) M[i * 2 * r + j] -= f * M[c * 2 * r + j];
      }
  }
  std::vector<double> P(static_cast<size_t>(r * alpha), 0.0);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t e = 0; e < alpha; ++e)
      for (int64_t j = 0; j < r; ++j) P[i * alpha + e] += M[i * 2 * r + r + j] * G[e * r + j];
  return P;
}

// Applies matrix T (rows x cols) along axis `axis` of a row-major array of shape `shape`.
std::vector<double> apply_axis(const std::vector<double>& x, Shape& shape, size_t axis,
                               const std::vector<double>& T, int64_t rows, int64_t cols) {
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  std::vector<double> y(static_cast<size_t>(outer * rows * inner), 0.0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        double t = T[i * cols + j];
        if (t == 0) continue;
        const double* src = x.data() + (o * cols + j) * inner;
        double* dst = y.data() + (o * rows + i) * inner;
        for (int64_t q = 0; q < inner; ++q) dst[q] += t * src[q];
      }
  shape[axis] = rows;
  return y;
}

// Moves axis `from` of a row-major array to position `to`.
std::vector<double> move_axis(const std::vector<double>& x, Shape& shape, size_t from, size_t to) {
  Shape out = shape;
  int64_t d = out[from];
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(from));
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(to), d);
  std::vector<size_t> perm(shape.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  perm.erase(perm.begin() + static_cast<std::ptrdiff_t>(from));
  perm.insert(perm.begin() + static_cast<std::ptrdiff_t>(to), from);
  auto src_str = contiguous_strides(shape);
  std::vector<int64_t> s(shape.size());
  for (size_t i = 0; i < perm.size(); ++i) s[i] = src_str[perm[i]];
  std::vector<double> y(x.size());
  const std::vector<int64_t> strides[1] = {s};
  for_each_strided(out, strides, [&](int64_t i, const int64_t* off) { y[i] = x[off[0]]; });
  shape = out;
  return y;
}

// (O, I, k...) -> U: the axes in `t_axes` (always the trailing spatial ones) become alpha
// long; the result is (transformed..., untransformed..., O, I) as TVM lays it out.
NDArray weight_transform(const KernelCall& call, const NDArray& w, size_t rank, const std::vector<size_t>& t_axes,
                         int64_t tile, DataType out_dtype) {
  int64_t r = w.dim(2 + t_axes[0]);
  for (size_t a : t_axes)
    if (w.dim(2 + a) != r) fail(call, "the transformed kernel axes must be equal, but the weight is " + shape_to_string(w.shape()));
  std::vector<double> G = winograd_g(call, tile, r);
  const int64_t alpha = tile + r - 1;
  Shape shape = w.shape();
  std::vector<double> x = load<double>(w, DataType::float_(64));
  for (size_t a : t_axes) x = apply_axis(x, shape, 2 + a, G, alpha, r);
  // (O, I, s...) -> (s..., O, I); a 3-D weight whose depth stays untransformed puts depth
  // after H and W, as TVM's (alpha, alpha, kd, O, I).
  x = move_axis(x, shape, 0, shape.size() - 1);
  x = move_axis(x, shape, 0, shape.size() - 1);
  if (t_axes.size() < rank) x = move_axis(x, shape, 0, rank - 1);
  return store<double>(x, shape, out_dtype);
}

Value winograd_weight_transform_2d(const KernelCall& call) {
  NDArray w = call.tensor(0);
  if (w.ndim() != 4) fail(call, "expects a 4-D OIHW weight, but it has shape " + shape_to_string(w.shape()));
  return weight_transform(call, w, 2, {0, 1}, call.attrs.get_int("tile_size"), w.dtype());
}

std::vector<size_t> depth_choice_3d(int64_t kd) {
  if (kd > 2 && kd < 8) return {0, 1, 2};
  return {1, 2};
}

Value winograd_weight_transform_3d(const KernelCall& call) {
  NDArray w = call.tensor(0);
  if (w.ndim() != 5) fail(call, "expects a 5-D OIDHW weight, but it has shape " + shape_to_string(w.shape()));
  return weight_transform(call, w, 3, depth_choice_3d(w.dim(2)), call.attrs.get_int("tile_size"), w.dtype());
}

// NNPACK's F(6x6, 3x3) kernel transform into 8x8 tiles, (O, I, 8, 8); TVM calls into NNPACK
// here, whose transform is G g G^T with the F(6, 3) matrix on the points 0, +-1, +-2, +-1/2.
Value winograd_nnpack_weight_transform(const KernelCall& call) {
  NDArray w = call.tensor(0);
  if (w.ndim() != 4 || w.dim(2) != 3 || w.dim(3) != 3)
    fail(call, "supports only a 4-D OIHW weight with a 3x3 kernel, but it has shape " + shape_to_string(w.shape()));
  static const double G[8][3] = {{1, 0, 0},
                                 {-2. / 9, -2. / 9, -2. / 9},
                                 {-2. / 9, 2. / 9, -2. / 9},
                                 {1. / 90, 1. / 45, 2. / 45},
                                 {1. / 90, -1. / 45, 2. / 45},
                                 {32. / 45, 16. / 45, 8. / 45},
                                 {32. / 45, -16. / 45, 8. / 45},
                                 {0, 0, 1}};
  std::vector<double> g(&G[0][0], &G[0][0] + 24);
  Shape shape = w.shape();
  std::vector<double> x = load<double>(w, DataType::float_(64));
  x = apply_axis(x, shape, 2, g, 8, 3);
  x = apply_axis(x, shape, 3, g, 8, 3);
  return store<double>(x, shape, call.attrs.get_dtype("out_dtype").value_or(w.dtype()));
}

// The kernel read back from U (alpha.., untransformed.., O, I) -> (O, I, spatial...).
NDArray untransform(const KernelCall& call, const NDArray& u, size_t rank, const std::vector<size_t>& t_axes,
                    const std::vector<int64_t>& ks, int64_t tile) {
  std::vector<size_t> order(t_axes.begin(), t_axes.end());
  for (size_t a = 0; a < rank; ++a)
    if (std::find(t_axes.begin(), t_axes.end(), a) == t_axes.end()) order.push_back(a);
  const int64_t r = ks[t_axes[0]], alpha = tile + r - 1;
  if (u.ndim() != rank + 2) fail(call, "the transformed weight must have rank " + std::to_string(rank + 2));
  for (size_t i = 0; i < rank; ++i) {
    bool t = i < t_axes.size();
    int64_t want = t ? alpha : ks[order[i]];
    if (u.dim(i) != want)
      fail(call, "the transformed weight " + shape_to_string(u.shape()) + " does not fit tile_size " +
                     std::to_string(tile) + " and kernel_size");
  }
  std::vector<double> P = left_inverse(winograd_g(call, tile, r), alpha, r);
  Shape shape = u.shape();
  std::vector<double> x = load<double>(u, DataType::float_(64));
  for (size_t i = 0; i < t_axes.size(); ++i) x = apply_axis(x, shape, i, P, r, alpha);
  // (order..., O, I) -> (O, I, order...) -> (O, I, spatial...) in natural order.
  x = move_axis(x, shape, rank + 1, 0);
  x = move_axis(x, shape, rank + 1, 0);
  if (t_axes.size() < rank) x = move_axis(x, shape, rank + 1, 2);
  return store<double>(x, shape, u.dtype());
}

Value winograd_conv(const KernelCall& call, size_t rank) {
  NDArray data = call.tensor(0), u = call.tensor(1);
  std::string letters = spatial_letters(rank);
  std::string data_text = call.attrs.get_string("data_layout"), out_text = call.attrs.get_string("out_layout");
  Layout dl = parse_layout(call, data_text, "data_layout");
  Layout ol = parse_layout(call, out_text.empty() ? data_text : out_text, "out_layout");
  NDArray x = relayout(call, data, dl, *Layout::parse("NC" + letters), "data");
  std::vector<int64_t> ks = per_axis(call, "kernel_size", rank);
  const int64_t tile = call.attrs.get_int("tile_size");
  std::vector<size_t> t_axes = rank == 2 ? std::vector<size_t>{0, 1} : depth_choice_3d(ks[0]);
  // A 3-D weight whose depth axis was left as is (shape (alpha, alpha, kd, O, I)).
  if (rank == 3 && t_axes.size() == 3 && u.ndim() == 5 && u.dim(2) == ks[0] && u.dim(0) != u.dim(2))
    t_axes = {1, 2};
  NDArray w = untransform(call, u, rank, t_axes, ks, tile);
  if (!call.attrs.is_none("channels") && call.attrs.get_int("channels") != w.dim(0))
    fail(call, "`channels` is " + std::to_string(call.attrs.get_int("channels")) +
                   ", but the transformed weight has " + std::to_string(w.dim(0)) + " output channels");
  const int64_t groups = call.attrs.get_int("groups", 1);
  std::vector<int64_t> before, after;
  read_padding(call, rank, before, after);
  return conv_canonical(call, x, w, groups, rank, per_axis(call, "strides", rank), per_axis(call, "dilation", rank),
                        before, after, call.attrs.get_dtype("out_dtype").value_or(data.dtype()), ol);
}

}  // namespace

void register_conv_winograd_kernels(KernelTable& table) {
  register_kernel(table, "nn.contrib_conv2d_winograd_weight_transform", winograd_weight_transform_2d);
  register_kernel(table, "nn.contrib_conv3d_winograd_weight_transform", winograd_weight_transform_3d);
  register_kernel(table, "nn.contrib_conv2d_winograd_nnpack_weight_transform", winograd_nnpack_weight_transform);
  // Destination-passing: winograd_conv ends in conv_canonical, which stores into it.
  register_destination_kernel(table, "nn.contrib_conv2d_winograd_without_weight_transform",
                              [](const KernelCall& c) { return winograd_conv(c, 2); });
  register_kernel(table, "nn.contrib_conv3d_winograd_without_weight_transform",
                  [](const KernelCall& c) { return winograd_conv(c, 3); });
}

}  // namespace relay::rt
