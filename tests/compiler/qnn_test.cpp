// canonicalize_qnn (compiler/graph/canonicalize_qnn.cpp): qnn.quantize, qnn.dequantize,
// qnn.requantize, the binary operators and the unary ones' tables in native kernels, equal to the reference
// kernels bit for bit over values chosen to reach every branch: both roundings, ties,
// saturation at each end, int32 wrap-around, multipliers that shift left, right, past 63
// bits and exactly by a power of two, scales that are parameters (computed per call)
// and constants (folded), per-tensor and per-channel.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "compiler/graph/passes.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;

namespace {

// Values of a's dtype: for integers the extremes, numbers near 0 and spread over the whole
// range; for float32 (quantize's input) halves, values past every dtype's range and
// spread magnitudes; scales (parameters named *scale*) over many octaves, some negative.
void fill(rt::NDArray& a, bool is_scale, std::mt19937_64& rng) {
  const DataType d = a.dtype();
  for (int64_t i = 0; i < a.size(); ++i) {
    if (is_scale) {
      // One in eight negative: meaningless as a scale, but the reference computes it (a
      // negative fixed-point multiplier), and `relay run --random-inputs` passes them.
      const double sign = std::uniform_int_distribution<int>(0, 7)(rng) == 0 ? -1.0 : 1.0;
      a.set_double(i, sign * std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng),
                                        std::uniform_int_distribution<int>(-20, 4)(rng)));
    } else if (d.is_float()) {
      const double pick = std::uniform_real_distribution<double>(0, 1)(rng);
      const double v = pick < 0.3 ? std::round(std::uniform_real_distribution<double>(-300, 300)(rng)) + 0.5
                                   : std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                                                std::uniform_int_distribution<int>(0, 34)(rng));
      a.set_double(i, v);
    } else {
      const double lo = d.is_uint() ? 0 : -std::ldexp(1.0, d.bits - 1), hi = d.is_uint() ? std::ldexp(1.0, d.bits) - 1 : -lo - 1;
      const int64_t special[] = {static_cast<int64_t>(lo), static_cast<int64_t>(hi), 0, 1, -1, 2, -2};
      const int64_t v = i < 7 ? special[i] : static_cast<int64_t>(std::uniform_real_distribution<double>(lo, hi)(rng));
      a.set_double(i, static_cast<double>(std::clamp<int64_t>(v, static_cast<int64_t>(lo), static_cast<int64_t>(hi))));
    }
  }
}

std::vector<rt::NDArray> arguments(const t::CompiledModel& m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<rt::NDArray> args = t::random_args(m, seed);
  for (size_t i = 0; i < args.size(); ++i) {
    const bool is_scale = std::string_view(m.program->entry->fn->params[i]->name).find("scale") != std::string_view::npos;
    args[i] = args[i].copy();
    fill(args[i], is_scale, rng);
  }
  return args;
}

// How many elements of two tensors of one shape and dtype differ (bit for bit for floats).
int64_t differing(const rt::NDArray& got, const rt::NDArray& want) {
  REQUIRE(got.dtype() == want.dtype());
  REQUIRE(got.shape() == want.shape());
  int64_t n = 0;
  for (int64_t i = 0; i < got.size(); ++i) {
    const double a = got.get_double(i), b = want.get_double(i);
    n += !(a == b || (std::isnan(a) && std::isnan(b)));
  }
  return n;
}

void check_program(const std::string& params, const std::string& body) {
  const std::string text = "#[version = \"0.0.5\"]\ndef @main(" + params + ") {\n  " + body + "\n}\n";
  INFO(text);
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  // No qnn call is left for a reference kernel, but for the int8 convolutions and dense
  // layers that oneDNN takes: int8 weights with the constant zero point 0, uint8 ones
  // with 128.
  const compiler::Graph g = t::optimized_main(*m);
  bool library_calls = false;
  for (const compiler::Node& n : g.nodes) {
    if (n.kind != compiler::NodeKind::Call) continue;
    const std::string_view op = n.op->name;
    if (op == "qnn.conv2d" || op == "qnn.dense") {
      library_calls = true;
      const bool uint8 = ty_as<TensorTy>(g[n.inputs[1]].type)->dtype == DataType::uint_(8);
      CHECK(compiler::scalar_constant(g[n.inputs[3]]) == (uint8 ? 128.0 : 0.0));
    } else {
      CHECK(!op.starts_with("qnn."));
    }
  }
  compiler::ThreadPool pool(2);
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const std::vector<rt::NDArray> args = arguments(*m, seed);
    const rt::Value want = t::interpret(*m, args);
    t::CompiledMain c = t::compile_for_args(*m, args, &pool);
    INFO(c.outcome.notes[0]);
    // Every group native (the markers that keep the fixed-point parameters per call
    // compute nothing and count as no group); the int8 library calls are, where the
    // processor has VNNI (library_kernel_test.cpp checks them and their declining).
    if (!library_calls) CHECK(c.exe->reference_groups() == 0);
    const std::vector<rt::Value> vals(args.begin(), args.end());
    CHECK(differing(c.outcome.code->call(vals).tensor(), want.tensor()) == 0);
  }
}

}  // namespace

TEST_CASE("qnn.quantize in native kernels is the reference kernel's, bit for bit", "[compiler][qnn]") {
  check_program("%x: Tensor[(3, 4, 37), float32], %scale: float32",
                "qnn.quantize(%x, %scale, 3, out_dtype=\"int8\")");
  check_program("%x: Tensor[(3, 4, 37), float32], %scale: Tensor[(4), float32], %z: Tensor[(4), int32]",
                "qnn.quantize(%x, %scale, %z, axis=1, out_dtype=\"uint8\")");
  check_program("%x: Tensor[(5, 29), float32], %scale: Tensor[(29), float32]",
                "qnn.quantize(%x, %scale, -7, out_dtype=\"int32\")");
  check_program("%x: Tensor[(5, 29), float32]", "qnn.quantize(%x, 0.0078125f, 0, out_dtype=\"int16\")");
}

TEST_CASE("qnn.dequantize in native kernels is the reference kernel's, bit for bit", "[compiler][qnn]") {
  check_program("%x: Tensor[(3, 4, 37), int8], %scale: float32", "qnn.dequantize(%x, %scale, -128, out_dtype=\"float32\")");
  check_program("%x: Tensor[(3, 4, 37), uint8], %scale: Tensor[(4), float32], %z: Tensor[(4), int32]",
                "qnn.dequantize(%x, %scale, %z, axis=1, out_dtype=\"float32\")");
  check_program("%x: Tensor[(6, 33), int32], %scale: float32", "qnn.dequantize(%x, %scale, 17, out_dtype=\"float32\")");
}

TEST_CASE("qnn.requantize in native kernels is the reference kernel's, bit for bit", "[compiler][qnn]") {
  // Scales that are parameters: the fixed-point form computed per call.
  for (const char* rounding : {"UPWARD", "TONEAREST"}) {
    const std::string r = std::string(", rounding=\"") + rounding + "\"";
    check_program("%x: Tensor[(2, 8, 5, 7), int32], %scale: Tensor[(8), float32]",
                  "qnn.requantize(%x, %scale, 0, 0.05f, -128, axis=1, out_dtype=\"int8\"" + r + ")");
    check_program("%x: Tensor[(4, 45), int32], %scale: float32, %z: int32",
                  "qnn.requantize(%x, %scale, %z, 0.0003f, 3, out_dtype=\"uint8\"" + r + ")");
    check_program("%x: Tensor[(4, 45), int8], %scale: Tensor[(45), float32]",
                  "qnn.requantize(%x, %scale, -3, 0.25f, 0, out_dtype=\"int32\"" + r + ")");
  }
  // Float compute dtypes (RequantizeLowerFP): ties of both roundings at the ratio 1/2, int32
  // data past float32's integers, per-channel scales that are parameters.
  for (const char* compute : {"float32", "float64"})
    for (const char* rounding : {"UPWARD", "TONEAREST"}) {
      const std::string a = std::string(", compute_dtype=\"") + compute + "\", rounding=\"" + rounding + "\"";
      check_program("%x: Tensor[(4, 45), int32]", "qnn.requantize(%x, 0.125f, 0, 0.25f, 0, out_dtype=\"int32\"" + a + ")");
      check_program("%x: Tensor[(2, 8, 5, 7), int32], %scale: Tensor[(8), float32], %z: Tensor[(8), int32]",
                    "qnn.requantize(%x, %scale, %z, 0.05f, -128, axis=1, out_dtype=\"int8\"" + a + ")");
      check_program("%x: Tensor[(4, 45), uint8], %scale: float32",
                    "qnn.requantize(%x, %scale, 3, 0.003f, 7, out_dtype=\"uint8\"" + a + ")");
    }
  // Constant scales, folded at compile time: equal (the identity), powers of two, a ratio
  // that shifts left, one under 2^-32 (the product shifts out entirely), one per channel.
  const char* x = "%x: Tensor[(4, 3, 41), int32]";
  check_program(x, "qnn.requantize(%x, 0.05f, 0, 0.05f, 0, out_dtype=\"int8\")");
  check_program(x, "qnn.requantize(%x, 0.25f, 5, 0.125f, -5, out_dtype=\"int16\")");
  // A ratio of 1/2: odd values fall exactly halfway, where the roundings differ.
  check_program(x, "qnn.requantize(%x, 0.125f, 0, 0.25f, 0, out_dtype=\"int32\")");
  check_program(x, "qnn.requantize(%x, 0.125f, 0, 0.25f, 0, out_dtype=\"int32\", rounding=\"TONEAREST\")");
  check_program(x, "qnn.requantize(%x, 3.7f, 0, 0.01f, 0, out_dtype=\"int32\", rounding=\"TONEAREST\")");
  check_program(x, "qnn.requantize(%x, 1e-12f, 0, 1f, 0, out_dtype=\"int32\")");
  check_program(x, "qnn.requantize(%x, 1e-12f, 0, 1f, 0, out_dtype=\"int32\", rounding=\"TONEAREST\")");
  check_program(x, "qnn.requantize(%x, -0.3f, 2, 0.01f, 0, out_dtype=\"int8\")");
  check_program(x, "qnn.requantize(%x, 0.125f, 0, -0.25f, 0, out_dtype=\"int32\", rounding=\"TONEAREST\")");
  check_program(x, "qnn.requantize(%x, multiply(arange(1f, 4f, 1f, start=1f, stop=4f, step=1f, dtype=\"float32\"), 0.07f), 0, "
                   "0.1f, 0, axis=1, out_dtype=\"uint8\")");
}

TEST_CASE("qnn.add and qnn.subtract in native kernels are the reference kernels', bit for bit", "[compiler][qnn]") {
  check_program("%a: Tensor[(2, 8, 5, 7), int8], %b: Tensor[(2, 8, 5, 7), int8]",
                "qnn.add(%a, %b, 0.05f, -128, 0.05f, -128, 0.08f, -128)");
  check_program("%a: Tensor[(2, 8, 5, 7), uint8], %b: Tensor[(8, 1, 1), uint8], %ascale: float32, %bscale: float32",
                "qnn.subtract(%a, %b, %ascale, 3, %bscale, 250, 0.01f, 128)");
  check_program("%a: Tensor[(3, 17), int32], %b: Tensor[(17), int32]", "qnn.add(%a, %b, 0.5f, 0, 0.25f, 7, 1e-3f, -9)");
}

TEST_CASE("qnn.concatenate in native kernels is the reference kernel's, bit for bit", "[compiler][qnn]") {
  // the middle input has the output's parameters (the reference passes it through)
  check_program("%a: Tensor[(2, 3, 5), int8], %b: Tensor[(2, 4, 5), int8], %c: Tensor[(2, 1, 5), int8], %cscale: float32",
                "qnn.concatenate((%a, %b, %c), (0.05f, 0.1f, %cscale), (-128, 3, 7), 0.1f, 3, axis=1)");
  check_program("%a: Tensor[(4, 6), uint8], %b: Tensor[(4, 6), uint8]",
                "qnn.concatenate((%a, %b), (0.5f, 0.003f), (128, 0), 0.02f, 100, axis=0)");
}

TEST_CASE("qnn.mul in native kernels is the reference kernel's, bit for bit", "[compiler][qnn]") {
  check_program("%a: Tensor[(2, 8, 5, 7), int8], %b: Tensor[(2, 8, 5, 7), int8]",
                "qnn.mul(%a, %b, 0.05f, -128, 0.02f, 3, 0.004f, -128)");
  // Scales that are parameters, a broadcast operand, zero points per channel of an axis.
  check_program("%a: Tensor[(2, 8, 5, 7), uint8], %b: Tensor[(8, 1, 1), uint8], %ascale: float32, %bscale: float32, "
                "%az: Tensor[(8), int32]",
                "qnn.mul(%a, %b, %ascale, %az, %bscale, 250, 0.01f, 128, lhs_axis=1)");
  // A product scale over the output's: the fixed-point multiplier shifts left.
  check_program("%a: Tensor[(3, 17), int8], %b: Tensor[(17), int8]", "qnn.mul(%a, %b, 0.5f, 0, 0.25f, 7, 1e-3f, -9)");
}

TEST_CASE("the quantized unary operators in native kernels are the reference kernels', bit for bit", "[compiler][qnn]") {
  // Every operator over int8 and uint8 data (data, scale, zero point, output scale, output
  // zero point): log and rsqrt of values at or under the zero point give NaN and Inf,
  // which the quantization saturates.
  for (const char* op : {"abs", "erf", "exp", "hardswish", "log", "rsqrt", "sigmoid", "sqrt", "tanh"}) {
    const std::string name = std::string("qnn.") + op;
    check_program("%x: Tensor[(4, 97), int8]", name + "(%x, 0.05f, -3, 0.02f, 5)");
    check_program("%x: Tensor[(3, 61), uint8]", name + "(%x, 0.1f, 128, 0.0039f, 0)");
  }
}

TEST_CASE("qnn.leaky_relu and qnn.avg_pool2d in native kernels are the reference kernels', bit for bit", "[compiler][qnn]") {
  check_program("%x: Tensor[(2, 8, 5, 7), int8]", "qnn.leaky_relu(%x, 0.05f, -3, 0.04f, 5, alpha=0.1f)");
  check_program("%x: Tensor[(3, 61), uint8], %scale: float32", "qnn.leaky_relu(%x, %scale, 128, 0.02f, 100, alpha=0.7f)");
  // alpha 1 (1 - alpha = 0: a zero multiplier) and alpha past 1 (a shift left)
  check_program("%x: Tensor[(4, 33), int8]", "qnn.leaky_relu(%x, 0.05f, 0, 0.05f, 0, alpha=1f)");
  check_program("%x: Tensor[(4, 33), int8]", "qnn.leaky_relu(%x, 0.05f, 7, 0.1f, -7, alpha=2.5f)");
  check_program("%x: Tensor[(1, 8, 9, 9), int8]",
                "qnn.avg_pool2d(%x, 0.05f, -128, 0.05f, -128, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], "
                "dilation=[1, 1], layout=\"NCHW\", out_layout=\"\", count_include_pad=True)");
  check_program("%x: Tensor[(2, 6, 6, 5), uint8], %scale: float32",
                "qnn.avg_pool2d(%x, %scale, 3, 0.1f, 100, pool_size=[2, 2], strides=[1, 1], padding=[0, 0, 1, 1], "
                "dilation=[1, 1], layout=\"NHWC\", out_layout=\"\", ceil_mode=True)");
}

TEST_CASE("qnn.softmax in native kernels is the reference kernel's, bit for bit", "[compiler][qnn]") {
  check_program("%x: Tensor[(4, 37), int8]", "qnn.softmax(%x, 0.05f, -3, 0.00390625f, -128)");
  // along a middle axis; a scale of 1 (x0 = 1) and one whose inverse rounds up
  check_program("%x: Tensor[(2, 9, 5), int8]", "qnn.softmax(%x, 1f, 0, 0.004f, -100, axis=1)");
  check_program("%x: Tensor[(3, 64), int8]", "qnn.softmax(%x, 0.0078f, 10, 0.0039f, 0, axis=-1)");
}

TEST_CASE("quantized convolutions and dense layers with uint8 weights or weight zero points, bit for bit", "[compiler][qnn]") {
  // TFLite's older uint8 models (weights with zero points near 128) and asymmetric int8
  // weights: the zero point's term split off into an all-ones convolution or row sums
  const char* conv = "%x: Tensor[(1, 8, 9, 9), uint8], %w: Tensor[(6, 8, 3, 3), uint8]";
  check_program(conv, "qnn.conv2d(%x, %w, 128, 122, 0.05f, 0.01f, padding=[1, 1, 1, 1], channels=6, kernel_size=[3, 3], "
                      "out_dtype=\"int32\")");
  check_program(conv, "qnn.conv2d(%x, %w, 128, 128, 0.05f, 0.01f, channels=6, kernel_size=[3, 3], out_dtype=\"int32\")");
  check_program("%x: Tensor[(2, 8, 9, 9), int8], %w: Tensor[(8, 2, 3, 3), int8], %z: Tensor[(8), int32]",
                "qnn.conv2d(%x, %w, -5, %z, 0.05f, 0.01f, strides=[2, 2], padding=[1, 2, 0, 1], groups=4, channels=8, "
                "kernel_size=[3, 3], out_dtype=\"int32\")");
  check_program("%x: Tensor[(1, 7, 7, 8), int8], %w: Tensor[(3, 3, 8, 5), int8]",
                "qnn.conv2d(%x, %w, 3, -7, 0.05f, 0.01f, padding=[1, 1, 1, 1], channels=5, kernel_size=[3, 3], "
                "data_layout=\"NHWC\", kernel_layout=\"HWIO\", out_dtype=\"int32\")");
  check_program("%x: Tensor[(5, 67), uint8], %w: Tensor[(9, 67), uint8]",
                "qnn.dense(%x, %w, 7, 130, 0.05f, 0.01f, units=9, out_dtype=\"int32\")");
  check_program("%x: Tensor[(3, 40), int8], %w: Tensor[(6, 40), int8], %z: Tensor[(6), int32]",
                "qnn.dense(%x, %w, -128, %z, 0.05f, 0.01f, units=6, out_dtype=\"int32\")");
}

TEST_CASE("qnn calls the rewrite cannot reproduce keep their reference kernels", "[compiler][qnn]") {
  // An output scale that is a parameter (the reference checks it is not 0 on each call),
  // with either compute dtype.
  const std::string text =
      "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4, 8), int32], %s: float32) {\n"
      "  (qnn.requantize(%x, 0.5f, 0, %s, 0, out_dtype=\"int8\", compute_dtype=\"float32\"),\n"
      "   qnn.requantize(%x, 0.5f, 0, %s, 0, out_dtype=\"int8\"))\n}\n";
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  CHECK(t::optimized_main(*m).count_op("qnn.requantize") == 2);

  // A unary operator on 16-bit data (no table) or with a scale that is a parameter (the
  // table would be rebuilt per call); a qnn.mul with per-channel scales.
  const std::string unary =
      "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4, 8), int16], %y: Tensor[(4, 8), int8], %s: float32,\n"
      "          %v: Tensor[(8), float32]) {\n"
      "  (qnn.exp(%x, 0.5f, 0, 0.25f, 0), qnn.tanh(%y, %s, 0, 0.25f, 0),\n"
      "   qnn.mul(%y, %y, %v, 0, %v, 0, 0.5f, 0, lhs_axis=1, rhs_axis=1))\n}\n";
  auto kept = t::load_model_text(unary);
  REQUIRE(kept->error.empty());
  const compiler::Graph g = t::optimized_main(*kept);
  CHECK(g.count_op("qnn.exp") == 1);
  CHECK(g.count_op("qnn.tanh") == 1);
  CHECK(g.count_op("qnn.mul") == 1);
}
#endif
