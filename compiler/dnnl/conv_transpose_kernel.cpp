// nn.conv2d_transpose through oneDNN's deconvolution (the same operation: the gradient of
// a convolution with respect to its data): NCHW data, IOHW weights (TVM's default: input
// channels first), groups 1, strides, dilation, padding; float32. deconv_geometry is
// shared with qnn.conv2d_transpose's int8 kernel (quantized_kernels.cpp). TVM's output_padding
// adds rows and columns at the bottom and right, which is oneDNN's trailing padding made
// smaller by as much; a call whose trailing padding would go negative is declined.
//
// The group's epilogue stays a native kernel after the call. oneDNN 2.6's deconvolution
// takes the folded batch norm and the activation as bias and post-ops, but its JIT kernel
// then runs 2.5-7x slower. Measured on DCGAN's layers, 1 thread, Xeon (AVX-512):
//   512->256 at 8x8: 3.3 -> 8.0 ms
//   256->128 at 16x16: 4.1 -> 12.5 ms
//   128->3 with tanh: 0.63 -> 4.6 ms
// That loss is far more than the native epilogue costs (docs/compiler.md).
#include <memory>

#include "compiler/dnnl/dnnl_kernels.h"
#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/prepared_kernel.h"

namespace relay::compiler::dnnl_impl {

std::optional<DeconvGeometry> deconv_geometry(const CallAttrs& a, const std::vector<int64_t>& x,
                                              const std::vector<int64_t>& w, const std::vector<int64_t>& y,
                                              std::string* why) {
  auto decline = [&](std::string reason) -> std::optional<DeconvGeometry> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (a.get_string("data_layout") != "NCHW" || a.get_string("kernel_layout") != "IOHW")
    return decline("layouts other than NCHW/IOHW");
  if (const std::string out = a.get_string("out_layout"); !out.empty() && out != "NCHW")
    return decline("out_layout differs from data_layout");
  if (a.get_int("groups", 1) != 1) return decline("grouped transposed convolution");
  if (x.size() != 4 || w.size() != 4 || y.size() != 4 || w[0] != x[1]) return decline("not a 4-D NCHW/IOHW call");
  DeconvGeometry d;
  if (!read_window(a, d.window)) return decline("strides, dilation or padding not 2-D");
  std::vector<int64_t> output_padding = a.get_ints("output_padding");
  if (output_padding.empty()) output_padding = {0, 0};
  if (output_padding.size() == 1) output_padding = {output_padding[0], output_padding[0]};
  if (output_padding.size() != 2) return decline("output_padding not 2-D");
  for (size_t i = 0; i < 2; ++i) {
    d.window.pad_r[i] -= output_padding[i];
    if (d.window.pad_r[i] < 0) return decline("output_padding larger than the trailing padding");
  }
  const int64_t N = x[0], IC = x[1], OC = w[1], KH = w[2], KW = w[3];
  d.src = {N, IC, x[2], x[3]};
  d.dst = {N, OC, y[2], y[3]};
  d.weights = {OC, IC, KH, KW};
  // Every input element meets every kernel tap once: N * IC * H * W * OC * kh * kw products.
  d.flops = 2.0 * static_cast<double>(N * IC * x[2] * x[3]) * static_cast<double>(OC * KH * KW);
  return d;
}

std::unique_ptr<LibraryKernel> make_conv2d_transpose_kernel(const Graph& g, NodeId node, std::string* why) {
  using dnnl::memory;
  using tag = memory::format_tag;
  auto shapes = float32_shapes(g, node, why);
  if (!shapes) return nullptr;
  const CallAttrs& a = g[node].attrs;
  if (auto out_dtype = a.get_dtype("out_dtype"); out_dtype && *out_dtype != DataType::float_(32)) {
    if (why) *why = "out_dtype is not float32";
    return nullptr;
  }
  const auto d = deconv_geometry(a, shapes->inputs[0], shapes->inputs[1], shapes->output, why);
  if (!d) return nullptr;
  dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                         any_layout(d->src), any_layout(d->weights), any_layout(d->dst),
                                         d->window.strides, d->window.dilation, d->window.pad_l, d->window.pad_r);
  dnnl::deconvolution_forward::primitive_desc pd(desc, caller_scratchpad(), engine());
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return std::make_unique<PreparedKernel<dnnl::deconvolution_forward>>(
      pd, plain(d->src, tag::nchw), plain(d->weights, tag::iohw), plain(d->dst, tag::nchw), shapes->output, d->flops);
}

}  // namespace relay::compiler::dnnl_impl
