// Fusion by TVM's rules on small graphs, and ResNet-18's first block.
#include <catch2/catch.hpp>

#include "compiler/graph/fuse.h"
#include "compiler/graph/passes.h"
#include "compiler/graph/print.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
namespace t = relay::testing;

namespace {

Graph optimized(const std::string& text) {
  auto m = t::load_model_text(text);
  INFO(m->error);
  REQUIRE(m->error.empty());
  return t::optimized_main(*m);
}

std::vector<std::string> summaries(const Graph& g, const FusionPlan& p) {
  std::vector<std::string> out;
  for (const FusedGroup& gr : p.groups) out.push_back(group_summary(g, gr));
  return out;
}

}  // namespace

TEST_CASE("elementwise and broadcast chains fuse and a reduction takes its producers", "[compiler][fuse]") {
  Graph g = optimized(R"(
def @main(%x: Tensor[(4, 8), float32], %y: Tensor[(8), float32]) {
  %0 = add(%x, %y);
  %1 = exp(%0);
  %2 = sum(%1, axis=[1]);
  sqrt(%2)
}
)");
  FusionPlan p = fuse(g);
  // sqrt after the reduction is not fused into it (TVM fuses no epilogue after kCommReduce).
  CHECK(summaries(g, p) == std::vector<std::string>{"add + exp + sum", "sqrt"});
  CHECK(p.groups[0].pattern == FusionPattern::Reduction);
  CHECK(g[p.groups[0].master].op->name == "sum");
  CHECK(p.groups[0].inputs.size() == 2);
  CHECK(p.groups[1].inputs == std::vector<NodeId>{p.groups[0].outputs[0]});
}

TEST_CASE("dense takes its bias add and activation and softmax stands alone", "[compiler][fuse]") {
  Graph g = optimized(R"(
def @main(%x: Tensor[(1, 6), float32], %w: Tensor[(4, 6), float32], %b: Tensor[(4), float32]) {
  %0 = nn.dense(%x, %w, units=4);
  %1 = nn.bias_add(%0, %b, axis=-1);
  %2 = nn.relu(%1);
  nn.softmax(%2)
}
)");
  FusionPlan p = fuse(g);
  CHECK(summaries(g, p) == std::vector<std::string>{"nn.dense + add + nn.relu", "nn.softmax"});
  CHECK(p.groups[0].pattern == FusionPattern::OutElementwiseFusable);
}

TEST_CASE("injective ops fuse with elementwise neighbours and opaque ops stand alone", "[compiler][fuse]") {
  Graph g = optimized(R"(
def @main(%x: Tensor[(2, 3, 4), float32]) {
  %0 = exp(%x);
  %1 = transpose(%0, axes=[0, 2, 1]);
  %2 = reshape(%1, newshape=[6, 4]);
  %3 = negative(%2);
  %4 = argsort(%3, axis=1);
  cast(%4, dtype="float32")
}
)");
  FusionPlan p = fuse(g);
  CHECK(summaries(g, p) == std::vector<std::string>{"exp + transpose + reshape + negative", "argsort", "cast"});
}

TEST_CASE("a value with two consumers fuses only into its post-dominator", "[compiler][fuse]") {
  Graph g = optimized(R"(
def @main(%x: Tensor[(4), float32]) {
  %0 = exp(%x);
  %1 = log(%0);
  %2 = tanh(%0);
  add(%1, %2)
}
)");
  FusionPlan p = fuse(g);
  CHECK(summaries(g, p) == std::vector<std::string>{"exp + log + tanh + add"});
}

namespace {

// The group holding the call whose source text contains `text` (a weight's name, or
// `add(%14, %15)`), or null.
const FusedGroup* group_with(const t::CompiledModel& m, const Graph& g, const FusionPlan& p, std::string_view op,
                             std::string_view text) {
  const SourceFile& src = m.sources.get(m.program->file);
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g[i];
    if (n.kind == NodeKind::Call && n.op->name == op && src.slice(n.span).find(text) != std::string_view::npos)
      return &p.groups[p.group_of[i]];
  }
  return nullptr;
}

size_t ops_in(const Graph& g, const FusedGroup& gr, std::string_view op) {
  size_t k = 0;
  for (NodeId m : gr.nodes) k += g[m].kind == NodeKind::Call && g[m].op->name == op;
  return k;
}

}  // namespace

// The model is TVM's pre-activation ResNet (BN-ReLU-conv). With its weights as @main's
// parameters, batch norm's per-channel 1/sqrt(var + eps) * gamma is a small group of its
// own (its result feeds two paths, one of which goes through the out-elemwise-fusable
// group, so TVM's path check refuses it), and the rest of each batch norm joins the
// convolution (or pool) before it.
TEST_CASE("ResNet-18's first block fuses as TVM fuses it", "[compiler][fuse]") {
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/resnet18.relay");
  REQUIRE(m->error.empty());
  Graph g = t::optimized_main(*m);
  FusionPlan p = fuse(g);
  INFO(print_fused(g, p));

  // conv0 + bn0 (scale and shift) + relu.
  const FusedGroup* conv0 = group_with(*m, g, p, "nn.conv2d", "%conv0_weight");
  REQUIRE(conv0);
  CHECK(conv0->pattern == FusionPattern::OutElementwiseFusable);
  CHECK(g[conv0->master].op->name == "nn.conv2d");
  CHECK(ops_in(g, *conv0, "nn.conv2d") == 1);
  CHECK(ops_in(g, *conv0, "nn.relu") == 1);
  CHECK(ops_in(g, *conv0, "multiply") >= 1);
  CHECK(g[conv0->nodes.back()].op->name == "nn.relu");

  // max_pool2d is not in a convolution's group. It is out-elemwise-fusable in TVM, and in
  // this pre-activation model the next unit's bn1 + relu follow it, so they join it.
  const FusedGroup* pool = group_with(*m, g, p, "nn.max_pool2d", "max_pool2d");
  REQUIRE(pool);
  CHECK(pool != conv0);
  CHECK(ops_in(g, *pool, "nn.conv2d") == 0);
  CHECK(g[pool->master].op->name == "nn.max_pool2d");
  CHECK(g[pool->nodes.back()].op->name == "nn.relu");

  // stage1_unit1: conv1 + bn2 + relu; the shortcut conv alone; conv2 + the residual add.
  const FusedGroup* conv1 = group_with(*m, g, p, "nn.conv2d", "%stage1_unit1_conv1_weight");
  REQUIRE(conv1);
  CHECK(ops_in(g, *conv1, "nn.conv2d") == 1);
  CHECK(ops_in(g, *conv1, "nn.relu") == 1);
  const FusedGroup* sc = group_with(*m, g, p, "nn.conv2d", "%stage1_unit1_sc_weight");
  REQUIRE(sc);
  CHECK(sc->nodes.size() == 1);
  const FusedGroup* conv2 = group_with(*m, g, p, "nn.conv2d", "%stage1_unit1_conv2_weight");
  const FusedGroup* residual = group_with(*m, g, p, "add", "add(%14, %15)");
  REQUIRE(conv2);
  CHECK(residual == conv2);
  CHECK(summaries(g, p)[conv2->id] == "nn.conv2d + add");
  // The residual sum has two consumers (the next unit's bn1 and its shortcut add), so the
  // group ends there; both convolutions' groups come before it.
  CHECK(sc->id < conv2->id);
  CHECK(conv1->id < conv2->id);
  // Groups are topological: every input made by a group comes from an earlier one.
  for (const FusedGroup& gr : p.groups)
    for (NodeId in : gr.inputs)
      if (p.group_of[in] >= 0) CHECK(static_cast<uint32_t>(p.group_of[in]) < gr.id);
}

TEST_CASE("fusion covers every model and each op node is in exactly one group", "[compiler][fuse]") {
  for (const char* name : {"mobilenet", "squeezenet1_0", "inception_v3", "densenet121", "lstm", "dcgan"}) {
    INFO(name);
    auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
    Graph g = t::optimized_main(*m);
    FusionPlan p = fuse(g);
    size_t members = 0;
    for (const FusedGroup& gr : p.groups) {
      members += gr.nodes.size();
      CHECK(gr.nodes.size() <= 256);
      CHECK_FALSE(gr.outputs.empty());
    }
    CHECK(members == g.size() - g.count(NodeKind::Input) - g.count(NodeKind::Constant));
  }
}
