// The session's JIT seam: a front end's tier is asked about the user's functions (never
// the session's temporary input function), `:set jit off` stops asking, and `:jit`
// prints what the tier says.
#include <catch2/catch.hpp>

#include <map>

#include "repl/session.h"

using namespace relay;

namespace {

struct CountingTier : rt::TierUp {
  std::map<std::string, int> calls;
  rt::CompiledCall* at_call(const FuncDef& def, std::span<const rt::Value>) override {
    ++calls[std::string(def.name)];
    return nullptr;
  }
  std::string describe() const override { return "@f: counted\n"; }
};

std::string text_of(const repl::ExecResult& r) {
  std::string out;
  for (const auto& o : r.outputs) out += o.text + "\n";
  return out;
}

}  // namespace

TEST_CASE("session: the JIT is asked about user functions and can be turned off", "[session][jit]") {
  repl::Session s;
  CHECK(text_of(s.execute(":jit")).find("no JIT") != std::string::npos);
  CountingTier tier;
  s.set_tier(&tier);
  REQUIRE(s.execute("def @f(%x: int32) -> int32 { add(%x, 1) }").ok);
  REQUIRE(s.execute("@f(@f(1))").ok);
  CHECK(tier.calls["f"] == 2);
  CHECK(tier.calls.size() == 1);  // the input function is never offered to the JIT
  CHECK(text_of(s.execute(":jit")) == "jit: on\n@f: counted\n");
  CHECK(text_of(s.execute(":set jit off")) == "jit: off\n");
  REQUIRE(s.execute("@f(1)").ok);
  CHECK(tier.calls["f"] == 2);
  CHECK(!s.execute(":set jit sometimes").ok);
  CHECK(text_of(s.execute(":set jit on")) == "jit: on\n");
  REQUIRE(s.execute("@f(1)").ok);
  CHECK(tier.calls["f"] == 3);
}
