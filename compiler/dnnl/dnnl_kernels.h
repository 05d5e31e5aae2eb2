// The oneDNN kernels, one maker per operator family (private to compiler/dnnl;
// library_kernel.cpp dispatches by operator). Each returns nullptr with `why` set when it
// declines the call.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "compiler/dnnl/library_kernel.h"

namespace relay::compiler::dnnl_impl {

// `group` (when given, the master's fused group): its element-wise epilogue goes into the
// call too when the kernel can take all of it (conv2d and dense).
std::unique_ptr<LibraryKernel> make_conv2d_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                  std::string* why);
std::unique_ptr<LibraryKernel> make_conv2d_transpose_kernel(const Graph& g, NodeId node, std::string* why);
// qnn.conv2d, qnn.dense, qnn.batch_matmul and qnn.conv2d_transpose on int8
// (quantized_kernels.cpp).
std::unique_ptr<LibraryKernel> make_quantized_conv2d_kernel(const Graph& g, NodeId node, std::string* why);
std::unique_ptr<LibraryKernel> make_quantized_dense_kernel(const Graph& g, NodeId node, std::string* why);
std::unique_ptr<LibraryKernel> make_quantized_batch_matmul_kernel(const Graph& g, NodeId node, std::string* why);
std::unique_ptr<LibraryKernel> make_quantized_conv2d_transpose_kernel(const Graph& g, NodeId node, std::string* why);
std::unique_ptr<LibraryKernel> make_dense_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                 std::string* why);
std::unique_ptr<LibraryKernel> make_batch_matmul_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                        std::string* why);

// nn.batch_matmul's or qnn.batch_matmul's operands x, y and result z (3-D shapes) as
// oneDNN matmul descriptors of the given data types (x's, y's, z's), described in place:
// transposes (the call's transpose_a / transpose_b) as strides. nullopt with `why` set
// unless the shapes are 3-D.
struct BatchMatmulOperands {
  dnnl::memory::desc a, b, c;
  double flops = 0;  // 2 * multiply-adds
};
std::optional<BatchMatmulOperands> batch_matmul_operands(const CallAttrs& attrs, const std::vector<int64_t>& x,
                                                       const std::vector<int64_t>& y, const std::vector<int64_t>& z,
                                                       const std::array<dnnl::memory::data_type, 3>& types,
                                                       std::string* why);

// A batched matmul kernel over operands described in place (matmul_kernel.cpp), for the
// float32 and the int8 makers; its result's dtype is c's.
std::unique_ptr<LibraryKernel> batch_matmul_kernel(const dnnl::matmul::primitive_desc& pd, const dnnl::memory::desc& a,
                                                   const dnnl::memory::desc& b, const dnnl::memory::desc& c,
                                                   std::vector<int64_t> out_shape, double flops);

// A 2-D window's attributes in oneDNN's terms: strides, dilation counted from 0, padding
// before and after (TVM's 1-, 2- and 4-value forms). False when they are not 2-D.
struct Window2d {
  dnnl::memory::dims strides, dilation, pad_l, pad_r;
};
bool read_window(const CallAttrs& attrs, Window2d& window);

// A conv2d call's geometry in oneDNN's terms, for the float32 and the int8 convolutions:
// NCHW data with OIHW weights (any groups) or NHWC with HWIO (groups 1), logical NCHW /
// OIHW (GOIHW when grouped) dims, the plain tags the tensors have in memory, the window.
struct ConvGeometry {
  bool nchw = true;
  int64_t groups = 1;
  dnnl::memory::dims src, weights, dst;
  dnnl::memory::format_tag activation_tag, weight_tag;  // of the tensors as Relay holds them
  Window2d window;
  double flops = 0;  // 2 * multiply-adds
};
// From the call's attributes and its data, weight and result shapes; nullopt with `why`
// set when oneDNN's convolutions here do not take it.
std::optional<ConvGeometry> conv_geometry(const CallAttrs& attrs, const std::vector<int64_t>& x,
                                          const std::vector<int64_t>& w, const std::vector<int64_t>& y,
                                          std::string* why);

// A conv2d_transpose call's geometry for oneDNN's deconvolution, float32 and int8: NCHW
// data, IOHW weights, groups 1; logical dims (weights OIHW as oneDNN names them), the
// window with TVM's output_padding taken off the trailing padding. nullopt with `why` set
// otherwise (conv_transpose_kernel.cpp).
struct DeconvGeometry {
  dnnl::memory::dims src, weights, dst;
  Window2d window;
  double flops = 0;  // 2 * multiply-adds
};
std::optional<DeconvGeometry> deconv_geometry(const CallAttrs& attrs, const std::vector<int64_t>& x,
                                              const std::vector<int64_t>& w, const std::vector<int64_t>& y,
                                              std::string* why);

// A float32 descriptor whose layout the primitive chooses.
dnnl::memory::desc any_layout(const dnnl::memory::dims& dims);

// The node's input `i` and its own shapes, when every one is a float32 tensor of constant
// shape; nullopt with `why` otherwise.
struct FloatShapes {
  std::vector<std::vector<int64_t>> inputs;
  std::vector<int64_t> output;
};
std::optional<FloatShapes> float32_shapes(const Graph& g, NodeId node, std::string* why);

}  // namespace relay::compiler::dnnl_impl
