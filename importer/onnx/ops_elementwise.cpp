// Element-wise operators: unary math, activations, broadcasting binary arithmetic and
// comparisons (ONNX's multidirectional broadcasting is numpy's, as Relay's), Clip, Where.
#include <cmath>
#include <limits>

#include "importer/onnx/convert.h"
#include "importer/onnx/fold.h"
#include "lang/syntax/printer.h"

namespace relay::importer::onnx {

namespace {

// A literal of input i's dtype.
std::string literal(NodeContext& c, size_t i, double v) {
  return literal_text(c.dtype(i), v);
}

template <const char* Op>
void unary(NodeContext& c) {
  c.emit_output(0, call(Op, {c.atom(0)}));
}

#define UNARY(NAME, OP) constexpr char k##NAME[] = OP;
UNARY(Abs, "abs") UNARY(Neg, "negative") UNARY(Exp, "exp") UNARY(Log, "log") UNARY(Sqrt, "sqrt")
UNARY(Sigmoid, "sigmoid") UNARY(Tanh, "tanh") UNARY(Relu, "nn.relu") UNARY(Floor, "floor") UNARY(Ceil, "ceil")
UNARY(Sin, "sin") UNARY(Cos, "cos") UNARY(Tan, "tan") UNARY(Asin, "asin") UNARY(Acos, "acos")
UNARY(Atan, "atan") UNARY(Sinh, "sinh") UNARY(Cosh, "cosh") UNARY(Asinh, "asinh") UNARY(Acosh, "acosh")
UNARY(Atanh, "atanh") UNARY(Erf, "erf") UNARY(Sign, "sign") UNARY(Not, "logical_not")
UNARY(IsNaN, "isnan")
#undef UNARY

// ONNX rounds halves to even; Relay's `round` rounds them away from zero, so a value
// exactly halfway between integers is rounded as 2 * round(x / 2) instead.
void round_half_even(NodeContext& c) {
  std::string x = c.atom(0);
  std::string is_half = call("equal", {call("abs", {call("subtract", {x, call("trunc", {x})})}), literal(c, 0, 0.5)});
  std::string even = call("multiply", {literal(c, 0, 2), call("round", {call("divide", {x, literal(c, 0, 2)})})});
  c.emit_output(0, call("where", {is_half, even, call("round", {x})}));
}

void identity(NodeContext& c) { c.set_output(0, c.input(0)); }

void reciprocal(NodeContext& c) { c.emit_output(0, call("divide", {literal(c, 0, 1), c.atom(0)})); }

void softplus(NodeContext& c) {
  c.emit_output(0, call("log", {call("add", {call("exp", {c.atom(0)}), literal(c, 0, 1)})}));
}

void softsign(NodeContext& c) {
  std::string x = c.atom(0);
  c.emit_output(0, call("divide", {x, call("add", {call("abs", {x}), literal(c, 0, 1)})}));
}

void leaky_relu(NodeContext& c) {
  c.emit_output(0, call("nn.leaky_relu", {c.atom(0)}, "alpha=" + float_text(c.attr_float("alpha", 0.01f))));
}

void elu(NodeContext& c) {
  std::string x = c.atom(0);
  std::string neg = call("multiply", {literal(c, 0, c.attr_float("alpha", 1.0f)),
                                      call("subtract", {call("exp", {x}), literal(c, 0, 1)})});
  c.emit_output(0, call("where", {call("greater", {x, literal(c, 0, 0)}), x, neg}));
}

void selu(NodeContext& c) {
  std::string x = c.atom(0);
  double alpha = c.attr_float("alpha", 1.67326319217681884765625f), gamma = c.attr_float("gamma", 1.05070102214813232421875f);
  std::string neg = call("multiply", {literal(c, 0, alpha), call("subtract", {call("exp", {x}), literal(c, 0, 1)})});
  c.emit_output(0, call("multiply", {literal(c, 0, gamma), call("where", {call("greater", {x, literal(c, 0, 0)}), x, neg})}));
}

void hard_sigmoid_with(NodeContext& c, double alpha, double beta, bool times_x) {
  std::string x = c.atom(0);
  std::string hs = call("clip", {call("add", {call("multiply", {x, literal(c, 0, alpha)}), literal(c, 0, beta)})},
                        "a_min=0f, a_max=1f");
  c.emit_output(0, times_x ? call("multiply", {x, hs}) : hs);
}

void hard_sigmoid(NodeContext& c) { hard_sigmoid_with(c, c.attr_float("alpha", 0.2f), c.attr_float("beta", 0.5f), false); }
void hard_swish(NodeContext& c) { hard_sigmoid_with(c, 1.0 / 6, 0.5, true); }

void thresholded_relu(NodeContext& c) {
  std::string x = c.atom(0);
  c.emit_output(0, call("where", {call("greater", {x, literal(c, 0, c.attr_float("alpha", 1.0f))}), x,
                                  call("zeros_like", {x})}));
}

void prelu(NodeContext& c) {
  std::string x = c.atom(0), slope = c.atom(1);
  c.emit_output(0, call("where", {call("less", {x, literal(c, 0, 0)}), call("multiply", {x, slope}), x}));
}

void is_inf(NodeContext& c) {
  std::string x = c.atom(0);
  bool neg = c.attr_int("detect_negative", 1), pos = c.attr_int("detect_positive", 1);
  if (neg && pos) {
    c.emit_output(0, call("isinf", {x}));
  } else if (!neg && !pos) {
    c.emit_output(0, call("zeros_like", {call("isinf", {x})}));
  } else {
    c.emit_output(0, call("equal", {x, literal(c, 0, pos ? INFINITY : -INFINITY)}));
  }
}

void clip(NodeContext& c) {
  DataType t = c.dtype(0);
  double lo = -INFINITY, hi = INFINITY;
  if (c.opset() < 11) {
    lo = c.attr_float("min", -std::numeric_limits<float>::max());
    hi = c.attr_float("max", std::numeric_limits<float>::max());
  } else {
    if (c.has_input(1)) lo = c.constant(1, "Clip's min").get_double(0);
    if (c.has_input(2)) hi = c.constant(2, "Clip's max").get_double(0);
  }
  if (!t.is_float()) {
    lo = std::isinf(lo) ? static_cast<double>(integer_min(t)) : lo;
    hi = std::isinf(hi) ? static_cast<double>(integer_max(t)) : hi;
  }
  c.emit_output(0, call("clip", {c.atom(0)}, "a_min=" + float_text(lo) + ", a_max=" + float_text(hi)));
}

// Binary operators; integer operands of small constants fold (shape arithmetic).
template <const char* Op>
void binary(NodeContext& c) {
  if (fold_binary(c, Op)) return;
  c.emit_output(0, call(Op, {c.atom(0), c.atom(1)}));
}

#define BINARY(NAME, OP) constexpr char k##NAME[] = OP;
BINARY(Add, "add") BINARY(Sub, "subtract") BINARY(Mul, "multiply") BINARY(Div, "divide")
BINARY(Equal, "equal") BINARY(Greater, "greater") BINARY(Less, "less") BINARY(GreaterOrEqual, "greater_equal")
BINARY(LessOrEqual, "less_equal") BINARY(And, "logical_and") BINARY(Or, "logical_or") BINARY(Xor, "logical_xor")
BINARY(BitwiseAnd, "bitwise_and") BINARY(BitwiseOr, "bitwise_or") BINARY(BitwiseXor, "bitwise_xor")
#undef BINARY

void pow(NodeContext& c) {
  std::string exponent = c.atom(1);
  DataType base = c.dtype(0);
  if (c.dtype(1) != base) exponent = call("cast", {exponent}, "dtype=" + dtype_attr(base));
  c.emit_output(0, call("power", {c.atom(0), exponent}));
}

void mod(NodeContext& c) {
  c.emit_output(0, call(c.attr_int("fmod", 0) ? "trunc_mod" : "floor_mod", {c.atom(0), c.atom(1)}));
}

// Max, Min, Sum, Mean: variadic, broadcasting.
void variadic(NodeContext& c, const char* op, bool mean) {
  std::string acc = c.atom(0);
  for (size_t i = 1; i < c.input_count(); ++i) acc = call(op, {acc, c.atom(i)});
  if (mean) acc = call("divide", {acc, literal(c, 0, static_cast<double>(c.input_count()))});
  c.emit_output(0, acc);
}
void max(NodeContext& c) { variadic(c, "maximum", false); }
void min(NodeContext& c) { variadic(c, "minimum", false); }
void sum(NodeContext& c) { variadic(c, "add", false); }
void mean(NodeContext& c) { variadic(c, "add", true); }

void where(NodeContext& c) { c.emit_output(0, call("where", {c.atom(0), c.atom(1), c.atom(2)})); }

}  // namespace

void register_elementwise(ConverterTable& t) {
  t.add("Abs", unary<kAbs>); t.add("Neg", unary<kNeg>); t.add("Exp", unary<kExp>); t.add("Log", unary<kLog>);
  t.add("Sqrt", unary<kSqrt>); t.add("Sigmoid", unary<kSigmoid>); t.add("Tanh", unary<kTanh>);
  t.add("Relu", unary<kRelu>); t.add("Floor", unary<kFloor>); t.add("Ceil", unary<kCeil>);
  t.add("Sin", unary<kSin>); t.add("Cos", unary<kCos>); t.add("Tan", unary<kTan>); t.add("Asin", unary<kAsin>);
  t.add("Acos", unary<kAcos>); t.add("Atan", unary<kAtan>); t.add("Sinh", unary<kSinh>); t.add("Cosh", unary<kCosh>);
  t.add("Asinh", unary<kAsinh>); t.add("Acosh", unary<kAcosh>); t.add("Atanh", unary<kAtanh>);
  t.add("Erf", unary<kErf>); t.add("Sign", unary<kSign>); t.add("Not", unary<kNot>); t.add("Round", round_half_even);
  t.add("IsNaN", unary<kIsNaN>); t.add("IsInf", is_inf);
  t.add("Identity", identity); t.add("Reciprocal", reciprocal); t.add("Softplus", softplus);
  t.add("Softsign", softsign); t.add("LeakyRelu", leaky_relu); t.add("Elu", elu); t.add("Selu", selu);
  t.add("HardSigmoid", hard_sigmoid); t.add("HardSwish", hard_swish); t.add("ThresholdedRelu", thresholded_relu);
  t.add("PRelu", prelu); t.add("Clip", clip);
  t.add("Add", binary<kAdd>); t.add("Sub", binary<kSub>); t.add("Mul", binary<kMul>); t.add("Div", binary<kDiv>);
  t.add("Equal", binary<kEqual>); t.add("Greater", binary<kGreater>); t.add("Less", binary<kLess>);
  t.add("GreaterOrEqual", binary<kGreaterOrEqual>); t.add("LessOrEqual", binary<kLessOrEqual>);
  t.add("And", binary<kAnd>); t.add("Or", binary<kOr>); t.add("Xor", binary<kXor>);
  t.add("BitwiseAnd", binary<kBitwiseAnd>); t.add("BitwiseOr", binary<kBitwiseOr>); t.add("BitwiseXor", binary<kBitwiseXor>);
  t.add("Pow", pow); t.add("Mod", mod); t.add("Max", max); t.add("Min", min); t.add("Sum", sum); t.add("Mean", mean);
  t.add("Where", where);
}

}  // namespace relay::importer::onnx
