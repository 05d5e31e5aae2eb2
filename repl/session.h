// The interactive session engine shared by `relay repl` and the Jupyter kernel: a module
// that grows with each input, bindings that keep their values, and the commands.
//
// An input is one of
//   * definitions (`def`, `type`, with their `///` docs): added to the module, or
//     replacing the definition of the same name; what depends on a redefinition is
//     re-checked, and a change of its type is reported;
//   * a binding `let %w = EXPR;` (optionally `let %w: TYPE = EXPR;`): evaluated, and `%w`
//     stays visible to later inputs with its value and type;
//   * an expression: evaluated, its value shown with its type;
//   * a command `:name args` (`:help` lists them).
// Any error (syntax, name, type, run time, interrupt) reports diagnostics and leaves the
// session exactly as it was before the input.
//
// How it works: the session's module is one text (a version header, the prelude import,
// then every accepted definition) checked by the incremental CheckDatabase, so adding or
// redefining one function re-infers only what the change touches. An expression is
// checked and run as the body of a temporary function whose parameters are the session's
// bindings, annotated with their types. Diagnostics are mapped back from the module text
// to the input (or loaded file) each piece came from, so they point at `<input 3>:1:7`.
//
// Not thread-safe: one input at a time. `set_interrupt_flag` may be set from a signal
// handler while `execute` runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ide/completion.h"
#include "interpreter/eval/tier.h"
#include "interpreter/value.h"
#include "lang/base/diagnostic.h"
#include "lang/base/source.h"

namespace relay::repl {

// One piece of what an input produced, in order. Front ends choose how to show each kind.
struct Output {
  enum class Kind {
    Text,     // a message (`:env`, "defined @f: ...", `:time`): `text`
    Value,    // an evaluated result: `value`, `text` (its printout) and `type`
    Svg,      // a picture (`:viz`): `svg`, `text` says what it is
    Error,    // diagnostics (`diagnostics`, spans in `Session::sources()`)
  };
  Kind kind = Kind::Text;
  std::string text;
  rt::Value value;
  std::string type;
  std::string svg;
  std::string png;   // Svg: the same picture as PNG bytes, when SessionOptions::viz_png
  std::string name;  // Svg: the function's name (a file name for front ends that save it)
  std::vector<Diagnostic> diagnostics;
  // Text: `text` is Relay source (`:ir`); front ends may colour it
  // with the grammar's highlighting (ide/highlight.h).
  bool relay_source = false;
  // Text: the Relay pieces of an echo ("defined @f: fn (...) -> ...", "%w: Tensor[...]"),
  // byte ranges of `text` that front ends may colour like source (a global's name as the
  // grammar's function, a type with ide::highlight_type). In text order.
  struct Fragment {
    enum class Kind { Global, Local, Type };
    uint32_t begin = 0, end = 0;
    Kind kind = Kind::Type;
  };
  std::vector<Fragment> fragments;
};

struct ExecResult {
  bool ok = true;             // false when any error was reported (the session is unchanged)
  bool interrupted = false;   // the evaluation was interrupted
  bool quit = false;          // `:quit`
  std::vector<Output> outputs;
};

enum class Completeness { Complete, Incomplete, Invalid };
struct CompletenessResult {
  Completeness status = Completeness::Complete;
  std::string indent;  // for Incomplete: the indent of the next line
};

struct Inspection {
  std::string markdown;   // the same text as the language server's hover
  std::string plain;      // the same without markdown fences
};

// A binding of the session (`let %w = ...`): its name without `%`, value and type.
struct SessionVariable {
  std::string name;
  rt::Value value;
  std::string type;
};

class DebugHook;  // session_debug.h

struct SessionOptions {
  bool check_numerics = false;
  bool jit = true;  // use the front end's JIT (set_tier) when it has one; `:set jit on|off`
  size_t max_depth = 4'000'000;
  // `:viz` also renders the picture as PNG (Output::png): notebooks send it beside the
  // SVG for front ends that do not show SVG (untrusted notebooks, viewers, exports).
  bool viz_png = false;
};

class Session {
 public:
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs one input (any of the kinds above).
  ExecResult execute(std::string_view input);

  // Whether `input` is complete (run it), incomplete (read another line; `indent` says how
  // far to indent it) or invalid (run it to show the error).
  CompletenessResult is_complete(std::string_view input) const;

  // Completion at byte `cursor` of `input`, with the same engine as the language server;
  // `replace_begin`/`replace_end` are byte offsets in `input`. Commands complete too.
  ide::CompletionResult complete(std::string_view input, uint32_t cursor);

  // What hover would show for the position `cursor` of `input`.
  std::optional<Inspection> inspect(std::string_view input, uint32_t cursor);

  // Renders an Error output's diagnostics (rustc style; ANSI colour when `color`); source
  // lines wider than `max_line_width` columns are windowed around their labels.
  std::string render(const std::vector<Diagnostic>& diagnostics, bool color, uint32_t max_line_width = 140) const;
  // Where diagnostics' spans live (each input is its own file, `<input N>`).
  const SourceManager& sources() const;

  // Checked between evaluation steps; set it (e.g. from SIGINT) to stop a run.
  void set_interrupt_flag(const std::atomic<bool>* flag);
  // Native code for hot functions: the front end's JIT (compiler/, which the session does
  // not know), or null. `:set jit on|off` turns its use on and off; `:jit` prints its report.
  void set_tier(rt::TierUp* tier);
  // The checked types of one of the session's definitions (the JIT compiles from them),
  // or null.
  const InferredTypes* types_of(const FuncDef* def) const;
  const SessionOptions& options() const;

  // Expression and binding inputs are run by `hook` (a debugger; session_debug.h) while
  // it is set; null: by the session itself.
  void set_debug_hook(DebugHook* hook);
  // The session's bindings, oldest first.
  std::vector<SessionVariable> variables() const;

  // The `:help` text.
  static std::string help_text();
  // Command names with their colon (`:type`, ...), for front ends' completion.
  static const std::vector<std::string>& command_names();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace relay::repl
