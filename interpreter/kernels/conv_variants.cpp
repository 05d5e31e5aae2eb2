// Convolutions with a twist (reference §3.7): nn.deformable_conv2d (bilinear sampling at
// learned offsets), nn.bitserial_conv2d (bit-plane products of quantised values) and the
// GEMM-tiled weight of nn.contrib_conv2d_gemm_{weight_transform,without_weight_transform}.
#include <cmath>
#include <cstring>

#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {
namespace {

using namespace convpool;

std::string out_layout_text(const KernelCall& call, const std::string& fallback) {
  std::string t = call.attrs.get_string("out_layout");
  return t.empty() ? fallback : t;
}

// nn.deformable_conv2d(data, offset, weight), TOPI's deformable_conv2d_nchw: tap (ky, kx) of
// output (y, x) samples data bilinearly at (y*sh - pad_top + ky*dh + dy, x*sw - pad_left +
// kx*dw + dx), where (dy, dx) are offset channels base + 2*(ky*kw + kx) and +1, base =
// (c's deformable group) * 2*kh*kw; a point outside [0, H) x [0, W) reads 0, and so does
// each of its four neighbours that lies outside (TOPI's bilinear_sample_nchw). TOPI asserts
// groups == 1; groups > 1 is our extension (each group convolves its own channels, the
// deformable group of channel c is c / (C / deformable_groups)).
Value deformable_conv2d(const KernelCall& call) {
  NDArray data_in = call.tensor(0), offset_in = call.tensor(1), weight_in = call.tensor(2);
  std::string data_text = call.attrs.get_string("data_layout");
  Layout dl = parse_layout(call, data_text, "data_layout"), nchw = *Layout::parse("NCHW");
  Layout ol = parse_layout(call, out_layout_text(call, data_text), "out_layout");
  NDArray x = relayout(call, data_in, dl, nchw, "data");
  NDArray off = relayout(call, offset_in, dl, nchw, "offset");
  NDArray w = relayout(call, weight_in, parse_layout(call, call.attrs.get_string("kernel_layout"), "kernel_layout"),
                       *Layout::parse("OIHW"), "the weight");
  if (x.ndim() != 4 || w.ndim() != 4 || off.ndim() != 4) fail(call, "data, offset and weight must have rank 4");
  const int64_t groups = call.attrs.get_int("groups", 1), dgroups = call.attrs.get_int("deformable_groups", 1);
  const int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), O = w.dim(0);
  if (groups <= 0 || dgroups <= 0 || C % groups || O % groups || C % dgroups || w.dim(1) != C / groups)
    fail(call, "data " + shape_to_string(data_in.shape()) + " and weight " + shape_to_string(weight_in.shape()) +
                   " do not fit groups=" + std::to_string(groups) + " and deformable_groups=" +
                   std::to_string(dgroups));
  std::vector<int64_t> k = {w.dim(2), w.dim(3)}, strides = per_axis(call, "strides", 2),
                       dil = per_axis(call, "dilation", 2), before, after;
  read_padding(call, 2, before, after);
  Geom g;
  set_axes(g, 2, {H, W}, k, strides, dil, before);
  for (int a = 1; a < 3; ++a) {
    int64_t span = g.in[a] + before[a - 1] + after[a - 1] - ((g.k[a] - 1) * g.dil[a] + 1);
    if (span < 0) fail(call, "the dilated kernel does not fit the padded data " + shape_to_string(data_in.shape()));
    g.out[a] = span / g.stride[a] + 1;
  }
  const int64_t OH = g.out[1], OW = g.out[2], OS = OH * OW, KS = k[0] * k[1];
  if (off.dim(0) != N || off.dim(1) != 2 * KS * dgroups || off.dim(2) != OH || off.dim(3) != OW)
    fail(call, "offset has shape " + shape_to_string(offset_in.shape()) + "; it needs (N, " +
                   std::to_string(2 * KS * dgroups) + ", " + std::to_string(OH) + ", " + std::to_string(OW) +
                   ") in the data layout");
  DataType out = call.attrs.get_dtype("out_dtype").value_or(data_in.dtype());
  std::vector<double> xv = load<double>(x, DataType::float_(64)), ov = load<double>(off, DataType::float_(64));
  const int64_t Cg = C / groups, Og = O / groups, KK = Cg * KS, per_dg = C / dgroups;
  NDArray result;
  auto run = [&]<class Acc>(TypeTag<Acc>) {
    auto wv = load<Acc>(w, out);
    std::vector<Acc> y(static_cast<size_t>(N * O * OS)), cols(static_cast<size_t>(KK * OS));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t grp = 0; grp < groups; ++grp) {
        for (int64_t ci = 0; ci < Cg; ++ci) {
          const int64_t c = grp * Cg + ci;
          const double* img = xv.data() + (n * C + c) * H * W;
          const int64_t base = (c / per_dg) * 2 * KS;
          for (int64_t ky = 0; ky < k[0]; ++ky)
            for (int64_t kx = 0; kx < k[1]; ++kx) {
              const int64_t tap = ky * k[1] + kx;
              const double* dy = ov.data() + (n * off.dim(1) + base + 2 * tap) * OS;
              const double* dx = dy + OS;
              Acc* row = cols.data() + (ci * KS + tap) * OS;
              for (int64_t oy = 0; oy < OH; ++oy)
                for (int64_t ox = 0; ox < OW; ++ox) {
                  const int64_t p = oy * OW + ox;
                  double h = double(oy * g.stride[1] - g.pad[1] + ky * g.dil[1]) + dy[p];
                  double wq = double(ox * g.stride[2] - g.pad[2] + kx * g.dil[2]) + dx[p];
                  double v = 0;
                  if (h >= 0 && wq >= 0 && h < double(H) && wq < double(W)) {
                    // TOPI's bilinear_sample_nchw: a neighbour past the last row or
                    // column adds 0 (it is not clamped to the edge), so a point in
                    // (H-1, H) fades towards 0 rather than repeating row H-1.
                    const int64_t y0 = int64_t(std::floor(h)), x0 = int64_t(std::floor(wq));
                    const double ly = h - double(y0), lx = wq - double(x0);
                    const bool has_y1 = y0 + 1 < H, has_x1 = x0 + 1 < W;
                    v = img[y0 * W + x0] * (1 - ly) * (1 - lx);
                    if (has_x1) v += img[y0 * W + x0 + 1] * (1 - ly) * lx;
                    if (has_y1) v += img[(y0 + 1) * W + x0] * ly * (1 - lx);
                    if (has_y1 && has_x1) v += img[(y0 + 1) * W + x0 + 1] * ly * lx;
                  }
                  if constexpr (std::is_integral_v<Acc>) row[p] = cast_to<Acc>(v);
                  else row[p] = static_cast<Acc>(v);
                }
            }
        }
        gemm<Acc>(false, false, Og, OS, KK, wv.data() + grp * Og * KK, KK, cols.data(), OS,
                  y.data() + (n * O + grp * Og) * OS, OS, false);
      }
    result = store<Acc>(y, {N, O, OH, OW}, out);
  };
  switch (acc_kind(out)) {
    case AccKind::F32: run(TypeTag<float>{}); break;
    case AccKind::F64: run(TypeTag<double>{}); break;
    case AccKind::I64: run(TypeTag<int64_t>{}); break;
  }
  return relayout(call, result, nchw, ol, "the result");
}

// nn.bitserial_conv2d, TOPI's bitserial_conv2d_{nchw,nhwc}: data keeps its low
// activation_bits bits, the weight its low weight_bits bits; the bit-plane popcounts sum to
// sum(a * w) (unipolar=False) or, unipolar, sum(a * w') with each weight bit read as +1/-1:
// w' = sum_b (2*bit_b - 1) * 2^b = 2w - (2^weight_bits - 1).
Value bitserial_conv2d(const KernelCall& call) {
  NDArray data_in = call.tensor(0), weight_in = call.tensor(1);
  std::string data_text = call.attrs.get_string("data_layout");
  Layout dl = parse_layout(call, data_text, "data_layout"), nchw = *Layout::parse("NCHW");
  NDArray x = relayout(call, data_in, dl, nchw, "data");
  if (weight_in.ndim() != 4)
    fail(call, "supports only an unpacked 4-D weight, but the weight has shape " + shape_to_string(weight_in.shape()));
  NDArray w = relayout(call, weight_in, parse_layout(call, call.attrs.get_string("kernel_layout"), "kernel_layout"),
                       *Layout::parse("OIHW"), "the weight");
  std::vector<int64_t> ks = per_axis(call, "kernel_size", 2, 3);
  if (x.ndim() != 4 || w.dim(1) != x.dim(1) || w.dim(2) != ks[0] || w.dim(3) != ks[1])
    fail(call, "the weight " + shape_to_string(weight_in.shape()) + " does not fit data " +
                   shape_to_string(data_in.shape()) + " and kernel_size");
  if (!call.attrs.is_none("channels") && call.attrs.get_int("channels") != w.dim(0))
    fail(call, "`channels` is " + std::to_string(call.attrs.get_int("channels")) + ", but the weight has " +
                   std::to_string(w.dim(0)) + " output channels");
  const int64_t abits = call.attrs.get_int("activation_bits", 1), wbits = call.attrs.get_int("weight_bits", 1);
  if (abits < 1 || abits > 32 || wbits < 1 || wbits > 32) fail(call, "bit counts must be in [1, 32]");
  const bool unipolar = call.attrs.get_bool("unipolar", true);
  auto xv = load<int64_t>(x, x.dtype()), wv = load<int64_t>(w, w.dtype());
  const int64_t amask = (int64_t{1} << abits) - 1, wmask = (int64_t{1} << wbits) - 1;
  for (auto& a : xv) a &= amask;
  for (auto& b : wv) b = unipolar ? 2 * (b & wmask) - wmask : (b & wmask);
  std::vector<int64_t> before, after, one = {1, 1}, strides = per_axis(call, "strides", 2);
  read_padding(call, 2, before, after);
  Geom g;
  set_axes(g, 2, {x.dim(2), x.dim(3)}, ks, strides, one, before);
  for (int a = 1; a < 3; ++a) {
    int64_t span = g.in[a] + before[a - 1] + after[a - 1] - g.k[a];
    if (span < 0) fail(call, "the kernel does not fit the padded data " + shape_to_string(data_in.shape()));
    g.out[a] = span / g.stride[a] + 1;
  }
  DataType out = call.attrs.get_dtype("out_dtype").value_or(data_in.dtype());
  auto y = conv_forward<int64_t>(xv, wv, x.dim(0), x.dim(1), w.dim(0), 1, g);
  NDArray result = store<int64_t>(y, {x.dim(0), w.dim(0), g.out[1], g.out[2]}, out);
  return relayout(call, result, nchw, dl, "the result");
}

// nn.contrib_conv2d_gemm_weight_transform: the HWIO weight flattened to a (K = kh*kw*I) x O
// matrix, zero-padded (O to a multiple of tile_rows, K to a multiple of 4 * tile_cols, as
// TOPI's conv2d_gemm_weight_transform does), then blocked as
// out[x, y, z, w] = flat[y*tile_cols + w, x*tile_rows + z].
Value gemm_weight_transform(const KernelCall& call) {
  NDArray w = call.tensor(0);
  if (w.ndim() != 4) fail(call, "expects a 4-D HWIO weight, but it has shape " + shape_to_string(w.shape()));
  const int64_t tr = call.attrs.get_int("tile_rows"), tc = call.attrs.get_int("tile_cols");
  if (tr <= 0 || tc <= 0) fail(call, "`tile_rows` and `tile_cols` must be positive");
  const int64_t KH = w.dim(0), KW = w.dim(1), IC = w.dim(2), OC = w.dim(3), K = KH * KW * IC;
  const int64_t NB = (OC + tr - 1) / tr, KB = (K + 4 * tc - 1) / (4 * tc) * 4;
  NDArray out = NDArray::zeros({NB, KB, tr, tc}, w.dtype());
  const size_t elem = dtype_bytes(w.dtype());
  const auto* src = static_cast<const unsigned char*>(w.raw());
  auto* dst = static_cast<unsigned char*>(out.raw());
  // flat[k, n] is w's element k*OC + n: HWIO flattens to exactly that order.
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < OC; ++n) {
      int64_t o = (((n / tr) * KB + k / tc) * tr + n % tr) * tc + k % tc;
      std::memcpy(dst + o * elem, src + (k * OC + n) * elem, elem);
    }
  return out;
}

// nn.contrib_conv2d_gemm_without_weight_transform: the tiled weight read back as HWIO
// (kernel_size, data's channels, `channels` outputs), then an ordinary convolution.
Value gemm_conv(const KernelCall& call) {
  NDArray data_in = call.tensor(0), t = call.tensor(1);
  std::string data_text = call.attrs.get_string("data_layout");
  Layout dl = parse_layout(call, data_text, "data_layout"), nchw = *Layout::parse("NCHW");
  Layout ol = parse_layout(call, out_layout_text(call, data_text), "out_layout");
  NDArray x = relayout(call, data_in, dl, nchw, "data");
  std::vector<int64_t> ks = per_axis(call, "kernel_size", 2);
  const int64_t OC = call.attrs.get_int("channels");
  if (x.ndim() != 4 || t.ndim() != 4) fail(call, "data and the transformed weight must have rank 4");
  const int64_t IC = x.dim(1), K = ks[0] * ks[1] * IC, tr = t.dim(2), tc = t.dim(3);
  if (tr <= 0 || tc <= 0 || t.dim(0) * tr < OC || t.dim(1) * tc < K)
    fail(call, "the transformed weight " + shape_to_string(t.shape()) + " does not cover " +
                   std::to_string(K) + " x " + std::to_string(OC) + " (kernel_size x data channels x channels)");
  NDArray w = NDArray::empty({OC, IC, ks[0], ks[1]}, t.dtype());
  const size_t elem = dtype_bytes(t.dtype());
  const auto* src = static_cast<const unsigned char*>(t.raw());
  auto* dst = static_cast<unsigned char*>(w.raw());
  const int64_t KB = t.dim(1);
  for (int64_t k = 0; k < K; ++k) {
    const int64_t ic = k % IC, kw = (k / IC) % ks[1], kh = (k / IC) / ks[1];
    for (int64_t n = 0; n < OC; ++n) {
      int64_t s = (((n / tr) * KB + k / tc) * tr + n % tr) * tc + k % tc;
      std::memcpy(dst + (((n * IC + ic) * ks[0] + kh) * ks[1] + kw) * elem, src + s * elem, elem);
    }
  }
  std::vector<int64_t> before, after;
  read_padding(call, 2, before, after);
  return conv_canonical(call, x, w, 1, 2, per_axis(call, "strides", 2), per_axis(call, "dilation", 2), before,
                        after, call.attrs.get_dtype("out_dtype").value_or(data_in.dtype()), ol);
}

}  // namespace

void register_conv_variant_kernels(KernelTable& table) {
  register_kernel(table, "nn.deformable_conv2d", deformable_conv2d);
  register_kernel(table, "nn.bitserial_conv2d", bitserial_conv2d);
  register_kernel(table, "nn.contrib_conv2d_gemm_weight_transform", gemm_weight_transform);
  register_kernel(table, "nn.contrib_conv2d_gemm_without_weight_transform", gemm_conv);
}

}  // namespace relay::rt
