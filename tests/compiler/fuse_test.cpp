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
  BuildResult r = t::build_main(*m);
  INFO(r.reason);
  REQUIRE(r.ok());
  return optimize(*r.graph);
}

std::vector<std::string> summaries(const Graph& g, const FusionPlan& p) {
  std::vector<std::string> out;
  for (const FusedGroup& gr : p.groups) out.push_back(group_summary(g, gr));
  return out;
}

}  // namespace

TEST_CASE("elementwise and broadcast chains fuse; a reduction takes its producers", "[compiler][fuse]") {
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

TEST_CASE("dense takes its bias add and activation; softmax stands alone", "[compiler][fuse]") {
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

TEST_CASE("injective ops fuse with elementwise neighbours; opaque ops stand alone", "[compiler][fuse]") {
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
