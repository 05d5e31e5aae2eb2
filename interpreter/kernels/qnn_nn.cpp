// The quantized convolutions, matrix products, concatenate and average pool (reference
// §3.10). Each is the float operator's kernel run on int32 operands, which is what TVM
// 0.14's canonicalisation computes:
//  * qnn.conv2d / conv2d_transpose / dense / contrib_dense_pack / batch_matmul:
//    sum((data - input_zp) * (weight - kernel_zp)) accumulated in out_dtype (int32). TVM
//    expands the product into four terms and pads the data with input_zp; the terms sum to
//    this exactly in wrapping int32, and a padded element contributes zp - zp = 0. The
//    kernel zero point may be per output channel; the scales do not enter the result.
//  * qnn.concatenate: each input requantized to the output's scale and zero point (in the
//    first input's dtype, saturating) unless its own are equal, then concatenated.
//  * qnn.avg_pool2d: the input requantized to int32 at the output's scale and zero point,
//    nn.avg_pool2d on int32, then saturated to the input dtype.
#include <string>

#include "interpreter/kernels/qnn_internal.h"
#include "lang/types/relations/relation_util.h"

namespace relay::rt {
namespace {

// `t` as int32 minus its zero point (one value, or one per channel along `axis`).
NDArray shift_int32(const KernelCall& call, const NDArray& t, size_t zp_arg, int64_t axis, const char* what) {
  const QParam zp = qparam(call, zp_arg, t.shape(), axis, what);
  const std::vector<int64_t> v = to_int64s(t);
  std::vector<int64_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = wrap32(static_cast<int64_t>(wrap32(v[i])) - static_cast<int64_t>(zp.at(static_cast<int64_t>(i))));
  return from_int64s(t.shape(), DataType::int_(32), out);
}

// The output-channel axis of a kernel layout ("OIHW" -> 0, "HWIO" -> 3, "IOHW" -> 1).
int64_t out_channel_axis(const KernelCall& call, const char* fallback) {
  std::string layout = call.attrs.get_string("kernel_layout");
  if (layout.empty()) layout = fallback;
  const auto parsed = rel::Layout::parse(layout);
  const int o = parsed ? parsed->index_of('O') : -1;
  require(call, o >= 0, "kernel_layout \"" + layout + "\" has no output-channel axis O");
  return o;
}

Value run_float_kernel(const KernelCall& call, const char* op, std::vector<Value> args, Ty out_type) {
  const OpInfo& info = required_op(op);
  const KernelFn fn = find_kernel(info);
  KernelCall inner{info, std::span<const Value>(args.data(), args.size()), call.attrs, out_type};
  return fn(inner);
}

// data, weight, input_zp, kernel_zp, input_scale, kernel_scale.
template <const char* Op, const char* DefaultKernelLayout>
Value conv_like(const KernelCall& call) {
  const NDArray data = call.tensor(0), weight = call.tensor(1);
  const NDArray d = shift_int32(call, data, 2, -1, "input_zero_point");
  require(call, qparam(call, 2, data.shape(), -1, "input_zero_point").values.size() == 1,
          "input_zero_point must be a scalar");
  const int64_t axis = DefaultKernelLayout[0] ? out_channel_axis(call, DefaultKernelLayout) : 0;
  const NDArray w = shift_int32(call, weight, 3, axis, "kernel_zero_point");
  return run_float_kernel(call, Op, {d, w}, call.out_type);
}

constexpr char kConv2d[] = "nn.conv2d", kConv2dTranspose[] = "nn.conv2d_transpose", kDense[] = "nn.dense",
               kDensePack[] = "nn.contrib_dense_pack", kBatchMatmul[] = "nn.batch_matmul";
constexpr char kOIHW[] = "OIHW", kIOHW[] = "IOHW", kNone[] = "";

Value dense_pack(const KernelCall& call) {
  require(call, call.tensor(3).size() == 1, "a per-channel kernel_zero_point is not supported with a packed weight");
  return conv_like<kDensePack, kNone>(call);
}

Value batch_matmul(const KernelCall& call) {
  const NDArray x = call.tensor(0), y = call.tensor(1);
  require(call, call.tensor(2).size() == 1 && call.tensor(3).size() == 1, "zero points must be scalars");
  return run_float_kernel(call, kBatchMatmul, {shift_int32(call, x, 2, -1, "x_zero_point"),
                                               shift_int32(call, y, 3, -1, "y_zero_point")},
                          call.out_type);
}

// data (tuple), input_scales (tuple), input_zero_points (tuple), output_scale, output_zp.
Value concatenate(const KernelCall& call) {
  const std::vector<NDArray> data = call.tensors(0), scales = call.tensors(1), zps = call.tensors(2);
  require(call, scales.size() == data.size() && zps.size() == data.size(),
          "needs one scale and one zero point per input");
  require(call, !data.empty(), "needs at least one input");
  const double out_scale = scalar_arg(call, 3, "output_scale");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 4, "output_zero_point"));
  const DataType dtype = data[0].dtype();
  std::vector<Value> parts;
  for (size_t i = 0; i < data.size(); ++i) {
    require(call, scales[i].size() == 1 && zps[i].size() == 1, "input scales and zero points must be scalars");
    const double s = scales[i].get_double(0);
    const auto z = static_cast<int32_t>(zps[i].get_int(0));
    if (static_cast<float>(s) == static_cast<float>(out_scale) && z == out_zp) {
      parts.emplace_back(data[i]);
      continue;
    }
    parts.emplace_back(saturate_to(data[i].shape(), dtype,
                                   requantize_values(data[i], QParam{{s}}, QParam{{static_cast<double>(z)}}, out_scale,
                                                     out_zp, Rounding::Upward)));
  }
  return run_float_kernel(call, "concatenate", {make_tuple(std::move(parts))}, call.out_type);
}

// data, input_scale, input_zp, output_scale, output_zp.
Value avg_pool2d(const KernelCall& call) {
  const NDArray x = call.tensor(0);
  require(call, call.tensor(1).size() == 1 && call.tensor(2).size() == 1, "input scale and zero point must be scalars");
  const double out_scale = scalar_arg(call, 3, "output_scale");
  const auto out_zp = static_cast<int32_t>(scalar_arg(call, 4, "output_zero_point"));
  const double in_scale = scalar_arg(call, 1, "input_scale");
  const auto in_zp = static_cast<int32_t>(scalar_arg(call, 2, "input_zero_point"));
  const auto v = requantize_values(x, QParam{{in_scale}}, QParam{{static_cast<double>(in_zp)}}, out_scale, out_zp,
                                   Rounding::Upward);
  const NDArray wide = from_int64s(x.shape(), DataType::int_(32), std::vector<int64_t>(v.begin(), v.end()));
  const NDArray pooled = run_float_kernel(call, "nn.avg_pool2d", {wide}, nullptr).tensor();
  const std::vector<int64_t> p = to_int64s(pooled);
  return saturate_to(pooled.shape(), x.dtype(), std::vector<int32_t>(p.begin(), p.end()));
}

}  // namespace

void register_qnn_nn_kernels(KernelTable& t) {
  register_kernel(t, "qnn.conv2d", conv_like<kConv2d, kOIHW>);
  register_kernel(t, "qnn.conv2d_transpose", conv_like<kConv2dTranspose, kIOHW>);
  register_kernel(t, "qnn.dense", conv_like<kDense, kNone>);
  register_kernel(t, "qnn.contrib_dense_pack", dense_pack);
  register_kernel(t, "qnn.batch_matmul", batch_matmul);
  register_kernel(t, "qnn.concatenate", concatenate);
  register_kernel(t, "qnn.avg_pool2d", avg_pool2d);
}

}  // namespace relay::rt
