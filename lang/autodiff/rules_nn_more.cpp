// Gradients of the normalisation, padding and logit-loss operators, which TVM leaves to
// SimplifyInference or has no rule for (nn.layer_norm, nn.pad) or registers in
// _tensor_grad.py (nn.cross_entropy_with_logits).
#include "lang/autodiff/rules_util.h"

namespace relay::autodiff {
namespace {

using C = const GradientCall&;

// nn.layer_norm over `axis`: y = xhat * gamma + beta with xhat = (x - mean) / sigma and
// sigma = sqrt(var + eps), var the biased variance along `axis`. With h = g * gamma:
//   dx = (h - mean(h) - xhat * mean(h * xhat)) / sigma
GradientResult layer_norm_grad(C c) {
  size_t rank = c.input_tensor(0).rank();
  int64_t axis = axis_from_front(c.attrs.get_int("axis", -1), rank);
  std::string over = "axis=[" + std::to_string(axis) + "], keepdims=True";
  bool scale = c.attrs.get_bool("scale", true), center = c.attrs.get_bool("center", true);
  const Term &x = c.inputs[0], &gamma = c.inputs[1], &beta = c.inputs[2], &g = c.grad;
  Term centred = c.bind(sub(x, call("mean", {x}, over)));
  Term inv = c.bind(call("rsqrt", {add(call("mean", {mul(centred, centred)}, over),
                                       c.literal(c.attrs.get_double("epsilon", 1e-5)))}));
  Term xhat = c.bind(mul(centred, inv));
  Term h = c.bind(scale ? mul(g, along_axis(gamma, axis, rank)) : g);
  Term dx = mul(sub(sub(h, call("mean", {h}, over)), mul(xhat, call("mean", {mul(h, xhat)}, over))), inv);
  Term dgamma = scale ? sum_per_channel(mul(g, xhat), axis) : zeros_like(gamma);
  Term dbeta = center ? sum_per_channel(g, axis) : zeros_like(beta);
  return grads({dx, dgamma, dbeta});
}

// nn.cross_entropy_with_logits(x, y) = -sum(x * y) / batch
GradientResult cross_entropy_with_logits_grad(C c) {
  std::optional<int64_t> batch = c.input_tensor(0).shape[0].constant_value();
  if (!batch) return refuse("needs a static batch size");
  Term scaled = c.bind(div(neg(c.grad), c.literal(static_cast<double>(*batch))));
  return grads({mul(scaled, c.inputs[1]), mul(scaled, c.inputs[0])});
}

// nn.pad(x, value), constant mode: x's gradient is the middle of g, the padding value's
// the sum of the rest.
GradientResult pad_grad(C c) {
  if (c.attrs.get_string("pad_mode") != "constant") return refuse("only in `constant` mode");
  std::optional<std::vector<int64_t>> in = static_shape(c.input_tensor(0));
  if (!in) return refuse("needs a static input shape");
  std::vector<std::vector<int64_t>> widths = c.attrs.get_int_matrix("pad_width");
  if (widths.size() != in->size()) return refuse("needs one `pad_width` pair per axis");
  std::vector<int64_t> begin, end;
  for (size_t i = 0; i < widths.size(); ++i) {
    if (widths[i].size() != 2 || widths[i][0] < 0 || widths[i][1] < 0)
      return refuse("only for non-negative `pad_width` pairs");
    begin.push_back(widths[i][0]);
    end.push_back(widths[i][0] + (*in)[i]);
  }
  std::vector<int64_t> ones(in->size(), 1);
  Term dx = c.bind(call("strided_slice", {c.grad},
                        "begin=" + int_list(begin) + ", end=" + int_list(end) + ", strides=" + int_list(ones) +
                            ", axes=None"));
  Term dvalue = sub(call("sum", {c.grad}), call("sum", {dx}));
  return grads({dx, call("cast_like", {dvalue, c.inputs[1]})});
}

}  // namespace

void register_nn_more_gradients(GradientTable& t) {
  register_gradient(t, "nn.layer_norm", layer_norm_grad);
  register_gradient(t, "nn.cross_entropy_with_logits", cross_entropy_with_logits_grad);
  register_gradient(t, "nn.pad", pad_grad);
}

}  // namespace relay::autodiff
