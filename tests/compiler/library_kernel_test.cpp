// The kernel library's convolutions and matrix products (compiler/dnnl/library_kernel.h)
// against the interpreter's reference kernels, one node at a time: every form the
// library takes (groups, depthwise, dilation, strides, TVM's padding forms, NHWC/HWIO,
// 1x1; transposed with output_padding; dense; batch_matmul with each transpose and a broadcast batch), within K ulps of
// float32 (K the accumulation length: the library sums in its own blocked order). And the
// weights are prepared once: the same tensor again is not reordered again, a different
// tensor is (and its answer is right, not the cached one's).
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <thread>

#include "compiler/dnnl/library_kernel.h"
#include "interpreter/kernels/kernel.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
namespace t = relay::testing;

namespace {

// The graph of a one-call @main, the call's node, and seeded arguments.
struct OneCall {
  std::unique_ptr<t::CompiledModel> model;
  compiler::Graph graph;
  compiler::NodeId call = 0;
  std::vector<rt::NDArray> args;
};

OneCall one_call(const std::string& params, const std::string& body, uint64_t seed) {
  OneCall c;
  c.model = t::load_model_text("#[version = \"0.0.5\"]\ndef @main(" + params + ") {\n  " + body + "\n}\n");
  REQUIRE(c.model->error.empty());
  compiler::BuildResult r = t::build_main(*c.model);
  REQUIRE(r.ok());
  c.graph = std::move(*r.graph);
  for (compiler::NodeId id = 0; id < c.graph.size(); ++id)
    if (c.graph[id].kind == compiler::NodeKind::Call) c.call = id;
  c.args = t::random_args(*c.model, seed);
  return c;
}

rt::NDArray reference(const OneCall& c, const std::vector<rt::NDArray>& args) {
  const compiler::Node& n = c.graph[c.call];
  std::vector<rt::Value> values(args.begin(), args.end());
  rt::KernelCall call{*n.op, values, n.attrs, n.type};
  return rt::find_kernel(*n.op)(call).tensor();
}

// Checks the library's answer for `args` against the reference kernel's.
void check_against_reference(const OneCall& c, const compiler::LibraryKernel& k, const std::vector<rt::NDArray>& args,
                             unsigned threads) {
  const rt::NDArray want = reference(c, args);
  const rt::NDArray got = k.run(args, {}, threads);
  const double ulps = static_cast<double>(std::max<int64_t>(8, t::longest_accumulation(c.graph)));
  const double diff = t::max_rel_diff(got, want);
  INFO(k.describe() << ": max |got - want| / (1 + |want|) = " << diff);
  CHECK(diff <= ulps * std::ldexp(1.0, -23));
}

// Whether this build has the library; a test without it has nothing to check and says so.
bool library_built() {
  if (compiler::library_kernels_built()) return true;
  WARN("built without oneDNN: nothing to test");
  return false;
}

// The library kernel for `c`'s call (REQUIREd: the library must take it).
std::unique_ptr<compiler::LibraryKernel> library_kernel(const OneCall& c) {
  std::string why;
  auto kernel = compiler::make_library_kernel(c.graph, c.call, &why);
  INFO("declined: " << why);
  REQUIRE(kernel);
  return kernel;
}

struct Case {
  const char* name;
  const char* params;
  const char* body;
};

const Case kCases[] = {
    {"conv2d 3x3 pad 1", "%x: Tensor[(1, 16, 14, 14), float32], %w: Tensor[(32, 16, 3, 3), float32]",
     "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=32, kernel_size=[3, 3])"},
    {"conv2d 7x7 stride 2 batch 2", "%x: Tensor[(2, 3, 32, 32), float32], %w: Tensor[(8, 3, 7, 7), float32]",
     "nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3], channels=8, kernel_size=[7, 7])"},
    {"conv2d 1x1", "%x: Tensor[(1, 32, 7, 7), float32], %w: Tensor[(64, 32, 1, 1), float32]",
     "nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=64, kernel_size=[1, 1])"},
    {"conv2d groups 4", "%x: Tensor[(1, 16, 9, 9), float32], %w: Tensor[(8, 4, 3, 3), float32]",
     "nn.conv2d(%x, %w, padding=[1, 1], groups=4, channels=8, kernel_size=[3, 3])"},
    {"conv2d depthwise", "%x: Tensor[(1, 32, 12, 12), float32], %w: Tensor[(32, 1, 3, 3), float32]",
     "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], groups=32, channels=32, kernel_size=[3, 3])"},
    {"conv2d dilation 2, asymmetric padding", "%x: Tensor[(1, 8, 13, 11), float32], %w: Tensor[(8, 8, 3, 3), float32]",
     "nn.conv2d(%x, %w, padding=[1, 2, 0, 3], dilation=[2, 2], channels=8, kernel_size=[3, 3])"},
    {"conv2d one padding value", "%x: Tensor[(1, 4, 6, 6), float32], %w: Tensor[(4, 4, 3, 3), float32]",
     "nn.conv2d(%x, %w, padding=[2], channels=4, kernel_size=[3, 3])"},
    {"conv2d NHWC HWIO", "%x: Tensor[(1, 10, 10, 16), float32], %w: Tensor[(3, 3, 16, 24), float32]",
     "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=24, kernel_size=[3, 3], data_layout=\"NHWC\", "
     "kernel_layout=\"HWIO\")"},
    {"conv2d_transpose stride 2 (DCGAN)", "%x: Tensor[(1, 16, 4, 4), float32], %w: Tensor[(16, 8, 4, 4), float32]",
     "nn.conv2d_transpose(%x, %w, channels=8, kernel_size=[4, 4], strides=[2, 2], padding=[1, 1, 1, 1])"},
    {"conv2d_transpose output_padding, dilation", "%x: Tensor[(2, 4, 5, 6), float32], %w: Tensor[(4, 6, 3, 3), float32]",
     "nn.conv2d_transpose(%x, %w, channels=6, kernel_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], "
     "output_padding=[1, 1], dilation=[2, 1])"},
    {"dense", "%x: Tensor[(3, 100), float32], %w: Tensor[(17, 100), float32]", "nn.dense(%x, %w, units=17)"},
    {"dense batch 1", "%x: Tensor[(1, 784), float32], %w: Tensor[(128, 784), float32]", "nn.dense(%x, %w, units=128)"},
    {"batch_matmul", "%x: Tensor[(4, 5, 6), float32], %y: Tensor[(4, 7, 6), float32]", "nn.batch_matmul(%x, %y, transpose_b=True)"},
    {"batch_matmul no transpose", "%x: Tensor[(2, 5, 6), float32], %y: Tensor[(2, 6, 7), float32]",
     "nn.batch_matmul(%x, %y, transpose_b=False)"},
    {"batch_matmul transpose a", "%x: Tensor[(2, 6, 5), float32], %y: Tensor[(2, 7, 6), float32]",
     "nn.batch_matmul(%x, %y, transpose_a=True, transpose_b=True)"},
    {"batch_matmul broadcast batch", "%x: Tensor[(3, 5, 6), float32], %y: Tensor[(1, 7, 6), float32]",
     "nn.batch_matmul(%x, %y, transpose_b=True)"},
};

}  // namespace

TEST_CASE("library kernels: each form against the reference kernel", "[compiler][library]") {
  if (!library_built()) return;
  uint64_t seed = 1;
  for (const Case& k : kCases) {
    INFO(k.name << ": " << k.body);
    OneCall c = one_call(k.params, k.body, seed++);
    auto kernel = library_kernel(c);
    check_against_reference(c, *kernel, c.args, 1);
    check_against_reference(c, *kernel, c.args, 2);
  }
}

TEST_CASE("library kernels: weights are prepared once per tensor", "[compiler][library]") {
  if (!library_built()) return;
  OneCall c = one_call("%x: Tensor[(1, 16, 14, 14), float32], %w: Tensor[(32, 16, 3, 3), float32]",
                       "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=32, kernel_size=[3, 3])", 11);
  auto kernel = library_kernel(c);
  check_against_reference(c, *kernel, c.args, 1);
  if (kernel->weight_preparations() == 0) {
    WARN("the library takes these weights in their own layout on this processor: nothing to prepare");
    return;
  }
  CHECK(kernel->weight_preparations() == 1);
  for (int i = 0; i < 3; ++i) check_against_reference(c, *kernel, c.args, 1);
  CHECK(kernel->weight_preparations() == 1);
  // New weights (a new tensor, other values): prepared again, and the answer is theirs.
  std::vector<rt::NDArray> other = t::random_args(*c.model, 12);
  other[0] = c.args[0];
  check_against_reference(c, *kernel, other, 1);
  CHECK(kernel->weight_preparations() == 2);
  // A copy of the first weights is another tensor: prepared again, never confused.
  std::vector<rt::NDArray> copied{c.args[0], c.args[1].copy()};
  check_against_reference(c, *kernel, copied, 1);
  CHECK(kernel->weight_preparations() == 3);
}

TEST_CASE("library kernels: concurrent calls of one kernel", "[compiler][library]") {
  if (!library_built()) return;
  OneCall c = one_call("%x: Tensor[(2, 8, 10, 10), float32], %w: Tensor[(8, 8, 3, 3), float32]",
                       "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3])", 21);
  auto kernel = library_kernel(c);
  const rt::NDArray want = reference(c, c.args);
  std::vector<double> diffs(4, 1.0);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < diffs.size(); ++i)
    threads.emplace_back([&, i] {
      double worst = 0;
      for (int r = 0; r < 5; ++r) worst = std::max(worst, t::max_rel_diff(kernel->run(c.args, {}, 1), want));
      diffs[i] = worst;
    });
  for (std::thread& th : threads) th.join();
  for (double d : diffs) CHECK(d <= 72 * std::ldexp(1.0, -23));
}

namespace {

// Seeded integers over each int8/uint8 argument's whole range (random_args' [-1, 1) would
// leave them almost all 0); other arguments (the scales) as random_args made them.
std::vector<rt::NDArray> full_range_ints(std::vector<rt::NDArray> args, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (rt::NDArray& a : args) {
    const DataType d = a.dtype();
    if (d != DataType::int_(8) && d != DataType::uint_(8)) continue;
    a = a.copy();  // a new tensor: values are immutable, and the weight cache keys on the tensor
    std::uniform_int_distribution<int> v(d.is_int() ? -128 : 0, d.is_int() ? 127 : 255);
    for (int64_t k = 0; k < a.size(); ++k) a.set_double(k, v(rng));
  }
  return args;
}

const Case kQuantizedCases[] = {
    {"int8 data, zero point -128 (TVM's uint8-as-int8), padding 1", "%x: Tensor[(1, 16, 9, 9), int8], %w: Tensor[(8, 16, 3, 3), int8], %s: Tensor[(8), float32]",
     "qnn.conv2d(%x, %w, -128, 0, 0.05f, %s, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], out_dtype=\"int32\")"},
    {"3 input channels, stride 2, wide padding, batch 2", "%x: Tensor[(2, 3, 17, 16), int8], %w: Tensor[(16, 3, 5, 5), int8], %s: Tensor[(16), float32]",
     "qnn.conv2d(%x, %w, 7, 0, 0.05f, %s, strides=[2, 2], padding=[3, 2, 1, 2], channels=16, kernel_size=[5, 5], out_dtype=\"int32\")"},
    {"uint8 data, zero point 128, dilation 2", "%x: Tensor[(1, 8, 12, 11), uint8], %w: Tensor[(8, 8, 3, 3), int8], %s: float32",
     "qnn.conv2d(%x, %w, 128, 0, 0.05f, %s, padding=[2, 2, 2, 2], dilation=[2, 2], channels=8, kernel_size=[3, 3], out_dtype=\"int32\")"},
    {"zero point 0, 1x1", "%x: Tensor[(1, 32, 7, 7), int8], %w: Tensor[(64, 32, 1, 1), int8], %s: float32",
     "qnn.conv2d(%x, %w, 0, 0, 0.05f, %s, channels=64, kernel_size=[1, 1], out_dtype=\"int32\")"},
    {"depthwise", "%x: Tensor[(1, 32, 10, 10), int8], %w: Tensor[(32, 1, 3, 3), int8], %s: Tensor[(32), float32]",
     "qnn.conv2d(%x, %w, -3, 0, 0.05f, %s, strides=[2, 2], padding=[1, 1, 1, 1], groups=32, channels=32, kernel_size=[3, 3], out_dtype=\"int32\")"},
    {"groups 4", "%x: Tensor[(1, 16, 8, 8), uint8], %w: Tensor[(16, 4, 3, 3), int8], %s: float32",
     "qnn.conv2d(%x, %w, 100, 0, 0.05f, %s, padding=[1, 1], groups=4, channels=16, kernel_size=[3, 3], out_dtype=\"int32\")"},
    {"NHWC HWIO", "%x: Tensor[(1, 10, 10, 16), int8], %w: Tensor[(3, 3, 16, 24), int8], %s: float32",
     "qnn.conv2d(%x, %w, -128, 0, 0.05f, %s, padding=[1, 1, 1, 1], channels=24, kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\", out_dtype=\"int32\")"},
    {"dense, batch 1, zero point -128", "%x: Tensor[(1, 4096), int8], %w: Tensor[(10, 4096), int8], %s: Tensor[(10), float32]",
     "qnn.dense(%x, %w, -128, 0, 0.08f, %s, units=10, out_dtype=\"int32\")"},
    {"dense, uint8 data, zero point 7", "%x: Tensor[(5, 67), uint8], %w: Tensor[(33, 67), int8], %s: float32",
     "qnn.dense(%x, %w, 7, 0, 0.08f, %s, units=33, out_dtype=\"int32\")"},
    {"uint8 weights, zero point 128 (flipped to int8 when prepared)", "%x: Tensor[(1, 8, 9, 9), uint8], %w: Tensor[(12, 8, 3, 3), uint8], %s: float32",
     "qnn.conv2d(%x, %w, 120, 128, 0.05f, %s, padding=[1, 1, 1, 1], channels=12, kernel_size=[3, 3], out_dtype=\"int32\")"},
    {"dense, uint8 weights, zero point 128", "%x: Tensor[(3, 70), int8], %w: Tensor[(11, 70), uint8], %s: float32",
     "qnn.dense(%x, %w, -4, 128, 0.08f, %s, units=11, out_dtype=\"int32\")"},
    {"conv2d_transpose, stride 2, padding, output_padding", "%x: Tensor[(1, 16, 7, 7), int8], %w: Tensor[(16, 8, 4, 4), int8], %s: float32",
     "qnn.conv2d_transpose(%x, %w, -128, 0, 0.05f, %s, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1], channels=8, kernel_size=[4, 4], out_dtype=\"int32\")"},
    {"conv2d_transpose, uint8 data and weights", "%x: Tensor[(2, 6, 5, 6), uint8], %w: Tensor[(6, 4, 3, 3), uint8], %s: float32",
     "qnn.conv2d_transpose(%x, %w, 100, 128, 0.05f, %s, strides=[1, 1], padding=[0, 0, 0, 0], channels=4, kernel_size=[3, 3], out_dtype=\"int32\")"},
    {"batch_matmul, both zero points, y transposed", "%x: Tensor[(3, 7, 64), int8], %y: Tensor[(3, 9, 64), int8]",
     "qnn.batch_matmul(%x, %y, -128, 5, 0.05f, 0.02f, out_dtype=\"int32\", transpose_a=False, transpose_b=True)"},
    {"batch_matmul, uint8 x, y a batch of 1 broadcast", "%x: Tensor[(4, 5, 33), uint8], %y: Tensor[(1, 33, 17), int8]",
     "qnn.batch_matmul(%x, %y, 128, -3, 0.05f, 0.02f, out_dtype=\"int32\", transpose_a=False, transpose_b=False)"},
    {"batch_matmul, x transposed, zero points 0", "%x: Tensor[(2, 40, 6), int8], %y: Tensor[(2, 11, 40), int8]",
     "qnn.batch_matmul(%x, %y, 0, 0, 0.05f, 0.02f, out_dtype=\"int32\", transpose_a=True, transpose_b=True)"},
};

// The call's inputs for @main's arguments `args`: a parameter's argument, a constant's value.
std::vector<rt::NDArray> call_inputs(const OneCall& c, const std::vector<rt::NDArray>& args) {
  std::vector<rt::NDArray> inputs;
  for (compiler::NodeId in : c.graph[c.call].inputs) {
    const compiler::Node& n = c.graph[in];
    inputs.push_back(n.kind == compiler::NodeKind::Constant ? n.constant : args.at(n.index));
  }
  return inputs;
}

// Whether this processor's int8 products are exact for oneDNN (VNNI); else the kernel
// declines with that reason, which `c`'s first call checks.
bool quantized_library_here(const OneCall& c) {
  if (!library_built()) return false;
  std::string why;
  if (compiler::make_library_kernel(c.graph, c.call, &why)) return true;
  INFO(why);
  REQUIRE(why.find("no VNNI instructions") != std::string::npos);
  WARN("no VNNI on this processor: the quantized convolutions stay on their reference kernels");
  return false;
}

}  // namespace

TEST_CASE("library kernels: quantized convolutions, dense layers and batch_matmuls are the reference kernel's, bit for bit", "[compiler][library]") {
  uint64_t seed = 41;
  for (const Case& k : kQuantizedCases) {
    INFO(k.name << ": " << k.body);
    OneCall c = one_call(k.params, k.body, seed);
    if (!quantized_library_here(c)) return;
    auto kernel = library_kernel(c);
    CHECK(kernel->describe().starts_with("oneDNN "));
    for (unsigned threads : {1u, 2u}) {
      const std::vector<rt::NDArray> args = call_inputs(c, full_range_ints(c.args, seed++));
      const rt::NDArray want = reference(c, args);
      const rt::NDArray got = kernel->run(args, {}, threads);
      REQUIRE(got.dtype() == DataType::int_(32));
      REQUIRE(got.shape() == want.shape());
      int64_t differ = 0;
      for (int64_t i = 0; i < got.size(); ++i) differ += got.get_int(i) != want.get_int(i);
      CHECK(differ == 0);
    }
  }
}

TEST_CASE("library kernels: quantized convolutions the library cannot match are declined with a reason", "[compiler][library]") {
  const char* params = "%x: Tensor[(1, 8, 6, 6), int8], %w: Tensor[(8, 8, 3, 3), int8], %s: float32, %z: int32";
  struct Declined {
    const char* body;
    const char* why;
  };
  const Declined cases[] = {
      {"qnn.conv2d(%x, %w, 0, 3, 0.05f, %s, padding=[1, 1], channels=8, kernel_size=[3, 3], out_dtype=\"int32\")",
       "zero point is not the constant 0"},
      {"qnn.conv2d(%x, %w, %z, 0, 0.05f, %s, padding=[1, 1], channels=8, kernel_size=[3, 3], out_dtype=\"int32\")",
       "zero point is not one constant"},
  };
  for (const Declined& d : cases) {
    INFO(d.body);
    OneCall c = one_call(params, d.body, 51);
    std::string why;
    CHECK(compiler::make_library_kernel(c.graph, c.call, &why) == nullptr);
    if (compiler::library_kernels_built()) CHECK(why.find(d.why) != std::string::npos);
  }
}

TEST_CASE("library kernels: what the library does not take is declined with a reason", "[compiler][library]") {
  OneCall c = one_call("%x: Tensor[(1, 4, 6, 6), float64], %w: Tensor[(4, 4, 3, 3), float64]",
                       "nn.conv2d(%x, %w, padding=[1, 1], channels=4, kernel_size=[3, 3])", 31);
  std::string why;
  CHECK(compiler::make_library_kernel(c.graph, c.call, &why) == nullptr);
  CHECK(!why.empty());
  OneCall i8 = one_call("%x: Tensor[(2, 8), int8], %w: Tensor[(4, 8), int8]", "nn.dense(%x, %w, units=4, out_dtype=\"int32\")", 32);
  CHECK(compiler::make_library_kernel(i8.graph, i8.call, &why) == nullptr);
  CHECK(!why.empty());
}
#endif
