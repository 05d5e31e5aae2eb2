// nn.conv2d through oneDNN's convolution primitive: NCHW data with OIHW weights (any
// groups: depthwise is groups == channels), or NHWC with HWIO (groups 1); strides,
// dilation and TVM's padding forms; float32. oneDNN picks the layouts (format `any`):
// the weights are reordered once (weight_cache.h), the activations on the way in and out
// (a pinned blocked layout through the network would save those reorders: docs/compiler.md).
#include <memory>

#include "compiler/dnnl/dnnl_kernels.h"
#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/weight_cache.h"

namespace relay::compiler::dnnl_impl {
namespace {

using dnnl::memory;
using tag = memory::format_tag;

class Conv2dKernel final : public LibraryKernel {
 public:
  Conv2dKernel(const dnnl::convolution_forward::primitive_desc& pd, const memory::desc& user_src,
               const memory::desc& user_weights, const memory::desc& user_dst, std::vector<int64_t> out_shape,
               double flops)
      : primitive_(pd),
        impl_(pd.impl_info_str()),
        src_(user_src, pd.src_desc(), OperandLayout::Direction::Input),
        dst_(user_dst, pd.dst_desc(), OperandLayout::Direction::Output),
        weights_(user_weights, pd.weights_desc()),
        out_shape_(std::move(out_shape)),
        flops_(flops) {}

  rt::NDArray run(std::span<const rt::NDArray> inputs, const rt::NDArray& dest, unsigned threads) const override {
    use_threads(threads);
    rt::NDArray out = dest.defined() ? dest : rt::NDArray::empty(out_shape_, DataType::float_(32));
    ScratchMemory::Lease src_lease, dst_lease;
    memory src = src_.into(inputs[0].raw(), src_lease);
    memory weights = weights_.get(inputs[1]);
    memory dst = dst_.out(out.raw(), dst_lease);
    primitive_.execute(stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
    dst_.finish(dst, out.raw());
    stream().wait();
    return out;
  }

  std::string describe() const override { return "oneDNN " + impl_; }
  uint64_t weight_preparations() const override { return weights_.reorders(); }
  double flops() const override { return flops_; }

 private:
  dnnl::convolution_forward primitive_;
  std::string impl_;
  OperandLayout src_, dst_;
  PreparedWeights weights_;
  std::vector<int64_t> out_shape_;
  double flops_;
};

// TVM's padding forms for 2-D: [p] every side, [h, w] both sides of each axis,
// [top, left, bottom, right].
bool read_padding(const std::vector<int64_t>& p, memory::dims& before, memory::dims& after) {
  if (p.size() == 1) before = after = {p[0], p[0]};
  else if (p.size() == 2) before = after = {p[0], p[1]};
  else if (p.size() == 4) before = {p[0], p[1]}, after = {p[2], p[3]};
  else return false;
  return true;
}

}  // namespace

std::unique_ptr<LibraryKernel> make_conv2d_kernel(const Graph& g, NodeId node, std::string* why) {
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
  if (!nchw && !nhwc) return decline("layouts " + data_layout + "/" + kernel_layout + " (oneDNN here: NCHW/OIHW, NHWC/HWIO)");
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
  std::vector<int64_t> strides = a.get_ints("strides"), dilation = a.get_ints("dilation");
  if (strides.empty()) strides = {1, 1};
  if (dilation.empty()) dilation = {1, 1};
  if (strides.size() == 1) strides = {strides[0], strides[0]};
  if (dilation.size() == 1) dilation = {dilation[0], dilation[0]};
  memory::dims pad_l, pad_r;
  if (strides.size() != 2 || dilation.size() != 2 || !read_padding(a.get_ints("padding"), pad_l, pad_r))
    return decline("strides, dilation or padding not 2-D");

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
  const memory::dims dnnl_dilation{dilation[0] - 1, dilation[1] - 1};  // oneDNN counts from 0
  auto any = [](const memory::dims& d) { return memory::desc(d, memory::data_type::f32, tag::any); };
  dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                       any(src_dims), any(weight_dims), any(dst_dims),
                                       memory::dims{strides[0], strides[1]}, dnnl_dilation, pad_l, pad_r);
  dnnl::convolution_forward::primitive_desc pd(desc, engine());
  if (is_reference_impl(pd.impl_info_str()))
    return decline("oneDNN has only its reference implementation (" + std::string(pd.impl_info_str()) + ") for this convolution");
  const double flops = 2.0 * static_cast<double>(N * O * OH * OW) * static_cast<double>(I * KH * KW);
  return std::make_unique<Conv2dKernel>(pd, user_src, user_weights, user_dst, y, flops);
}

}  // namespace relay::compiler::dnnl_impl
