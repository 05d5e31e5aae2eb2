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

// Stand-in native code: a C++ function, counting its calls.
struct CountingNative : rt::CompiledCall {
  std::function<Value(std::span<const Value>)> fn;
  int calls = 0;
  int declines = 0;  // how many of the next calls to decline (takes_next_call)
  Value call(std::span<const Value> args) override {
    ++calls;
    return fn(args);
  }
  bool takes_next_call() override {
    if (declines == 0) return true;
    --declines;
    return false;
  }
};

// "Compiles" a global after `threshold` calls into the given C++ function.
struct FakeTier : rt::TierUp {
  using Native = CountingNative;
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

TEST_CASE("tier: a call the native code declines is interpreted without calling it", "[eval][tier]") {
  Loaded l(R"(
def @twice(%x: float32) -> float32 { multiply(%x, 2f) }
def @main() -> float32 { @twice(@twice(@twice(1f))) }
)");
  FakeTier tier;
  tier.natives["twice"].fn = [](std::span<const Value> a) { return f32(a[0].tensor().get_double(0) * 2 + 1000); };
  tier.natives["twice"].declines = 2;  // the innermost two calls interpret
  rt::RunOptions options;
  options.tier = &tier;
  auto out = l.run(options);
  REQUIRE(out.value);
  // 1 -> 2 -> 4 (interpreted) -> 1008 (native, marked by + 1000)
  CHECK(rt::format_value(*out.value) == "1008.0");
  CHECK(tier.natives["twice"].calls == 1);
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

namespace {

// Records the regions the machine offers; "compiles" each into `fn` when set.
struct RegionTier : rt::TierUp {
  using Native = CountingNative;
  std::vector<rt::RegionInfo> offered;
  Native native;
  rt::CompiledCall* at_call(const FuncDef&, std::span<const Value>) override { return nullptr; }
  rt::CompiledCall* at_region(const rt::RegionInfo& r, std::span<const Value>) override {
    offered.push_back(r);
    return native.fn ? &native : nullptr;
  }
};

std::vector<std::string> names(const std::vector<const VarDecl*>& vars) {
  std::vector<std::string> out;
  for (const VarDecl* v : vars) out.push_back(std::string(v->name));
  return out;
}

Value vec2(float a, float b) {
  rt::NDArray t = rt::NDArray::empty({2}, DataType::float_(32));
  t.data<float>()[0] = a;
  t.data<float>()[1] = b;
  return Value(t);
}

}  // namespace

TEST_CASE("tier: the machine offers a function's tensor regions with their inputs and outputs", "[eval][tier]") {
  Loaded l(R"(
def @f(%x: Tensor[(2), float32], %n: int32) -> Tensor[(2), float32] {
  if (less(%n, 1)) {
    %x
  } else {
    let %a = multiply(%x, %x);
    let %b = add(%a, %x);
    let %c = negative(%b);
    let %g = fn () -> Tensor[(2), float32] { %b };
    add(%c, %g())
  }
}
def @main() -> Tensor[(2), float32] { @f(ones(shape=[2], dtype="float32"), 1) }
)");
  RegionTier tier;
  rt::RunOptions options;
  options.tier = &tier;
  auto out = l.run(options);
  REQUIRE(out.value);
  CHECK(rt::format_value(*out.value) == "[0. 0.]");  // -(1*1 + 1) + (1*1 + 1), interpreted
  REQUIRE(tier.offered.size() == 1);
  const rt::RegionInfo& r = tier.offered[0];
  CHECK(r.enclosing->name == "f");
  CHECK(r.id == 1);
  CHECK(r.bindings.size() == 3);
  CHECK(names(r.inputs) == std::vector<std::string>{"x"});
  // %a is read only inside; %b by the closure after the region; %c by the result.
  CHECK(names(r.outputs) == std::vector<std::string>{"b", "c"});
  // Native code for it: the outputs' slots are bound from its tuple and the rest runs on.
  tier.offered.clear();
  tier.native.fn = [](std::span<const Value> in) {
    CHECK(in.size() == 1);
    return rt::make_tuple({vec2(10, 20), vec2(1, 2)});
  };
  out = l.run(options);
  REQUIRE(out.value);
  CHECK(rt::format_value(*out.value) == "[11. 22.]");  // %c + %g() = (1, 2) + (10, 20)
  CHECK(tier.native.calls == 1);
  // A native run-time error: the region is interpreted, the answer is the interpreter's.
  tier.native.fn = [](std::span<const Value>) -> Value { throw rt::RuntimeError("native failure"); };
  out = l.run(options);
  REQUIRE(out.value);
  CHECK(rt::format_value(*out.value) == "[0. 0.]");
}

TEST_CASE("tier: no regions in a function that may compile whole, nor without tensor inputs", "[eval][tier]") {
  Loaded l(R"(
def @g(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %a = multiply(%x, %x);
  let %b = add(%a, %x);
  %b
}
def @h(%t: (Tensor[(2), float32], int32)) -> Tensor[(2), float32] {
  if (True) {
    let %a = multiply(%t.0, %t.0);
    let %b = add(%a, %t.0);
    %b
  } else {
    %t.0
  }
}
def @main() -> Tensor[(2), float32] {
  let %o = ones(shape=[2], dtype="float32");
  let %u = @g(%o);
  @h((%u, 1))
}
)");
  RegionTier tier;
  rt::RunOptions options;
  options.tier = &tier;
  auto out = l.run(options);
  REQUIRE(out.value);
  CHECK(rt::format_value(*out.value) == "[6. 6.]");
  // @g is a graph (at_call's), @main has too few operator calls, and @h's region reads a
  // tuple: nothing is offered.
  CHECK(tier.offered.empty());
}
