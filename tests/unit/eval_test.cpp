// The evaluator (interpreter/eval/machine.h): Relay's evaluation rules, the explicit
// stack (deep and tail recursion), observers and single-stepping, errors with stacks.
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "interpreter/eval/machine.h"
#include "interpreter/value_print.h"
#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"

using namespace relay;
using relay::rt::Value;

namespace {

// A checked program and a machine over it.
struct Loaded {
  SourceManager sources;
  FrontendResult front;
  ModuleTypes types;
  std::unique_ptr<rt::Program> program;
  std::string errors;

  explicit Loaded(const std::string& text) {
    FileId id = sources.add("test.relay", "#[version = \"0.0.5\"]\n" + text);
    DiagnosticBag diags;
    front = analyze_file(sources, id, diags);
    types = check_module(*front.module, front.prelude.get(), diags);
    for (const auto& d : diags.items())
      if (d.severity == Severity::Error) errors += std::string(d.code()) + " " + d.message + "\n";
    program = std::make_unique<rt::Program>([this](const FuncDef* d) { return types.find(d); },
                                            front.module->metadata.get());
  }
  const FuncDef& def(std::string_view name) const {
    for (const auto& d : front.module->defs)
      if (d.kind == Definition::Func && d.func->name == name) return *d.func;
    for (const auto& d : front.prelude->defs)
      if (d.kind == Definition::Func && d.func->name == name) return *d.func;
    FAIL("no @" << name);
    throw;
  }
  Value call(rt::Machine& m, std::string_view name, std::vector<Value> args = {}) {
    return m.call(program->global(def(name)), std::move(args));
  }
};

std::string run(const std::string& text, std::string_view entry = "main") {
  Loaded l(text);
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  try {
    return rt::format_value(l.call(m, entry));
  } catch (const rt::EvalError& e) {
    return std::string("error: ") + e.what();
  }
}

Value i32(int64_t v) { return rt::NDArray::scalar_int(v, DataType::int_(32)); }

const char* kNat = R"(
type Nat { Z, S(Nat) }
def @to_int(%n: Nat) -> int32 {
  match %n { Z => 0, S(%m) => add(@to_int(%m), 1) }
}
def @from_int(%k: int32) -> Nat {
  if (equal(%k, 0)) { Z } else { S(@from_int(subtract(%k, 1))) }
}
)";

}  // namespace

TEST_CASE("eval: tuples, projections, lets and closures", "[eval]") {
  CHECK(run("def @main() { (1, (2f, 3i64)).1 }") == "(2.0, 3)");
  CHECK(run("def @main() { let %x = 7; let %f = fn () { %x }; %f() }") == "7");
  // Closures capture values when created (call by value), not variables.
  CHECK(run("def @main() { let %r = ref(1); let %f = fn () { %r }; ref_write(%r, 2); ref_read(%f()) }") == "2");
  CHECK(run("def @main() { let %a = fn (%x: int32) { fn (%y: int32) { (%x, %y) } }; %a(1)(2) }") == "(1, 2)");
}

TEST_CASE("eval: arguments are evaluated left to right, then the callee", "[eval]") {
  const char* text = R"(
def @main() {
  let %r = ref(0);
  let %f = fn (%a: int32, %b: int32) { (%a, %b, ref_read(%r)) };
  (ref_write(%r, 3); %f)({ ref_write(%r, 1); ref_read(%r) }, { ref_write(%r, 2); ref_read(%r) })
}
)";
  // The arguments saw 1 and 2 in that order; the callee expression ran last and left 3.
  CHECK(run(text) == "(1, 2, 3)");
}

TEST_CASE("eval: ADTs, match and recursion through globals", "[eval]") {
  CHECK(run(std::string(kNat) + "def @main() { @to_int(@from_int(5)) }") == "5");
  CHECK(run("type T { A(int32), B } def @main() { match? B { A(%x) => %x } }") ==
        "error: no clause of this `match?` matches the value");
}

TEST_CASE("eval: a let-bound function calls itself", "[eval]") {
  const char* text = R"(
def @main() {
  let %fact = fn (%n: int32) -> int32 {
    if (equal(%n, 0)) { 1 } else { multiply(%n, %fact(subtract(%n, 1))) }
  };
  %fact(10)
}
)";
  CHECK(run(text) == "3628800");
}

TEST_CASE("eval: one million nested calls run on the explicit stack", "[eval]") {
  Loaded l(std::string(kNat) + "def @main() { 0 }");
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  // Builds a one-million-deep Nat (non-tail recursion in @from_int), converts it back
  // (non-tail recursion in @to_int) and frees it (iteratively).
  Value n = l.call(m, "from_int", {i32(1'000'000)});
  CHECK(rt::format_value(l.call(m, "to_int", {n})) == "1000000");
}

namespace {
struct DepthWatch : rt::Observer {
  size_t max_depth = 0;
  void before(rt::Machine& m, const rt::Node&) override { max_depth = std::max(max_depth, m.depth()); }
};
}  // namespace

TEST_CASE("eval: tail calls run in constant space", "[eval]") {
  Loaded l(R"(
def @loop(%n: int32, %acc: int32) -> int32 {
  if (equal(%n, 0)) { %acc } else { @loop(subtract(%n, 1), add(%acc, 2)) }
}
def @main() { 0 }
)");
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  DepthWatch watch;
  m.add_observer(&watch);
  m.set_max_depth(10);  // would fail at once without tail calls
  CHECK(rt::format_value(l.call(m, "loop", {i32(200'000), i32(0)})) == "400000");
  CHECK(watch.max_depth == 1);
}

TEST_CASE("eval: the maximum depth gives an error with the Relay stack", "[eval]") {
  Loaded l(std::string(kNat) + "def @main() { 0 }");
  rt::Machine m(*l.program);
  m.set_max_depth(50);
  try {
    l.call(m, "from_int", {i32(1000)});
    FAIL("no error");
  } catch (const rt::EvalError& e) {
    CHECK(std::string(e.what()) == "maximum call depth (50 frames) exceeded");
    REQUIRE(e.stack.size() == 50);
    CHECK(e.stack.front().function == "@from_int");
    CHECK(e.stack.back().function == "@from_int");
    CHECK(e.span.end > e.span.begin);
  }
  // The machine is usable again.
  CHECK(rt::format_value(l.call(m, "to_int", {l.call(m, "from_int", {i32(3)})})) == "3");
}

namespace {
struct Interrupter : rt::Observer {
  std::atomic<bool>* flag;
  uint64_t after;
  explicit Interrupter(std::atomic<bool>* f, uint64_t n) : flag(f), after(n) {}
  void before(rt::Machine& m, const rt::Node&) override {
    if (m.steps() == after) flag->store(true);
  }
};
}  // namespace

TEST_CASE("eval: the interrupt flag stops evaluation between steps", "[eval]") {
  Loaded l("def @spin(%n: int32) -> int32 { @spin(add(%n, 1)) }\ndef @main() { 0 }");
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  std::atomic<bool> flag{false};
  Interrupter stop(&flag, 1000);
  m.add_observer(&stop);
  m.set_interrupt_flag(&flag);
  try {
    l.call(m, "spin", {i32(0)});
    FAIL("no interrupt");
  } catch (const rt::EvalError& e) {
    CHECK(e.interrupted);
    CHECK(std::string(e.what()) == "interrupted");
    CHECK(m.steps() == 1000);
    REQUIRE(!e.stack.empty());
    CHECK(e.stack.front().function == "@spin");
  }
}

namespace {
struct Trace : rt::Observer {
  const SourceManager* sources;
  std::vector<std::string> events;
  void before(rt::Machine&, const rt::Node& n) override { events.push_back("> " + text(*n.expr)); }
  void after(rt::Machine&, const Expr& e, const Value& v) override {
    events.push_back("< " + text(e) + " = " + rt::format_value(v));
  }
  std::string text(const Expr& e) const { return std::string(sources->get(e.span.file).slice(e.span)); }
};
}  // namespace

TEST_CASE("eval: one step at a time through the observer interface", "[eval]") {
  Loaded l("def @main() { let %x = (1, 2); %x.0 }");
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  Trace trace;
  trace.sources = &l.sources;
  m.add_observer(&trace);
  m.start_call(l.program->global(l.def("main")), {});
  size_t steps = 0;
  while (m.step()) {
    ++steps;
    REQUIRE(steps < 100);
  }
  CHECK(rt::format_value(m.result()) == "1");
  const std::vector<std::string> want = {
      "> let %x = (1, 2); %x.0", "> (1, 2)", "> 1", "< 1 = 1", "> 2", "< 2 = 2", "< (1, 2) = (1, 2)",
      "> %x.0", "> %x", "< %x = (1, 2)", "< %x.0 = 1",
  };
  CHECK(trace.events == want);
  CHECK(m.steps() == 6);  // expressions entered: the block, the tuple, 1, 2, %x.0, %x
}

TEST_CASE("eval: prelude functions", "[eval][prelude]") {
  const std::string pre = "#[import = \"prelude\"]\n";
  auto list = [](std::initializer_list<int> xs) {
    std::string out = "Nil";
    for (auto it = std::rbegin(xs); it != std::rend(xs); ++it) out = "Cons(" + std::to_string(*it) + ", " + out + ")";
    return out;
  };
  const std::string xs = list({1, 2, 3});
  auto eval = [&](const std::string& body) { return run(pre + "def @main() { " + body + " }"); };
  CHECK(eval("@id(5)") == "5");
  CHECK(eval("@hd(" + xs + ")") == "1");
  CHECK(eval("@tl(" + xs + ")") == list({2, 3}));
  CHECK(eval("@nth(" + xs + ", 2)") == "3");
  CHECK(eval("@length(" + xs + ")") == "3");
  CHECK(eval("@update(" + xs + ", 1, 9)") == list({1, 9, 3}));
  CHECK(eval("@map(fn (%x: int32) { multiply(%x, 10) }, " + xs + ")") == list({10, 20, 30}));
  CHECK(eval("@foldl(fn (%a: int32, %x: int32) { subtract(%a, %x) }, 0, " + xs + ")") == "-6");
  CHECK(eval("@foldr(fn (%x: int32, %a: int32) { subtract(%x, %a) }, 0, " + xs + ")") == "2");
  CHECK(eval("@foldr1(fn (%x: int32, %a: int32) { subtract(%x, %a) }, " + xs + ")") == "2");
  CHECK(eval("@sum(" + xs + ")") == "6");
  CHECK(eval("@concat(" + xs + ", " + list({4}) + ")") == list({1, 2, 3, 4}));
  CHECK(eval("@filter(fn (%x: int32) { greater(%x, 1) }, " + xs + ")") == list({2, 3}));
  CHECK(eval("@zip(" + xs + ", " + list({4, 5}) + ")") == "Cons((1, 4), Cons((2, 5), Nil))");
  CHECK(eval("@rev(" + xs + ")") == list({3, 2, 1}));
  CHECK(eval("@map_accuml(fn (%a: int32, %x: int32) { (add(%a, %x), multiply(%a, %x)) }, 0, " + xs + ")") ==
        "(6, " + list({9, 2, 0}) + ")");
  CHECK(eval("@map_accumr(fn (%a: int32, %x: int32) { (add(%a, %x), multiply(%a, %x)) }, 0, " + xs + ")") ==
        "(6, " + list({5, 6, 0}) + ")");
  const std::string countdown =
      "fn (%n: int32) { if (equal(%n, 0)) { None } else { Some((subtract(%n, 1), %n)) } }";
  CHECK(eval("@unfoldr(" + countdown + ", 3)") == list({3, 2, 1}));
  CHECK(eval("@unfoldl(" + countdown + ", 3)") == list({1, 2, 3}));
  CHECK(eval("@compose(fn (%x: int32) { add(%x, 1) }, fn (%x: int32) { multiply(%x, 2) })(5)") == "11");
  CHECK(eval("@flip(fn (%a: int32, %b: int32) { subtract(%a, %b) })(1, 10)") == "9");
  CHECK(eval("@iterate(fn (%x: int32) { multiply(%x, 2) }, 5)(1)") == "32");
  const std::string tree = "Rose(1, Cons(Rose(2, Nil), Cons(Rose(3, Nil), Nil)))";
  CHECK(eval("@size(" + tree + ")") == "3");
  CHECK(eval("@tmap(fn (%x: int32) { add(%x, 1) }, " + tree + ")") ==
        "Rose(2, Cons(Rose(3, Nil), Cons(Rose(4, Nil), Nil)))");
}

TEST_CASE("eval: tensor constants of the metadata section", "[eval]") {
  std::ifstream in(std::string(RELAY_SOURCE_DIR) + "/tests/corpus/metadata_constants.relay");
  std::stringstream text;
  text << in.rdbuf();
  Loaded l(text.str().substr(text.str().find('\n') + 1));  // Loaded adds the header
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  rt::NDArray x = rt::NDArray::empty({1, 4}, DataType::float_(32));
  for (int i = 0; i < 4; ++i) x.data<float>()[i] = static_cast<float>(i + 1);
  // (x @ W.T + b) * s with the section's W = [[0.5, -0.25, 0.125, 1], [-1, 0.75, 0, 2]],
  // b = [0.1, -0.2], s = [0.5] (decoded independently with numpy).
  CHECK(rt::format_value(l.call(m, "main", {x})) == "[[2.2375 4.15  ]]");
}

namespace {
// Records the environment of the innermost frame each time `%probe` is entered.
struct EnvProbe : rt::Observer {
  std::vector<std::string> seen;
  void before(rt::Machine& m, const rt::Node& n) override {
    const Expr& e = *n.expr;
    if (e.kind != ExprKind::LocalRef || static_cast<const RefExpr&>(e).name != "probe") return;
    std::string env;
    for (const auto& v : m.frame_variables(0)) env += "%" + std::string(v.decl->name) + "=" + rt::format_value(v.value) + " ";
    seen.push_back(env);
  }
};
}  // namespace

TEST_CASE("eval: observers see the environment of the current frame", "[eval]") {
  Loaded l(R"(
def @main(%a: int32) {
  let %b = add(%a, 1);
  let %f = fn (%c: int32) { let %probe = 0; (%a, %c, %probe) };
  let %probe = 5;
  (%f(%b), %probe)
}
)");
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  EnvProbe probe;
  m.add_observer(&probe);
  CHECK(rt::format_value(l.call(m, "main", {i32(1)})) == "((1, 2, 0), 5)");
  // Inside %f: its parameter, its own let and its captured %a (slot order); then
  // @main's bindings.
  REQUIRE(probe.seen.size() == 2);
  CHECK(probe.seen[0] == "%c=2 %probe=0 %a=1 ");
  CHECK(probe.seen[1] == "%a=1 %b=2 %f=<closure> %probe=5 ");
}

TEST_CASE("eval: an operator bound to a variable", "[eval]") {
  // Defaults when no attributes are written; the call's attributes when they are.
  CHECK(run("def @main() { let %f = add; %f(1, 2) }") == "3");
  const char* text = R"(
def @main(%x: Tensor[(2, 3), float32]) {
  let %s = sum;
  (%s(%x), %s(%x, axis=[1]))
}
)";
  Loaded l(text);
  REQUIRE(l.errors == "");
  rt::Machine m(*l.program);
  rt::NDArray x = rt::NDArray::empty({2, 3}, DataType::float_(32));
  for (int i = 0; i < 6; ++i) x.data<float>()[i] = static_cast<float>(i);
  CHECK(rt::format_value(l.call(m, "main", {x})) == "(15.0, [ 3. 12.])");
}
