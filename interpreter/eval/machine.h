// The evaluator: a CEK-style machine over compiled Nodes (code.h) with explicit stacks,
// so deep Relay recursion never touches the C++ stack and a tail call replaces its
// caller's frame (a tail-recursive loop runs in constant space).
//
// State: a continuation stack (node + stage), a value stack, a stack of frames (one per
// active closure call) and the slot storage the frames index into. `step()` performs
// one transition; `run()` steps to the end. Between steps the machine can be inspected
// (frames, the current expression) and observers are told about each expression
// (before / after) and each primitive call (inputs and result): the debugger, the
// numerics checker, a profiler and the tier-up counter attach there.
//
// Semantics are Relay's (reference §4.3): strict, call-by-value, left to right; a call
// evaluates its arguments, then its callee. Errors (a kernel's RuntimeError, a failed
// `match?`, a non-bool `if` condition, too deep a recursion, an interrupt) end the run
// with an EvalError carrying the span and the Relay stack; the machine is then empty
// and can run again.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/eval/program.h"

namespace relay::rt {

class Machine;

struct StackEntry {
  std::string function;  // `@main`, `%f`, `fn`
  Span call_site;        // where it was called (empty for the entry call)
};

class EvalError : public std::runtime_error {
 public:
  EvalError(const std::string& message, Span span, std::vector<std::string> notes, std::vector<StackEntry> stack,
            bool interrupted = false)
      : std::runtime_error(message), span(span), notes(std::move(notes)), stack(std::move(stack)),
        interrupted(interrupted) {}
  Span span;
  std::vector<std::string> notes;
  std::vector<StackEntry> stack;  // innermost first
  bool interrupted;
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void before(const Machine&, const Expr&) {}
  // `value` is what `expr` evaluated to. Not called for blocks, `if` and `match`, whose
  // value is their tail expression's.
  virtual void after(const Machine&, const Expr&, const Value&) {}
  // After each primitive operator call. Throwing RuntimeError stops the run with that
  // error at the call (the numerics checker does).
  virtual void after_op(const Machine&, const CallExpr&, const OpInfo&, std::span<const Value> /*args*/,
                        const Value& /*result*/) {}
};

// A variable visible in a frame (for debuggers): its binder and current value.
struct FrameVariable {
  const VarDecl* decl;
  Value value;
};

class Machine {
 public:
  static constexpr size_t kDefaultMaxDepth = 4'000'000;

  explicit Machine(Program& program);

  void set_max_depth(size_t frames) { max_depth_ = frames; }
  // Checked between steps; when set, the run ends with an interrupted EvalError.
  void set_interrupt_flag(const std::atomic<bool>* flag) { interrupt_ = flag; }
  void add_observer(Observer* o) { observers_.push_back(o); }
  void remove_observer(Observer* o);

  // Sets the machine up to call `fn` (a closure value) on `args`; `step` or `run` it.
  void start_call(const Value& fn, std::vector<Value> args);
  // Sets the machine up to evaluate a compiled expression (Program::expression).
  void start(const FunctionCode& code);
  // One transition. Returns false once the result is ready. Throws EvalError.
  bool step();
  bool done() const { return conts_.empty(); }
  Value result() const { return vals_.empty() ? Value() : vals_.back(); }
  Value run();
  Value call(const Value& fn, std::vector<Value> args) {
    start_call(fn, std::move(args));
    return run();
  }

  uint64_t steps() const { return steps_; }
  size_t depth() const { return frames_.size(); }
  // The expression about to be evaluated or being evaluated (nullptr when done).
  const Expr* current_expr() const;
  std::vector<StackEntry> stack_trace() const;  // innermost first
  // Variables bound in frame `i` (0 = innermost) with their current values: the
  // environment an observer or debugger shows at this step.
  std::vector<FrameVariable> frame_variables(size_t i) const;

 private:
  struct Cont {
    const Node* node;
    uint32_t stage;
  };
  struct Frame {
    const FunctionCode* code;
    uint32_t base;
    const CallExpr* call_site;
  };

  void push(const Node* n) { conts_.push_back({n, 0}); }
  Value pop_value();
  void finish(const Node* n, Value v);  // pops n's continuation, pushes v, fires after()
  void invoke(const Value& callee, std::vector<Value>& args, const CallExpr* site);
  void enter(const ClosureObj& c, const Value& self, std::vector<Value>& args, const CallExpr* site);
  Value run_kernel(const Node& n, std::vector<Value>& args);
  bool bind_pattern(const PatternCode& p, const Value& v, uint32_t base);
  [[noreturn]] void fail(const std::string& message, Span span, std::vector<std::string> notes = {},
                         bool interrupted = false);
  void reset();
  Span span_of_current() const;

  Program& program_;
  std::vector<Cont> conts_;
  std::vector<Value> vals_;
  std::vector<Frame> frames_;
  std::vector<Value> slots_;
  std::vector<Observer*> observers_;
  const std::atomic<bool>* interrupt_ = nullptr;
  size_t max_depth_ = kDefaultMaxDepth;
  uint64_t steps_ = 0;
  Node return_node_{NodeKind::Return, nullptr};
};

}  // namespace relay::rt
