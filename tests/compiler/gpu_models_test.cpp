// Every model of tests/models planned for the GPU at its annotated shapes: the groups the
// loop IR lowers become one PTX module, which NVIDIA's ptxas must assemble for sm_90 (and
// the smaller models for sm_80 too). No GPU is needed; where the machine has no ptxas
// (it ships with a CUDA toolkit, which the project does not need), the PTX is still
// generated and its entries checked. What the GPU-shaped kernels compute is checked on
// the CPU JIT (tests/compiler_jit/ops_test.cpp).
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include "compiler/graph/passes.h"
#include "compiler/pipeline/gpu_groups.h"
#include "tests/compiler/compiler_test_util.h"
#include "tests/support/ptxas.h"

using namespace relay;
namespace t = relay::testing;

namespace {

void check_model(const char* name, std::initializer_list<int> architectures, size_t min_gpu_groups) {
  INFO(name);
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
  REQUIRE(m->error.empty());
  compiler::BuildResult built = t::build_main(*m);
  REQUIRE(built.ok());
  const compiler::Graph g = compiler::optimize(*built.graph);
  const compiler::FusionPlan plan = compiler::fuse(g);
  const std::string ptxas = t::find_ptxas();
  if (ptxas.empty()) WARN("no ptxas (CUDA toolkit) on this machine: the PTX is generated but not assembled");
  for (int sm : architectures) {
    const compiler::gpu::PtxTarget target{sm};
    INFO(target.arch());
    const compiler::GpuGroups gpu = compiler::plan_gpu_groups(g, plan, target);
    REQUIRE(gpu.plans.size() == plan.groups.size());
    CHECK(gpu.planned() >= min_gpu_groups);
    REQUIRE(gpu.module.kernels.size() == gpu.planned());
    for (size_t i = 0; i < gpu.plans.size(); ++i)
      if (!gpu.plans[i]) CHECK_FALSE(gpu.why_not[i].empty());  // every host group says why
    for (const auto& k : gpu.module.kernels) {
      CHECK(gpu.module.ptx.find(".visible .entry " + k.entry + "(") != std::string::npos);
      CHECK(k.grid >= 1);
    }
    if (!ptxas.empty()) CHECK(t::ptxas_errors(ptxas, gpu.module.ptx, target.arch()) == "");
  }
}

}  // namespace

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

TEST_CASE("Inception-v3 as GPU kernels assembles", "[gpu][models]") { check_model("inception_v3", {90}, 150); }

TEST_CASE("DenseNet-121 as GPU kernels assembles", "[gpu][models]") { check_model("densenet121", {90}, 150); }

#endif  // RELAY_HAVE_PIPELINE
