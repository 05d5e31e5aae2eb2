// How a debugger runs the session's inputs (the Jupyter kernel's debugger).
//
// When a DebugHook is set (Session::set_debug_hook), every expression or binding input
// that passed the checker is offered to it instead of being run directly: the hook gets
// the session's module text with the input's temporary function, the function's name, its
// arguments (the session's bindings) and how positions in the module text map back to
// what the user wrote (`<input N>` files, loaded files) and the other way round. The
// hook loads that text into its own debugging engine, runs the function there (stopping
// at breakpoints, for as long as the user likes) and returns the value or the error; the
// session then carries on exactly as after a plain run. The hook may decline (nullopt),
// and the input runs as usual.
//
// The session stays single-threaded: the hook is called on the thread running the input
// and returns when the run is over, whatever other threads did meanwhile.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/eval/machine.h"
#include "lang/base/source.h"

namespace relay::repl {

struct ModuleText;

// A place in what the user wrote: a file of Session::sources() (an input or a loaded
// file), 1-based line and UTF-16 column.
struct InputPosition {
  FileId file = 0;
  uint32_t line = 0, column = 0;
};

class DebugRun {
 public:
  DebugRun(const ModuleText& text, const SourceManager& display);

  std::string module_name;  // name the module text is known by
  std::string module_text;
  std::string entry;        // the function to run, without `@`
  std::string entry_label;  // how to show its frame: the input's file name, `<input 3>`
  FileId input = 0;         // the input being run (a file of `display`)
  std::vector<rt::Value> args;
  size_t max_depth = 0;
  bool check_numerics = false;
  const std::atomic<bool>* interrupt = nullptr;
  const SourceManager& display;  // the inputs' and loaded files' texts

  // The place a module position (1-based line, UTF-16 column) was written; nullopt in
  // text the session generated (the header, the input function's signature).
  std::optional<InputPosition> to_input(uint32_t line, uint32_t column) const;
  // The module line that `line` of `file` became; nullopt when no item of the module
  // (nor the input) came from that line.
  std::optional<uint32_t> to_module_line(FileId file, uint32_t line) const;
  // A span of the module text (offsets into `module_text`, any file id) in `display`
  // terms; `fallback` when it is in generated text.
  Span to_display(Span s, Span fallback) const;

 private:
  const ModuleText& text_;
  LineIndex lines_;
};

struct DebugOutcome {
  std::optional<rt::Value> value;    // the result, when the run succeeded
  std::optional<rt::EvalError> error;  // why it failed
  FileId module_file = 0;  // the id the error's spans in the module text have (others: elsewhere)
  // Owns what `value` may point into (a closure's code and syntax): kept by the session
  // as long as the value may be.
  std::shared_ptr<const void> keep_alive;
};

class DebugHook {
 public:
  virtual ~DebugHook() = default;
  // Runs `run`'s entry on its arguments; nullopt to let the session run it itself.
  virtual std::optional<DebugOutcome> run(const DebugRun& run) = 0;
};

}  // namespace relay::repl
