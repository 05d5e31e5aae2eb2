// Session::Impl, shared by the files that implement the session: session.cpp (inputs:
// definitions, bindings, expressions), session_commands.cpp (`:type`, `:load`, ...) and
// session_ide.cpp (completion, inspection, completeness).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <unordered_map>

#include "interpreter/eval/program.h"
#include "interpreter/value_print.h"
#include "lang/types/database.h"
#include "repl/input_text.h"
#include "repl/session.h"
#include "repl/session_module.h"

namespace relay::repl {

// The name of the temporary function an expression input is checked and run as.
inline constexpr std::string_view kInputFunction = "__repl_input";

struct SessionBinding {
  std::string name;  // without `%`
  rt::Value value;
  std::string type;  // as the checker prints it (re-parsed as the parameter's annotation)
};

// An expression input checked as the body of the temporary function.
struct CheckedInput {
  std::shared_ptr<const FileCheck> check;
  ModuleText text;
  const CheckedDefinition* def = nullptr;  // the temporary function
  std::string type;                        // the body's type
};

struct Session::Impl {
  SessionOptions options;
  const std::atomic<bool>* interrupt = nullptr;
  SourceManager display;  // what diagnostics point into: inputs, loaded files
  CheckDatabase db;
  SessionModule module;   // the accepted definitions
  std::shared_ptr<const FileCheck> accepted;  // the check of `module` (no errors)
  std::vector<SessionBinding> bindings;
  // Each evaluation's check and compiled code, kept while values may refer to them (a
  // closure bound in the session points into its program's code and its check's AST).
  struct Generation {
    std::shared_ptr<const FileCheck> check;
    std::unique_ptr<rt::Program> program;
    std::shared_ptr<const void> debugged;  // a debugger's run of the input (DebugOutcome::keep_alive)
  };
  std::deque<Generation> generations;
  std::unordered_map<FileId, FileId> foreign_files;  // database file -> display file
  // Each definition chunk's regions (chunk-relative), recorded when it was checked: a span
  // in a definition's AST is in its chunk, and a closure bound by an earlier input runs
  // code whose chunk the database may since have released.
  std::unordered_map<FileId, ModuleText> chunk_regions;
  std::vector<std::string> loaded_files;
  int inputs = 0;
  DebugHook* debug_hook = nullptr;
  rt::TierUp* tier = nullptr;  // the front end's JIT, if any
  // The JIT as runs see it: the session's temporary input function is never compiled
  // (it is new for every input, and only calls what the user defined).
  struct SkipInputFunction final : rt::TierUp {
    rt::TierUp* inner = nullptr;
    rt::CompiledCall* at_call(const FuncDef& def, std::span<const rt::Value> args) override;
    rt::CompiledCall* at_region(const rt::RegionInfo& region, std::span<const rt::Value> inputs) override;
    std::string describe() const override { return inner ? inner->describe() : std::string(); }
  } run_tier;

  explicit Impl(SessionOptions o);

  // ---- session.cpp
  std::shared_ptr<const FileCheck> check_text(const ModuleText& text);
  // Diagnostics of a check in display terms; spans in session-generated text go to
  // `fallback` (the start of the input).
  std::vector<Diagnostic> to_display(const std::vector<Diagnostic>& diags, const ModuleText& text,
                                     Span fallback, bool errors_only);
  Span display_span(Span s, const ModuleText& text, Span fallback);
  // The warnings of a check that are about what input `input` (a display file) says, in
  // display terms: shown with its result. Those in other inputs' definitions were shown
  // when those were entered; those in text the session wrote are not the user's.
  std::vector<Diagnostic> input_warnings(const std::vector<Diagnostic>& diags, const ModuleText& text, FileId input);
  // Checks `m`, adding the inferred return annotation of each function written without
  // one (SessionItem::annotation), round by round until no more can be added.
  std::shared_ptr<const FileCheck> annotate_and_check(SessionModule& m, ModuleText* text);
  // Adds the definitions of `file` (a display file) to the module, replacing those of the
  // same name. `loaded_from` marks items of a `:load`ed file.
  ExecResult define(FileId file, const std::string& loaded_from);
  // The temporary function around `expr` (at `origin` in the display sources). For a
  // binding input, `binds` are the names whose values the function returns.
  std::string input_function(std::string_view expr, const std::vector<std::string>* binds,
                             std::vector<Region>* regions, Origin origin) const;
  // Checks `expr` as an input; on errors fills `result` and returns nullopt.
  std::optional<CheckedInput> check_input(std::string_view expr, const std::vector<std::string>* binds, Origin origin,
                                          ExecResult& result);
  // Runs a checked input; on errors fills `result` and returns nullopt.
  std::optional<rt::Value> run_input(const CheckedInput& input, Origin origin, ExecResult& result,
                                     uint64_t* steps = nullptr);
  // ---- session_debug.cpp
  // Offers a checked input to the debug hook. False when there is none or it declined;
  // otherwise the run's value is in `value`, or its error in `result`.
  bool debug_input(const CheckedInput& input, Origin origin, ExecResult& result, std::optional<rt::Value>* value);

  ExecResult evaluate(std::string_view expr, InputKind kind, Origin origin);
  FileId add_input(std::string_view text);

  // ---- session_ide.cpp
  // The module text with `input` where execution would put it, checked; `base` is where
  // the input starts in the text.
  std::shared_ptr<const FileCheck> check_for_ide(std::string_view input, ModuleText* text, uint32_t* base);

  // ---- session_commands.cpp
  ExecResult command(const CommandLine& c, FileId input);
  ExecResult load(const std::string& path);
  ExecResult reload();
  ExecResult env() const;
  // The accepted definition of `name` (with or without `@`; `bare` is without), or null.
  const CheckedDefinition* session_function(std::string_view name, std::string& bare) const;
  static ExecResult no_such_function(const std::string& bare, Span at);
  ExecResult viz(std::string_view name, Span at);
  // Adds @NAME_grad, the gradient of @NAME (lang/autodiff/first_order.h).
  ExecResult grad(std::string_view name, Span at);
  ExecResult reset();
};

// An Error output with one E0110 diagnostic at `span` (may be empty).
ExecResult session_error(Span span, std::string message, std::string label = "");

inline Output text_output(std::string text) {
  Output o;
  o.text = std::move(text);
  return o;
}
inline Output error_output(std::vector<Diagnostic> diagnostics) {
  Output o;
  o.kind = Output::Kind::Error;
  o.diagnostics = std::move(diagnostics);
  return o;
}
inline Output value_output(rt::Value value, std::string type) {
  Output o;
  o.kind = Output::Kind::Value;
  o.text = rt::format_value(value);
  o.value = std::move(value);
  o.type = std::move(type);
  return o;
}

// `@name` -> its type as the checker prints it, for the session's own functions.
std::map<std::string, std::string> global_type_map(const FileCheck& check);

}  // namespace relay::repl
