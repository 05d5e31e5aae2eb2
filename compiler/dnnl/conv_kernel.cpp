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

std::optional<ConvGeometry> conv_geometry(const CallAttrs& a, const std::vector<int64_t>& x,
                                          const std::vector<int64_t>& w, const std::vector<int64_t>& y,
                                          std::string* why) {
  auto decline = [&](std::string reason) -> std::optional<ConvGeometry> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const std::string data_layout = a.get_string("data_layout"), kernel_layout = a.get_string("kernel_layout");
  const std::string out_layout = a.get_string("out_layout");
  ConvGeometry c;
  c.groups = a.get_int("groups", 1);
  c.nchw = data_layout == "NCHW" && kernel_layout == "OIHW";
  const bool nhwc = data_layout == "NHWC" && kernel_layout == "HWIO" && c.groups == 1;
  if (!c.nchw && !nhwc)
    return decline("layouts " + data_layout + "/" + kernel_layout + " (oneDNN here: NCHW/OIHW, NHWC/HWIO)");
  if (!out_layout.empty() && out_layout != data_layout) return decline("out_layout differs from data_layout");
  if (x.size() != 4 || w.size() != 4 || y.size() != 4) return decline("not a 4-D convolution");
  const bool nchw = c.nchw;
  // Logical NCHW / OIHW extents, whatever the layout in memory.
  const int64_t N = x[0], C = nchw ? x[1] : x[3], H = nchw ? x[2] : x[1], W = nchw ? x[3] : x[2];
  const int64_t O = nchw ? w[0] : w[3], I = nchw ? w[1] : w[2], KH = nchw ? w[2] : w[0], KW = nchw ? w[3] : w[1];
  const int64_t OH = nchw ? y[2] : y[1], OW = nchw ? y[3] : y[2];
  const int64_t groups = c.groups;
  if (groups < 1 || C % groups != 0 || O % groups != 0 || I * groups != C) return decline("channels and groups disagree");
  if (!read_window(a, c.window)) return decline("strides, dilation or padding not 2-D");
  c.src = {N, C, H, W};
  c.dst = {N, O, OH, OW};
  // TVM's (O, C/groups, kh, kw) is oneDNN's (groups, O/groups, C/groups, kh, kw).
  c.weights = groups == 1 ? memory::dims{O, I, KH, KW} : memory::dims{groups, O / groups, I, KH, KW};
  c.activation_tag = nchw ? tag::nchw : tag::nhwc;
  c.weight_tag = groups == 1 ? (nchw ? tag::oihw : tag::hwio) : tag::goihw;
  c.flops = 2.0 * static_cast<double>(N * O * OH * OW) * static_cast<double>(I * KH * KW);
  return c;
}

std::unique_ptr<LibraryKernel> make_conv2d_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                  std::string* why) {
  auto decline = [&](std::string reason) -> std::unique_ptr<LibraryKernel> {
    if (why) *why = std::move(reason);
    return nullptr;
  };
  auto shapes = float32_shapes(g, node, why);
  if (!shapes) return nullptr;
  const CallAttrs& a = g[node].attrs;
  if (auto out_dtype = a.get_dtype("out_dtype"); out_dtype && *out_dtype != DataType::float_(32))
    return decline("out_dtype is not float32");
  const auto geometry = conv_geometry(a, shapes->inputs[0], shapes->inputs[1], shapes->output, why);
  if (!geometry) return nullptr;
  const ConvGeometry& c = *geometry;
  const int64_t O = c.dst[1];
  const auto& y = shapes->output;
  const memory::desc user_src = plain(c.src, c.activation_tag), user_dst = plain(c.dst, c.activation_tag);
  const memory::desc user_weights = plain(c.weights, c.weight_tag);
  const bool nchw = c.nchw, nhwc = !c.nchw;
  const double flops = c.flops;
  auto primitive = [&](const dnnl::primitive_attr& attr, bool bias) {
    const memory::desc bias_desc = bias ? plain({O}, tag::x) : memory::desc();
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                         any_layout(c.src), any_layout(c.weights), bias_desc, any_layout(c.dst),
                                         c.window.strides, c.window.dilation, c.window.pad_l, c.window.pad_r);
    return dnnl::convolution_forward::primitive_desc(desc, attr, engine());
  };
  // The group's epilogue inside the call when oneDNN keeps a fast implementation with it;
  // else the plain convolution, and the epilogue stays a native kernel.
  if (auto epilogue = fusable_epilogue(g, group, nchw ? 1 : 3, {.channels = O, .rank = 4}))
    if (auto pd = fast_primitive_with(*epilogue, primitive))
      return std::make_unique<PreparedKernel<dnnl::convolution_forward>>(*pd, user_src, user_weights, user_dst, y,
                                                                         flops, std::move(epilogue), O, nhwc ? 1 : 0);
  auto pd = primitive(caller_scratchpad(), false);
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return std::make_unique<PreparedKernel<dnnl::convolution_forward>>(pd, user_src, user_weights, user_dst, y, flops);
}

}  // namespace relay::compiler::dnnl_impl
