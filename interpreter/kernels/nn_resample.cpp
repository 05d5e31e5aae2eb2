// Spatial resampling and matching: nn.upsampling, nn.upsampling3d (TOPI lowers both to
// image.resize2d/3d) and nn.correlation (FlowNet's correlation layer).
#include <array>
#include <cmath>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// The input samples one output coordinate reads along one axis, with their weights.
struct Taps {
  int count = 1;
  std::array<int64_t, 4> index{};
  std::array<float, 4> weight{1, 0, 0, 0};
};

enum class Method { Nearest, Linear, Cubic };

// One axis of TOPI's resize: coordinates in float32 ("float" in TOPI), nearest rounds
// with `round` for align_corners and `floor(x + 1e-5)` otherwise; asymmetric nearest with
// an integral ratio uses integer division; every read index is clamped to the image.
std::vector<Taps> axis_taps(int64_t in, int64_t out, Method method, const std::string& coord) {
  std::vector<Taps> taps(static_cast<size_t>(out));
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  const bool int_div = method == Method::Nearest && coord == "asymmetric" && in > 0 && out % in == 0;
  auto clamp = [&](int64_t i) { return std::max<int64_t>(0, std::min<int64_t>(i, in - 1)); };
  for (int64_t o = 0; o < out; ++o) {
    Taps& t = taps[o];
    if (int_div) {
      t.index[0] = clamp(o / (out / in));
      continue;
    }
    const float x = static_cast<float>(o);
    float pos;
    if (coord == "half_pixel") pos = (x + 0.5f) * scale - 0.5f;
    else if (coord == "align_corners") pos = out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) * x : 0.0f;
    else pos = scale * x;
    if (method == Method::Nearest) {
      const float r = coord == "align_corners" ? std::round(pos) : std::floor(pos + 1e-5f);
      t.index[0] = clamp(static_cast<int64_t>(r));
      continue;
    }
    const float f = std::floor(pos);
    const int64_t base = static_cast<int64_t>(f);
    const float frac = pos - f;
    if (method == Method::Linear) {
      t.count = 2;
      t.index = {clamp(base), clamp(base + 1), 0, 0};
      t.weight = {1.0f - frac, frac, 0, 0};
      continue;
    }
    const float a = -0.5f, t2 = frac * frac, t3 = t2 * frac;
    t.count = 4;
    t.index = {clamp(base - 1), clamp(base), clamp(base + 1), clamp(base + 2)};
    t.weight = {a * (t3 - 2 * t2 + frac), (a + 2) * t3 - (3 + a) * t2 + 1, -(a + 2) * t3 + (3 + 2 * a) * t2 - a * frac,
                -a * t3 + a * t2};
  }
  return taps;
}

// Resamples the S spatial axes (positions `spatial` in the layout) to `out_sizes`.
NDArray resample(const KernelCall& call, const NDArray& x, const std::vector<size_t>& spatial,
                 const std::vector<int64_t>& out_sizes, Method method, const std::string& coord) {
  Shape out_shape = x.shape();
  std::vector<std::vector<Taps>> taps;
  for (size_t s = 0; s < spatial.size(); ++s) {
    require(call, x.dim(spatial[s]) > 0 || out_sizes[s] == 0, "cannot resample an empty spatial axis");
    out_shape[spatial[s]] = out_sizes[s];
  }
  // An empty result needs no taps: one axis may then be huge (a size from data,
  // dyn.nn.upsampling), and its tap table must not be built.
  if (shape_size(out_shape) == 0) return NDArray::empty(out_shape, x.dtype());
  for (size_t s = 0; s < spatial.size(); ++s) taps.push_back(axis_taps(x.dim(spatial[s]), out_sizes[s], method, coord));
  const std::vector<double> in = to_doubles(x);
  std::vector<double> out(static_cast<size_t>(shape_size(out_shape)));
  const auto is = contiguous_strides(x.shape());
  std::vector<int> axis_of(x.ndim(), -1);
  for (size_t s = 0; s < spatial.size(); ++s) axis_of[spatial[s]] = static_cast<int>(s);
  std::vector<int64_t> idx(x.ndim(), 0);
  const size_t S = spatial.size();
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t base = 0;
    std::array<const Taps*, 3> t{};
    for (size_t d = 0; d < idx.size(); ++d) {
      if (axis_of[d] >= 0) t[axis_of[d]] = &taps[axis_of[d]][idx[d]];
      else base += idx[d] * is[d];
    }
    float value = 0;
    std::array<int, 3> k{};
    for (;;) {
      float w = 1;
      int64_t at = base;
      for (size_t s = 0; s < S; ++s) {
        w *= t[s]->weight[k[s]];
        at += t[s]->index[k[s]] * is[spatial[s]];
      }
      value += w * static_cast<float>(in[at]);
      size_t s = S;
      while (s-- > 0) {
        if (++k[s] < t[s]->count) break;
        k[s] = 0;
      }
      if (s == static_cast<size_t>(-1)) break;
    }
    out[i] = value;
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return from_doubles(out_shape, x.dtype(), out);
}

// round(d * scale) with the scale as float32 and halves to even, as the type relation.
int64_t scaled_size(int64_t d, double scale) {
  const double n = std::nearbyint(static_cast<double>(d) * static_cast<double>(static_cast<float>(scale)));
  // A scale from data (dyn.nn.upsampling) may be NaN, infinite or huge: converting such a
  // value to int64 is undefined, so it is refused first.
  if (!(n >= 0 && n < 9.0e18))
    throw RuntimeError("scale " + std::to_string(scale) + " gives no valid size for a dimension of " + std::to_string(d));
  return static_cast<int64_t>(n);
}

std::vector<size_t> spatial_positions(const KernelCall& call, const NDArray& x, const std::string& letters) {
  const std::string layout = call.attrs.get_string("layout");
  const std::string channels_first = "NC" + letters, channels_last = "N" + letters + "C";
  require(call, layout == channels_first || layout == channels_last,
          "unsupported layout \"" + layout + "\" (" + channels_first + " or " + channels_last + ")");
  require(call, x.ndim() == layout.size(), "data shape " + shape_to_string(x.shape()) + " does not match layout " + layout);
  std::vector<size_t> pos;
  for (char c : letters) pos.push_back(layout.find(c));
  return pos;
}

Value upsampling(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const auto pos = spatial_positions(call, x, "HW");
  const std::string m = call.attrs.get_string("method");
  Method method = Method::Nearest;
  if (m == "bilinear") method = Method::Linear;
  else if (m == "bicubic") method = Method::Cubic;
  else require(call, m == "nearest_neighbor", "unknown method \"" + m + "\" (nearest_neighbor, bilinear, bicubic)");
  const std::vector<int64_t> sizes{scaled_size(x.dim(pos[0]), call.attrs.get_double("scale_h")),
                                   scaled_size(x.dim(pos[1]), call.attrs.get_double("scale_w"))};
  return resample(call, x, pos, sizes, method, call.attrs.get_bool("align_corners") ? "align_corners" : "asymmetric");
}

Value upsampling3d(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const auto pos = spatial_positions(call, x, "DHW");
  const std::string m = call.attrs.get_string("method");
  require(call, m == "nearest_neighbor" || m == "trilinear", "unknown method \"" + m + "\" (nearest_neighbor, trilinear)");
  const std::string coord = call.attrs.get_string("coordinate_transformation_mode");
  require(call, coord == "half_pixel" || coord == "align_corners" || coord == "asymmetric",
          "unsupported coordinate_transformation_mode \"" + coord + "\"");
  const std::vector<int64_t> sizes{scaled_size(x.dim(pos[0]), call.attrs.get_double("scale_d")),
                                   scaled_size(x.dim(pos[1]), call.attrs.get_double("scale_h")),
                                   scaled_size(x.dim(pos[2]), call.attrs.get_double("scale_w"))};
  return resample(call, x, pos, sizes, m == "trilinear" ? Method::Linear : Method::Nearest, coord);
}

// out[n, q, i, j] = sum over channels and a k x k patch of f(d1(y1, x1), d2(y2, x2)) /
// (k * k * C), f = product or |difference|; (y1, x1) = (i, j) * stride1 + max_displacement
// in the zero-padded data1, (y2, x2) displaced by the q-th grid offset times stride2.
Value correlation(const KernelCall& call) {
  NDArray a = call.tensor(0), b = call.tensor(1);
  require(call, a.ndim() == 4 && a.shape() == b.shape(),
          "inputs must be 4-D (NCHW) of equal shapes, found " + shape_to_string(a.shape()) + " and " +
              shape_to_string(b.shape()));
  require(call, call.attrs.get_string("layout") == "NCHW", "supports only layout \"NCHW\"");
  const int64_t k = call.attrs.get_int("kernel_size", 1), maxd = call.attrs.get_int("max_displacement", 1),
                s1 = call.attrs.get_int("stride1", 1), s2 = call.attrs.get_int("stride2", 1);
  require(call, k > 0 && s1 > 0 && s2 > 0 && maxd >= 0, "kernel_size and strides must be positive");
  auto pads = call.attrs.get_ints("padding");
  int64_t pt, pl, pb, pr;
  if (pads.size() == 1) pt = pb = pl = pr = pads[0];
  else if (pads.size() == 2) pt = pb = pads[0], pl = pr = pads[1];
  else if (pads.size() == 4) pt = pads[0], pl = pads[1], pb = pads[2], pr = pads[3];
  else throw RuntimeError("`nn.correlation`: padding needs 1, 2 or 4 values");
  const bool multiply = call.attrs.get_bool("is_multiply", true);
  const int64_t N = a.dim(0), C = a.dim(1), H = a.dim(2), W = a.dim(3);
  const int64_t border = maxd + (k - 1) / 2, radius = maxd / s2, grid = 2 * radius + 1;
  auto positions = [&](int64_t padded) {
    const int64_t span = padded - 2 * border;
    return span <= 0 ? 0 : (span + s1 - 1) / s1;
  };
  const int64_t OH = positions(H + pt + pb), OW = positions(W + pl + pr);
  const std::vector<double> d1 = to_doubles(a), d2 = to_doubles(b);
  std::vector<double> out(static_cast<size_t>(N * grid * grid * OH * OW));
  auto at = [&](const std::vector<double>& d, int64_t n, int64_t c, int64_t y, int64_t x) {
    y -= pt, x -= pl;  // padded -> data coordinates; outside is the zero padding
    return y < 0 || y >= H || x < 0 || x >= W ? 0.0 : d[static_cast<size_t>(((n * C + c) * H + y) * W + x)];
  };
  const double norm = static_cast<double>(k * k * C);
  size_t o = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t q = 0; q < grid * grid; ++q)
      for (int64_t i = 0; i < OH; ++i)
        for (int64_t j = 0; j < OW; ++j, ++o) {
          const int64_t y1 = i * s1 + maxd, x1 = j * s1 + maxd;
          const int64_t y2 = y1 + (q / grid - radius) * s2, x2 = x1 + (q % grid - radius) * s2;
          double s = 0;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t ry = 0; ry < k; ++ry)
              for (int64_t rx = 0; rx < k; ++rx) {
                const double u = at(d1, n, c, y1 + ry, x1 + rx), v = at(d2, n, c, y2 + ry, x2 + rx);
                s += multiply ? u * v : std::fabs(u - v);
              }
          out[o] = s / norm;
        }
  return from_doubles({N, grid * grid, OH, OW}, a.dtype(), out);
}

}  // namespace

void register_nn_resample_kernels(KernelTable& table) {
  register_kernel(table, "nn.upsampling", upsampling);
  register_kernel(table, "nn.upsampling3d", upsampling3d);
  register_kernel(table, "nn.correlation", correlation);
}

}  // namespace relay::rt
