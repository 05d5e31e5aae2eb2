// Tiering (compiler/tier): hot signatures compile (in the background or at the hot call),
// other signatures keep counting, the per-function bound keeps the rest interpreted, and
// the report says what happened — with a stand-in for code generation.
#include <catch2/catch.hpp>

#include <atomic>

#include "compiler/tier/tiered_compiler.h"
#include "interpreter/eval/run.h"
#include "tests/support/loaded_text.h"
#include "interpreter/value_print.h"

using namespace relay;
using relay::rt::Value;

namespace {

using Loaded = testing::LoadedText;

// "Native" code: adds 1000 to a float32 tensor's first element, so its use shows.
struct Marked : rt::CompiledCall {
  Value call(std::span<const Value> args) override {
    rt::NDArray out = rt::NDArray::empty(args[0].tensor().shape(), args[0].tensor().dtype());
    for (int64_t i = 0; i < out.size(); ++i) out.set_double(i, args[0].tensor().get_double(i) * 2 + 1000);
    return Value(out);
  }
};

Value vec(int64_t n) {
  rt::NDArray a = rt::NDArray::empty({n}, DataType::float_(32));
  for (int64_t i = 0; i < n; ++i) a.data<float>()[i] = 1;
  return Value(a);
}

const char* kProgram = R"(
def @twice(%x: Tensor[(?), float32]) -> Tensor[(?), float32] { multiply(%x, 2f) }
def @main(%x: Tensor[(?), float32]) { @twice(@twice(@twice(@twice(%x)))) }
)";

}  // namespace

TEST_CASE("tier: a hot signature compiles once and later calls run native", "[tier]") {
  Loaded l(kProgram);
  std::atomic<int> compiles{0};
  jit::TierOptions options;
  options.threshold = 2;
  options.background = false;
  jit::TieredCompiler tier(options, [&](const FuncDef& def, const jit::Signature& sig) {
    ++compiles;
    CHECK(def.name == "twice");
    CHECK(sig.to_string() == "(Tensor[(3), float32])");
    jit::CompileOutcome out;
    out.code = std::make_unique<Marked>();
    out.notes = {"1 fused group"};
    return out;
  });
  rt::RunOptions run;
  run.tier = &tier;
  // @main is not compiled (the stand-in refuses nothing; it is called once: below threshold).
  auto out = l.run(run, {vec(3)});
  REQUIRE(out.value);
  // 1 -> 2 -> 4 (interpreted twice, compiled at the 2nd call, which already runs native:
  // threshold reached on the hot call itself) ...
  CHECK(compiles == 1);
  auto report = tier.report();
  REQUIRE(report.size() == 2);
  CHECK(report[1].function == "@twice");
  CHECK(report[1].state == jit::TierReportEntry::State::Native);
  CHECK(report[1].interpreted_calls + report[1].native_calls == 4);
  CHECK(report[1].native_calls >= 2);
  const std::string text = jit::TieredCompiler::format_report(report);
  CHECK(text.find("@twice(Tensor[(3), float32])") != std::string::npos);
  CHECK(text.find("1 fused group") != std::string::npos);
}

TEST_CASE("tier: each shape is its own signature, bounded per function", "[tier]") {
  Loaded l(kProgram);
  jit::TierOptions options;
  options.threshold = 1;
  options.background = false;
  options.max_signatures = 2;
  int compiles = 0;
  jit::TieredCompiler tier(options, [&](const FuncDef&, const jit::Signature&) {
    ++compiles;
    jit::CompileOutcome out;
    out.code = std::make_unique<Marked>();
    return out;
  });
  const FuncDef* twice = l.p->find_global("twice");
  for (int64_t n : {1, 2, 3, 1, 2, 3}) {
    std::vector<Value> args{vec(n)};
    tier.at_call(*twice, args);
  }
  CHECK(compiles == 2);  // shapes (1) and (2); (3) is past the bound
  auto report = tier.report();
  REQUIRE(report.size() == 3);
  int interpreted = 0;
  for (const auto& e : report)
    if (e.state == jit::TierReportEntry::State::Interpreted) {
      ++interpreted;
      CHECK(e.reason.find("more than 2 argument signatures") != std::string::npos);
    }
  CHECK(interpreted == 1);
}

TEST_CASE("tier: background compilation does not block the run and refusals are reported", "[tier]") {
  Loaded l(kProgram);
  jit::TierOptions options;
  options.threshold = 1;
  jit::TieredCompiler tier(options, [&](const FuncDef& def, const jit::Signature&) {
    jit::CompileOutcome out;
    if (def.name == "main") out.reason = "calls other globals";
    else out.code = std::make_unique<Marked>();
    return out;
  });
  const FuncDef* main = l.p->find_global("main");
  const FuncDef* twice = l.p->find_global("twice");
  std::vector<Value> args{vec(4)};
  CHECK(tier.at_call(*twice, args) == nullptr);  // queued, interpreted meanwhile
  tier.at_call(*main, args);
  tier.drain();
  CHECK(tier.at_call(*twice, args) != nullptr);
  CHECK(tier.at_call(*main, args) == nullptr);
  auto report = tier.report();
  REQUIRE(report.size() == 2);
  CHECK(report[0].function == "@main");
  CHECK(report[0].reason == "calls other globals");
  // Non-tensor arguments are never compiled.
  std::vector<Value> tuple{rt::make_tuple({vec(1)})};
  CHECK(tier.at_call(*twice, tuple) == nullptr);
  CHECK(tier.report().size() == 2);
}
