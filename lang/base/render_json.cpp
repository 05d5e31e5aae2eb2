// The JSON renderer for diagnostics (see render.h, docs/diagnostics.md).
#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "lang/base/render.h"
#include "lang/base/render_internal.h"

namespace relay {

// ======================================================================================
// JSON

namespace {

using Json = nlohmann::ordered_json;  // keeps the documented field order

void put_span(Json& j, const SourceManager& sm, Span span) {
  if (span.file >= sm.size()) {
    for (const char* k : {"file", "line", "column", "end_line", "end_column", "byte_start", "byte_end"})
      j[k] = nullptr;
    return;
  }
  const SourceFile& f = sm.get(span.file);
  uint32_t size = static_cast<uint32_t>(f.text.size());
  uint32_t b = std::min(span.begin, size);
  uint32_t e = std::min(std::max(span.end, b), size);
  LineCol s = display_position(f, b), en = display_position(f, e);
  j["file"] = f.name;
  j["line"] = s.line;
  j["column"] = s.column;
  j["end_line"] = en.line;
  j["end_column"] = en.column;
  j["byte_start"] = b;
  j["byte_end"] = e;
}

}  // namespace

using render_detail::is_primary;

std::string render_json(const Diagnostic& d, const SourceManager& sm) {
  Json j;
  j["code"] = static_cast<size_t>(d.kind) < all_diag_kinds().size() ? std::string(d.code()) : "";
  j["severity"] = std::string(severity_name(d.severity));
  j["message"] = d.message;
  put_span(j, sm, d.labels.empty() ? Span{static_cast<FileId>(sm.size()), 0, 0} : d.labels[0].span);

  Json labels = Json::array();
  for (size_t i = 0; i < d.labels.size(); ++i) {
    Json l;
    l["primary"] = is_primary(d, i);
    l["message"] = d.labels[i].message;
    put_span(l, sm, d.labels[i].span);
    labels.push_back(std::move(l));
  }
  j["labels"] = std::move(labels);

  j["notes"] = Json::array();
  for (const auto& n : d.notes) j["notes"].push_back(n);

  Json helps = Json::array();
  for (const Help& h : d.helps) {
    Json hj;
    hj["message"] = h.message;
    hj["fixes"] = Json::array();
    for (const TextEdit& e : h.edits) {
      Json ej;
      put_span(ej, sm, e.span);
      ej["replacement"] = e.replacement;
      hj["fixes"].push_back(std::move(ej));
    }
    helps.push_back(std::move(hj));
  }
  j["helps"] = std::move(helps);

  j["tags"] = Json::array();
  if (d.tags & kTagUnnecessary) j["tags"].push_back("unnecessary");
  if (d.tags & kTagDeprecated) j["tags"].push_back("deprecated");

  j["rendered"] = render_diagnostic(d, sm, RenderOptions{false});
  // Invalid UTF-8 in a message must not throw: it becomes U+FFFD.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace relay
