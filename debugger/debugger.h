// The debugging engine behind `relay dap` and the Jupyter kernel's debugger: runs a
// program on the interpreter's steppable machine and stops it where the user asked —
// line, column, function and operator breakpoints (with conditions, hit counts, log
// messages), steps at statement or instruction granularity, pauses, and the exception
// filters `nan`, `inf` (an operator turned finite inputs into NaN / ±Inf) and
// `runtime-error`. While stopped it answers for the stack, scopes, variables (through the
// interpreter's value-inspection model), evaluation in a frame, and memory.
//
// It knows no JSON and no threads: a front end calls `advance` in slices while the
// program runs and handles its own protocol between them. `request_poll` (any thread)
// makes the running slice return at the next statement, so a front end reading its
// input on another thread answers within one statement even inside a long loop.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "debugger/breakpoints.h"
#include "debugger/expression.h"
#include "debugger/program_map.h"
#include "interpreter/eval/run.h"
#include "interpreter/inspect/inspect.h"
#include "lang/types/database.h"

namespace relay::dbg {

// A program given as text instead of a file: the Jupyter kernel's session module with a
// cell's input function (launch_source.cpp). The entry's arguments are values
// (`start_with`), not .npy files.
struct SourceConfig {
  std::string name;   // the text's name in `sources()`
  std::string text;
  std::string entry;  // without `@`
  size_t max_depth = rt::Machine::kDefaultMaxDepth;
  bool check_numerics = false;
  const std::atomic<bool>* interrupt = nullptr;  // set: the run ends as interrupted (exit code 130)
};

struct LaunchConfig {
  std::string program;  // a .relay file
  std::string entry = "main";
  std::vector<std::pair<std::string, std::string>> args;  // parameter (no `%`) -> .npy path
  std::optional<uint64_t> random_seed;                    // for parameters not in `args`
  bool stop_on_entry = false;
  bool check_numerics = false;  // turns the `nan` and `inf` filters on
  size_t max_depth = rt::Machine::kDefaultMaxDepth;
};

enum class Granularity : uint8_t { Statement, Instruction };

enum class StopReason : uint8_t { Entry, Step, Breakpoint, FunctionBreakpoint, Exception, Pause };
const char* stop_reason_name(StopReason r);  // the protocol's word: "entry", "step", ...

struct Stop {
  StopReason reason;
  std::string description;  // "Paused on breakpoint", "divide produced 2 NaN values"
  std::string text;         // the exception's short text
  std::vector<int> breakpoints;
};

struct ExceptionInfo {
  std::string id;           // "nan", "inf", "runtime-error"
  std::string description;  // one line
  std::string details;      // the full report: operator, inputs' statistics, first bad element, stack
};

// Something for the user's console.
struct Output {
  std::string category;  // "console", "stdout", "stderr"
  std::string text;      // ends with a newline
  std::optional<Position> pos;
};

struct LineBreakpointSpec {
  uint32_t line = 0;
  std::optional<uint32_t> column;
  std::string condition, hit_condition, log_message;
};
struct FunctionBreakpointSpec {
  std::string name;  // `@scale` (or `scale`) for a global, `nn.conv2d` for an operator
  std::string condition, hit_condition;
};
struct BreakpointView {
  int id;
  bool verified;
  std::string message;
  std::optional<Position> pos;
};

struct FrameView {
  int64_t id;          // stable while stopped
  std::string name;    // `@fib`, `%f`, `fn`, or a label
  bool label = false;  // a note in the stack (tail calls), not a frame
  bool prelude = false;  // in a file that is not the program's (the prelude)
  FileId file = 0;        // where `pos` is
  std::optional<Position> pos;
};

struct ScopeView {
  std::string name;  // Arguments, Locals, Captured, Return value, Globals
  int64_t reference;
  int64_t named = 0;
  bool expensive = false;
};

struct VariableView {
  std::string name, value, type;
  int64_t reference = 0;  // > 0 when it has children
  int64_t named = 0, indexed = 0;
  std::string memory_reference;  // tensors: for readMemory
  std::string evaluate_name;     // an expression giving this value, when there is one
};

struct Completion {
  std::string label, text, detail, kind;
};

struct StepInTarget {
  int64_t id;
  std::string label;
  std::optional<Position> pos;
};

class Debugger {
 public:
  Debugger();
  ~Debugger();
  Debugger(const Debugger&) = delete;
  Debugger& operator=(const Debugger&) = delete;

  // Loads and checks the program; on errors returns false with the rendered diagnostics
  // in `error`. Nothing runs until `start`.
  bool launch(const LaunchConfig& config, std::string* error);
  // Loads and checks `config.text` as `launch` does a file (launch_source.cpp).
  bool launch_source(const SourceConfig& config, std::string* error);
  // Starts the run (after the configuration: breakpoints, filters).
  void start();
  // `start` with the entry's arguments given as values.
  void start_with(std::vector<rt::Value> args);
  // Ends the current run and starts again from the same file (read anew); breakpoints
  // are resolved again.
  bool restart(std::string* error);

  // --- breakpoints (any time) ---
  std::vector<BreakpointView> set_line_breakpoints(const std::vector<LineBreakpointSpec>& specs);
  std::vector<BreakpointView> set_function_breakpoints(const std::vector<FunctionBreakpointSpec>& specs);
  // Unknown filter names are ignored (returned in `unknown`).
  void set_exception_filters(const std::set<std::string>& filters, std::vector<std::string>* unknown = nullptr);
  // Stop points in lines [line, end_line] (statements and calls) for breakpointLocations.
  std::vector<Position> breakpoint_locations(uint32_t line, uint32_t end_line) const;
  static const std::vector<std::pair<std::string, std::string>>& exception_filters();  // name, label

  // --- running ---
  enum class State : uint8_t { Loaded, Running, Stopped, Exited };
  State state() const { return state_; }
  // Runs for at most `budget` steps (or until polled). Returns when stopped, exited, or
  // the slice is over; `stop()`, `exit_code()` and `take_output()` say what happened.
  State advance(uint64_t budget);
  void resume();                                    // continue
  void next(Granularity g);
  void step_in(Granularity g, std::optional<int64_t> target = {});
  void step_out(Granularity g);
  void pause();                                     // stops at the next statement
  void terminate();                                 // ends the run (exit code 130)
  void request_poll() { poll_.store(true, std::memory_order_relaxed); }  // any thread
  const Stop& stop() const { return stop_; }
  int exit_code() const { return exit_code_; }
  std::vector<Output> take_output();
  std::optional<ExceptionInfo> exception_info() const { return exception_; }
  // After the run exited with code 0: its value. After it failed: the error it failed
  // with (kept whether or not the `runtime-error` filter stopped on it).
  rt::Value result() const;
  const std::optional<rt::EvalError>& failure() const { return error_; }

  // --- inspection (while stopped) ---
  // Frames [start, start + levels) of the stack including label frames; `total` gets
  // their count.
  std::vector<FrameView> stack_trace(int64_t start, int64_t levels, int64_t* total) const;
  std::vector<ScopeView> scopes(int64_t frame_id);
  std::optional<std::vector<VariableView>> variables(int64_t reference, rt::ChildFilter filter, int64_t start,
                                                     int64_t count);
  enum class EvalContext : uint8_t { Repl, Watch, Hover, Clipboard };
  // The value as a variable (name = the expression); nullopt with `error` on failure.
  std::optional<VariableView> evaluate(std::string_view expression, std::optional<int64_t> frame_id,
                                       EvalContext context, std::string* error);
  std::optional<VariableView> set_variable(int64_t reference, std::string_view name, std::string_view value,
                                           std::string* error);
  std::vector<Completion> completions(std::string_view text, uint32_t column, std::optional<int64_t> frame_id);
  std::vector<StepInTarget> step_in_targets(int64_t frame_id);
  // The value of variable `name` (with or without `%`) in a frame, and its static type
  // when known; nullopt when the frame has no such variable (launch_source.cpp).
  std::optional<rt::Value> frame_value(int64_t frame_id, std::string_view name, std::string* type) const;
  // A tensor's bytes [offset, offset + count) clipped to the tensor; `address` gets the
  // start's address text. nullopt for an unknown reference.
  std::optional<std::string> read_memory(std::string_view reference, int64_t offset, int64_t count,
                                         int64_t* unreadable) const;
  // The text of a file the program uses that is not on disk (the prelude), by name.
  const SourceManager& sources() const { return *sources_; }
  std::string program_path() const { return config_.program; }
  FileId program_file() const { return loaded_ ? loaded_->file : 0; }

 private:
  class Watcher;
  friend class Watcher;
  struct StepRequest {
    enum class Mode : uint8_t { None, In, Over, Out, Target, Statement } mode = Mode::None;
    Granularity granularity = Granularity::Statement;
    size_t depth = 0;
    uint64_t serial = 0;
    const CallExpr* target = nullptr;
    StopReason reason = StopReason::Step;
  };
  struct Handle {
    enum class Kind : uint8_t { Scope, Value } kind;
    size_t frame = 0;     // Scope: machine frame index
    std::string scope;    // Scope: its name
    rt::Value value;      // Value
    std::string type;     // Value: its static type when known
    std::string path;     // Value: an expression for it (evaluateName)
  };

  // launch and launch_source: checks `text` (named `config.program`) and sets up a run.
  bool load(const LaunchConfig& config, std::string text, const rt::EntryInputs* inputs,
            const std::atomic<bool>* interrupt, std::string* error);
  void stop_now(StopReason reason, std::string description, std::vector<int> bps = {});
  void finish_run(const rt::RunOutcome& outcome);
  // Forgets what describes the current stop (variable handles, memory references, step
  // targets, the stop's position and exception): they point into the stopped run.
  void clear_stop();
  void begin_resume();
  void reset_breakpoints();
  bool condition_holds(Breakpoint& bp, rt::Machine& m);
  // Compiles a breakpoint's condition (a `bool` expression over `env`) and parses its hit
  // condition; false with `bp.message` saying what is wrong.
  bool set_checks(Breakpoint& bp, const std::string& condition, const std::string& hit_condition,
                  const std::vector<EnvVar>& env);
  std::string log_line(const Breakpoint& bp, rt::Machine& m);
  std::vector<EnvVar> frame_env(size_t frame) const;
  std::vector<rt::Value> frame_args(const CompiledExpression& e, size_t frame) const;
  std::vector<EnvVar> scope_env(const StopPoint& p) const;
  std::string static_type(const VarDecl* v, size_t frame) const;
  const InferredTypes* types_for(const rt::FunctionCode& code) const;
  VariableView make_variable(std::string name, const rt::Value& v, std::string type, std::string path);
  int64_t new_handle(Handle h);
  std::optional<size_t> frame_index(int64_t frame_id) const;
  std::optional<Position> frame_position(const rt::FrameInfo& f, size_t i) const;

  LaunchConfig config_;
  std::unique_ptr<SourceManager> sources_ = std::make_unique<SourceManager>();
  std::unique_ptr<rt::LoadedProgram> loaded_;
  std::unique_ptr<ProgramMap> map_;
  std::unique_ptr<ExpressionCompiler> compiler_;
  // Expressions whose values may outlive the request that ran them: a closure they made
  // runs their code (stored by setVariable or by a `repl` evaluation's reference write,
  // or shown as a variable). Kept until the next launch; declared before the machine,
  // whose values may hold such closures, so that it goes first.
  std::vector<std::shared_ptr<const CompiledExpression>> escaped_;
  std::unique_ptr<rt::Machine> machine_;
  std::unique_ptr<Watcher> watcher_;
  std::unique_ptr<CheckDatabase> completion_db_;  // the language server's engine, for completions
  State state_ = State::Loaded;
  Stop stop_;
  std::optional<ExceptionInfo> exception_;
  std::optional<Span> stop_span_;        // overrides frame 0's position (an operator's stop, an error)
  const rt::Node* stop_node_ = nullptr;  // the statement or expression stopped before
  bool stopped_on_error_ = false;        // the run failed; continuing ends it
  std::optional<rt::EvalError> error_;
  int exit_code_ = 0;
  std::vector<Output> output_;
  StepRequest step_;
  std::atomic<bool> poll_{false};
  bool pause_requested_ = false;
  std::optional<rt::Value> return_value_;  // after a step out
  std::string return_name_;

  // Breakpoints.
  int next_breakpoint_id_ = 1;
  std::vector<LineBreakpointSpec> line_specs_;
  std::vector<FunctionBreakpointSpec> function_specs_;
  std::vector<Breakpoint> line_bps_, function_bps_;
  std::map<const rt::Node*, std::vector<Breakpoint*>> by_node_;
  std::map<const FunctionExpr*, std::vector<Breakpoint*>> by_function_;
  std::map<std::string, std::vector<Breakpoint*>, std::less<>> by_operator_;
  bool column_breakpoints_ = false;
  std::set<std::string> filters_{"runtime-error"};
  bool filter_nan_ = false, filter_inf_ = false, filter_error_ = true;
  std::optional<StopReason> stop_at_next_statement_;
  std::vector<int> pending_function_bps_;

  // Handles (variables references, step-in targets, memory) are valid while stopped.
  std::vector<Handle> handles_;
  std::vector<const CallExpr*> step_targets_;
  std::map<std::string, rt::NDArray, std::less<>> memory_;
};

}  // namespace relay::dbg
