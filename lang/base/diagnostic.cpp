#include "lang/base/diagnostic.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace relay {

const std::vector<DiagKindInfo>& all_diag_kinds() {
  static const std::vector<DiagKindInfo> kinds = {
#define DIAG(name, code, sev, msg, label) {DiagKind::name, code, Severity::sev, msg, label},
#include "lang/base/diagnostic_kinds.def"
#undef DIAG
  };
  return kinds;
}

const DiagKindInfo& diag_info(DiagKind kind) {
  return all_diag_kinds()[static_cast<size_t>(kind)];
}

const DiagKindInfo* find_diag_code(std::string_view code) {
  for (const auto& k : all_diag_kinds()) {
    if (k.code == code) return &k;
  }
  return nullptr;
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

std::string format_template(std::string_view tmpl, const std::vector<std::string>& args) {
  std::string out;
  out.reserve(tmpl.size() + 16);
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{' && i + 2 < tmpl.size() && tmpl[i + 2] == '}' && tmpl[i + 1] >= '0' &&
        tmpl[i + 1] <= '9') {
      size_t idx = static_cast<size_t>(tmpl[i + 1] - '0');
      if (idx < args.size()) out += args[idx];
      i += 2;
    } else {
      out += tmpl[i];
    }
  }
  return out;
}

Diagnostic make_diagnostic(DiagKind kind, Span primary, std::vector<std::string> args) {
  const DiagKindInfo& info = diag_info(kind);
  Diagnostic d;
  d.kind = kind;
  d.severity = info.severity;
  d.message = format_template(info.message, args);
  d.labels.push_back(Label{primary, format_template(info.label, args), true});
  return d;
}

void DiagnosticBag::sort() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    const Span& x = a.primary().span;
    const Span& y = b.primary().span;
    if (x.file != y.file) return x.file < y.file;
    return x.begin < y.begin;
  });
}

size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  // Optimal string alignment distance (Levenshtein plus adjacent transpositions, so
  // `mian` is one edit from `main`); case-only differences are free. Returns limit + 1
  // as soon as the distance must exceed `limit`.
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > limit) return limit + 1;
  auto same = [](char x, char y) {
    return x == y || (std::isalpha(static_cast<unsigned char>(x)) && (x | 0x20) == (y | 0x20));
  };
  const size_t n = a.size();
  std::vector<size_t> prev2(n + 1), prev(n + 1), cur(n + 1);
  for (size_t i = 0; i <= n; ++i) prev[i] = i;
  for (size_t j = 1; j <= b.size(); ++j) {
    cur[0] = j;
    size_t best = cur[0];
    for (size_t i = 1; i <= n; ++i) {
      size_t cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
      cur[i] = std::min({cur[i - 1] + 1, prev[i] + 1, prev[i - 1] + cost});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        cur[i] = std::min(cur[i], prev2[i - 2] + 1);
      best = std::min(best, cur[i]);
    }
    if (best > limit) return limit + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[n];
}

std::string closest_match(std::string_view name, const std::vector<std::string_view>& candidates) {
  // A plausible typo: at most a third of the name's length, and at least one edit.
  size_t limit = std::max<size_t>(1, name.size() / 3);
  size_t best = limit + 1;
  std::string_view best_name;
  for (std::string_view c : candidates) {
    if (c == name) continue;
    size_t d = edit_distance(name, c, limit);
    if (d < best || (d == best && !best_name.empty() && c < best_name)) {
      best = d;
      best_name = c;
    }
  }
  // Replacing every character is no typo (single-letter names would match anything).
  if (best > limit || best >= name.size()) return {};
  return std::string(best_name);
}

}  // namespace relay
