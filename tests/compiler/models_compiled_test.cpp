// Every model of tests/models compiled at its annotated shapes against the interpreter on
// the same fixed, seeded inputs: each model its own test case (its own CTest test, so CI
// runs them in parallel).
//
// Inputs: uniform in [-1, 1) (seed 7; batch-norm variances in [0.5, 1.5)), and every
// weight (a parameter of rank >= 2 other than the first, the data) scaled by
// sqrt(3 / fan_in), fan_in being the product of its dims after the first: each layer then
// keeps its activations near unit variance, so a 50-layer network ends finite rather than
// in Inf/NaN, which would compare equal and test nothing. The interpreter's output must
// be finite.
//
// Tolerance: compiled and interpreted runs differ only where the compile path rounds in
// another order (batch norm rewritten as scale and shift, native epilogues), a few float32
// roundings per layer; every later sum of K products carries such a difference forward,
// and in the worst case the K rounding differences of one accumulation add up. So the bound
// is K_max * eps(float32) relative to each interpreted element (see max_diff), K_max being the model's longest
// accumulation (a convolution's in_channels / groups * kh * kw, a dense layer's input
// features, a global pool's window), and at least 1e-5.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/executable.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;

namespace {

int64_t product(const std::vector<int64_t>& s, size_t from) {
  int64_t p = 1;
  for (size_t i = from; i < s.size(); ++i) p *= s[i];
  return p;
}

std::vector<rt::NDArray> scaled_args(const t::CompiledModel& m) {
  std::vector<rt::NDArray> args = t::random_args(m, 7);
  for (size_t i = 1; i < args.size(); ++i) {
    // The quantized CNN's parameters: int8 weights and int32 biases become integers of
    // their range (random_args truncated its [-1, 1] values to 0), per-channel scales
    // small positives.
    if (!args[i].dtype().is_float()) {
      const int64_t bound = args[i].dtype().bits <= 8 ? 127 : 1000;
      std::mt19937_64 rng(i);
      std::uniform_int_distribution<int64_t> u(-bound, bound);
      for (int64_t k = 0; k < args[i].size(); ++k) args[i].set_int(k, u(rng));
      continue;
    }
    if (std::string_view(m.program->entry->fn->params[i]->name).find("scale") != std::string_view::npos) {
      for (int64_t k = 0; k < args[i].size(); ++k) args[i].set_double(k, 0.003 + 0.002 * args[i].get_double(k));
      continue;
    }
    const auto& s = args[i].shape();
    if (s.size() < 2) continue;
    const double scale = std::sqrt(3.0 / static_cast<double>(product({s.begin(), s.end()}, 1)));
    for (int64_t k = 0; k < args[i].size(); ++k) args[i].set_double(k, args[i].get_double(k) * scale);
  }
  return args;
}

// The smallest and largest element of a result (its first tensor), to show that the
// compared values are not trivial.
std::pair<double, double> value_range(const rt::Value& v) {
  if (v.is_tuple()) return v.tuple().fields.empty() ? std::pair{0.0, 0.0} : value_range(v.tuple().fields[0]);
  const rt::NDArray& a = v.tensor();
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t i = 0; i < a.size(); ++i) lo = std::min(lo, a.get_double(i)), hi = std::max(hi, a.get_double(i));
  return {lo, hi};
}

bool all_finite(const rt::Value& v) {
  if (v.is_tuple()) {
    for (const rt::Value& f : v.tuple().fields)
      if (!all_finite(f)) return false;
    return true;
  }
  const rt::NDArray& a = v.tensor();
  for (int64_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(a.get_double(i))) return false;
  return true;
}

// The largest |a - b| / (|b| + eps32 * max|b|) over two results: relative to each element
// (a softmax's outputs are ~1e-3, so a difference relative to 1 + |b| would say little),
// with a floor at the result's scale for elements near zero.
double max_diff(const rt::Value& got, const rt::Value& want) {
  if (want.is_tuple()) {
    if (!got.is_tuple() || got.tuple().fields.size() != want.tuple().fields.size()) return INFINITY;
    double d = 0;
    for (size_t k = 0; k < want.tuple().fields.size(); ++k)
      d = std::max(d, max_diff(got.tuple().fields[k], want.tuple().fields[k]));
    return d;
  }
  if (!got.is_tensor()) return INFINITY;
  const rt::NDArray &a = got.tensor(), &b = want.tensor();
  if (a.shape() != b.shape() || a.dtype() != b.dtype()) return INFINITY;
  double scale = 0;
  for (int64_t i = 0; i < b.size(); ++i) scale = std::max(scale, std::fabs(b.get_double(i)));
  const double floor = std::max(scale * std::ldexp(1.0, -23), 1e-30);
  double worst = 0;
  for (int64_t i = 0; i < b.size(); ++i) {
    const double x = a.get_double(i), y = b.get_double(i);
    if (std::isnan(x) != std::isnan(y)) return INFINITY;
    if (!std::isnan(y)) worst = std::max(worst, std::fabs(x - y) / (std::fabs(y) + floor));
  }
  return worst;
}

void check_model(const char* name) {
  INFO(name);
  const auto start = std::chrono::steady_clock::now();
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
  REQUIRE(m->error.empty());
  compiler::BuildResult built = t::build_main(*m);
  REQUIRE(built.ok());
  const int64_t k = t::longest_accumulation(*built.graph);
  const double tolerance = std::max(1e-5, static_cast<double>(k) * std::ldexp(1.0, -23));

  const std::vector<rt::NDArray> args = scaled_args(*m);
  const rt::Value want = t::interpret(*m, args);
  CHECK(all_finite(want));
  const std::vector<rt::Value> vals(args.begin(), args.end());
  auto sig = jit::signature_of(vals);
  REQUIRE(sig);
  compiler::ThreadPool pool(2);
  jit::CompileOutcome c = compiler::compile_function(*m->program, *m->program->entry, *sig, &pool);
  INFO(c.reason);
  REQUIRE(c.code);
  REQUIRE(!c.notes.empty());
  INFO(c.notes[0]);
  // Something ran natively: whole groups, or epilogues of reference convolutions/dense.
  auto* exe = dynamic_cast<compiler::Executable*>(c.code.get());
  REQUIRE(exe);
  CHECK(exe->native_groups() + exe->epilogue_groups() + exe->fused_library_groups() > 0);
  const rt::Value got = c.code->call(vals);
  const double diff = max_diff(got, want);
  CHECK(diff <= tolerance);
  // Twice: the executable keeps no state between calls.
  CHECK(max_diff(c.code->call(vals), got) == 0);
  const auto [lo, hi] = value_range(want);
  CHECK(lo < hi);  // not a constant result
  std::printf("%s compiled against interpreted: max relative difference %.3g, tolerance %.3g (K_max %lld), "
              "result in [%.3g, %.3g], %s, %.1f s\n",
              name, diff, tolerance, static_cast<long long>(k), lo, hi, c.notes[0].c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace

TEST_CASE("compiled MLP equals the interpreter", "[compiler][models]") { check_model("mlp"); }
TEST_CASE("compiled LSTM equals the interpreter", "[compiler][models]") { check_model("lstm"); }
TEST_CASE("compiled DQN equals the interpreter", "[compiler][models]") { check_model("dqn"); }
TEST_CASE("compiled DCGAN generator equals the interpreter", "[compiler][models]") { check_model("dcgan"); }
TEST_CASE("compiled ResNet-18 equals the interpreter", "[compiler][models]") { check_model("resnet18"); }
TEST_CASE("compiled ResNet-50 equals the interpreter", "[compiler][models]") { check_model("resnet50"); }
TEST_CASE("compiled MobileNet equals the interpreter", "[compiler][models]") { check_model("mobilenet"); }
TEST_CASE("compiled SqueezeNet 1.0 equals the interpreter", "[compiler][models]") { check_model("squeezenet1_0"); }
TEST_CASE("compiled SqueezeNet 1.1 equals the interpreter", "[compiler][models]") { check_model("squeezenet1_1"); }
TEST_CASE("compiled VGG-11 equals the interpreter", "[compiler][models]") { check_model("vgg11"); }
TEST_CASE("compiled DenseNet-121 equals the interpreter", "[compiler][models]") { check_model("densenet121"); }
TEST_CASE("compiled Inception-v3 equals the interpreter", "[compiler][models]") { check_model("inception_v3"); }
// int8 arithmetic on the qnn reference kernels; the int32/int8/float epilogues run native.
TEST_CASE("compiled quantized CNN equals the interpreter", "[compiler][models]") { check_model("quantized_cnn"); }
// qnn.dense and qnn.batch_matmul through oneDNN's int8 matmul (where the processor has
// VNNI), softmax between a dequantize and a quantize, qnn.sigmoid's table, qnn.mul.
TEST_CASE("compiled quantized attention block equals the interpreter", "[compiler][models]") {
  check_model("quantized_attention");
}
// The vision operators run on their reference kernels inside the compiled function.
TEST_CASE("compiled SSD detection head equals the interpreter", "[compiler][models]") { check_model("detection_head"); }
#endif
