// nn.conv1d_transpose / conv2d_transpose / conv3d_transpose (reference §3.0.6, §3.7): each
// input pixel scatters weight * value into the output, at position i*stride - pad_before +
// k*dilation; output_padding extends the far end. Computed per group as
// cols = W_g^T x_g (GEMM) followed by col2im.
#include "interpreter/kernels/conv_pool_internal.h"

namespace relay::rt {
namespace {

using namespace convpool;

Value conv_transpose_nd(const KernelCall& call, size_t rank) {
  NDArray data = call.tensor(0), weight = call.tensor(1);
  std::string letters = spatial_letters(rank);
  std::string data_text = call.attrs.get_string("data_layout");
  std::string out_text = call.attrs.get_string("out_layout");
  Layout dl = parse_layout(call, data_text, "data_layout");
  Layout ol = parse_layout(call, out_text.empty() ? data_text : out_text, "out_layout");
  NDArray x = relayout(call, data, dl, *Layout::parse("NC" + letters), "data");
  const int64_t groups = call.attrs.get_int("groups", 1);
  if (groups <= 0) fail(call, "`groups` must be positive, but is " + std::to_string(groups));
  std::string kernel_text = call.attrs.get_string("kernel_layout");
  bool explicit_groups = groups > 1 && kernel_text.find('G') != std::string::npos;
  NDArray w = relayout(call, weight, parse_layout(call, kernel_text, "kernel_layout"),
                       *Layout::parse((explicit_groups ? "GIO" : "IO") + letters), "the weight");
  if (explicit_groups) {
    Shape s = w.shape();
    s.erase(s.begin());
    s[0] *= groups;
    w = w.reshaped(s);
  }
  if (x.ndim() != rank + 2 || w.ndim() != rank + 2)
    fail(call, "data " + shape_to_string(data.shape()) + " and weight " +
                   shape_to_string(weight.shape()) + " must have rank " + std::to_string(rank + 2));
  const int64_t N = x.dim(0), C = x.dim(1), Og = w.dim(1), O = Og * groups;
  if (w.dim(0) != C || C % groups != 0)
    fail(call, "the weight " + shape_to_string(weight.shape()) + " needs " + std::to_string(C) +
                   " input channels (data " + shape_to_string(data.shape()) +
                   "), divisible by groups=" + std::to_string(groups));
  // TVM types the result with `channels` when both it and `kernel_size` are given, else with
  // the weight's per-group O; the compute produces O * groups channels, so the two must agree.
  const bool forced = !call.attrs.is_none("channels") && !call.attrs.is_none("kernel_size");
  int64_t typed_channels = forced ? call.attrs.get_int("channels") : Og;
  if (typed_channels != O)
    fail(call, "the result is typed with " + std::to_string(typed_channels) +
                   " channels, but groups=" + std::to_string(groups) + " times the weight's " +
                   std::to_string(Og) + " output channels per group is " + std::to_string(O) +
                   " (write `channels` = " + std::to_string(O) + ")");
  std::vector<int64_t> strides = per_axis(call, "strides", rank);
  std::vector<int64_t> dilation = per_axis(call, "dilation", rank);
  std::vector<int64_t> out_pad = per_axis(call, "output_padding", rank, 0);
  std::vector<int64_t> before, after;
  read_padding(call, rank, before, after);
  std::vector<int64_t> in(rank), k(rank), image(rank);
  Shape out_shape = {N, O};
  for (size_t i = 0; i < rank; ++i) {
    in[i] = x.dim(2 + i);
    k[i] = w.dim(2 + i);
    image[i] = strides[i] * (in[i] - 1) + (k[i] - 1) * dilation[i] + 1 - before[i] - after[i] + out_pad[i];
    if (image[i] < 0)
      fail(call, "the output would have a negative extent along " + std::string(1, letters[i]) +
                     " (data " + shape_to_string(data.shape()) + ", weight " +
                     shape_to_string(weight.shape()) + ")");
    out_shape.push_back(image[i]);
  }
  // TVM 0.14 types conv3d_transpose's H from the dilated kernel width and W from the height
  // when it reads the kernel from the weight; a result that differs from that type cannot run.
  if (rank == 3 && !forced &&
      (k[1] - 1) * dilation[1] != (k[2] - 1) * dilation[2])
    fail(call, "TVM 0.14 computes this result's type with the kernel's H and W swapped, and the "
               "dilated kernel " + std::to_string((k[1] - 1) * dilation[1] + 1) + "x" +
               std::to_string((k[2] - 1) * dilation[2] + 1) +
               " is not square; give `channels` and `kernel_size`");
  Geom g;
  set_axes(g, rank, image, k, strides, dilation, before);
  for (size_t i = 0; i < rank; ++i) g.out[3 - rank + i] = in[i];
  const int64_t Cg = C / groups, KK = Og * g.k_size(), IS = g.out_size(), YS = g.in_size();
  DataType out = call.attrs.get_dtype("out_dtype").value_or(data.dtype());
  NDArray result;
  auto run = [&]<class Acc>(TypeTag<Acc>) {
    auto xv = load<Acc>(x, out);
    auto wv = load<Acc>(w, out);
    std::vector<Acc> y(static_cast<size_t>(N * O * YS), Acc(0)), cols(static_cast<size_t>(KK * IS));
    for (int64_t n = 0; n < N; ++n)
      for (int64_t grp = 0; grp < groups; ++grp) {
        gemm<Acc>(true, false, KK, IS, Cg, wv.data() + grp * Cg * KK, KK,
                  xv.data() + (n * C + grp * Cg) * IS, IS, cols.data(), IS, false);
        col2im(cols.data(), Og, g, y.data() + (n * O + grp * Og) * YS);
      }
    result = store<Acc>(y, out_shape, out, &call);
  };
  switch (acc_kind(out)) {
    case AccKind::F32: run(TypeTag<float>{}); break;
    case AccKind::F64: run(TypeTag<double>{}); break;
    case AccKind::I64: run(TypeTag<int64_t>{}); break;
  }
  return call.finish(relayout(call, result, *Layout::parse("NC" + letters), ol, "the result"));
}

}  // namespace

void register_conv_transpose_kernels(KernelTable& table) {
  register_destination_kernel(table, "nn.conv1d_transpose", [](const KernelCall& c) { return conv_transpose_nd(c, 1); });
  register_destination_kernel(table, "nn.conv2d_transpose", [](const KernelCall& c) { return conv_transpose_nd(c, 2); });
  register_destination_kernel(table, "nn.conv3d_transpose", [](const KernelCall& c) { return conv_transpose_nd(c, 3); });
}

}  // namespace relay::rt
