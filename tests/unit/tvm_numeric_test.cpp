// The interpreter against TVM's own numbers: the MLP of tests/corpus/tvm_numeric/mlp run
// on TVM's inputs must give TVM's output (its reference interpreter's and its graph
// executor's, which are bitwise equal) to float32 rounding.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interpreter/runtime/npy.h"
#include "tests/support/run_program.h"

namespace fs = std::filesystem;

TEST_CASE("tvm numeric: the MLP gives TVM's output", "[eval][tvm]") {
  const fs::path dir = fs::path(RELAY_SOURCE_DIR) / "tests" / "corpus" / "tvm_numeric" / "mlp";
  std::ifstream in(dir / "program.relay");
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(!text.str().empty());
  std::vector<relay::rt::NDArray> args;
  for (const char* name : {"arg0_data", "arg1_fc1_weight", "arg2_fc1_bias", "arg3_fc2_weight", "arg4_fc2_bias",
                           "arg5_fc3_weight", "arg6_fc3_bias"})
    args.push_back(relay::rt::read_npy((dir / (std::string(name) + ".npy")).string()));
  auto r = relay::testing::run_main(text.str(), args);
  REQUIRE(r.error == "");
  REQUIRE(r.value.is_tensor());
  relay::rt::NDArray got = r.value.tensor();
  for (const char* out : {"out_debug_0.npy", "out_graph_0.npy"}) {
    relay::rt::NDArray want = relay::rt::read_npy((dir / out).string());
    REQUIRE(got.shape() == want.shape());
    double worst = 0;
    for (int64_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(got.get_double(i) - want.get_double(i)));
    INFO(out);
    CHECK(worst < 1e-6);  // softmax outputs in [0, 1]; float32 rounding differences only
  }
}
