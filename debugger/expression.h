// Relay expressions typed by the user while a program is stopped: breakpoint
// conditions, log-point interpolations, watch, hover and Debug Console input, and new
// values for setVariable. Each is checked and compiled like the rest of the program,
// in the environment of the frame it belongs to.
//
// How: the text becomes the body of a wrapper definition whose parameters are the
// frame's variables that the text mentions, annotated with their types:
//
//   def @__debug_expression(%x: Tensor[(2, 3), float32], %__v0: int32) {
//     %0 = %__v0;          (graph names such as %0 are rebound inside)
//     <the text>
//   }
//
// The wrapper is parsed, resolved against the program's globals (and the prelude) and
// inferred with the program's declared signatures, so errors are the checker's own
// diagnostics. Running it calls the wrapper with the variables' current values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/eval/run.h"

namespace relay::dbg {

// A variable an expression may use: its binder and the type to check it at (empty when
// unknown: inference then works it out from the use, or reports that it cannot).
struct EnvVar {
  const VarDecl* decl;
  std::string type;
};

struct CompiledExpression {
  // The wrapper's text, which the module's spans and names point into: registered with
  // the compiler's SourceManager for as long as this lives (first, so it goes last).
  std::shared_ptr<const SourceFile> wrapper_source;
  std::vector<const VarDecl*> params;  // the variables it uses, in the wrapper's order
  std::string type;                    // its type, as TVM prints types
  std::unique_ptr<Module> module;
  std::unique_ptr<InferredTypes> types;
  std::unique_ptr<rt::Program> program;  // a program per expression: compiled code is
                                         // keyed by definition, and this one's goes away
  const FuncDef* def = nullptr;
  // Kept between runs: a condition in a hot function runs on every hit.
  mutable std::unique_ptr<rt::Machine> machine;
  // The slot of each of `params` in the function it last ran in (a breakpoint's
  // condition always stops in the same function), so a hit reads just those slots.
  mutable const rt::FunctionCode* slots_for = nullptr;
  mutable std::vector<int64_t> slots;
};

struct EvalResult {
  std::optional<rt::Value> value;
  std::string error;  // when there is no value
};

class ExpressionCompiler {
 public:
  // `sources` receives a file per compiled text while it lives (an expression that fails
  // to compile leaves none); `program` must outlive the compiler.
  ExpressionCompiler(SourceManager& sources, const rt::LoadedProgram& program);

  // Checks `text` with `env` visible (a later entry hides an earlier one of the same
  // name). On errors returns null and sets `error` to the rendered diagnostics. `origin`
  // names the text in them (`<condition>`, `<evaluate>`).
  std::shared_ptr<const CompiledExpression> compile(std::string_view text, std::span<const EnvVar> env,
                                                    std::string_view origin, std::string* error);

  // Runs a compiled expression on its parameters' values (`args[i]` for `params[i]`).
  // `pure`: writing a reference is an error (watch and hover must not change the
  // program). At most `max_steps` evaluation steps, so a watch of an endless loop
  // returns; `interrupt` (may be null) stops it early.
  EvalResult run(const CompiledExpression& e, std::span<const rt::Value> args, bool pure, uint64_t max_steps,
                 const std::atomic<bool>* interrupt = nullptr);

 private:
  SourceManager& sources_;
  const rt::LoadedProgram& program_;
};

// The names (without `%`) of the local variables `text` mentions, by the lexer.
std::vector<std::string> mentioned_locals(std::string_view text);

}  // namespace relay::dbg
