// image.grid_sample, image.affine_grid and image.dilation2d as TOPI 0.14 computes them
// (python/tvm/topi/image/grid_sample.py, dilation2d.py), in the data's float dtype.
#include <cmath>
#include <limits>

#include "interpreter/kernels/image_internal.h"
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// affine_grid: out[n, d, i, j] = theta[n, d, 0] * x + theta[n, d, 1] * y + theta[n, d, 2],
// x = -1 + j * (2 - 1e-7) / (W - 1), y likewise (TOPI asserts both extents exceed 1).
template <class T>
Value affine_grid_t(const KernelCall& call, const NDArray& theta) {
  const std::vector<int64_t> target = call.attrs.get_ints("target_shape");
  require(call, target.size() == 2 && target[0] > 1 && target[1] > 1, "target_shape needs 2 values greater than 1");
  require(call, theta.ndim() == 3 && theta.dim(1) == 2 && theta.dim(2) == 3,
          "data must have shape (N, 2, 3), found " + shape_to_string(theta.shape()));
  const int64_t N = theta.dim(0), H = target[0], W = target[1];
  const T ystep = static_cast<T>((2.0 - 1e-07) / static_cast<double>(H - 1));
  const T xstep = static_cast<T>((2.0 - 1e-07) / static_cast<double>(W - 1));
  NDArray out = NDArray::empty({N, 2, H, W}, theta.dtype());
  const T* t = theta.data<T>();
  T* o = out.data<T>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t d = 0; d < 2; ++d) {
      const T* row = t + (n * 2 + d) * 3;
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) {
          const T y = T(-1) + static_cast<T>(i) * ystep, x = T(-1) + static_cast<T>(j) * xstep;
          *o++ = row[0] * x + row[1] * y + row[2];
        }
    }
  return Value(out);
}

// TOPI's _reflect_coordinates: coordinates outside [corner, size + corner] fold back
// (corner 0 and span size - 1 with align_corners, else -0.5 and size).
template <class T>
T reflect(T x, int64_t size, bool align) {
  const T corner = align ? T(0) : T(-0.5);
  const int64_t span = align ? size - 1 : size;
  if (x >= corner && x <= static_cast<T>(span) + corner) return x;
  const T dist = std::abs(corner - x);
  const int64_t times = span == 0 ? 0 : static_cast<int64_t>(dist) / span;
  const T extra = dist - static_cast<T>(times * span);
  return times % 2 == 0 ? extra + corner : static_cast<T>(span) - extra + corner;
}

template <class T>
T clip_coord(T x, int64_t size) {
  return std::min(std::max(x, T(0)), static_cast<T>(size - 1));
}

struct GridSpec {
  std::string method, padding;
  bool align = true;
};

// grid value g in [-1, 1] to a pixel coordinate, then padding_mode's fold or clamp.
template <class T>
T source_coord(T g, int64_t size, const GridSpec& s, bool apply_padding = true) {
  T v = s.align ? (g + T(1)) * static_cast<T>(size - 1) / T(2) : T(-0.5) + (g + T(1)) * static_cast<T>(size) / T(2);
  if (!apply_padding) return v;
  if (s.padding == "reflection") v = clip_coord(reflect(v, size, s.align), size);
  else if (s.padding == "border") v = clip_coord(v, size);
  return v;
}

template <class T>
T cubic1(T t) {
  const T A = T(-0.75);
  return ((A + 2) * t - (A + 3)) * t * t + 1;
}
template <class T>
T cubic2(T t) {
  const T A = T(-0.75);
  return ((A * t - 5 * A) * t + 8 * A) * t - 4 * A;
}
template <class T>
T cubic_interp(T p0, T p1, T p2, T p3, T f) {
  return p0 * cubic2(f + 1) + p1 * cubic1(f) + p2 * cubic1(1 - f) + p3 * cubic2(2 - f);
}

// grid_sample: NCHW data with a (N, 2, H', W') grid of (x, y) in [-1, 1] (bilinear,
// nearest with nearbyint, bicubic A = -0.75), or NCDHW with a (N, 3, D', H', W') grid
// (bilinear = trilinear, nearest). Pixels outside the image read 0.
template <class T>
Value grid_sample_t(const KernelCall& call, const NDArray& data, const NDArray& grid) {
  GridSpec s{call.attrs.get_string("method"), call.attrs.get_string("padding_mode"), call.attrs.get_bool("align_corners", true)};
  const std::string layout = call.attrs.get_string("layout");
  const bool three = layout == "NCDHW";
  require(call, layout == "NCHW" || three, "unsupported layout \"" + layout + "\" (NCHW or NCDHW)");
  require(call, s.padding == "zeros" || s.padding == "border" || s.padding == "reflection",
          "unknown padding_mode \"" + s.padding + "\" (zeros, border, reflection)");
  require(call, s.method == "bilinear" || s.method == "nearest" || (!three && s.method == "bicubic"),
          "unknown method \"" + s.method + "\" (bilinear, nearest" + (three ? "" : ", bicubic") + ")");
  const size_t rank = three ? 5 : 4;
  require(call, data.ndim() == rank && grid.ndim() == rank && grid.dim(0) == data.dim(0) && grid.dim(1) == (three ? 3 : 2),
          "data " + shape_to_string(data.shape()) + " and grid " + shape_to_string(grid.shape()) + " do not fit layout " + layout);
  const int64_t N = data.dim(0), C = data.dim(1);
  const int64_t D = three ? data.dim(2) : 1, H = data.dim(rank - 2), W = data.dim(rank - 1);
  const int64_t OD = three ? grid.dim(2) : 1, OH = grid.dim(rank - 2), OW = grid.dim(rank - 1);
  Shape out_shape = three ? Shape{N, C, OD, OH, OW} : Shape{N, C, OH, OW};
  NDArray out = NDArray::empty(out_shape, data.dtype());
  const T* in = data.data<T>();
  const T* g = grid.data<T>();
  T* o = out.data<T>();
  const int64_t plane = OD * OH * OW;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      const T* img = in + (n * C + c) * D * H * W;
      auto px = [&](int64_t z, int64_t y, int64_t x) -> T {
        return z >= 0 && y >= 0 && x >= 0 && z < D && y < H && x < W ? img[(z * H + y) * W + x] : T(0);
      };
      for (int64_t p = 0; p < plane; ++p) {
        const T gx = g[(n * (three ? 3 : 2) + 0) * plane + p], gy = g[(n * (three ? 3 : 2) + 1) * plane + p];
        const T gz = three ? g[(n * 3 + 2) * plane + p] : T(0);
        T v;
        if (s.method == "nearest") {
          const T x = source_coord(gx, W, s), y = source_coord(gy, H, s);
          const int64_t z = three ? static_cast<int64_t>(std::nearbyint(source_coord(gz, D, s))) : 0;
          v = px(z, static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)));
        } else if (s.method == "bicubic") {
          const T x = source_coord(gx, W, s, false), y = source_coord(gy, H, s, false);
          const T fy = std::floor(y), fx = std::floor(x);
          const int64_t y0 = static_cast<int64_t>(fy), x0 = static_cast<int64_t>(fx);
          // each tap index is folded/clamped as TOPI does for the padding mode
          auto tap = [&](int64_t i, int64_t size) -> int64_t {
            if (s.padding == "zeros") return i;
            T t = static_cast<T>(i);
            if (s.padding == "reflection") t = reflect(t, size, s.align);
            return static_cast<int64_t>(clip_coord(t, size));
          };
          T rows[4];
          for (int i = 0; i < 4; ++i) {
            const int64_t yy = tap(y0 - 1 + i, H);
            rows[i] = cubic_interp(px(0, yy, tap(x0 - 1, W)), px(0, yy, tap(x0, W)), px(0, yy, tap(x0 + 1, W)),
                                   px(0, yy, tap(x0 + 2, W)), x - fx);
          }
          v = cubic_interp(rows[0], rows[1], rows[2], rows[3], y - fy);
        } else if (!three) {
          const T x = source_coord(gx, W, s), y = source_coord(gy, H, s);
          const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
          const T dy = y - static_cast<T>(y0), dx = x - static_cast<T>(x0);
          v = px(0, y0, x0) * (T(1) - dy) * (T(1) - dx) + px(0, y0, x0 + 1) * (T(1) - dy) * dx +
              px(0, y0 + 1, x0) * dy * (T(1) - dx) + px(0, y0 + 1, x0 + 1) * dy * dx;
        } else {
          const T x = source_coord(gx, W, s), y = source_coord(gy, H, s), z = source_coord(gz, D, s);
          const int64_t z0 = static_cast<int64_t>(std::floor(z)), y0 = static_cast<int64_t>(std::floor(y)),
                        x0 = static_cast<int64_t>(std::floor(x));
          const T dz = z - static_cast<T>(z0), dy = y - static_cast<T>(y0), dx = x - static_cast<T>(x0);
          const T ex = T(1) - dx, ey = T(1) - dy, ez = T(1) - dz;
          // TOPI's order of the eight corners
          v = px(z0, y0, x0) * ex * ey * ez + px(z0, y0, x0 + 1) * dx * ey * ez + px(z0 + 1, y0 + 1, x0) * ex * dy * dz +
              px(z0 + 1, y0 + 1, x0 + 1) * dx * dy * dz + px(z0, y0 + 1, x0) * ex * dy * ez +
              px(z0 + 1, y0, x0 + 1) * dx * ey * dz + px(z0 + 1, y0, x0) * ex * ey * dz + px(z0, y0 + 1, x0 + 1) * dx * dy * ez;
        }
        o[(n * C + c) * plane + p] = v;
      }
    }
  return Value(out);
}

// dilation2d: out[n, c, y, x] = max over (ry, rx) of padded[n, c, y*sh + ry*dh, x*sw + rx*dw]
// + weight[c, ry, rx], with zero padding (TOPI pads with 0) placed by get_pad_tuple.
Value dilation2d(const KernelCall& call) {
  const NDArray data = call.tensor(0), weight = call.tensor(1);
  const std::string dl = call.attrs.get_string("data_layout"), kl = call.attrs.get_string("kernel_layout");
  require(call, (dl == "NCHW" && kl == "IHW") || (dl == "NHWC" && kl == "HWI"),
          "supports data_layout NCHW with kernel_layout IHW, or NHWC with HWI (TOPI's two computes)");
  require(call, data.ndim() == 4 && weight.ndim() == 3, "data must be 4-D and weight 3-D");
  const bool nhwc = dl == "NHWC";
  const int64_t N = data.dim(0), C = data.dim(nhwc ? 3 : 1), H = data.dim(nhwc ? 1 : 2), W = data.dim(nhwc ? 2 : 3);
  const int64_t KC = weight.dim(nhwc ? 2 : 0), KH = weight.dim(nhwc ? 0 : 1), KW = weight.dim(nhwc ? 1 : 2);
  require(call, KC == C, "weight has " + std::to_string(KC) + " channels, data " + std::to_string(C));
  const auto st = call.attrs.get_ints("strides"), dil = call.attrs.get_ints("dilations"), pad = call.attrs.get_ints("padding");
  require(call, st.size() == 2 && dil.size() == 2 && st[0] > 0 && st[1] > 0 && dil[0] > 0 && dil[1] > 0,
          "strides and dilations need 2 positive values");
  int64_t pt, pl, pd, pr;
  if (pad.size() == 4) pt = pad[0], pl = pad[1], pd = pad[2], pr = pad[3];
  else if (pad.size() == 2) pt = pd = pad[0], pl = pr = pad[1];
  else if (pad.size() == 1) pt = pd = pl = pr = pad[0];
  else throw RuntimeError("`image.dilation2d`: padding needs 1, 2 or 4 values");
  const int64_t kh = (KH - 1) * dil[0] + 1, kw = (KW - 1) * dil[1] + 1;
  const int64_t OH = (H - kh + pt + pd) / st[0] + 1, OW = (W - kw + pl + pr) / st[1] + 1;
  require(call, OH >= 0 && OW >= 0, "the dilated window is larger than the padded image");
  const DataType out_dtype = attr_out_dtype(call, data.dtype());
  const std::vector<double> in = to_doubles(data), w = to_doubles(weight);
  const Shape shape = nhwc ? Shape{N, OH, OW, C} : Shape{N, C, OH, OW};
  std::vector<double> out(static_cast<size_t>(shape_size(shape)));
  auto at = [&](int64_t n, int64_t c, int64_t y, int64_t x) {
    if (y < 0 || x < 0 || y >= H || x >= W) return 0.0;
    return in[static_cast<size_t>(nhwc ? ((n * H + y) * W + x) * C + c : ((n * C + c) * H + y) * W + x)];
  };
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t y = 0; y < OH; ++y)
        for (int64_t x = 0; x < OW; ++x) {
          double m = -std::numeric_limits<double>::infinity();
          for (int64_t ry = 0; ry < KH; ++ry)
            for (int64_t rx = 0; rx < KW; ++rx) {
              const double wv = w[static_cast<size_t>(nhwc ? (ry * KW + rx) * C + c : (c * KH + ry) * KW + rx)];
              m = std::max(m, at(n, c, y * st[0] + ry * dil[0] - pt, x * st[1] + rx * dil[1] - pl) + wv);
            }
          out[static_cast<size_t>(nhwc ? ((n * OH + y) * OW + x) * C + c : ((n * C + c) * OH + y) * OW + x)] = m;
        }
  return Value(from_doubles(shape, out_dtype, out));
}

}  // namespace

void register_image_sampling_kernels(KernelTable& table) {
  register_kernel(table, "image.affine_grid", [](const KernelCall& call) {
    const NDArray theta = call.tensor(0);
    return with_float(call, theta.dtype(), [&](auto tag) { return affine_grid_t<decltype(tag)>(call, theta); });
  });
  register_kernel(table, "image.grid_sample", [](const KernelCall& call) {
    const NDArray data = call.tensor(0), grid = call.tensor(1);
    require(call, grid.dtype() == data.dtype(), "grid must have data's dtype");
    return with_float(call, data.dtype(), [&](auto tag) { return grid_sample_t<decltype(tag)>(call, data, grid); });
  });
  register_kernel(table, "image.dilation2d", dilation2d);
}

}  // namespace relay::rt
