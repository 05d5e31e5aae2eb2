// Gradients of the element-wise and broadcasting operators (reference §6.4: TVM's
// _tensor_grad.py, plus the inverse hyperbolic functions' companions it lacks: `rsqrt`,
// `maximum`, `minimum` and the comparisons). Binary results are summed back to each
// input's shape (`collapse_sum_like`).
#include <cmath>

#include "lang/autodiff/rules_util.h"

namespace relay::autodiff {
namespace {

using C = const GradientCall&;

Term x(C c) { return c.inputs[0]; }
Term one(C c) { return c.literal(1); }
Term square(const Term& t) { return mul(t, t); }

GradientResult add_grad(C c) { return grads({unbroadcast(c, c.grad, 0), unbroadcast(c, c.grad, 1)}); }
GradientResult subtract_grad(C c) {
  return grads({unbroadcast(c, c.grad, 0), unbroadcast(c, neg(c.grad), 1)});
}
GradientResult multiply_grad(C c) {
  return grads({unbroadcast(c, mul(c.grad, c.inputs[1]), 0), unbroadcast(c, mul(c.grad, c.inputs[0]), 1)});
}
GradientResult divide_grad(C c) {
  // d(a/b)/db = -a/b^2 = -(a/b)/b
  return grads({unbroadcast(c, div(c.grad, c.inputs[1]), 0),
                unbroadcast(c, neg(mul(c.grad, div(c.output, c.inputs[1]))), 1)});
}
// The gradient flows to the input that was selected; ties go to the first (TVM registers
// neither operator).
GradientResult select_grad(C c, const char* first_wins) {
  Term pick = call(first_wins, {c.inputs[0], c.inputs[1]});
  Term zero = zeros_like(c.grad);
  return grads({unbroadcast(c, call("where", {pick, c.grad, zero}), 0),
                unbroadcast(c, call("where", {pick, zero, c.grad}), 1)});
}
GradientResult maximum_grad(C c) { return select_grad(c, "greater_equal"); }
GradientResult minimum_grad(C c) { return select_grad(c, "less_equal"); }

// Comparisons and other piecewise-constant results: zero gradients.
GradientResult zero_grads(C c) {
  std::vector<Term> g;
  for (const Term& in : c.inputs) g.push_back(zeros_like(in));
  return grads(std::move(g));
}

GradientResult negative_grad(C c) { return grads({neg(c.grad)}); }
GradientResult identity_grad(C c) { return grads({c.grad}); }
GradientResult exp_grad(C c) { return grads({mul(c.grad, c.output)}); }
GradientResult log_grad(C c) { return grads({div(c.grad, x(c))}); }
GradientResult log2_grad(C c) { return grads({div(c.grad, mul(x(c), c.literal(std::log(2.0))))}); }
GradientResult log10_grad(C c) { return grads({div(c.grad, mul(x(c), c.literal(std::log(10.0))))}); }
GradientResult sqrt_grad(C c) { return grads({div(mul(c.grad, c.literal(0.5)), c.output)}); }
GradientResult rsqrt_grad(C c) {
  // d x^(-1/2) = -1/2 x^(-3/2) = -1/2 y^3
  return grads({mul(c.grad, mul(c.literal(-0.5), mul(c.output, square(c.output))))});
}
GradientResult sigmoid_grad(C c) { return grads({mul(c.grad, mul(c.output, sub(one(c), c.output)))}); }
GradientResult tanh_grad(C c) { return grads({mul(c.grad, sub(one(c), square(c.output)))}); }
GradientResult sin_grad(C c) { return grads({mul(c.grad, call("cos", {x(c)}))}); }
GradientResult cos_grad(C c) { return grads({neg(mul(c.grad, call("sin", {x(c)})))}); }
GradientResult tan_grad(C c) { return grads({div(c.grad, square(call("cos", {x(c)})))}); }
GradientResult sinh_grad(C c) { return grads({mul(c.grad, call("cosh", {x(c)}))}); }
GradientResult cosh_grad(C c) { return grads({mul(c.grad, call("sinh", {x(c)}))}); }
GradientResult asin_grad(C c) { return grads({div(c.grad, call("sqrt", {sub(one(c), square(x(c)))}))}); }
GradientResult acos_grad(C c) { return grads({neg(div(c.grad, call("sqrt", {sub(one(c), square(x(c)))})))}); }
GradientResult atan_grad(C c) { return grads({div(c.grad, add(one(c), square(x(c))))}); }
GradientResult asinh_grad(C c) { return grads({div(c.grad, call("sqrt", {add(square(x(c)), one(c))}))}); }
GradientResult acosh_grad(C c) { return grads({div(c.grad, call("sqrt", {sub(square(x(c)), one(c))}))}); }
GradientResult atanh_grad(C c) { return grads({div(c.grad, sub(one(c), square(x(c))))}); }
GradientResult erf_grad(C c) {
  // d erf(x) = 2/sqrt(pi) exp(-x^2)
  return grads({mul(c.grad, mul(c.literal(2 / std::sqrt(M_PI)), call("exp", {neg(square(x(c)))})))});
}
GradientResult abs_grad(C c) {
  // TVM's rule: -1 where x < 0, else 1 (so 1 at 0).
  Term ones = ones_like(x(c));
  return grads({mul(c.grad, call("where", {call("less", {x(c), zeros_like(x(c))}), neg(ones), ones}))});
}
// clip: the gradient passes where the value was not clamped. (TVM's rule truncates the
// bounds to integers, reference §6.4; these are the exact bounds.)
GradientResult clip_grad(C c) {
  Term inside = call("logical_and", {call("greater_equal", {x(c), c.literal(c.attrs.get_double("a_min"))}),
                                     call("less_equal", {x(c), c.literal(c.attrs.get_double("a_max"))})});
  return grads({call("where", {inside, c.grad, zeros_like(c.grad)})});
}
GradientResult cast_grad(C c) { return grads({call("cast_like", {c.grad, x(c)})}); }
GradientResult where_grad(C c) {
  Term zero = zeros_like(c.grad);
  return grads({zeros_like(c.inputs[0]), unbroadcast(c, call("where", {c.inputs[0], c.grad, zero}), 1),
                unbroadcast(c, call("where", {c.inputs[0], zero, c.grad}), 2)});
}

}  // namespace

void register_elementwise_gradients(GradientTable& t) {
  register_gradient(t, "add", add_grad);
  register_gradient(t, "subtract", subtract_grad);
  register_gradient(t, "multiply", multiply_grad);
  register_gradient(t, "divide", divide_grad);
  register_gradient(t, "maximum", maximum_grad);
  register_gradient(t, "minimum", minimum_grad);
  for (const char* op : {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "zeros_like",
                         "ones_like", "sign", "floor", "ceil", "round", "trunc"})
    register_gradient(t, op, zero_grads);
  register_gradient(t, "negative", negative_grad);
  register_gradient(t, "copy", identity_grad);
  register_gradient(t, "exp", exp_grad);
  register_gradient(t, "log", log_grad);
  register_gradient(t, "log2", log2_grad);
  register_gradient(t, "log10", log10_grad);
  register_gradient(t, "sqrt", sqrt_grad);
  register_gradient(t, "rsqrt", rsqrt_grad);
  register_gradient(t, "sigmoid", sigmoid_grad);
  register_gradient(t, "tanh", tanh_grad);
  register_gradient(t, "sin", sin_grad);
  register_gradient(t, "cos", cos_grad);
  register_gradient(t, "tan", tan_grad);
  register_gradient(t, "sinh", sinh_grad);
  register_gradient(t, "cosh", cosh_grad);
  register_gradient(t, "asin", asin_grad);
  register_gradient(t, "acos", acos_grad);
  register_gradient(t, "atan", atan_grad);
  register_gradient(t, "asinh", asinh_grad);
  register_gradient(t, "acosh", acosh_grad);
  register_gradient(t, "atanh", atanh_grad);
  register_gradient(t, "erf", erf_grad);
  register_gradient(t, "abs", abs_grad);
  register_gradient(t, "cast", cast_grad);
  register_gradient(t, "clip", clip_grad);
  register_gradient(t, "where", where_grad);
}

}  // namespace relay::autodiff
