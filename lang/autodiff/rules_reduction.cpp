// Gradients of the reductions: the output's gradient spread back over the reduced axes
// (reference §6.4; `min` and `prod`, which TVM lacks, follow the same pattern).
#include "lang/autodiff/rules_util.h"

namespace relay::autodiff {
namespace {

using C = const GradientCall&;

const char* kNeedsStaticShape = "needs the input's shape to be static";

int64_t reduced_count(C c, const std::vector<int64_t>& axes) {
  int64_t n = 1;
  for (int64_t a : axes) n *= *c.input_tensor(0).shape[a].constant_value();
  return n;
}

// `sum(t, axis=AXES, keepdims=True)`
Term sum_keep(const Term& t, const std::vector<int64_t>& axes) {
  return call("sum", {t}, "axis=" + int_list(axes) + ", keepdims=True");
}

GradientResult sum_grad(C c) {
  std::vector<int64_t> axes = reduced_axes(c.attrs, c.input_tensor(0).rank());
  std::optional<Term> g = unreduce(c, c.grad, axes);
  if (!g) return refuse(kNeedsStaticShape);
  return grads({*g});
}

GradientResult mean_grad(C c) {
  std::vector<int64_t> axes = reduced_axes(c.attrs, c.input_tensor(0).rank());
  std::optional<Term> g = unreduce(c, c.grad, axes);
  if (!g) return refuse(kNeedsStaticShape);
  return grads({div(*g, c.literal(static_cast<double>(reduced_count(c, axes))))});
}

// max / min: the gradient is shared equally by every position that attains the extreme
// (TVM's rule for max).
GradientResult extreme_grad(C c) {
  std::vector<int64_t> axes = reduced_axes(c.attrs, c.input_tensor(0).rank());
  std::optional<Term> extreme = unreduce(c, c.output, axes);
  std::optional<Term> g = unreduce(c, c.grad, axes);
  if (!extreme || !g) return refuse(kNeedsStaticShape);
  Term x = c.inputs[0];
  Term selected = call("cast_like", {call("equal", {*extreme, x}), x});
  Term count = call("broadcast_to_like", {sum_keep(selected, axes), x});
  return grads({div(mul(selected, *g), count)});
}

// prod: d/dx_i = prod / x_i, which is only defined where x_i != 0.
GradientResult prod_grad(C c) {
  std::vector<int64_t> axes = reduced_axes(c.attrs, c.input_tensor(0).rank());
  std::optional<Term> product = unreduce(c, c.output, axes);
  std::optional<Term> g = unreduce(c, c.grad, axes);
  if (!product || !g) return refuse(kNeedsStaticShape);
  return grads({mul(*g, div(*product, c.inputs[0]))});
}

// variance(x, mean): d/dx = 2 (x - mean) / (N - unbiased); the mean is an input of its
// own here, and TVM's rule gives it the matching gradient -sum(d/dx).
GradientResult variance_grad(C c) {
  std::vector<int64_t> axes = reduced_axes(c.attrs, c.input_tensor(0).rank());
  std::optional<Term> g = unreduce(c, c.grad, axes);
  if (!g) return refuse(kNeedsStaticShape);
  int64_t n = reduced_count(c, axes) - (c.attrs.get_bool("unbiased") ? 1 : 0);
  Term centred = sub(c.inputs[0], c.inputs[1]);
  Term dx = mul(*g, mul(centred, c.literal(2.0 / static_cast<double>(n))));
  return grads({dx, call("collapse_sum_like", {neg(dx), c.inputs[1]})});
}

}  // namespace

void register_reduction_gradients(GradientTable& t) {
  register_gradient(t, "sum", sum_grad);
  register_gradient(t, "mean", mean_grad);
  register_gradient(t, "max", extreme_grad);
  register_gradient(t, "min", extreme_grad);
  register_gradient(t, "prod", prod_grad);
  register_gradient(t, "variance", variance_grad);
}

}  // namespace relay::autodiff
