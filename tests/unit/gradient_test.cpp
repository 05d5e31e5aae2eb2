// Every gradient rule (lang/autodiff) against central finite differences: for each case,
// `relay grad`'s pass builds @main_grad, the interpreter runs it, and each parameter's
// gradient is compared with (f(x + h e_i) - f(x - h e_i)) / 2h of f = the sum of @main's
// result, element by element. Most cases multiply the operator's output by a parameter
// %w so that a rule that sends a gradient to the wrong element (a wrong permutation, a
// wrong axis) cannot pass by symmetry.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "interpreter/eval/run.h"
#include "lang/autodiff/first_order.h"
#include "lang/autodiff/gradient_rule.h"

namespace relay {
namespace {

struct GradCase {
  std::vector<std::string> ops;  // the operators whose rules this case exercises
  std::string program;           // the body of @main, parameters included
  double lo = -2, hi = 2;        // inputs are uniform in [lo, hi]
  double step = 1e-6, tolerance = 1e-6;  // float32 cases need a larger step
};

std::vector<GradCase> cases() {
  auto t = [](const std::string& shape) { return "Tensor[(" + shape + "), float64]"; };
  auto weighted = [&](const std::string& params, const std::string& body, const std::string& out_shape) {
    return "def @main(" + params + ", %w: " + t(out_shape) + ") { multiply(" + body + ", %w) }";
  };
  std::vector<GradCase> c;
  auto unary = [&](const std::string& op, double lo, double hi) {
    c.push_back({{op}, weighted("%a: " + t("2, 3"), op + "(%a)", "2, 3"), lo, hi});
  };
  for (const char* op : {"negative", "copy", "exp", "sigmoid", "tanh", "sin", "cos", "sinh", "cosh", "atan",
                         "asinh", "erf", "abs"})
    unary(op, -2, 2);
  for (const char* op : {"log", "log2", "log10", "sqrt", "rsqrt"}) unary(op, 0.5, 2);
  for (const char* op : {"asin", "acos", "atanh"}) unary(op, -0.9, 0.9);
  unary("tan", -1, 1);
  unary("acosh", 1.5, 3);
  unary("nn.relu", -2, 2);
  c.push_back({{"nn.leaky_relu"}, weighted("%a: " + t("2, 3"), "nn.leaky_relu(%a, alpha=0.1f)", "2, 3")});
  for (const char* op : {"add", "subtract", "multiply", "maximum", "minimum"}) {
    c.push_back({{op}, weighted("%a: " + t("2, 3") + ", %b: " + t("3"), std::string(op) + "(%a, %b)", "2, 3")});
    c.push_back({{op}, weighted("%a: " + t("2, 1") + ", %b: " + t("2, 3"), std::string(op) + "(%a, %b)", "2, 3")});
  }
  c.push_back({{"divide"}, weighted("%a: " + t("2, 3") + ", %b: " + t("2, 1"), "divide(%a, %b)", "2, 3"), 0.5, 2});
  // Piecewise-constant operators pass a zero gradient; the product keeps the case
  // differentiable.
  for (const char* op : {"floor", "ceil", "round", "trunc", "sign", "zeros_like", "ones_like"})
    c.push_back({{op, "multiply"}, "def @main(%a: " + t("2, 3") + ") { multiply(" + op + "(%a), %a) }"});
  for (const char* op : {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"})
    c.push_back({{op, "where"},
                 "def @main(%a: " + t("2, 3") + ", %b: " + t("3") + ") { where(" + op +
                     "(%a, %b), multiply(%a, %a), %b) }"});
  c.push_back({{"cast"},
               "def @main(%a: Tensor[(3), float32]) { multiply(cast(%a, dtype=\"float64\"), cast(%a, dtype=\"float64\")) }",
               0.5, 2, 1e-3, 1e-3});
  // Reductions.
  c.push_back({{"sum"}, weighted("%a: " + t("2, 3, 2"), "sum(%a, axis=[1])", "2, 2")});
  c.push_back({{"sum"}, weighted("%a: " + t("2, 3, 2"), "sum(%a, axis=[1], keepdims=True)", "2, 1, 2")});
  c.push_back({{"sum"}, weighted("%a: " + t("2, 3, 2"), "sum(%a, axis=[1], exclude=True)", "3")});
  c.push_back({{"mean"}, weighted("%a: " + t("2, 3"), "mean(%a)", "")});
  c.push_back({{"mean"}, weighted("%a: " + t("2, 3"), "mean(%a, axis=[-1])", "2")});
  c.push_back({{"max"}, weighted("%a: " + t("2, 3"), "max(%a, axis=[0])", "3")});
  c.push_back({{"min"}, weighted("%a: " + t("2, 3"), "min(%a, axis=[1], keepdims=True)", "2, 1")});
  c.push_back({{"prod"}, weighted("%a: " + t("2, 3"), "prod(%a, axis=[1])", "2"), 0.5, 2});
  c.push_back({{"variance"}, weighted("%a: " + t("2, 3"), "variance(%a, mean(%a, axis=[1], keepdims=True), axis=[1])", "2")});
  c.push_back({{"variance"},
               weighted("%a: " + t("2, 3") + ", %m: " + t("2, 1"), "variance(%a, %m, axis=[1], unbiased=True)", "2")});
  // Shapes.
  c.push_back({{"reshape"}, weighted("%a: " + t("2, 3"), "reshape(%a, newshape=[3, 2])", "3, 2")});
  c.push_back({{"contrib_reverse_reshape"},
               weighted("%a: " + t("2, 3"), "contrib_reverse_reshape(%a, newshape=[3, 2])", "3, 2")});
  c.push_back({{"squeeze"}, weighted("%a: " + t("2, 1, 3"), "squeeze(%a, axis=[1])", "2, 3")});
  c.push_back({{"expand_dims"}, weighted("%a: " + t("2, 3"), "expand_dims(%a, axis=1)", "2, 1, 3")});
  c.push_back({{"nn.batch_flatten"}, weighted("%a: " + t("2, 3, 2"), "nn.batch_flatten(%a)", "2, 6")});
  c.push_back({{"reshape_like"}, weighted("%a: " + t("2, 3") + ", %b: " + t("3, 2"), "reshape_like(%a, %b)", "3, 2")});
  c.push_back({{"broadcast_to"}, weighted("%a: " + t("3"), "broadcast_to(%a, shape=[2, 3])", "2, 3")});
  c.push_back({{"broadcast_to_like"},
               weighted("%a: " + t("2, 1") + ", %b: " + t("2, 3"), "broadcast_to_like(%a, %b)", "2, 3")});
  c.push_back({{"collapse_sum_like"},
               weighted("%a: " + t("2, 3") + ", %b: " + t("3"), "collapse_sum_like(%a, %b)", "3")});
  c.push_back({{"transpose"}, weighted("%a: " + t("2, 3, 4"), "transpose(%a, axes=[1, -1, 0])", "3, 4, 2")});
  c.push_back({{"transpose"}, weighted("%a: " + t("2, 3, 4"), "transpose(%a, axes=None)", "4, 3, 2")});
  c.push_back({{"zeros", "ones"},
               "def @main(%a: " + t("2, 3") + ") { add(multiply(%a, ones(shape=[2, 3], dtype=\"float64\")), "
               "zeros(shape=[3], dtype=\"float64\")) }"});
  c.push_back({{"concatenate"},
               weighted("%a: " + t("2, 1") + ", %b: " + t("2, 3"), "concatenate((%a, %b, %a), axis=-1)", "2, 5")});
  c.push_back({{"concatenate"}, weighted("%a: " + t("2, 3"), "concatenate((%a,))", "2, 3")});
  // Only two of the three pieces are used: the third gets zeros.
  c.push_back({{"split"},
               "def @main(%a: " + t("2, 6") + ", %w: " + t("2, 3") + ") {\n  %0 = split(%a, indices_or_sections=[1, 4], axis=1);\n"
               "  (multiply(%0.1, %w), exp(%0.0))\n}"});
  // A let-bound function literal, called twice with a tuple argument, is inlined (an
  // LSTM cell's shape: TVM's LSTM is written this way).
  c.push_back({{"tanh", "sigmoid"},
               "def @main(%x: " + t("2, 3") + ", %h: " + t("2, 3") + ", %c: " + t("2, 3") + ") {\n"
               "  let %cell = fn (%in: " + t("2, 3") + ", %state: (" + t("2, 3") + ", " + t("2, 3") + ")) {\n"
               "    let %next_c = add(multiply(sigmoid(%in), %state.1), tanh(%state.0));\n"
               "    (multiply(tanh(%next_c), %in), %next_c)\n"
               "  };\n"
               "  %0 = %cell(%x, (%h, %c));\n"
               "  %1 = %cell(multiply(%x, %x), %0);\n"
               "  multiply(%1.0, %0.1)\n"
               "}",
               -1, 1});
  // Neural-network operators.
  c.push_back({{"nn.softmax"}, weighted("%a: " + t("2, 3"), "nn.softmax(%a, axis=0)", "2, 3")});
  c.push_back({{"nn.log_softmax"}, weighted("%a: " + t("2, 3"), "nn.log_softmax(%a)", "2, 3")});
  c.push_back({{"nn.bias_add"}, weighted("%a: " + t("2, 3, 2") + ", %b: " + t("3"), "nn.bias_add(%a, %b)", "2, 3, 2")});
  c.push_back({{"nn.bias_add"},
               weighted("%a: " + t("2, 3, 2") + ", %b: " + t("2"), "nn.bias_add(%a, %b, axis=-1)", "2, 3, 2")});
  c.push_back({{"nn.dense"}, weighted("%a: " + t("2, 3") + ", %b: " + t("4, 3"), "nn.dense(%a, %b, units=4)", "2, 4")});
  for (const char* flags : {"transpose_a=False, transpose_b=True", "transpose_a=False, transpose_b=False",
                            "transpose_a=True, transpose_b=False", "transpose_a=True, transpose_b=True"}) {
    std::string f(flags);
    std::string a = f.find("transpose_a=True") != std::string::npos ? "2, 3, 4" : "2, 4, 3";
    std::string b = f.find("transpose_b=True") != std::string::npos ? "2, 5, 3" : "2, 3, 5";
    c.push_back({{"nn.batch_matmul"},
                 weighted("%a: " + t(a) + ", %b: " + t(b), "nn.batch_matmul(%a, %b, " + f + ")", "2, 4, 5")});
  }
  c.push_back({{"nn.batch_matmul"},
               weighted("%a: " + t("1, 4, 3") + ", %b: " + t("2, 5, 3"), "nn.batch_matmul(%a, %b, transpose_b=True)", "2, 4, 5")});
  for (const char* flags : {"transpose_a=False, transpose_b=False", "transpose_a=False, transpose_b=True",
                            "transpose_a=True, transpose_b=False", "transpose_a=True, transpose_b=True"}) {
    std::string f(flags);
    std::string a = f.find("transpose_a=True") != std::string::npos ? "3, 4" : "4, 3";
    std::string b = f.find("transpose_b=True") != std::string::npos ? "5, 3" : "3, 5";
    c.push_back({{"nn.matmul"}, weighted("%a: " + t(a) + ", %b: " + t(b), "nn.matmul(%a, %b, units=None, " + f + ")", "4, 5")});
  }
  c.push_back({{"nn.layer_norm"},
               weighted("%a: " + t("2, 4") + ", %g: " + t("4") + ", %b: " + t("4"), "nn.layer_norm(%a, %g, %b)", "2, 4")});
  c.push_back({{"nn.layer_norm"},
               weighted("%a: " + t("2, 3, 2") + ", %g: " + t("3") + ", %b: " + t("3"),
                        "nn.layer_norm(%a, %g, %b, axis=1, epsilon=0.01f, center=False)", "2, 3, 2")});
  c.push_back({{"nn.layer_norm"},
               weighted("%a: " + t("2, 3") + ", %g: " + t("3") + ", %b: " + t("3"),
                        "nn.layer_norm(%a, %g, %b, scale=False)", "2, 3")});
  c.push_back({{"nn.pad"},
               weighted("%a: " + t("2, 3") + ", %v: float64", "nn.pad(%a, %v, pad_width=[[1, 0], [2, 1]])", "3, 6")});
  c.push_back({{"stack"}, weighted("%a: " + t("2, 3") + ", %b: " + t("2, 3"), "stack((%a, %b, %a), axis=1)", "2, 3, 3")});
  c.push_back({{"strided_slice"},
               weighted("%a: " + t("4, 5"), "strided_slice(%a, begin=[1, -4], end=[3, 4], strides=[1], axes=None)", "2, 3")});
  c.push_back({{"strided_slice"},
               weighted("%a: " + t("4, 5"),
                        "strided_slice(%a, begin=[2], end=[2], strides=[1], axes=[1], slice_mode=\"size\")", "4, 2")});
  c.push_back({{"clip"}, weighted("%a: " + t("2, 3"), "clip(%a, a_min=-0.5f, a_max=0.7f)", "2, 3")});
  c.push_back({{"cast_like", "shape_of"},
               "def @main(%a: " + t("2, 3") + ", %b: Tensor[(3), float32]) {\n"
               "  multiply(cast_like(%a, %b), sum(cast(shape_of(%a), dtype=\"float32\")))\n}",
               -2, 2, 1e-3, 1e-3});
  c.push_back({{"nn.cross_entropy_with_logits"},
               "def @main(%a: " + t("2, 3") + ", %b: " + t("2, 3") + ") { nn.cross_entropy_with_logits(%a, %b) }"});
  c.push_back({{"nn.global_avg_pool2d"}, weighted("%a: " + t("1, 2, 3, 3"), "nn.global_avg_pool2d(%a)", "1, 2, 1, 1")});
  c.push_back({{"nn.max_pool2d"},
               weighted("%a: " + t("1, 2, 4, 4"), "nn.max_pool2d(%a, pool_size=[2, 2], strides=[2, 2])", "1, 2, 2, 2")});
  c.push_back({{"nn.avg_pool2d"},
               weighted("%a: " + t("1, 1, 4, 4"),
                        "nn.avg_pool2d(%a, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], count_include_pad=False)",
                        "1, 1, 2, 2")});
  c.push_back({{"nn.conv2d"},
               weighted("%a: " + t("1, 2, 5, 5") + ", %k: " + t("3, 2, 3, 3"), "nn.conv2d(%a, %k, padding=[1, 1])",
                        "1, 3, 5, 5")});
  // Strides that drop a row, asymmetric padding, dilation, groups.
  c.push_back({{"nn.conv2d"},
               weighted("%a: " + t("1, 2, 6, 6") + ", %k: " + t("2, 2, 2, 2"),
                        "nn.conv2d(%a, %k, strides=[2, 2], padding=[0, 1, 1, 0], dilation=[2, 1])", "1, 2, 3, 3")});
  c.push_back({{"nn.conv2d"},
               weighted("%a: " + t("1, 4, 4, 4") + ", %k: " + t("4, 2, 3, 3"),
                        "nn.conv2d(%a, %k, padding=[1, 1], groups=2)", "1, 4, 4, 4")});
  const std::string channel = t("3");
  const std::string bn_params = ", %g: " + channel + ", %b: " + channel + ", %m: " + channel + ", %v: " + channel;
  c.push_back({{"nn.batch_norm"},
               "def @main(%a: " + t("2, 3, 2, 2") + bn_params + ", %w: " + t("2, 3, 2, 2") +
                   ") {\n  %0 = nn.batch_norm(%a, %g, %b, %m, %v);\n  (multiply(%0.0, %w), %0.1, exp(%0.2))\n}",
               0.5, 2});
  c.push_back({{"nn.batch_norm"},
               "def @main(%a: " + t("2, 2, 3") + bn_params + ", %w: " + t("2, 2, 3") +
                   ") {\n  %0 = nn.batch_norm(%a, %g, %b, %m, %v, axis=-1, epsilon=0.1f, center=False, scale=False);\n"
                   "  multiply(%0.0, %w)\n}",
               0.5, 2});
  c.push_back({{"nn.cross_entropy"},
               "def @main(%a: " + t("2, 3") + ", %b: " + t("2, 3") + ") { nn.cross_entropy(%a, %b) }", 0.2, 1});
  return c;
}

// Sum of every element of every tensor in `v`.
double total(const rt::Value& v) {
  if (v.is_tensor()) {
    rt::NDArray a = v.tensor();
    double s = 0;
    for (int64_t i = 0; i < a.size(); ++i) s += a.get_double(i);
    return s;
  }
  double s = 0;
  for (const rt::Value& f : v.tuple().fields) s += total(f);
  return s;
}

// @main of `program` (the version header added), checked and differentiated as @`name`.
struct Differentiated {
  SourceManager sources;
  FileId file = 0;
  std::unique_ptr<rt::LoadedProgram> loaded;
  DiagnosticBag diags;
  std::optional<std::string> def;

  Differentiated(const std::string& program, const std::string& name) {
    file = sources.add("case.relay", "#[version = \"0.0.5\"]\n" + program + "\n");
    loaded = rt::load_program(sources, file, "main", nullptr, diags);
    REQUIRE(loaded);
    def = autodiff::first_order_gradient(*loaded->entry, *loaded->types.find(loaded->entry), sources.get(file), name,
                                         diags);
  }
};

void check_case(const GradCase& gc) {
  INFO(gc.program);
  Differentiated d(gc.program, "main_grad");
  for (const Diagnostic& diag : d.diags.items()) UNSCOPED_INFO(diag.message);
  REQUIRE(d.def);
  INFO(*d.def);
  SourceManager& sources = d.sources;
  std::string with_grad = autodiff::insert_definition(*d.loaded->front.module, sources.get(d.file), *d.def);
  FileId grad_file = sources.add("case_grad.relay", with_grad);
  DiagnosticBag grad_diags;
  auto program = rt::load_program(sources, grad_file, "main_grad", nullptr, grad_diags);
  for (const Diagnostic& d : grad_diags.items()) UNSCOPED_INFO(d.message);
  REQUIRE(program);

  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uniform(gc.lo, gc.hi);
  std::vector<rt::NDArray> inputs;
  for (const VarDecl* p : program->entry->fn->params) {
    const TensorTy* ty = ty_as<TensorTy>(program->types.find(program->entry)->type_of(p));
    REQUIRE(ty);
    rt::Shape shape;
    for (const Dim& d : ty->shape) shape.push_back(*d.constant_value());
    rt::NDArray a = rt::NDArray::empty(shape, ty->dtype);
    for (int64_t i = 0; i < a.size(); ++i) a.set_double(i, uniform(rng));
    inputs.push_back(a);
  }
  auto run = [&](const FuncDef* fn, const std::vector<rt::NDArray>& args) {
    rt::RunOutcome out = rt::run_function(*program->program, program->program->global(*fn),
                                          std::vector<rt::Value>(args.begin(), args.end()), {}, sources);
    if (out.error) FAIL(out.error->message);
    return *out.value;
  };
  rt::Value result = run(program->entry, inputs);
  REQUIRE(result.is_tuple());
  const rt::TupleObj& gradients = result.tuple().fields[1].tuple();
  REQUIRE(gradients.fields.size() == inputs.size());
  const FuncDef* forward = program->find_global("main");
  REQUIRE(std::abs(total(result.tuple().fields[0]) - total(run(forward, inputs))) < 1e-9);

  for (size_t p = 0; p < inputs.size(); ++p) {
    rt::NDArray grad = gradients.fields[p].tensor();
    REQUIRE(grad.shape() == inputs[p].shape());
    for (int64_t i = 0; i < inputs[p].size(); ++i) {
      std::vector<rt::NDArray> plus, minus;
      for (const rt::NDArray& a : inputs) {
        plus.push_back(a.copy());
        minus.push_back(a.copy());
      }
      double x = inputs[p].get_double(i);
      plus[p].set_double(i, x + gc.step);
      minus[p].set_double(i, x - gc.step);
      double numeric = (total(run(forward, plus)) - total(run(forward, minus))) / (2 * gc.step);
      double analytic = grad.get_double(i);
      INFO("parameter " << p << ", element " << i << ": gradient " << analytic << ", finite differences " << numeric);
      CHECK(std::abs(analytic - numeric) <= gc.tolerance * (1 + std::abs(numeric)));
    }
  }
}

TEST_CASE("every gradient rule agrees with finite differences", "[autodiff]") {
  std::set<std::string> covered;
  for (const GradCase& gc : cases()) {
    for (const std::string& op : gc.ops) covered.insert(op);
    check_case(gc);
  }
  std::string untested;
  for (const OpInfo& op : all_ops())
    if (autodiff::find_gradient(op) && !covered.count(std::string(op.name))) untested += " " + std::string(op.name);
  INFO("operators with a gradient rule but no case here:" << untested);
  CHECK(untested.empty());
}

TEST_CASE("the gradient function shares its parameters and returns (result, gradients)", "[autodiff]") {
  Differentiated d("def @main(%x: Tensor[(2, 3), float32]) {\n  %0 = exp(%x);\n  (%0, %0)\n}", "g");
  REQUIRE(d.def);
  CHECK(d.def->rfind("def @g(%x: Tensor[(2, 3), float32]) -> ((Tensor[(2, 3), float32], Tensor[(2, 3), float32]), "
                   "(Tensor[(2, 3), float32],)) {",
                   0) == 0);
  // The shared value's two uses add their gradients once each.
  CHECK(d.def->find("add(") != std::string::npos);
}

TEST_CASE("what first-order differentiation refuses is reported at the construct", "[autodiff]") {
  struct Refused {
    const char* program;
    const char* message;
  };
  const Refused refused[] = {
      {"def @main(%x: Tensor[(3), float32]) { if (True) { %x } else { negative(%x) } }", "does not support `if`"},
      {"def @f(%x: Tensor[(3), float32]) -> Tensor[(3), float32] { %x }\ndef @main(%x: Tensor[(3), float32]) { @f(%x) }",
       "calls of other global functions"},
      {"def @main(%x: Tensor[(3), float32]) { argsort(%x) }", "operator `argsort` has no gradient"},
      {"def @main(%x: Tensor[(2, 3, 4), float32], %w: Tensor[(5, 4), float32]) { nn.dense(%x, %w, units=None) }",
       "the gradient of `nn.dense` is only for 2-d data and weight"},
      {"def @main(%x: Tensor[(1, 1, 4, 4), float32]) { nn.avg_pool2d(%x, pool_size=[2, 2], count_include_pad=True) }",
       "not with `count_include_pad=True`"},
      {"def @main(%x: (Tensor[(3), float32], Tensor[(3), float32])) { %x.0 }", "is not a tensor"},
      {"def @main(%x: Tensor[(3), float32]) {\n  let %f = fn (%y: Tensor[(3), float32]) { negative(%y) };\n  (%f, %x).1\n}",
       "a function used as a value"},
      {"def @main(%x: Tensor[(3), float32]) {\n  let %f = fn (%y: Tensor[(3), float32]) -> Tensor[(3), float32] { %f(%y) };\n"
       "  %f(%x)\n}",
       "a recursive call"},
  };
  for (const Refused& r : refused) {
    INFO(r.program);
    Differentiated d(r.program, "main_grad");
    CHECK_FALSE(d.def);
    REQUIRE(d.diags.has_errors());
    const Diagnostic& diag = d.diags.items().back();
    CHECK(diag.code() == std::string_view("E0120"));
    CHECK(diag.message.find(r.message) != std::string::npos);
    CHECK(diag.primary().span.size() > 0);
  }
}

TEST_CASE("a problem inside a function literal called twice is reported once", "[autodiff]") {
  Differentiated d("def @main(%x: Tensor[(3), float32]) {\n"
                   "  let %f = fn (%y: Tensor[(3), float32]) { add(%y, cast(argsort(%y), dtype=\"float32\")) };\n"
                   "  add(%f(%x), %f(negative(%x)))\n}",
                   "main_grad");
  CHECK_FALSE(d.def);
  REQUIRE(d.diags.items().size() == 1);
  CHECK(d.diags.items()[0].message.find("`argsort` has no gradient") != std::string::npos);
}

}  // namespace
}  // namespace relay

namespace relay {
namespace {

TEST_CASE("rules write their constants in the function's dtype, bfloat16 included", "[autodiff]") {
  for (const char* dtype : {"float16", "bfloat16", "float64"}) {
    std::string t = std::string("Tensor[(2, 4), ") + dtype + "]";
    Differentiated d("def @main(%x: " + t + ") { mean(sqrt(sigmoid(%x)), axis=[1]) }", "main_grad");
    INFO(dtype);
    REQUIRE(d.def);
    std::string text = autodiff::insert_definition(*d.loaded->front.module, d.sources.get(d.file), *d.def);
    DiagnosticBag check;
    CHECK(rt::load_program(d.sources, d.sources.add("typed.relay", text), "main_grad", nullptr, check));
    for (const Diagnostic& diag : check.items()) UNSCOPED_INFO(diag.message);
    CHECK_FALSE(check.has_errors());
  }
}

}  // namespace
}  // namespace relay
