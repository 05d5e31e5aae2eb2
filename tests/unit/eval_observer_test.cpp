// The evaluator's observer seam (interpreter/eval/machine.h) and the run driver
// (interpreter/eval/run.h): pausing from a hook and resuming where the run stopped, call
// enter/leave events with tail calls, operators called through a variable, statements.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "interpreter/eval/run.h"
#include "tests/support/loaded_text.h"
#include "interpreter/value_print.h"

using namespace relay;
using relay::rt::Value;

namespace {

using Loaded = testing::LoadedText;

// Pauses before every statement and records it.
struct StatementPauser : rt::Observer {
  const Loaded* l;
  std::vector<std::string> befores;
  void before(rt::Machine& m, const rt::Node& n) override {
    befores.push_back(l->text(*n.expr));
    if (n.statement) m.request_pause();
  }
};

}  // namespace

TEST_CASE("observer: a pause in before() resumes at the same expression without a second call", "[eval][observer]") {
  Loaded l("def @main() { let %x = (1, 2); let %y = add(%x.0, 10); %y }");
  rt::Machine m(*l.p->program);
  StatementPauser obs;
  obs.l = &l;
  m.add_observer(&obs);
  m.start_call(l.p->program->global(*l.p->entry), {});
  std::vector<std::string> stops;
  for (int guard = 0; guard < 20; ++guard) {
    auto status = m.run_until_pause();
    if (status == rt::Machine::RunStatus::Done) break;
    REQUIRE(status == rt::Machine::RunStatus::Paused);
    stops.push_back(l.text(*m.current_expr()));
  }
  CHECK(rt::format_value(m.result()) == "11");
  CHECK(stops == std::vector<std::string>{"(1, 2)", "add(%x.0, 10)", "%y"});
  // Each expression was announced once although the run stopped before three of them.
  CHECK(std::count(obs.befores.begin(), obs.befores.end(), "add(%x.0, 10)") == 1);
  CHECK(std::count(obs.befores.begin(), obs.befores.end(), "%y") == 1);
}

namespace {
struct CallLog : rt::Observer {
  std::vector<std::string> events;
  void enter(rt::Machine& m, const rt::FunctionCode& code, const CallExpr*, bool tail) override {
    events.push_back("enter " + code.name + (tail ? " (tail)" : "") + " depth " + std::to_string(m.depth()));
  }
  void leave(rt::Machine& m, const rt::FunctionCode& code, const CallExpr*, const Value& v) override {
    events.push_back("leave " + code.name + " = " + rt::format_value(v) + " depth " + std::to_string(m.depth()));
  }
};
}  // namespace

TEST_CASE("observer: enter and leave, a tail call replacing its caller", "[eval][observer]") {
  Loaded l(R"(
def @twice(%n: int32) -> int32 { multiply(%n, 2) }
def @down(%n: int32) -> int32 { if (equal(%n, 0)) { @twice(21) } else { @down(subtract(%n, 1)) } }
def @main() { add(@down(1), 0) }
)");
  CallLog log;
  rt::RunOptions options;
  options.observers = {&log};
  auto out = l.run(options, {});
  REQUIRE(out.value);
  CHECK(rt::format_value(*out.value) == "42");
  const std::vector<std::string> want = {
      "enter @main depth 1", "enter @down depth 2", "enter @down (tail) depth 2", "enter @twice (tail) depth 2",
      "leave @twice = 42 depth 1", "leave @main = 42 depth 0"};
  CHECK(log.events == want);
}

TEST_CASE("observer: tail calls are counted in the frame and change its serial", "[eval][observer]") {
  Loaded l(R"(
def @loop(%n: int32) -> int32 { if (equal(%n, 0)) { %n } else { @loop(subtract(%n, 1)) } }
def @main() { @loop(3) }
)");
  struct Probe : rt::Observer {
    std::vector<std::pair<uint64_t, uint32_t>> seen;  // (serial, tail calls) at each entry of @loop's body
    void enter(rt::Machine& m, const rt::FunctionCode& code, const CallExpr*, bool) override {
      if (code.name == "@loop") seen.emplace_back(m.frame_info(0).serial, m.frame_info(0).tail_calls);
    }
  } probe;
  rt::RunOptions options;
  options.observers = {&probe};
  auto out = l.run(options, {});
  REQUIRE(out.value);
  REQUIRE(probe.seen.size() == 4);
  for (size_t i = 0; i < 4; ++i) CHECK(probe.seen[i].second == i + 1);  // @main's frame, replaced each time
  CHECK(probe.seen[1].first != probe.seen[0].first);
}

TEST_CASE("observer: an operator called through a variable is seen like a direct call", "[eval][observer]") {
  Loaded l(R"(
def @main(%x: Tensor[(3), float32]) {
  let %f = log;
  let %y = abs(%x);
  %f(%y)
}
)");
  struct Ops : rt::Observer {
    std::vector<std::string> before, after;
    void before_op(rt::Machine&, const CallExpr*, const OpInfo& op, std::span<const Value> args) override {
      before.push_back(std::string(op.name) + "/" + std::to_string(args.size()));
    }
    void after_op(rt::Machine&, const CallExpr&, const OpInfo& op, std::span<const Value>, const Value&) override {
      after.push_back(std::string(op.name));
    }
  } ops;
  rt::NDArray x = rt::NDArray::empty({3}, DataType::float_(32));
  x.data<float>()[0] = 1, x.data<float>()[1] = 0, x.data<float>()[2] = -2;
  rt::RunOptions options;
  options.observers = {&ops};
  auto out = l.run(options, {Value(x)});
  REQUIRE(out.value);
  CHECK(ops.before == std::vector<std::string>{"abs/1", "log/1"});
  CHECK(ops.after == std::vector<std::string>{"abs", "log"});

  // --check-numerics names `log` (called as %f) as the producer of -Inf.
  options.observers.clear();
  options.check_numerics = true;
  out = l.run(options, {Value(x)});
  REQUIRE(!out.value);
  REQUIRE(out.error);
  CHECK(std::string(out.error->code()) == "E0102");
  CHECK(out.error->message == "`log` produced 1 -Inf value from finite inputs");
  CHECK(l.sources.get(out.error->primary().span.file).slice(out.error->primary().span) == "%f(%y)");
  CHECK(out.exit_code() == 1);
}

TEST_CASE("observer: a pause in before_op keeps the arguments and the kernel runs on resumption", "[eval][observer]") {
  Loaded l("def @main() { let %f = add; %f(multiply(2, 3), 4) }");
  struct OpPauser : rt::Observer {
    int calls = 0;
    void before_op(rt::Machine& m, const CallExpr*, const OpInfo& op, std::span<const Value> args) override {
      if (std::string_view(op.name) == "add") {
        ++calls;
        CHECK(rt::format_value(args[0]) == "6");
        m.request_pause();
      }
    }
  } pauser;
  rt::Machine m(*l.p->program);
  m.add_observer(&pauser);
  m.start_call(l.p->program->global(*l.p->entry), {});
  CHECK(m.run_until_pause() == rt::Machine::RunStatus::Paused);
  CHECK(m.run_until_pause() == rt::Machine::RunStatus::Done);
  CHECK(pauser.calls == 1);
  CHECK(rt::format_value(m.result()) == "10");
}

TEST_CASE("observer: with keep-state-on-error the frames outlive the error", "[eval][observer]") {
  Loaded l(R"(
type T { A, B }
def @inner(%x: T[]) -> int32 { match? (%x) { A => 0 } }
def @main() { add(@inner(B), 1) }
)");
  rt::Machine m(*l.p->program);
  m.set_keep_state_on_error(true);
  m.start_call(l.p->program->global(*l.p->entry), {});
  CHECK_THROWS_AS(m.run(), rt::EvalError);
  REQUIRE(m.failed());
  REQUIRE(m.depth() == 2);
  CHECK(m.frame_info(0).code->name == "@inner");
  CHECK(l.text(*m.frame_info(0).position).find("match?") == 0);
  CHECK(!m.step());
  // The next run starts clean.
  m.start_call(l.p->program->global(*l.p->entry), {});
  CHECK(!m.failed());
}

TEST_CASE("observer: statements are bindings, block tails, bodies, branches and clause bodies", "[eval][observer]") {
  Loaded l(R"(
def @f(%n: int32) -> int32 {
  if (equal(%n, 0)) { 1 } else {
    let %m = subtract(%n, 1);
    multiply(%n, %m)
  }
}
def @main() { let %a = @f(2); %a }
)");
  struct Stmts : rt::Observer {
    const Loaded* l;
    std::vector<std::string> seen;
    void before(rt::Machine&, const rt::Node& n) override {
      if (n.statement) seen.push_back(l->text(*n.expr));
    }
  } s;
  s.l = &l;
  rt::RunOptions options;
  options.observers = {&s};
  auto out = l.run(options, {});
  REQUIRE(out.value);
  const std::vector<std::string> want = {"@f(2)", "if (equal(%n, 0)) { 1 } else {\n    let %m = subtract(%n, 1);\n    multiply(%n, %m)\n  }",
                                         "subtract(%n, 1)", "multiply(%n, %m)", "%a"};
  CHECK(s.seen == want);
}
