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
  int64_t axis = c.attrs.get_int("axis", -1);
  if (axis < 0) axis += static_cast<int64_t>(c.input_tensor(0).rank());
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
  int64_t axis = c.attrs.get_int("axis", 1);
  if (axis < 0) axis += static_cast<int64_t>(c.input_tensor(0).rank());
  return grads({c.grad, call("sum", {c.grad}, "axis=[" + std::to_string(axis) + "], exclude=True")});
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

GradientResult batch_matmul_grad(C c) {
  if (!default_out_dtype(c)) return refuse("not with an `out_dtype` other than the inputs'");
  bool ta = c.attrs.get_bool("transpose_a"), tb = c.attrs.get_bool("transpose_b");
  auto bmm = [](const Term& p, const Term& q, bool tp, bool tq) {
    return call("nn.batch_matmul", {p, q},
                std::string("transpose_a=") + (tp ? "True" : "False") + ", transpose_b=" + (tq ? "True" : "False"));
  };
  const Term &x = c.inputs[0], &y = c.inputs[1], &g = c.grad;
  // With A = op_a(x), B = op_b(y) and out = A B: dA = g B^T, dB = A^T g, each transposed
  // back when its operand was.
  Term dx = !ta ? (tb ? bmm(g, y, false, false) : bmm(g, y, false, true))
                : (tb ? bmm(y, g, true, true) : bmm(y, g, false, true));
  Term dy = !tb ? (ta ? bmm(x, g, false, false) : bmm(x, g, true, false))
                : (ta ? bmm(g, x, true, true) : bmm(g, x, true, false));
  // A batch of 1 broadcast against a longer one sums its gradient over the batch.
  if (c.input_tensor(0).shape[0] != c.input_tensor(1).shape[0]) {
    dx = call("collapse_sum_like", {dx, x});
    dy = call("collapse_sum_like", {dy, y});
  }
  return grads({dx, dy});
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
  register_gradient(t, "nn.global_avg_pool2d", global_avg_pool_grad);
  register_gradient(t, "nn.max_pool2d", max_pool2d_grad);
  register_gradient(t, "nn.avg_pool2d", avg_pool2d_grad);
  register_gradient(t, "nn.cross_entropy", cross_entropy_grad);
}

}  // namespace relay::autodiff
