#include "lsp/features.h"

#include "ide/hover.h"
#include "ide/range_format.h"

namespace relay::lsp {

using json = nlohmann::json;

namespace {

// LSP DiagnosticTag values.
constexpr int kLspUnnecessary = 1;
constexpr int kLspDeprecated = 2;

std::string full_message(const Diagnostic& d) {
  std::string m = d.message;
  for (const std::string& n : d.notes) m += "\nnote: " + n;
  for (const Help& h : d.helps) m += "\nhelp: " + h.message;
  return m;
}

}  // namespace

bool publishable(const Diagnostic& d) { return !d.labels.empty(); }

json diagnostic_json(const Diagnostic& d, const FileCheck& check, const Document& doc, PositionEncoding enc) {
  const SourceFile& file = *check.source;
  json item;
  const Span p = d.primary().span;
  // Spans of the prelude (another file) cannot be shown in this document.
  const bool here = p.file == check.file;
  item["range"] = here ? range_of(file.text, file.lines, p.begin, p.end, enc)
                       : range_of(file.text, file.lines, 0, 0, enc);
  item["severity"] = d.severity == Severity::Error ? 1 : d.severity == Severity::Warning ? 2 : 3;
  item["code"] = std::string(d.code());
  item["codeDescription"] = {{"href", "https://relay.invalid/errors/" + std::string(d.code())}};
  item["source"] = "relay";
  item["message"] = full_message(d);
  json related = json::array();
  for (size_t i = 1; i < d.labels.size(); ++i) {
    const Label& l = d.labels[i];
    if (l.span.file != check.file) continue;
    related.push_back({{"location", {{"uri", doc.uri}, {"range", range_of(file.text, file.lines, l.span.begin,
                                                                          l.span.end, enc)}}},
                       {"message", l.message}});
  }
  if (!d.labels[0].message.empty()) {
    // json::object: a braced list of two pairs would otherwise insert two arrays.
    json primary = json::object({{"location", {{"uri", doc.uri}, {"range", item["range"]}}},
                                 {"message", d.labels[0].message}});
    related.insert(related.begin(), std::move(primary));
  }
  if (!related.empty()) item["relatedInformation"] = std::move(related);
  json tags = json::array();
  if (d.tags & kTagUnnecessary) tags.push_back(kLspUnnecessary);
  if (d.tags & kTagDeprecated) tags.push_back(kLspDeprecated);
  if (!tags.empty()) item["tags"] = std::move(tags);
  return item;
}

json diagnostics_json(const FileCheck& check, const Document& doc, PositionEncoding enc, size_t error_limit) {
  json out = json::array();
  size_t errors = 0, hidden_errors = 0, hidden_warnings = 0;
  json first_hidden_range;
  for (const Diagnostic& d : check.diagnostics) {
    if (!publishable(d)) continue;
    if (error_limit != 0 && errors >= error_limit) {
      if (d.severity == Severity::Error) ++hidden_errors;
      if (d.severity == Severity::Warning) ++hidden_warnings;
      if (first_hidden_range.is_null() && d.severity != Severity::Note)
        first_hidden_range = diagnostic_json(d, check, doc, enc)["range"];
      continue;
    }
    if (d.severity == Severity::Error) ++errors;
    out.push_back(diagnostic_json(d, check, doc, enc));
  }
  if (hidden_errors + hidden_warnings > 0) {
    auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    std::string more;
    if (hidden_errors) more = count(hidden_errors, "more error");
    if (hidden_warnings) more += (more.empty() ? "" : " and ") + count(hidden_warnings, "more warning");
    out.push_back({{"range", first_hidden_range},
                   {"severity", 3},
                   {"source", "relay"},
                   {"message", more + " not shown: stopped after " + std::to_string(error_limit) +
                                   " errors (the initialization option `errorLimit` changes the limit; 0 shows all)"}});
  }
  return out;
}

json hover_json(const FileCheck& check, const Document& doc, uint32_t offset, PositionEncoding enc) {
  auto h = ide::hover_at(check, offset);
  if (!h) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", h->markdown}}},
          {"range", range_of(doc.text, doc.lines(), h->begin, h->end, enc)}};
}

json formatting_json(const Document& doc, PositionEncoding enc) {
  const std::optional<std::string> formatted = ide::format_document(doc.path, doc.text);
  if (!formatted || *formatted == doc.text) return json::array();
  const LineIndex& lines = doc.lines();
  return json::array({{{"range", range_of(doc.text, lines, 0, static_cast<uint32_t>(doc.text.size()), enc)},
                       {"newText", *formatted}}});
}

}  // namespace relay::lsp
