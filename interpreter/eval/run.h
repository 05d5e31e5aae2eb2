// The one run driver: from a file to a checked program with its entry's arguments
// (`load_program`), and from a function and its arguments to a value or a diagnostic
// (`run_function`). `relay run`, the REPL session, the debugger and the tests call these
// instead of chaining parse -> check -> Program -> Machine -> diagnostic themselves, so a
// run means the same thing (and fails the same way) everywhere. A debugger steps the
// Machine itself between the two, and turns a failure into a diagnostic with
// `outcome_of_error`.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/eval/machine.h"
#include "interpreter/eval/numerics.h"
#include "interpreter/eval/run_error.h"
#include "interpreter/eval/run_inputs.h"
#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"

namespace relay::rt {

// A file checked and ready to run.
struct LoadedProgram {
  FileId file = 0;
  FrontendResult front;
  ModuleTypes types;
  const FuncDef* entry = nullptr;
  std::vector<NDArray> arguments;  // the entry's, in parameter order
  std::unique_ptr<Program> program;

  // A global of the file by name (without `@`), or null.
  const FuncDef* find_global(std::string_view name) const;
};

// Parses, resolves and type-checks `file` (already in `sources`), finds the function
// `entry` (without `@`) and binds its arguments from `inputs` (none when null: the
// caller has its own). Every diagnostic, warnings included, is appended to `diags`; on
// any error the result is null.
std::unique_ptr<LoadedProgram> load_program(SourceManager& sources, FileId file, std::string_view entry,
                                            const EntryInputs* inputs, DiagnosticBag& diags);

struct RunOptions {
  bool check_numerics = false;  // stop at the first operator that produces NaN/Inf
  size_t max_depth = Machine::kDefaultMaxDepth;
  const std::atomic<bool>* interrupt = nullptr;
  std::vector<Observer*> observers;  // more observers for the run (a profiler, tests)
  TierUp* tier = nullptr;            // native code for hot functions (the compiler), or none
  // Shown for the entry's stack frame instead of its name (the REPL's `<input>`).
  std::string entry_label;
  SpanMap span_map;  // where a diagnostic's spans are shown (identity when empty)
  Span fallback_span;  // where a failure without a place of its own is shown
};

struct RunOutcome {
  std::optional<Value> value;       // the result, on success
  std::optional<Diagnostic> error;  // E0100/E0101/E0102, on failure
  bool interrupted = false;
  uint64_t steps = 0;
  // `relay run`'s exit status for this outcome: 0, 1, or 130 when interrupted.
  int exit_code() const { return value ? 0 : interrupted ? 130 : 1; }
};

// Calls `fn` on `args` to the end. `sources` must hold the program's files.
RunOutcome run_function(Program& program, const Value& fn, std::vector<Value> args, const RunOptions& options,
                        const SourceManager& sources);

// The outcome of a run that threw `e` (`numerics` may be null).
RunOutcome outcome_of_error(const EvalError& e, const NumericsChecker* numerics, const RunOptions& options,
                            const SourceManager& sources);

}  // namespace relay::rt
