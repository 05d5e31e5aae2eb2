// Inputs run by a debugger (session_debug.h): what the session hands over, and how it
// takes the outcome back.
#include "repl/session_debug.h"

#include <algorithm>

#include "interpreter/eval/run.h"
#include "repl/session_impl.h"

namespace relay::repl {

DebugRun::DebugRun(const ModuleText& text, const SourceManager& display)
    : display(display), text_(text), lines_(text.text) {}

std::optional<InputPosition> DebugRun::to_input(uint32_t line, uint32_t column) const {
  if (line == 0 || line > lines_.line_count() || column == 0) return std::nullopt;
  const uint32_t offset = lines_.offset_of_utf16(text_.text, line - 1, column - 1);
  std::optional<Span> at = text_.to_origin(Span{0, offset, offset});
  if (!at) return std::nullopt;
  const SourceFile& f = display.get(at->file);
  return InputPosition{at->file, f.lines.lookup(at->begin).line, f.lines.utf16_column(f.text, at->begin) + 1};
}

std::optional<uint32_t> DebugRun::to_module_line(FileId file, uint32_t line) const {
  const SourceFile& f = display.get(file);
  if (line == 0 || line > f.lines.line_count()) return std::nullopt;
  const uint32_t start = f.lines.line_start(line);
  const uint32_t end = line < f.lines.line_count() ? f.lines.line_start(line + 1) : static_cast<uint32_t>(f.text.size());
  for (const Region& r : text_.regions) {
    if (r.origin.file != file) continue;
    const uint32_t begin = r.origin.offset, stop = begin + (r.end - r.begin);
    if (end <= begin || start >= stop) continue;
    // A region may start in the middle of the line (a definition after other text).
    return lines_.lookup(r.begin + (std::max(start, begin) - begin)).line;
  }
  return std::nullopt;
}

Span DebugRun::to_display(Span s, Span fallback) const { return text_.to_origin(s).value_or(fallback); }

bool Session::Impl::debug_input(const CheckedInput& in, Origin origin, ExecResult& result,
                                std::optional<rt::Value>* value) {
  DebugRun run(in.text, display);
  run.module_name = "<session>";
  run.module_text = in.text.text;
  run.entry = std::string(kInputFunction);
  run.entry_label = display.get(origin.file).name;
  run.input = origin.file;
  for (const SessionBinding& b : bindings) run.args.push_back(b.value);
  run.max_depth = options.max_depth;
  run.check_numerics = options.check_numerics;
  run.interrupt = interrupt;
  std::optional<DebugOutcome> outcome = debug_hook->run(run);
  if (!outcome) return false;
  if (outcome->value) {
    generations.push_back(Generation{in.check, nullptr, std::move(outcome->keep_alive)});
    *value = std::move(outcome->value);
    return true;
  }
  // The error as a plain run reports it; spans are mapped from the debugger's copy of
  // the module text.
  rt::RunOptions shown;
  shown.entry_label = "<input>";
  shown.fallback_span = Span{origin.file, origin.offset, origin.offset};
  const FileId module = outcome->module_file;
  shown.span_map = [&](Span s) { return s.file == module ? run.to_display(s, shown.fallback_span) : shown.fallback_span; };
  rt::EvalError error = outcome->error ? *outcome->error
                                       : rt::EvalError("the debugger ended the run", Span{module, 0, 0}, {}, {},
                                                       /*interrupted=*/true);
  rt::RunOutcome failed = rt::outcome_of_error(error, nullptr, shown, display);
  result.ok = false;
  result.interrupted = failed.interrupted;
  result.outputs.push_back(error_output({std::move(*failed.error)}));
  return true;
}

void Session::set_debug_hook(DebugHook* hook) { impl_->debug_hook = hook; }

std::vector<SessionVariable> Session::variables() const {
  std::vector<SessionVariable> out;
  for (const SessionBinding& b : impl_->bindings) out.push_back({b.name, b.value, b.type});
  return out;
}

}  // namespace relay::repl
