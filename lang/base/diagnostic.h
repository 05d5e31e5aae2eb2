// Diagnostics as data.
//
// A Diagnostic has a kind (declared once in diagnostic_kinds.def), a primary labelled
// span, secondary labels, notes, and help lines that may carry machine-applicable text
// edits. Renderers (render.h) turn them into terminal text or JSON; the language
// server turns them into LSP diagnostics and code actions. Nothing here does I/O.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/source.h"

namespace relay {

enum class Severity : uint8_t { Error, Warning, Note };

enum class DiagKind : uint16_t {
#define DIAG(name, code, sev, msg, label) name,
#include "lang/base/diagnostic_kinds.def"
#undef DIAG
  Count_
};

struct DiagKindInfo {
  DiagKind kind;
  std::string_view code;
  Severity severity;
  std::string_view message;  // template with {0}, {1}, ...
  std::string_view label;    // template for the primary label
};

const DiagKindInfo& diag_info(DiagKind kind);
const std::vector<DiagKindInfo>& all_diag_kinds();
// Looks up a kind by its code ("E0040"); nullptr when unknown.
const DiagKindInfo* find_diag_code(std::string_view code);
std::string_view severity_name(Severity s);

// Replaces {0}, {1}, ... in `tmpl` by the arguments.
std::string format_template(std::string_view tmpl, const std::vector<std::string>& args);

struct Label {
  Span span;
  std::string message;
  bool primary = false;
};

struct TextEdit {
  Span span;  // the bytes to replace; an empty span inserts
  std::string replacement;
};

struct Help {
  std::string message;
  std::vector<TextEdit> edits;  // non-empty: a machine-applicable fix
};

enum DiagTag : uint8_t { kTagNone = 0, kTagUnnecessary = 1, kTagDeprecated = 2 };

struct Diagnostic {
  DiagKind kind{};
  Severity severity = Severity::Error;
  std::string message;
  std::vector<Label> labels;  // labels[0] is the primary label
  std::vector<std::string> notes;
  std::vector<Help> helps;
  uint8_t tags = kTagNone;

  std::string_view code() const { return diag_info(kind).code; }
  const Label& primary() const { return labels.front(); }

  Diagnostic& label(Span s, std::string msg) {
    labels.push_back(Label{s, std::move(msg), false});
    return *this;
  }
  Diagnostic& note(std::string msg) {
    notes.push_back(std::move(msg));
    return *this;
  }
  Diagnostic& help(std::string msg, std::vector<TextEdit> edits = {}) {
    helps.push_back(Help{std::move(msg), std::move(edits)});
    return *this;
  }
  Diagnostic& tag(DiagTag t) {
    tags |= t;
    return *this;
  }
};

// Creates a diagnostic from its kind's templates: the message and primary label are
// filled in from `args`.
Diagnostic make_diagnostic(DiagKind kind, Span primary, std::vector<std::string> args = {});

// An append-only list of diagnostics with error counting.
class DiagnosticBag {
 public:
  Diagnostic& emit(DiagKind kind, Span primary, std::vector<std::string> args = {}) {
    items_.push_back(make_diagnostic(kind, primary, std::move(args)));
    if (items_.back().severity == Severity::Error) ++errors_;
    return items_.back();
  }
  void add(Diagnostic d) {
    if (d.severity == Severity::Error) ++errors_;
    items_.push_back(std::move(d));
  }
  void append(const DiagnosticBag& other) {
    for (const auto& d : other.items_) add(d);
  }
  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>& items() { return items_; }
  size_t error_count() const { return errors_; }
  bool has_errors() const { return errors_ > 0; }
  size_t size() const { return items_.size(); }
  // Orders by file and position of the primary label (stable for ties).
  void sort();

 private:
  std::vector<Diagnostic> items_;
  size_t errors_ = 0;
};

// "did you mean" support: the candidate closest to `name` by edit distance, if it is
// close enough to be a plausible typo; empty otherwise.
std::string closest_match(std::string_view name, const std::vector<std::string_view>& candidates);
size_t edit_distance(std::string_view a, std::string_view b, size_t limit);

}  // namespace relay
