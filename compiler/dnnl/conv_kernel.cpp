// nn.conv2d through oneDNN's convolution primitive: NCHW data with OIHW weights (any
// groups: depthwise is groups == channels), or NHWC with HWIO (groups 1); strides,
// dilation and TVM's padding forms; float32. oneDNN picks the layouts (format `any`):
// the weights are reordered once (weight_cache.h), the activations on the way in and out
// (a pinned blocked layout through the network would save those reorders: docs/compiler.md).
#include <memory>

#include "compiler/dnnl/dnnl_kernels.h"
#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/prepared_kernel.h"
#include "compiler/graph/window_attrs.h"

namespace relay::compiler::dnnl_impl {

using dnnl::memory;
using tag = memory::format_tag;

bool read_window(const CallAttrs& a, Window2d& w) {
  const std::optional<WindowAttrs> window = window_attrs_2d(a);
  if (!window) return false;
  w.strides = {window->strides[0], window->strides[1]};
  w.dilation = {window->dilation[0] - 1, window->dilation[1] - 1};  // oneDNN counts from 0
  w.pad_l = {window->pad_before[0], window->pad_before[1]};
  w.pad_r = {window->pad_after[0], window->pad_after[1]};
  return true;
}

memory::desc any_layout(const memory::dims& dims) { return memory::desc(dims, memory::data_type::f32, tag::any); }

std::unique_ptr<LibraryKernel> make_conv2d_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                  std::string* why) {
  auto decline = [&](std::string reason) -> std::unique_ptr<LibraryKernel> {
    if (why) *why = std::move(reason);
    return nullptr;
  };
  auto shapes = float32_shapes(g, node, why);
  if (!shapes) return nullptr;
  const Node& n = g[node];
  const CallAttrs& a = n.attrs;
  const std::string data_layout = a.get_string("data_layout"), kernel_layout = a.get_string("kernel_layout");
  const std::string out_layout = a.get_string("out_layout");
  const int64_t groups = a.get_int("groups", 1);
  const bool nchw = data_layout == "NCHW" && kernel_layout == "OIHW";
  const bool nhwc = data_layout == "NHWC" && kernel_layout == "HWIO" && groups == 1;
  if (!nchw && !nhwc)
    return decline("layouts " + data_layout + "/" + kernel_layout + " (oneDNN here: NCHW/OIHW, NHWC/HWIO)");
  if (!out_layout.empty() && out_layout != data_layout) return decline("out_layout differs from data_layout");
  if (auto out_dtype = a.get_dtype("out_dtype"); out_dtype && *out_dtype != DataType::float_(32))
    return decline("out_dtype is not float32");
  const auto& x = shapes->inputs[0];
  const auto& w = shapes->inputs[1];
  const auto& y = shapes->output;
  if (x.size() != 4 || w.size() != 4 || y.size() != 4) return decline("not a 4-D convolution");
  // Logical NCHW / OIHW extents, whatever the layout in memory.
  const int64_t N = x[0], C = nchw ? x[1] : x[3], H = nchw ? x[2] : x[1], W = nchw ? x[3] : x[2];
  const int64_t O = nchw ? w[0] : w[3], I = nchw ? w[1] : w[2], KH = nchw ? w[2] : w[0], KW = nchw ? w[3] : w[1];
  const int64_t OH = nchw ? y[2] : y[1], OW = nchw ? y[3] : y[2];
  if (groups < 1 || C % groups != 0 || O % groups != 0 || I * groups != C) return decline("channels and groups disagree");
  Window2d window;
  if (!read_window(a, window)) return decline("strides, dilation or padding not 2-D");

  const memory::dims src_dims{N, C, H, W}, dst_dims{N, O, OH, OW};
  const memory::desc user_src = plain(src_dims, nchw ? tag::nchw : tag::nhwc);
  const memory::desc user_dst = plain(dst_dims, nchw ? tag::nchw : tag::nhwc);
  memory::desc user_weights;
  memory::dims weight_dims;
  if (groups == 1) {
    weight_dims = {O, I, KH, KW};
    user_weights = plain(weight_dims, nchw ? tag::oihw : tag::hwio);
  } else {
    // TVM's (O, C/groups, kh, kw) is oneDNN's (groups, O/groups, C/groups, kh, kw).
    weight_dims = {groups, O / groups, I, KH, KW};
    user_weights = plain(weight_dims, tag::goihw);
  }
  const double flops = 2.0 * static_cast<double>(N * O * OH * OW) * static_cast<double>(I * KH * KW);
  auto primitive = [&](const dnnl::primitive_attr& attr, bool bias) {
    const memory::desc bias_desc = bias ? plain({O}, tag::x) : memory::desc();
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                         any_layout(src_dims), any_layout(weight_dims), bias_desc,
                                         any_layout(dst_dims), window.strides, window.dilation, window.pad_l,
                                         window.pad_r);
    return dnnl::convolution_forward::primitive_desc(desc, attr, engine());
  };
  // The group's epilogue inside the call when oneDNN keeps a fast implementation with it;
  // else the plain convolution, and the epilogue stays a native kernel.
  if (auto epilogue = fusable_epilogue(g, group, nchw ? 1 : 3, {.channels = O, .rank = 4}))
    if (auto pd = fast_primitive_with(*epilogue, primitive))
      return std::make_unique<PreparedKernel<dnnl::convolution_forward>>(*pd, user_src, user_weights, user_dst, y,
                                                                         flops, std::move(epilogue), O, nhwc ? 1 : 0);
  auto pd = primitive(caller_scratchpad(), false);
  if (is_reference_impl(pd.impl_info_str()))
    return decline("oneDNN has only its reference implementation (" + std::string(pd.impl_info_str()) +
                   ") for this convolution");
  return std::make_unique<PreparedKernel<dnnl::convolution_forward>>(pd, user_src, user_weights, user_dst, y, flops);
}

}  // namespace relay::compiler::dnnl_impl
