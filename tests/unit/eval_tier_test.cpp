// The tier-up seam (interpreter/eval/tier.h) with a stand-in compiler: native code is used
// when offered, and the interpreter's answers stay exact — a native run-time error or a
// NaN seen by an observer makes the machine interpret the call instead.
#include <catch2/catch.hpp>

#include <functional>
#include <map>

#include "interpreter/eval/run.h"
#include "tests/support/loaded_text.h"
#include "interpreter/value_print.h"

using namespace relay;
using relay::rt::Value;

namespace {

using Loaded = testing::LoadedText;

// "Compiles" a global after `threshold` calls into the given C++ function.
struct FakeTier : rt::TierUp {
  struct Native : rt::CompiledCall {
    std::function<Value(std::span<const Value>)> fn;
    int calls = 0;
    Value call(std::span<const Value> args) override {
      ++calls;
      return fn(args);
    }
  };
  std::map<std::string, Native> natives;
  std::map<std::string, int> seen;
  int threshold = 0;
  rt::CompiledCall* at_call(const FuncDef& def, std::span<const Value>) override {
    auto it = natives.find(std::string(def.name));
    if (it == natives.end() || seen[std::string(def.name)]++ < threshold) return nullptr;
    return &it->second;
  }
};

Value f32(float v) { return Value(rt::NDArray::scalar(v, DataType::float_(32))); }

}  // namespace

TEST_CASE("tier: native code replaces hot calls, also in tail position", "[eval][tier]") {
  Loaded l(R"(
def @twice(%x: float32) -> float32 { multiply(%x, 2f) }
def @main() -> float32 {
  let %a = @twice(1f);
  let %b = @twice(%a);
  @twice(%b)
}
)");
  FakeTier tier;
  tier.threshold = 1;  // the first call interprets, the next two run "native" code
  tier.natives["twice"].fn = [](std::span<const Value> a) { return f32(a[0].tensor().get_double(0) * 2 + 1000); };
  rt::RunOptions options;
  options.tier = &tier;
  auto out = l.run(options);
  REQUIRE(out.value);
  // 1 -> 2 (interpreted) -> 1004 -> 3008 (native, marked by + 1000)
  CHECK(rt::format_value(*out.value) == "3008.0");
  CHECK(tier.natives["twice"].calls == 2);
}

TEST_CASE("tier: a run-time error in native code is the interpreter's diagnostic", "[eval][tier]") {
  Loaded l(R"(
type Color { Red, Green }
def @name(%c: Color[]) -> int32 { match? (%c) { Red => 1 } }
def @main() -> int32 { add(@name(Green), 1) }
)");
  FakeTier tier;
  tier.natives["name"].fn = [](std::span<const Value>) -> Value { throw rt::RuntimeError("native failure"); };
  rt::RunOptions options;
  options.tier = &tier;
  auto out = l.run(options);
  CHECK(tier.natives["name"].calls == 1);
  REQUIRE(out.error);
  CHECK(std::string(out.error->code()) == "E0100");
  CHECK(out.error->message == "no clause of this `match?` matches the value");
  CHECK(l.sources.get(out.error->primary().span.file).slice(out.error->primary().span).starts_with("match?"));
}

TEST_CASE("tier: with --check-numerics a native NaN is replayed by the interpreter", "[eval][tier]") {
  Loaded l(R"(
def @f(%x: float32) -> float32 { let %y = subtract(%x, %x); divide(%y, %y) }
def @main() -> float32 { @f(1f) }
)");
  FakeTier tier;
  tier.natives["f"].fn = [](std::span<const Value>) { return f32(std::nanf("")); };
  rt::RunOptions options;
  options.tier = &tier;
  options.check_numerics = true;
  auto out = l.run(options);
  REQUIRE(out.error);
  CHECK(std::string(out.error->code()) == "E0102");
  CHECK(out.error->message == "`divide` produced 1 NaN value from finite inputs");
  CHECK(tier.natives["f"].calls == 1);
  // Without observers the native NaN is the answer.
  options.check_numerics = false;
  out = l.run(options);
  REQUIRE(out.value);
  CHECK(rt::format_value(*out.value) == "nan");
}
