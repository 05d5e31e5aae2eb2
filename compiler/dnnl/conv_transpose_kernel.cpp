// nn.conv2d_transpose through oneDNN's deconvolution (the same operation: the gradient of
// a convolution with respect to its data): NCHW data, IOHW weights (TVM's default: input
// channels first), groups 1, strides, dilation, padding; float32. TVM's output_padding
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

std::unique_ptr<LibraryKernel> make_conv2d_transpose_kernel(const Graph& g, NodeId node, std::string* why) {
  using dnnl::memory;
  using tag = memory::format_tag;
  auto decline = [&](std::string reason) -> std::unique_ptr<LibraryKernel> {
    if (why) *why = std::move(reason);
    return nullptr;
  };
  auto shapes = float32_shapes(g, node, why);
  if (!shapes) return nullptr;
  const CallAttrs& a = g[node].attrs;
  if (a.get_string("data_layout") != "NCHW" || a.get_string("kernel_layout") != "IOHW")
    return decline("layouts other than NCHW/IOHW");
  if (const std::string out = a.get_string("out_layout"); !out.empty() && out != "NCHW")
    return decline("out_layout differs from data_layout");
  if (a.get_int("groups", 1) != 1) return decline("grouped transposed convolution");
  if (auto out_dtype = a.get_dtype("out_dtype"); out_dtype && *out_dtype != DataType::float_(32))
    return decline("out_dtype is not float32");
  const auto& x = shapes->inputs[0];
  const auto& w = shapes->inputs[1];
  const auto& y = shapes->output;
  if (x.size() != 4 || w.size() != 4 || y.size() != 4 || w[0] != x[1]) return decline("not a 4-D NCHW/IOHW call");
  Window2d window;
  if (!read_window(a, window)) return decline("strides, dilation or padding not 2-D");
  std::vector<int64_t> output_padding = a.get_ints("output_padding");
  if (output_padding.empty()) output_padding = {0, 0};
  if (output_padding.size() == 1) output_padding = {output_padding[0], output_padding[0]};
  if (output_padding.size() != 2) return decline("output_padding not 2-D");
  for (size_t i = 0; i < 2; ++i) {
    window.pad_r[i] -= output_padding[i];
    if (window.pad_r[i] < 0) return decline("output_padding larger than the trailing padding");
  }
  const int64_t N = x[0], IC = x[1], OC = w[1], KH = w[2], KW = w[3];
  const memory::dims src_dims{N, IC, x[2], x[3]}, dst_dims{N, OC, y[2], y[3]}, weight_dims{OC, IC, KH, KW};
  dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                         any_layout(src_dims), any_layout(weight_dims), any_layout(dst_dims),
                                         window.strides, window.dilation, window.pad_l, window.pad_r);
  dnnl::deconvolution_forward::primitive_desc pd(desc, caller_scratchpad(), engine());
  if (is_reference_impl(pd.impl_info_str()))
    return decline("oneDNN has only its reference implementation (" + std::string(pd.impl_info_str()) + ")");
  // Every input element meets every kernel tap once: N * IC * H * W * OC * kh * kw products.
  const double flops = 2.0 * static_cast<double>(N * IC * x[2] * x[3]) * static_cast<double>(OC * KH * KW);
  return std::make_unique<PreparedKernel<dnnl::deconvolution_forward>>(
      pd, plain(src_dims, tag::nchw), plain(weight_dims, tag::iohw), plain(dst_dims, tag::nchw), y, flops);
}

}  // namespace relay::compiler::dnnl_impl
