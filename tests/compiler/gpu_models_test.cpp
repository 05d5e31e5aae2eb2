// Every model of tests/models planned for the GPU at its annotated shapes: the groups the
// loop IR lowers become one PTX module, which NVIDIA's ptxas must assemble for sm_90 (and
// the smaller models for sm_80 too). No GPU is needed; where the machine has no ptxas
// (it ships with a CUDA toolkit, which the project does not need), the PTX is still
// generated and its entries checked. What the GPU-shaped kernels compute is checked on
// the CPU JIT: each operator's in tests/compiler_jit/ops_test.cpp, and here whole models,
// compiled with the GPU's loop shapes and run on the CPU, must give bit for bit what the
// CPU's loop shapes give (every lowering folds in the same order in both shapes).
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <set>

#include "compiler/graph/passes.h"
#include "compiler/graph/run_graph.h"
#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/gpu_groups.h"
#include "compiler/pipeline/tile_tuner.h"
#include "lang/base/source.h"
#include "tests/compiler/compiler_test_util.h"
#include "tests/support/conv_tolerance.h"
#include "tests/support/product_tolerance.h"
#include "tests/support/ptxas.h"

using namespace relay;
namespace t = relay::testing;

namespace {

// A model of tests/models as an optimised, fused graph at its annotated shapes.
struct FusedModel {
  std::unique_ptr<t::CompiledModel> model;
  compiler::Graph graph;
  compiler::FusionPlan plan;
};

FusedModel fused_model(const char* name) {
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
  REQUIRE(m->error.empty());
  t::FusedGraph fused = t::fused_main(*m);
  return {std::move(m), std::move(fused.graph), std::move(fused.plan)};
}

// A program's @main the same way.
FusedModel fused_text(const std::string& text) {
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  t::FusedGraph fused = t::fused_main(*m);
  return {std::move(m), std::move(fused.graph), std::move(fused.plan)};
}

void check_model(const FusedModel& fm, std::initializer_list<int> architectures, size_t min_gpu_groups) {
  const compiler::Graph& g = fm.graph;
  const compiler::FusionPlan& plan = fm.plan;
  const std::string ptxas = t::find_ptxas();
  if (ptxas.empty()) WARN("no ptxas (CUDA toolkit) on this machine: the PTX is generated but not assembled");
  for (int sm : architectures) {
    const compiler::gpu::PtxTarget target{sm};
    INFO(target.arch());
    const compiler::GpuGroups gpu = compiler::plan_gpu_groups(g, plan, target);
    REQUIRE(gpu.plans.size() == plan.groups.size());
    CHECK(gpu.planned() >= min_gpu_groups);
    size_t masters = 0;
    for (const auto& m : gpu.masters) masters += m.has_value();
    REQUIRE(gpu.module.kernels.size() == gpu.planned() + masters);
    for (size_t i = 0; i < gpu.plans.size(); ++i)
      if (!gpu.plans[i]) CHECK_FALSE(gpu.why_not[i].empty());  // every host group says why
    for (const auto& k : gpu.module.kernels) {
      CHECK(gpu.module.ptx.find(".visible .entry " + k.entry + "(") != std::string::npos);
      CHECK(k.grid >= 1);
    }
    if (!ptxas.empty()) CHECK(t::ptxas_errors(ptxas, gpu.module.ptx, target.arch()) == "");
  }
}

void check_model(const char* name, std::initializer_list<int> architectures, size_t min_gpu_groups) {
  INFO(name);
  check_model(fused_model(name), architectures, min_gpu_groups);
}

// Empty when `a` and `b` are the same bits (tensors, or tuples of them), NaN matching NaN.
std::string same_bits(const rt::Value& a, const rt::Value& b) {
  if (a.is_tuple() != b.is_tuple()) return "a tuple against a tensor";
  if (a.is_tuple()) {
    const auto &fa = a.tuple().fields, &fb = b.tuple().fields;
    if (fa.size() != fb.size()) return "tuples of different sizes";
    for (size_t i = 0; i < fa.size(); ++i)
      if (std::string d = same_bits(fa[i], fb[i]); !d.empty()) return "field " + std::to_string(i) + ": " + d;
    return "";
  }
  const rt::NDArray &x = a.tensor(), &y = b.tensor();
  if (x.shape() != y.shape() || x.dtype() != y.dtype()) return "shapes or dtypes differ";
  const size_t w = rt::dtype_bytes(x.dtype());
  for (int64_t i = 0; i < x.size(); ++i) {
    if (std::memcmp(static_cast<const char*>(x.raw()) + i * static_cast<int64_t>(w),
                    static_cast<const char*>(y.raw()) + i * static_cast<int64_t>(w), w) == 0)
      continue;
    if (x.dtype().is_float() && std::isnan(x.get_double(i)) && std::isnan(y.get_double(i))) continue;
    return "element " + std::to_string(i) + ": " + std::to_string(x.get_double(i)) + " against " +
           std::to_string(y.get_double(i));
  }
  return "";
}

// The model compiled twice for the CPU, once with each loop shape, on the same arguments.
void check_gpu_shapes_on_cpu(const FusedModel& fm) {
  compiler::ThreadPool pool(2);
  compiler::Executable cpu(fm.graph, fm.plan, compiler::Jit::instance(), &pool, nullptr, loops::LoopShape::Cpu);
  compiler::Executable gpu(fm.graph, fm.plan, compiler::Jit::instance(), &pool, nullptr, loops::LoopShape::Gpu);
  CHECK(gpu.native_groups() == cpu.native_groups());
  const std::vector<rt::NDArray> args = t::random_args(*fm.model, 11);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  CHECK(same_bits(gpu.call(vals), cpu.call(vals)) == "");
}

void check_gpu_shapes_on_cpu(const char* name) {
  INFO(name);
  check_gpu_shapes_on_cpu(fused_model(name));
}

// Every matrix product and convolution of the model as the GPU's kernel (plan_gpu_master),
// run on the CPU JIT on the interpreter's values of its inputs, against the reference
// kernel: each output within K roundings of its sum of |terms| (the kernel folds in its
// own order, BLAS does not), and an ulp of a float16/bfloat16 output.
size_t check_matrix_masters(t::CompiledModel& m) {
  const t::FusedGraph fused = t::fused_main(m);
  const compiler::Graph& g = fused.graph;
  const compiler::FusionPlan& plan = fused.plan;
  const std::vector<rt::NDArray> args = t::random_args(m, 5);
  std::vector<rt::Value> values(g.size());
  for (compiler::NodeId id = 0; id < g.size(); ++id) {
    const compiler::Node& n = g[id];
    if (n.kind == compiler::NodeKind::Input) values[id] = rt::Value(args[n.index]);
    else if (n.kind == compiler::NodeKind::Constant) values[id] = rt::Value(n.constant);
    else values[id] = compiler::eval_node(g, id, values);
  }
  size_t checked = 0;
  for (const compiler::FusedGroup& group : plan.groups) {
    std::string why;
    auto master = compiler::plan_gpu_master(g, group, compiler::gpu::PtxTarget{90}, &why);
    if (!master) continue;
    INFO("group " << group.id);
    const compiler::CompiledKernel k = compiler::Jit::instance().compile(master->kernel);
    const rt::NDArray& want = values[group.master].tensor();
    rt::NDArray got = rt::NDArray::empty(want.shape(), want.dtype());
    std::vector<void*> buffers;
    for (compiler::NodeId in : master->part.inputs) buffers.push_back(values[in].tensor().raw());
    buffers.push_back(got.raw());
    compiler::run_kernel(k, buffers.data(), nullptr);
    const std::string_view op = g[group.master].op->name;
    const t::FoldBound bound =
        op == "nn.conv2d" ? t::conv2d_bound(g, group.master, values)
                          : t::product_bound(values[master->part.inputs[0]].tensor(), values[master->part.inputs[1]].tensor(),
                                             want, op == "nn.batch_matmul");
    CHECK(bound.check(want, got) == "");
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("matrix products as GPU kernels compute the reference's products", "[gpu][models]") {
  for (const char* name : {"mlp", "lstm", "dqn"}) {
    INFO(name);
    auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
    REQUIRE(m->error.empty());
    CHECK(check_matrix_masters(*m) >= 1);
  }
  // batch_matmul, with a batch broadcast from 1
  auto bm = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%a: Tensor[(3, 5, 17), float32], %b: Tensor[(1, 7, 17), float32]) {
  nn.relu(nn.batch_matmul(%a, %b, transpose_b=True))
})");
  REQUIRE(bm->error.empty());
  CHECK(check_matrix_masters(*bm) == 1);
  // without transpose_b it is not one of these (the host computes it)
  auto other = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%a: Tensor[(3, 5, 17), float32], %b: Tensor[(3, 17, 7), float32]) {
  nn.batch_matmul(%a, %b)
})");
  REQUIRE(other->error.empty());
  CHECK(check_matrix_masters(*other) == 0);
}

TEST_CASE("convolutions as GPU kernels compute the reference's convolutions", "[gpu][models]") {
  // ResNet-18's and MobileNet's (strided, padded, depthwise, 1x1), SqueezeNet's
  for (const char* name : {"resnet18", "mobilenet", "squeezenet1_1"}) {
    INFO(name);
    auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
    REQUIRE(m->error.empty());
    CHECK(check_matrix_masters(*m) >= 8);
  }
  // what the models lack: asymmetric padding, dilation, grouped (not depthwise) channels,
  // a window wider than the input, strides that skip the last column
  auto odd = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 6, 9, 7), float32], %w1: Tensor[(4, 3, 3, 2), float32], %w2: Tensor[(5, 4, 5, 9), float32]) {
  %0 = nn.conv2d(%x, %w1, strides=[2, 3], padding=[0, 1, 2, 3], dilation=[2, 1], groups=2, channels=4, kernel_size=[3, 2]);
  nn.relu(nn.conv2d(%0, %w2, padding=[2, 3], kernel_size=[5, 9]))
})");
  REQUIRE(odd->error.empty());
  CHECK(check_matrix_masters(*odd) == 2);
  // float16 and bfloat16, summed in float32 and rounded once as the reference does: tensor
  // cores (a partial last slice of 27 terms, a partial last tile of 100 positions), a
  // depthwise convolution and a register tile
  for (const char* dtype : {"float16", "bfloat16"}) {
    INFO(dtype);
    std::string text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 20, 20), T], %w1: Tensor[(64, 3, 3, 3), T], %w2: Tensor[(64, 1, 3, 3), T], %w3: Tensor[(8, 64, 1, 1), T]) {
  %0 = nn.relu(nn.conv2d(%x, %w1, strides=[2, 2], padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]));
  %1 = nn.conv2d(%0, %w2, padding=[1, 1, 1, 1], groups=64, channels=64, kernel_size=[3, 3]);
  nn.conv2d(%1, %w3, channels=8, kernel_size=[1, 1])
})";
    for (size_t at = text.find(", T]"); at != std::string::npos; at = text.find(", T]", at))
      text.replace(at + 2, 1, dtype);
    auto half = t::load_model_text(text);
    REQUIRE(half->error.empty());
    CHECK(check_matrix_masters(*half) == 3);
  }
  // a convolution whose output dtype is not its inputs' stays on the host
  auto widened = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 8, 8), float16], %w: Tensor[(4, 3, 3, 3), float16]) {
  nn.conv2d(%x, %w, out_dtype="float32")
})");
  REQUIRE(widened->error.empty());
  CHECK(check_matrix_masters(*widened) == 0);
  // NHWC stays on the host
  auto nhwc = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 8, 3), float32], %w: Tensor[(3, 3, 3, 4), float32]) {
  nn.conv2d(%x, %w, data_layout="NHWC", kernel_layout="HWIO")
})");
  REQUIRE(nhwc->error.empty());
  CHECK(check_matrix_masters(*nhwc) == 0);
}

TEST_CASE("models compiled with the GPU's loop shapes compute what the CPU's do", "[gpu][models]") {
  for (const char* name : {"mlp", "dqn", "lstm", "dcgan", "resnet18", "mobilenet", "squeezenet1_1"})
    check_gpu_shapes_on_cpu(name);
}

TEST_CASE("gather, gather_nd, collapse sums, split reductions and softmaxes, l2_normalize as GPU kernels", "[gpu][models]") {
  // the groups fuse_for_kernels splits (a tile before a sum, a softmax's epilogue) and the
  // lowerings of gather, gather_nd, collapse_sum_like and l2_normalize's decomposition: PTX that
  // ptxas assembles, and the GPU's loop shapes computing the CPU's bits
  const FusedModel fm = fused_text(
      "def @main(%x: Tensor[(4, 8, 33), float32], %i: Tensor[(4, 3, 33), int64], %y: Tensor[(8, 1), float32],\n"
      "          %n: Tensor[(2, 3), int32]) {\n"
      "  %0 = gather(exp(%x), %i, axis=1);\n"
      "  %1 = sum(tile(%x, reps=[1, 2, 1]), axis=[1]);\n"
      "  %2 = collapse_sum_like(multiply(%x, %x), %y);\n"
      "  %3 = multiply(nn.softmax(%x, axis=-1), 2f);\n"
      "  %4 = nn.l2_normalize(%x, eps=1e-10f, axis=[2]);\n"
      "  %5 = gather_nd(negative(%x), %n);\n"
      "  (%0, %1, %2, %3, %4, %5)\n}\n");
  check_model(fm, {80, 90}, 8);
  check_gpu_shapes_on_cpu(fm);
}

TEST_CASE("a quantized network's canonicalised epilogues as GPU kernels", "[gpu][models]") {
  // quantize, requantize (float64 frexp of the scales per call, int64 fixed point) and
  // qnn.add as element-wise GPU kernels; the int8 convolutions and dense layer stay on the
  // host (no GPU lowering), their epilogues and the scale computations on the GPU
  check_model("quantized_cnn", {80, 90}, 8);
  check_gpu_shapes_on_cpu("quantized_cnn");
}

TEST_CASE("a quantized attention block's tables, products and softmax as GPU kernels", "[gpu][models]") {
  // qnn.sigmoid as a take from its int8 table, qnn.mul's int32 product requantized, a
  // float softmax between a dequantize and a quantize; the int8 matrix products stay on
  // the host
  check_model("quantized_attention", {80, 90}, 8);
  check_gpu_shapes_on_cpu("quantized_attention");
}

TEST_CASE("the MLP, DQN and LSTM as GPU kernels assemble", "[gpu][models]") {
  check_model("mlp", {80, 90}, 3);
  check_model("dqn", {80, 90}, 3);
  check_model("lstm", {80, 90}, 4);
}

TEST_CASE("ResNet-18 and MobileNet as GPU kernels assemble", "[gpu][models]") {
  check_model("resnet18", {80, 90}, 30);
  check_model("mobilenet", {80, 90}, 40);
}

TEST_CASE("DCGAN, SqueezeNet and VGG-11 as GPU kernels assemble", "[gpu][models]") {
  check_model("dcgan", {90}, 5);
  check_model("squeezenet1_1", {90}, 30);
  check_model("vgg11", {90}, 10);
}

TEST_CASE("ResNet-50 and the detection head as GPU kernels assemble", "[gpu][models]") {
  check_model("resnet50", {90}, 80);
  check_model("detection_head", {90}, 4);
}

namespace {

// Every candidate tile (gpu_master.h) of every distinct product and convolution of the
// fused graph, each under the entry the tuner times it by, as one module that ptxas must
// assemble for sm_80 and sm_90: what `--tune-tiles` loads. Returns the candidates.
size_t check_candidate_tiles(const compiler::Graph& g, const compiler::FusionPlan& plan) {
  std::set<std::string> shapes;
  std::vector<compiler::NativePlan> lowered;
  for (const compiler::FusedGroup& group : plan.groups) {
    std::string why;
    const auto master = compiler::gpu_master(g, group, compiler::gpu::PtxTarget{90}, &why);
    if (!master || !shapes.insert(master->key()).second) continue;
    INFO(master->key());
    CHECK(master->tile_words(0) == compiler::plan_gpu_master(g, group, compiler::gpu::PtxTarget{90}, &why)->tile);  // the rule's first
    for (size_t i = 0; i < master->tiles(); ++i) {
      INFO(master->tile_label(i));
      auto p = compiler::plan_gpu_master(*master, i, &why, compiler::TileTuner::trial_entry(*master, i));
      REQUIRE(p);
      lowered.push_back(std::move(*p));
    }
  }
  std::vector<const loops::Kernel*> kernels;
  for (const auto& p : lowered) kernels.push_back(&p.kernel);
  const std::string ptxas = t::find_ptxas();
  if (ptxas.empty()) WARN("no ptxas (CUDA toolkit) on this machine: the PTX is generated but not assembled");
  for (int sm : {80, 90}) {
    const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{sm});
    REQUIRE(m.kernels.size() == kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i) CHECK(m.kernels[i].entry == kernels[i]->name);
    if (!ptxas.empty()) CHECK(t::ptxas_errors(ptxas, m.ptx, "sm_" + std::to_string(sm)) == "");
  }
  return kernels.size();
}

}  // namespace

TEST_CASE("every candidate tile of ResNet-18's and MobileNet's products and convolutions assembles",
          "[gpu][models][tiles]") {
  for (const char* name : {"resnet18", "mobilenet"}) {
    INFO(name);
    const FusedModel fm = fused_model(name);
    CHECK(check_candidate_tiles(fm.graph, fm.plan) >= 30);
  }
  // in float16, with the tensor cores among them
  std::string text, error;
  REQUIRE(read_text_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/resnet18.relay", &text, &error));
  for (size_t at = text.find("float32"); at != std::string::npos; at = text.find("float32", at)) text.replace(at, 7, "float16");
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  const t::FusedGraph fused = t::fused_main(*m);
  CHECK(check_candidate_tiles(fused.graph, fused.plan) >= 30);
}

TEST_CASE("a GPU without bfloat16 tensor cores (sm_75) gets the float32 units' tiles for bfloat16", "[gpu][models][tiles]") {
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(128, 256), bfloat16], %w: Tensor[(128, 256), bfloat16], %d: Tensor[(1, 64, 16, 16), bfloat16],
          %k: Tensor[(64, 64, 3, 3), bfloat16]) {
  (nn.relu(nn.dense(%x, %w, units=128)), nn.conv2d(%d, %k, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]))
}
)");
  REQUIRE(m->error.empty());
  const t::FusedGraph fused = t::fused_main(*m);
  for (int sm : {75, 90}) {
    INFO("sm_" << sm);
    const compiler::gpu::PtxTarget target{sm};
    size_t masters = 0;
    for (const compiler::FusedGroup& group : fused.plan.groups) {
      std::string why;
      const auto master = compiler::gpu_master(fused.graph, group, target, &why);
      if (!master) continue;
      ++masters;
      INFO(master->key());
      CHECK((master->tile_label(0) == "mma") == (sm >= 80));  // the rule's
      size_t mma = 0;
      for (size_t i = 0; i < master->tiles(); ++i) mma += master->tile_label(i) == "mma";
      CHECK(mma == (sm >= 80 ? 1u : 0u));
    }
    CHECK(masters == 2);
    // the whole function's module: generated (not an abort in LLVM), and assembled
    const compiler::GpuGroups groups = compiler::plan_gpu_groups(fused.graph, fused.plan, target);
    CHECK((groups.module.ptx.find("wmma.mma") != std::string::npos) == (sm >= 80));
    const std::string ptxas = t::find_ptxas();
    if (!ptxas.empty()) CHECK(t::ptxas_errors(ptxas, groups.module.ptx, target.arch()) == "");
  }
}

TEST_CASE("Inception-v3 as GPU kernels assembles", "[gpu][models]") { check_model("inception_v3", {90}, 150); }

TEST_CASE("DenseNet-121 as GPU kernels assembles", "[gpu][models]") { check_model("densenet121", {90}, 150); }

#endif  // RELAY_HAVE_PIPELINE
