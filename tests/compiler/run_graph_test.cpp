// run_graph against the interpreter: the graph as built and after every pass computes
// what rt::run_function computes, on seeded random inputs.
#include <catch2/catch.hpp>

#include "compiler/graph/passes.h"
#include "compiler/graph/run_graph.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
namespace t = relay::testing;

namespace {

// Tolerance: relative to 1 + |reference|. The passes reassociate batch norm's scale and
// shift exactly as the kernel does, so differences are float32 rounding of a few ulps
// amplified through the layers.
constexpr double kTolerance = 1e-4;

void check_model(const char* name) {
  INFO(name);
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
  REQUIRE(m->error.empty());
  BuildResult r = t::build_main(*m);
  REQUIRE(r.ok());
  std::vector<rt::NDArray> args = t::random_args(*m, 42);
  rt::Value want = t::interpret(*m, args);
  std::vector<rt::Value> vals(args.begin(), args.end());
  CHECK(t::max_rel_diff(run_graph(*r.graph, vals).tensor(), want.tensor()) == 0);
  Graph opt = optimize(*r.graph);
  CHECK(t::max_rel_diff(run_graph(opt, vals).tensor(), want.tensor()) < kTolerance);
}

}  // namespace

TEST_CASE("run_graph on the MLP equals the interpreter", "[compiler][run_graph]") { check_model("mlp"); }

TEST_CASE("run_graph on ResNet-18 equals the interpreter", "[compiler][run_graph]") { check_model("resnet18"); }

TEST_CASE("run_graph on the LSTM (cells inlined) equals the interpreter", "[compiler][run_graph]") { check_model("lstm"); }
