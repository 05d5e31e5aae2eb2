// nn.conv1d / conv2d / conv3d, the NCHWc variants and nn.conv2d_backward_weight
// (reference §3.0.6, §3.7): layouts to canonical form, then the im2col + GEMM engine.
#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {
namespace {

using namespace convpool;

DataType out_dtype(const KernelCall& call, DataType fallback) {
  return call.attrs.get_dtype("out_dtype").value_or(fallback);
}

std::string out_layout_text(const KernelCall& call, const std::string& fallback) {
  std::string t = call.attrs.get_string("out_layout");
  return t.empty() ? fallback : t;
}

// The weight in canonical OI<spatial> form, ready for a grouped convolution: explicit G
// layouts fold G into O; a depthwise weight (groups == C == O, TVM's (C, multiplier, k...)
// reading of OIHW) becomes (C*multiplier, 1, k...), whose output channel c*m + j reads input
// channel c, as TOPI's depthwise compute does.
NDArray canonical_weight(const KernelCall& call, const NDArray& weight, size_t rank,
                         int64_t groups, int64_t data_channels) {
  std::string letters = spatial_letters(rank);
  std::string kernel_text = call.attrs.get_string("kernel_layout");
  bool explicit_groups = groups > 1 && kernel_text.find('G') != std::string::npos;
  Layout kl = parse_layout(call, kernel_text, "kernel_layout");
  Layout canon = *Layout::parse((explicit_groups ? "GOI" : "OI") + letters);
  NDArray w = relayout(call, weight, kl, canon, "the weight");
  Shape s = w.shape();
  if (explicit_groups) {
    s.erase(s.begin());
    s[0] *= groups;
    return w.reshaped(s);
  }
  if (groups > 1 && data_channels == groups && s[0] == groups) {
    s[0] *= s[1];
    s[1] = 1;
    return w.reshaped(s);
  }
  return w;
}

Value conv_nd(const KernelCall& call, size_t rank) {
  NDArray data = call.tensor(0), weight = call.tensor(1);
  std::string letters = spatial_letters(rank);
  std::string data_text = call.attrs.get_string("data_layout");
  Layout dl = parse_layout(call, data_text, "data_layout");
  Layout ol = parse_layout(call, out_layout_text(call, data_text), "out_layout");
  NDArray x = relayout(call, data, dl, *Layout::parse("NC" + letters), "data");
  const int64_t groups = call.attrs.get_int("groups", 1);
  if (groups <= 0) fail(call, "`groups` must be positive, but is " + std::to_string(groups));
  NDArray w = canonical_weight(call, weight, rank, groups, x.ndim() == rank + 2 ? x.dim(1) : 0);
  std::vector<int64_t> before, after;
  read_padding(call, rank, before, after);
  return conv_canonical(call, x, w, groups, rank, per_axis(call, "strides", rank),
                        per_axis(call, "dilation", rank), before, after,
                        out_dtype(call, data.dtype()), ol);
}

// nn.conv2d_backward_weight(grad, data): dW[o, i, ky, kx] = sum over n, y, x of
// grad[n, o, y, x] * data_padded[n, g*Cg + i, y*sh + ky*dh, x*sw + kx*dw]. The layouts are
// repurposed: data_layout is grad's, kernel_layout data's, out_layout the weight's.
Value conv2d_backward_weight(const KernelCall& call) {
  NDArray grad_in = call.tensor(0), data_in = call.tensor(1);
  Layout nchw = *Layout::parse("NCHW");
  NDArray grad = relayout(call, grad_in, parse_layout(call, call.attrs.get_string("data_layout"), "data_layout"),
                          nchw, "grad");
  NDArray data = relayout(call, data_in, parse_layout(call, call.attrs.get_string("kernel_layout"), "kernel_layout"),
                          nchw, "data");
  Layout wl = parse_layout(call, out_layout_text(call, "OIHW"), "out_layout");
  if (grad.ndim() != 4 || data.ndim() != 4)
    fail(call, "grad " + shape_to_string(grad_in.shape()) + " and data " +
                   shape_to_string(data_in.shape()) + " must both have rank 4");
  const int64_t groups = call.attrs.get_int("groups", 1);
  const int64_t N = data.dim(0), C = data.dim(1), O = grad.dim(1);
  if (groups <= 0 || C % groups != 0 || O % groups != 0 || grad.dim(0) != N)
    fail(call, "grad " + shape_to_string(grad_in.shape()) + " and data " +
                   shape_to_string(data_in.shape()) + " do not fit groups=" + std::to_string(groups));
  const int64_t Cg = C / groups, Og = O / groups;
  std::vector<int64_t> k = per_axis(call, "kernel_size", 2), before, after;
  read_padding(call, 2, before, after);
  Geom g;
  set_axes(g, 2, {data.dim(2), data.dim(3)}, k, per_axis(call, "strides", 2),
           per_axis(call, "dilation", 2), before);
  g.out[1] = grad.dim(2);
  g.out[2] = grad.dim(3);
  for (int a = 1; a < 3; ++a) {
    int64_t reach = (g.out[a] - 1) * g.stride[a] + (g.k[a] - 1) * g.dil[a] + 1;
    int64_t padded = g.in[a] + before[a - 1] + after[a - 1];
    if (g.out[a] > 0 && reach > padded)
      fail(call, "grad " + shape_to_string(grad_in.shape()) + " is too large for data " +
                     shape_to_string(data_in.shape()) + " with these strides, kernel and padding");
  }
  DataType out = out_dtype(call, grad_in.dtype());
  const int64_t KK = Cg * g.k_size(), OS = g.out_size(), IS = g.in_size();
  Shape wshape = {O, Cg, k[0], k[1]};
  NDArray result;
  auto run = [&]<class Acc>(TypeTag<Acc>) {
    auto gy = load<Acc>(grad, out);
    auto x = load<Acc>(data, out);
    std::vector<Acc> dw(static_cast<size_t>(O * KK), Acc(0)), cols(static_cast<size_t>(KK * OS));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t grp = 0; grp < groups; ++grp) {
        im2col(x.data() + (n * C + grp * Cg) * IS, Cg, g, cols.data());
        gemm<Acc>(false, true, Og, KK, OS, gy.data() + (n * O + grp * Og) * OS, OS, cols.data(), OS,
                  dw.data() + grp * Og * KK, KK, true);
      }
    result = store<Acc>(dw, wshape, out);
  };
  switch (acc_kind(out)) {
    case AccKind::F32: run(TypeTag<float>{}); break;
    case AccKind::F64: run(TypeTag<double>{}); break;
    case AccKind::I64: run(TypeTag<int64_t>{}); break;
  }
  return relayout(call, result, *Layout::parse("OIHW"), wl, "the weight gradient");
}

}  // namespace

void register_conv_kernels(KernelTable& table) {
  // Destination-passing: conv_canonical stores into KernelCall::dest.
  register_destination_kernel(table, "nn.conv1d", [](const KernelCall& c) { return conv_nd(c, 1); });
  register_destination_kernel(table, "nn.conv2d", [](const KernelCall& c) { return conv_nd(c, 2); });
  register_destination_kernel(table, "nn.conv3d", [](const KernelCall& c) { return conv_nd(c, 3); });
  // The NCHWc forms differ only in their layouts (NCHW4c data, OIHW4i4o weight, ...).
  register_destination_kernel(table, "nn.contrib_conv2d_NCHWc", [](const KernelCall& c) { return conv_nd(c, 2); });
  register_destination_kernel(table, "nn.contrib_depthwise_conv2d_NCHWc",
                  [](const KernelCall& c) { return conv_nd(c, 2); });
  register_kernel(table, "nn.conv2d_backward_weight", conv2d_backward_weight);
}

}  // namespace relay::rt
