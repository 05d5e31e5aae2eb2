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
#include <climits>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/eval/program.h"
#include "interpreter/eval/tier.h"

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

// Watches a run. Every hook gets the machine, which it may inspect and ask to pause
// (`request_pause`): `run_until_pause` then returns after the hook, and the next call
// goes on exactly where the run stopped. `run` ignores pause requests.
class Observer {
 public:
  virtual ~Observer() = default;
  // Before `node` is evaluated. `node.statement` marks what a debugger steps by: the value
  // of each binding, the tail of a block, a function's body, a branch or clause body.
  // After a pause here the expression is evaluated on resumption without a second call.
  virtual void before(Machine&, const Node&) {}
  // `value` is what `expr` evaluated to. Not called for blocks, `if` and `match`, whose
  // value is their tail expression's.
  virtual void after(Machine&, const Expr&, const Value&) {}
  // Before a primitive operator runs, its arguments evaluated: written as a call
  // (`add(%x, 1)`) or called through a variable (`%f(%x)` with `%f = add`; then `site` is
  // that call). `site` is null only for an operator called as the entry. A pause here
  // leaves the arguments in place; the kernel runs on resumption.
  virtual void before_op(Machine&, const CallExpr* /*site*/, const OpInfo&, std::span<const Value> /*args*/) {}
  // After each primitive operator call, both ways. Throwing RuntimeError stops the run
  // with that error at the call (the numerics checker does).
  virtual void after_op(Machine&, const CallExpr& /*site*/, const OpInfo&, std::span<const Value> /*args*/,
                        const Value& /*result*/) {}
  // A closure's body is about to run in frame 0 (depth() frames). `tail`: the call
  // replaced its caller's frame (a call in tail position), so the caller is gone.
  virtual void enter(Machine&, const FunctionCode&, const CallExpr* /*site*/, bool /*tail*/) {}
  // A closure call returned `result`; its frame is already popped (depth() is the
  // caller's). `site` is null for the entry call.
  virtual void leave(Machine&, const FunctionCode&, const CallExpr* /*site*/, const Value& /*result*/) {}
};

// A variable visible in a frame (for debuggers): its binder and current value.
struct FrameVariable {
  const VarDecl* decl;
  Value value;
  uint32_t slot;  // for set_frame_variable
};

// One active call, for debuggers (frame 0 is the innermost).
struct FrameInfo {
  const FunctionCode* code;
  const CallExpr* call_site;  // null for the entry call
  // Where the frame is now: the expression being evaluated in it (for frame 0) or the
  // call that is running the frame above it.
  const Expr* position;
  uint64_t serial;      // unique per call; a tail call gets a new one in the same frame
  uint32_t tail_calls;  // calls in tail position that replaced this frame's earlier functions
};

class Machine {
 public:
  static constexpr size_t kDefaultMaxDepth = 4'000'000;

  explicit Machine(Program& program);

  void set_max_depth(size_t frames) { max_depth_ = frames; }
  // Checked between steps; when set, the run ends with an interrupted EvalError.
  void set_interrupt_flag(const std::atomic<bool>* flag) { interrupt_ = flag; }
  // Native code for hot global functions (tier.h); null interprets everything. A
  // debugger installs none: it must see every step.
  void set_tier(TierUp* tier) { tier_ = tier; }
  void add_observer(Observer* o) { observers_.push_back(o); }
  void remove_observer(Observer* o);
  // Keep the frames after an error (for a debugger to show where it happened) until the
  // next start; otherwise the machine is emptied before the EvalError is thrown.
  void set_keep_state_on_error(bool keep) { keep_state_on_error_ = keep; }

  // Sets the machine up to call `fn` (a closure value) on `args`; `step` or `run` it.
  void start_call(const Value& fn, std::vector<Value> args);
  // Sets the machine up to evaluate a compiled expression (Program::expression).
  void start(const FunctionCode& code);
  // One transition. Returns false once the result is ready. Throws EvalError.
  bool step();
  bool done() const { return conts_.empty(); }
  Value result() const { return vals_.empty() ? Value() : vals_.back(); }
  // Runs to the end (pause requests are ignored).
  Value run();
  // Runs until the end (Done), a pause requested by an observer (Paused) or `budget`
  // more steps (Budget). Throws EvalError like step().
  enum class RunStatus { Done, Paused, Budget };
  RunStatus run_until_pause(uint64_t budget = UINT64_MAX);
  // Called by observers (from a hook) or between steps.
  void request_pause() { pause_requested_ = true; }
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
  // One variable of frame `i` without listing them all (a breakpoint condition runs at
  // every hit): the function frame `i` runs, the slot of `decl` in it (-1 if none), and a
  // slot's value (undefined before its binding ran).
  const FunctionCode* frame_code(size_t i) const;
  int64_t frame_slot_of(size_t i, const VarDecl* decl) const;
  Value frame_slot_value(size_t i, uint32_t slot) const;
  FrameInfo frame_info(size_t i) const;  // i < depth()
  // Replaces a variable's value in frame `i` (a debugger's setVariable).
  void set_frame_variable(size_t i, uint32_t slot, Value v);
  // Whether the last run ended in an error with its state kept (set_keep_state_on_error).
  bool failed() const { return failed_; }

 private:
  struct Cont {
    const Node* node;
    uint32_t stage;
  };
  struct Frame {
    const FunctionCode* code;
    uint32_t base;
    const CallExpr* call_site;
    uint64_t serial;
    uint32_t tail_calls;
  };

  void push(const Node* n) { conts_.push_back({n, 0}); }
  Value pop_value();
  void finish(const Node* n, Value v);  // pops n's continuation, pushes v, fires after()
  void invoke(const Value& callee, std::vector<Value>& args, const CallExpr* site);
  void call_op(const OpInfo& op, const Value& callee, std::vector<Value>& args, const CallExpr* site);
  // Calls before_op with the `argc` arguments on the value stack (under `above` more
  // values: the callee of a call through a variable). True when an observer paused.
  bool announce_op(const OpInfo& op, const CallExpr* site, size_t argc, size_t above);
  void enter(const ClosureObj& c, const Value& self, std::vector<Value>& args, const CallExpr* site);
  Value run_kernel(const Node& n, std::vector<Value>& args);
  bool bind_pattern(const PatternCode& p, const Value& v, uint32_t base);
  bool run_native(const FunctionCode& code, std::vector<Value>& args);
  bool run_region(const RegionCode& region, uint32_t base);
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
  TierUp* tier_ = nullptr;
  const std::atomic<bool>* interrupt_ = nullptr;
  size_t max_depth_ = kDefaultMaxDepth;
  uint64_t steps_ = 0;
  uint64_t next_serial_ = 0;
  bool keep_state_on_error_ = false;
  bool failed_ = false;
  bool pause_requested_ = false;
  // Set when a pause stopped a step after its hook: the step then runs without calling
  // the hook again (before() at stage 0, before_op once the operands are in).
  bool announced_ = false;
  bool announced_op_ = false;
  Node return_node_{NodeKind::Return, nullptr};
};

}  // namespace relay::rt
