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
  // Damerau-free Levenshtein with an early exit once every entry of a row exceeds limit.
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > limit) return limit + 1;
  std::vector<size_t> row(a.size() + 1);
  for (size_t i = 0; i <= a.size(); ++i) row[i] = i;
  for (size_t j = 1; j <= b.size(); ++j) {
    size_t diag = row[0];
    row[0] = j;
    size_t best = row[0];
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t up = row[i];
      size_t cost = (a[i - 1] == b[j - 1]) ? 0 : 1;
      // Case-only differences are cheap typos.
      if (cost && (a[i - 1] | 0x20) == (b[j - 1] | 0x20) && std::isalpha((unsigned char)a[i - 1]))
        cost = 0;
      row[i] = std::min({row[i - 1] + 1, up + 1, diag + cost});
      diag = up;
      best = std::min(best, row[i]);
    }
    if (best > limit) return limit + 1;
  }
  return row[a.size()];
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
  if (best > limit) return {};
  return std::string(best_name);
}

}  // namespace relay
