// The code cache of an interactive session (compiler/tier, TierOptions::content_keys):
// a definition's key is its text and its callees', so code compiled for one check of a
// module is found again from the FuncDef objects of the next check, an edited function
// or callee gets a new key, and an unrelated definition changes nothing.
#include <catch2/catch.hpp>

#include "compiler/tier/definition_key.h"
#include "compiler/tier/tiered_compiler.h"
#include "tests/support/loaded_text.h"

using namespace relay;
using relay::rt::Value;

namespace {

using Loaded = testing::LoadedText;

const char* kTwice = R"(
def @twice(%x: Tensor[(?), float32]) -> Tensor[(?), float32] { multiply(%x, 2f) }
def @main(%x: Tensor[(?), float32]) { @twice(@twice(%x)) }
)";

uint64_t key(const Loaded& l, const char* name) {
  const FuncDef* def = l.p->find_global(name);
  REQUIRE(def);
  return jit::definition_key(*def);
}

// Stand-in native code: the input plus 1000, so its use shows.
struct Marked : rt::CompiledCall {
  Value call(std::span<const Value> args) override {
    rt::NDArray out = rt::NDArray::empty(args[0].tensor().shape(), args[0].tensor().dtype());
    for (int64_t i = 0; i < out.size(); ++i) out.set_double(i, args[0].tensor().get_double(i) + 1000);
    return Value(out);
  }
};

Value ones(int64_t n) {
  rt::NDArray a = rt::NDArray::empty({n}, DataType::float_(32));
  for (int64_t i = 0; i < n; ++i) a.data<float>()[i] = 1;
  return Value(a);
}

}  // namespace

TEST_CASE("tier keys: equal text gives equal keys, edits of the function or a callee do not", "[tier]") {
  Loaded a(kTwice), same(kTwice);
  CHECK(a.p->find_global("twice") != same.p->find_global("twice"));  // two checks, two objects
  CHECK(key(a, "twice") == key(same, "twice"));
  CHECK(key(a, "main") == key(same, "main"));

  Loaded edited_callee(R"(
def @twice(%x: Tensor[(?), float32]) -> Tensor[(?), float32] { multiply(%x, 3f) }
def @main(%x: Tensor[(?), float32]) { @twice(@twice(%x)) }
)");
  CHECK(key(a, "twice") != key(edited_callee, "twice"));
  CHECK(key(a, "main") != key(edited_callee, "main"));  // its callee's body changed

  Loaded unrelated_added(std::string(kTwice) + "def @other(%y: int32) { add(%y, 1) }\n");
  CHECK(key(a, "twice") == key(unrelated_added, "twice"));
  CHECK(key(a, "main") == key(unrelated_added, "main"));
}

TEST_CASE("tier keys: with content keys, code compiled for one check serves the next", "[tier]") {
  int compiles = 0;
  jit::TierOptions options;
  options.threshold = 2;
  options.background = false;
  options.content_keys = true;
  jit::TieredCompiler tier(options, [&](const FuncDef& def, const jit::Signature&) {
    jit::CompileOutcome out;
    if (def.name != "twice") {  // @main stays interpreted, so only @twice's use shows
      out.reason = "not compiled in this test";
      return out;
    }
    ++compiles;
    out.code = std::make_unique<Marked>();
    return out;
  });
  rt::RunOptions run;
  run.tier = &tier;
  {
    Loaded first(kTwice);
    REQUIRE(first.run(run, {ones(2)}).value);  // @twice: 1st call counted, 2nd compiles
  }
  CHECK(compiles == 1);
  tier.module_rechecked();  // the first check's objects are gone
  Loaded second(kTwice);
  auto out = second.run(run, {ones(2)});
  REQUIRE(out.value);
  CHECK(compiles == 1);  // found by content: nothing new to compile
  // Both calls of @twice ran the stand-in: 1 + 1000 + 1000.
  CHECK(out.value->tensor().get_double(0) == 2001);
  auto report = tier.report();
  size_t twice_entries = 0;
  for (const auto& r : report)
    if (r.function == "@twice") ++twice_entries;
  CHECK(twice_entries == 1);

  tier.module_rechecked();
  Loaded edited(R"(
def @twice(%x: Tensor[(?), float32]) -> Tensor[(?), float32] { multiply(%x, 3f) }
def @main(%x: Tensor[(?), float32]) { @twice(@twice(%x)) }
)");
  auto fresh = edited.run(run, {ones(2)});
  REQUIRE(fresh.value);
  // The edited @twice is counted afresh: its 1st call interpreted (3), the 2nd compiles
  // and runs native (3 + 1000).
  CHECK(compiles == 2);
  CHECK(fresh.value->tensor().get_double(0) == 1003);
}
