// qnn.conv2d, qnn.dense and qnn.batch_matmul through oneDNN's int8 primitives: int8 or
// uint8 data with its zero point, int8 weights with zero point 0 (symmetric weights, what
// TVM's quantizers and PyTorch's produce) or uint8 weights with zero point 128 (flipped
// to int8 when prepared; canonicalize_qnn splits any other weight zero point off into
// its own term), a batch_matmul's second operand (an activation) int8 with any zero
// point, an int32 result; a convolution in NCHW/OIHW (any groups) or NHWC/HWIO. The result is what TVM's QNN canonicalisation computes, sum((data - data_zp)
// * weight) in int32, and the reference kernel's bit for bit, on processors with VNNI
// instructions (AVX-512 VNNI, AVX-VNNI, AMX), whose int8 products accumulate exactly in
// int32. Without them oneDNN multiplies pairs into saturating int16 sums (or halves the
// weights), so the call declines and the reference kernel runs. The scales do not enter
// the int32 result (the requantize after it uses them) and the epilogue stays outside the
// call.
#include <memory>

#include "compiler/dnnl/dnnl_kernels.h"
#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/prepared_kernel.h"

namespace relay::compiler::dnnl_impl {

using dnnl::memory;
using tag = memory::format_tag;

namespace {

// Whether oneDNN's int8 kernels on this processor accumulate products exactly.
bool exact_int8_products() {
  const auto isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
  const auto has = [isa](dnnl_cpu_isa_t bits) { return (isa & static_cast<unsigned>(bits)) == static_cast<unsigned>(bits); };
  return has(dnnl_cpu_isa_avx512_core_vnni) || has(dnnl_cpu_isa_avx2_vnni);
}

// The value of a scalar integer constant node (a zero point), or nullopt.
std::optional<int32_t> scalar_int_constant(const Graph& g, NodeId id) {
  const auto v = g[id].constant.defined() && g[id].constant.dtype().is_int() ? scalar_constant(g[id]) : std::nullopt;
  if (!v) return std::nullopt;
  return static_cast<int32_t>(*v);
}

std::optional<memory::data_type> quantized_type(Ty t) {
  const auto* tensor = ty_as<TensorTy>(t);
  if (!tensor) return std::nullopt;
  const DataType d = tensor->dtype;
  if (d == DataType::int_(8)) return memory::data_type::s8;
  if (d == DataType::uint_(8)) return memory::data_type::u8;
  if (d == DataType::int_(32)) return memory::data_type::s32;
  return std::nullopt;
}

// What both kernels take of a qnn.conv2d or qnn.dense call (data, weight, data zero point,
// weight zero point, data scale, weight scale), or nullopt with `why` set.
struct QuantizedCall {
  memory::data_type data;  // s8 or u8
  int32_t data_zero;
  int32_t weight_zero = 0;  // qnn.batch_matmul's second operand's; 0 for weights
  bool uint8_weights = false;  // uint8 weights with zero point 128, flipped to int8 once
  std::vector<int64_t> data_shape, weight_shape, out_shape;
  // The primitive's attributes: the caller's scratchpad, the data's zero point.
  dnnl::primitive_attr attr() const {
    dnnl::primitive_attr a = caller_scratchpad();
    // TVM pads the data with its zero point, and oneDNN's padding with a source zero point
    // contributes nothing either (library_kernel_test.cpp checks the borders).
    if (data_zero != 0) a.set_zero_points(DNNL_ARG_SRC, 0, {data_zero});
    if (weight_zero != 0) a.set_zero_points(DNNL_ARG_WEIGHTS, 0, {weight_zero});
    return a;
  }
  // The prepared kernel over the plain user tensors, told when its uint8 weights are flipped.
  template <class Primitive>
  std::unique_ptr<LibraryKernel> prepared(const typename Primitive::primitive_desc& pd, const memory::desc& src,
                                          const memory::desc& weights, const memory::desc& dst, double flops) const {
    auto kernel = std::make_unique<PreparedKernel<Primitive>>(pd, src, weights, dst, out_shape, flops);
    if (uint8_weights) kernel->present_uint8_weights_as_int8();
    return kernel;
  }
};

// `any_weight_zero`: the second operand may have any constant zero point (oneDNN's
// matmul takes one; its convolutions do not).
std::optional<QuantizedCall> quantized_call(const Graph& g, const Node& n, std::string* why,
                                            bool any_weight_zero = false) {
  auto decline = [&](std::string reason) -> std::optional<QuantizedCall> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (n.inputs.size() != 6) return decline("a quantized call takes six inputs");
  const auto src_type = quantized_type(g[n.inputs[0]].type), weight_type = quantized_type(g[n.inputs[1]].type);
  const auto dst_type = quantized_type(n.type);
  const bool uint8_weights = !any_weight_zero && weight_type == memory::data_type::u8;
  if (!src_type || *src_type == memory::data_type::s32 || (weight_type != memory::data_type::s8 && !uint8_weights) ||
      dst_type != memory::data_type::s32)
    return decline("oneDNN's int8 kernels here take int8 or uint8 data, int8 weights (or uint8 ones with zero point "
                   "128) and an int32 result");
  if (!exact_int8_products())
    return decline("this processor has no VNNI instructions, and oneDNN's int8 products without them can saturate");
  const auto data_zero = scalar_int_constant(g, n.inputs[2]), kernel_zero = scalar_int_constant(g, n.inputs[3]);
  if (!data_zero) return decline("the data's zero point is not one constant");
  if (any_weight_zero && !kernel_zero) return decline("the second operand's zero point is not one constant");
  if (uint8_weights && kernel_zero != 128) return decline("the uint8 weights' zero point is not the constant 128");
  if (!any_weight_zero && !uint8_weights && kernel_zero != 0)
    return decline("the weights' zero point is not the constant 0");
  const auto x = concrete_shape(g[n.inputs[0]].type), w = concrete_shape(g[n.inputs[1]].type);
  const auto y = concrete_shape(n.type);
  if (!x || !w || !y) return decline("not a call of constant shapes");
  // uint8 weights with zero point 128 are int8 weights v - 128 with zero point 0.
  return QuantizedCall{*src_type, *data_zero, uint8_weights ? 0 : *kernel_zero, uint8_weights, *x, *w, *y};
}

}  // namespace

std::unique_ptr<LibraryKernel> make_quantized_conv2d_kernel(const Graph& g, NodeId node, std::string* why) {
  const Node& n = g[node];
  const auto q = quantized_call(g, n, why);
  if (!q) return nullptr;
  const auto geometry = conv_geometry(n.attrs, q->data_shape, q->weight_shape, q->out_shape, why);
  if (!geometry) return nullptr;
  const ConvGeometry& c = *geometry;
  using dt = memory::data_type;
  dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                       memory::desc(c.src, q->data, tag::any), memory::desc(c.weights, dt::s8, tag::any),
                                       memory::desc(), memory::desc(c.dst, dt::s32, tag::any), c.window.strides,
                                       c.window.dilation, c.window.pad_l, c.window.pad_r);
  dnnl::convolution_forward::primitive_desc pd(desc, q->attr(), engine());
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return q->prepared<dnnl::convolution_forward>(pd, plain(c.src, c.activation_tag, q->data),
                                                plain(c.weights, c.weight_tag, dt::s8),
                                                plain(c.dst, c.activation_tag, dt::s32), c.flops);
}

std::unique_ptr<LibraryKernel> make_quantized_dense_kernel(const Graph& g, NodeId node, std::string* why) {
  const Node& n = g[node];
  const auto q = quantized_call(g, n, why);
  if (!q) return nullptr;
  const std::vector<int64_t>& x = q->data_shape;
  const std::vector<int64_t>& w = q->weight_shape;
  if (x.size() != 2 || w.size() != 2 || x[1] != w[1]) {
    if (why) *why = "oneDNN dense here: 2-D data (M, K) and weight (N, K)";
    return nullptr;
  }
  const int64_t M = x[0], K = x[1], N = w[0];
  // oneDNN's inner product takes no zero points; its matmul does. The weight (N, K) is the
  // matmul's (K, N) read transposed, prepared once into the layout the matmul picks.
  const memory::dims src_dims{M, K}, weight_dims{K, N}, dst_dims{M, N};
  const memory::desc user_weights(weight_dims, memory::data_type::s8, memory::dims{1, K});
  dnnl::matmul::desc desc(plain(src_dims, tag::ab, q->data), memory::desc(weight_dims, memory::data_type::s8, tag::any),
                          plain(dst_dims, tag::ab, memory::data_type::s32));
  dnnl::matmul::primitive_desc pd(desc, q->attr(), engine());
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return q->prepared<dnnl::matmul>(pd, plain(src_dims, tag::ab, q->data), user_weights,
                                   plain(dst_dims, tag::ab, memory::data_type::s32), 2.0 * static_cast<double>(M * N * K));
}

std::unique_ptr<LibraryKernel> make_quantized_conv2d_transpose_kernel(const Graph& g, NodeId node, std::string* why) {
  const Node& n = g[node];
  const auto q = quantized_call(g, n, why);
  if (!q) return nullptr;
  const auto d = deconv_geometry(n.attrs, q->data_shape, q->weight_shape, q->out_shape, why);
  if (!d) return nullptr;
  using dt = memory::data_type;
  dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                         memory::desc(d->src, q->data, tag::any), memory::desc(d->weights, dt::s8, tag::any),
                                         memory::desc(d->dst, dt::s32, tag::any), d->window.strides, d->window.dilation,
                                         d->window.pad_l, d->window.pad_r);
  dnnl::deconvolution_forward::primitive_desc pd(desc, q->attr(), engine());
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return q->prepared<dnnl::deconvolution_forward>(pd, plain(d->src, tag::nchw, q->data),
                                                  plain(d->weights, tag::iohw, dt::s8),
                                                  plain(d->dst, tag::nchw, dt::s32), d->flops);
}

std::unique_ptr<LibraryKernel> make_quantized_batch_matmul_kernel(const Graph& g, NodeId node, std::string* why) {
  const Node& n = g[node];
  const auto q = quantized_call(g, n, why, true);
  if (!q) return nullptr;
  using dt = memory::data_type;
  const auto operands =
      batch_matmul_operands(n.attrs, q->data_shape, q->weight_shape, q->out_shape, {q->data, dt::s8, dt::s32}, why);
  if (!operands) return nullptr;
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(operands->a, operands->b, operands->c), q->attr(), engine());
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return batch_matmul_kernel(pd, operands->a, operands->b, operands->c, q->out_shape, operands->flops);
}

}  // namespace relay::compiler::dnnl_impl
