#include "interpreter/eval/run_error.h"

namespace relay::rt {

namespace {

std::string location(const SourceManager& sources, Span s) {
  const SourceFile& f = sources.get(s.file);
  LineCol lc = f.lines.lookup(s.begin);
  return f.name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
}

// The stack as one note; a very deep one keeps its innermost and outermost ten frames.
void add_stack(Diagnostic& d, const std::vector<StackEntry>& stack, const SourceManager& sources,
               const SpanMap& map) {
  if (stack.empty()) return;
  std::string text = "Relay stack, innermost call first:";
  const size_t shown = 20;
  for (size_t i = 0; i < stack.size(); ++i) {
    if (i == shown / 2 && stack.size() > shown) {
      text += "\n  ... " + std::to_string(stack.size() - shown) + " more frames ...";
      i = stack.size() - shown / 2;
    }
    text += "\n  " + stack[i].function;
    Span site = stack[i].call_site;
    if (site.end > site.begin || site.begin) text += ", called at " + location(sources, map ? map(site) : site);
  }
  d.note(text);
}

}  // namespace

Diagnostic run_error_diagnostic(const EvalError& e, const NumericsChecker* numerics, const SourceManager& sources,
                                const SpanMap& map) {
  Span span = map ? map(e.span) : e.span;
  Diagnostic d;
  if (e.interrupted) {
    d = make_diagnostic(DiagKind::Interrupted, span);
  } else if (numerics && numerics->report()) {
    const NumericsReport& r = *numerics->report();
    d = make_diagnostic(DiagKind::NonFiniteResult, span, {std::string(r.op->name), r.produced});
    for (const auto& n : r.notes) d.note(n);
  } else {
    d = make_diagnostic(DiagKind::RuntimeFailure, span, {e.what()});
    for (const auto& n : e.notes) d.note(n);
  }
  add_stack(d, e.stack, sources, map);
  return d;
}

}  // namespace relay::rt
