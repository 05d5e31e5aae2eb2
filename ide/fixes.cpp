#include "ide/fixes.h"

namespace relay::ide {

std::vector<Fix> quick_fixes(const FileCheck& check, uint32_t begin, uint32_t end) {
  std::vector<Fix> out;
  for (size_t i = 0; i < check.diagnostics.size(); ++i) {
    const Diagnostic& d = check.diagnostics[i];
    if (d.labels.empty()) continue;
    const Span p = d.primary().span;
    if (p.file != check.file || p.end < begin || p.begin > end) continue;
    bool first = true;
    for (const Help& h : d.helps) {
      if (h.edits.empty()) continue;
      Fix f{i, h.message, {}, first};
      bool here = true;
      for (const TextEdit& e : h.edits) {
        if (e.span.file != check.file) here = false;
        f.edits.push_back({e.span.begin, e.span.end, e.replacement});
      }
      if (!here) continue;
      out.push_back(std::move(f));
      first = false;
    }
  }
  return out;
}

}  // namespace relay::ide
