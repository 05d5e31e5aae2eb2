// Gradients of the neural-network operators (reference §6.4): activations, softmax,
// bias, dense and batched products, pooling, convolution, cross-entropy.
#include "lang/autodiff/rules_util.h"

namespace relay::autodiff {
namespace {

using C = const GradientCall&;

Term positive(C c) { return call("less", {zeros_like(c.inputs[0]), c.inputs[0]}); }

GradientResult relu_grad(C c) { return grads({call("where", {positive(c), c.grad, zeros_like(c.grad)})}); }
GradientResult leaky_relu_grad(C c) {
  Term alpha = c.literal(c.attrs.get_double("alpha"));
  return grads({call("where", {positive(c), c.grad, mul(c.grad, alpha)})});
}

std::string axis_attr(C c) {
  int64_t axis = axis_from_front(c.attrs.get_int("axis", -1), c.input_tensor(0).rank());
  return "axis=[" + std::to_string(axis) + "], keepdims=True";
}
GradientResult softmax_grad(C c) {
  // dx = (g - sum(g * y, axis)) * y
  Term dot = call("sum", {mul(c.grad, c.output)}, axis_attr(c));
  return grads({mul(sub(c.grad, dot), c.output)});
}
GradientResult log_softmax_grad(C c) {
  // dx = g - sum(g, axis) * exp(y)
  Term total = call("sum", {c.grad}, axis_attr(c));
  return grads({sub(c.grad, mul(total, call("exp", {c.output})))});
}

GradientResult bias_add_grad(C c) {
  int64_t axis = axis_from_front(c.attrs.get_int("axis", 1), c.input_tensor(0).rank());
  return grads({c.grad, sum_per_channel(c.grad, axis)});
}

bool default_out_dtype(C c) {
  std::optional<DataType> out = c.attrs.get_dtype("out_dtype");
  return !out || *out == c.input_tensor(0).dtype;
}

GradientResult dense_grad(C c) {
  if (c.input_tensor(0).rank() != 2 || c.input_tensor(1).rank() != 2) return refuse("only for 2-d data and weight");
  if (!default_out_dtype(c)) return refuse("not with an `out_dtype` other than the inputs'");
  // y = x w^T:  dx = g w,  dw = g^T x
  Term dx = call("nn.dense", {c.grad, call("transpose", {c.inputs[1]}, "axes=None")}, "units=None");
  Term dw = call("nn.dense", {call("transpose", {c.grad}, "axes=None"), call("transpose", {c.inputs[0]}, "axes=None")}, "units=None");
  return grads({dx, dw});
}

// A product out = op_a(x) op_b(y), op a transpose of the last two axes when its flag is
// set (nn.batch_matmul, nn.matmul): dA = g B^T, dB = A^T g, each transposed back when its
// operand was, written as the same operator with other flags.
GradientResult product_grad(C c, const std::string& units) {
  if (!default_out_dtype(c)) return refuse("not with an `out_dtype` other than the inputs'");
  bool ta = c.attrs.get_bool("transpose_a"), tb = c.attrs.get_bool("transpose_b");
  std::string op(c.op.name);
  auto product = [&](const Term& p, const Term& q, bool tp, bool tq) {
    return call(op, {p, q},
                units + std::string("transpose_a=") + (tp ? "True" : "False") + ", transpose_b=" + (tq ? "True" : "False"));
  };
  const Term &x = c.inputs[0], &y = c.inputs[1], &g = c.grad;
  Term dx = !ta ? (tb ? product(g, y, false, false) : product(g, y, false, true))
                : (tb ? product(y, g, true, true) : product(y, g, false, true));
  Term dy = !tb ? (ta ? product(x, g, false, false) : product(x, g, true, false))
                : (ta ? product(g, x, true, true) : product(g, x, true, false));
  return grads({dx, dy});
}

GradientResult batch_matmul_grad(C c) {
  GradientResult r = product_grad(c, "");
  // A batch of 1 broadcast against a longer one sums its gradient over the batch.
  if (r.error.empty() && c.input_tensor(0).shape[0] != c.input_tensor(1).shape[0]) {
    r.grads[0] = call("collapse_sum_like", {r.grads[0], c.inputs[0]});
    r.grads[1] = call("collapse_sum_like", {r.grads[1], c.inputs[1]});
  }
  return r;
}

GradientResult matmul_grad(C c) {
  if (c.input_tensor(0).rank() != 2) return refuse("only for 2-d data");
  return product_grad(c, "units=None, ");
}

GradientResult global_avg_pool_grad(C c) {
  std::optional<std::vector<int64_t>> in = static_shape(c.input_tensor(0));
  std::optional<std::vector<int64_t>> out = static_shape(c.output_tensor());
  if (!in || !out) return refuse("needs static shapes");
  int64_t window = 1;
  for (int64_t d : *in) window *= d;
  for (int64_t d : *out) window /= d == 0 ? 1 : d;
  return grads({call("broadcast_to_like", {div(c.grad, c.literal(static_cast<double>(window))), c.inputs[0]})});
}

// nn.max_pool2d / nn.avg_pool2d: their `_grad` operators take the same attributes, but
// for count_include_pad: TVM registers nn.avg_pool2d_grad with MaxPool2DAttrs, so the
// text of a call cannot carry it (reference §3.0) and only its default is differentiable.
GradientResult max_pool2d_grad(C c) {
  return grads({call("nn.max_pool2d_grad", {c.grad, c.inputs[0]}, c.attrs_text())});
}
GradientResult avg_pool2d_grad(C c) {
  if (c.attrs.get_bool("count_include_pad"))
    return refuse("not with `count_include_pad=True`, which `nn.avg_pool2d_grad`'s attributes cannot say");
  return grads({call("nn.avg_pool2d_grad", {c.grad, c.inputs[0]}, c.attrs_text({"count_include_pad"}))});
}

// nn.conv2d, NCHW data and OIHW weights: the data's gradient is the transposed convolution
// of the output's gradient with the same weights (read as IOHW), padded on the output side
// to give back the input's exact size where the strides dropped rows; the weights' is
// nn.conv2d_backward_weight (TVM's rule, with the dilation in the size computation).
GradientResult conv2d_grad(C c) {
  if (c.attrs.get_string("data_layout") != "NCHW" || c.attrs.get_string("kernel_layout") != "OIHW")
    return refuse("only for NCHW data and OIHW weights");
  if (!default_out_dtype(c)) return refuse("not with an `out_dtype` other than the inputs'");
  std::string out_layout = c.attrs.get_string("out_layout");
  if (!out_layout.empty() && out_layout != "NCHW") return refuse("only for an NCHW output");
  std::optional<std::vector<int64_t>> in = static_shape(c.input_tensor(0));
  std::optional<std::vector<int64_t>> w = static_shape(c.input_tensor(1));
  std::optional<std::vector<int64_t>> out = static_shape(c.output_tensor());
  if (!in || !w || !out) return refuse("needs static shapes");
  std::vector<int64_t> strides = c.attrs.get_ints("strides"), dilation = c.attrs.get_ints("dilation");
  std::vector<int64_t> padding = c.attrs.get_ints("padding");
  if (strides.size() == 1) strides.push_back(strides[0]);
  if (dilation.size() == 1) dilation.push_back(dilation[0]);
  // [all], [vertical, horizontal] or [top, left, bottom, right]
  if (padding.size() == 1) padding = {padding[0], padding[0], padding[0], padding[0]};
  if (padding.size() == 2) padding = {padding[0], padding[1], padding[0], padding[1]};
  if (strides.size() != 2 || dilation.size() != 2 || padding.size() != 4) return refuse("needs 2-d strides, dilation and padding");
  std::vector<int64_t> output_padding(2);
  for (int i = 0; i < 2; ++i) {
    int64_t covered = ((*out)[2 + i] - 1) * strides[i] - padding[i] - padding[i + 2] + dilation[i] * ((*w)[2 + i] - 1) + 1;
    output_padding[i] = (*in)[2 + i] - covered;
  }
  int64_t groups = c.attrs.get_int("groups", 1);
  std::string common = "strides=" + int_list(strides) + ", padding=" + int_list(padding) +
                       ", dilation=" + int_list(dilation) + ", groups=" + std::to_string(groups);
  std::string kernel = "kernel_size=" + int_list({(*w)[2], (*w)[3]});
  Term dx = call("nn.conv2d_transpose", {c.grad, c.inputs[1]},
                 "channels=" + std::to_string((*in)[1]) + ", " + kernel + ", " + common +
                     ", output_padding=" + int_list(output_padding));
  // Its layout attributes are repurposed (TVM's builder): data_layout is the gradient's,
  // kernel_layout the data's, out_layout the weights'.
  Term dw = call("nn.conv2d_backward_weight", {c.grad, c.inputs[0]},
                 common + ", channels=" + std::to_string((*w)[0]) + ", " + kernel +
                     ", data_layout=\"NCHW\", kernel_layout=\"NCHW\", out_layout=\"OIHW\"");
  return grads({dx, dw});
}

// nn.batch_norm with its moving statistics (Relay's only semantics; training rewrites it
// first): out = (x - mean) * gamma / sqrt(var + eps) + beta along `axis`, and the
// statistics passed through as the result's fields 1 and 2.
GradientResult batch_norm_grad(C c) {
  size_t rank = c.input_tensor(0).rank();
  int64_t axis = axis_from_front(c.attrs.get_int("axis", 1), rank);
  auto along = [&](const Term& t) { return along_axis(t, axis, rank); };
  auto per_channel = [&](const Term& t) { return sum_per_channel(t, axis); };
  const Term &x = c.inputs[0], &gamma = c.inputs[1], &beta = c.inputs[2], &mean = c.inputs[3], &var = c.inputs[4];
  Term g{c.grad.text + ".0"};
  bool scale = c.attrs.get_bool("scale", true), center = c.attrs.get_bool("center", true);
  Term inv = call("rsqrt", {add(var, c.literal(c.attrs.get_double("epsilon", 1e-5)))});
  Term factor = scale ? mul(gamma, inv) : inv;  // d out / d x, per channel
  Term centred = sub(x, along(mean));
  Term g_centred = per_channel(mul(g, centred));
  Term dx = mul(g, along(factor));
  Term dgamma = scale ? mul(g_centred, inv) : zeros_like(gamma);
  Term dbeta = center ? per_channel(g) : zeros_like(beta);
  Term dmean = add(neg(mul(per_channel(g), factor)), Term{c.grad.text + ".1"});
  // d/dvar (var + eps)^(-1/2) = -1/2 inv^3
  Term dinv = mul(c.literal(-0.5), mul(inv, mul(inv, inv)));
  Term dvar = add(mul(g_centred, scale ? mul(gamma, dinv) : dinv), Term{c.grad.text + ".2"});
  return grads({dx, dgamma, dbeta, dmean, dvar});
}

GradientResult cross_entropy_grad(C c) {
  // out = -sum(log(x) * y) / batch
  std::optional<int64_t> batch = c.input_tensor(0).shape[0].constant_value();
  if (!batch) return refuse("needs a static batch size");
  Term scaled = div(neg(c.grad), c.literal(static_cast<double>(*batch)));
  return grads({div(mul(scaled, c.inputs[1]), c.inputs[0]), mul(scaled, call("log", {c.inputs[0]}))});
}

}  // namespace

void register_nn_gradients(GradientTable& t) {
  register_gradient(t, "nn.relu", relu_grad);
  register_gradient(t, "nn.leaky_relu", leaky_relu_grad);
  register_gradient(t, "nn.softmax", softmax_grad);
  register_gradient(t, "nn.log_softmax", log_softmax_grad);
  register_gradient(t, "nn.bias_add", bias_add_grad);
  register_gradient(t, "nn.dense", dense_grad);
  register_gradient(t, "nn.batch_matmul", batch_matmul_grad);
  register_gradient(t, "nn.matmul", matmul_grad);
  register_gradient(t, "nn.global_avg_pool2d", global_avg_pool_grad);
  register_gradient(t, "nn.max_pool2d", max_pool2d_grad);
  register_gradient(t, "nn.avg_pool2d", avg_pool2d_grad);
  register_gradient(t, "nn.cross_entropy", cross_entropy_grad);
  register_gradient(t, "nn.conv2d", conv2d_grad);
  register_gradient(t, "nn.batch_norm", batch_norm_grad);
}

}  // namespace relay::autodiff
