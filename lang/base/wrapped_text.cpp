#include "lang/base/wrapped_text.h"

namespace relay {

Diagnostic to_user_text(const Diagnostic& d, const WrappedText& w) {
  Diagnostic out = d;
  out.labels.clear();
  for (size_t i = 0; i < d.labels.size(); ++i) {
    Label l = d.labels[i];
    if (auto user = w.to_user(l.span)) {
      l.span = *user;
    } else {
      if (i > 0) continue;
      if (w.past_end(l.span))
        for (size_t at; (at = out.message.find("found `}`")) != std::string::npos;)
          out.message.replace(at, 9, "found " + w.end_name);
      l.span = w.place_generated(l.span);
    }
    out.labels.push_back(std::move(l));
  }
  for (Help& h : out.helps) {
    std::vector<TextEdit> kept;
    for (TextEdit e : h.edits) {
      auto user = w.to_user(e.span);
      if (!user) break;
      e.span = *user;
      kept.push_back(std::move(e));
    }
    if (kept.size() != h.edits.size()) kept.clear();
    h.edits = std::move(kept);
  }
  return out;
}

}  // namespace relay
