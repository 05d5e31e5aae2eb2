#include "jupyter-kernel/mime_bundles.h"

#include <algorithm>
#include <cstdint>

#include "repl/value_html.h"

namespace relay::kernel {

namespace {

// Jupyter carries binary MIME data (image/png) as base64 text (RFC 4648, with padding).
std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t chunk = 0;
    for (size_t k = 0; k < 3; ++k)
      chunk = chunk << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(chunk >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

}  // namespace

std::string value_plain_text(const repl::Output& value) {
  if (value.type.empty()) return value.text;
  return value.text + "\n: " + value.type;
}

nlohmann::json value_bundle(const repl::Output& value) {
  return {{"text/plain", value_plain_text(value)}, {"text/html", repl::value_html(value.value, value.type)}};
}

nlohmann::json svg_bundle(const repl::Output& picture) {
  std::string what = picture.text;
  if (what.empty()) what = "dataflow graph of @" + picture.name;
  nlohmann::json bundle = {{"image/svg+xml", svg_element(picture.svg)}, {"text/plain", "<" + what + ">"}};
  // The raster copy: untrusted notebooks (anything executed elsewhere, the committed
  // examples included) hide SVG, and viewers and some exports show only images.
  if (!picture.png.empty()) bundle["image/png"] = base64(picture.png);
  return bundle;
}

std::string svg_element(std::string_view document) {
  constexpr std::string_view kBlank = " \t\r\n";
  // The prolog's parts, by how they open and close. Graphviz's DOCTYPE has no internal
  // subset (`[...]`), so its first `>` ends it.
  struct Markup {
    std::string_view open, close;
  };
  constexpr Markup kProlog[] = {{"<?", "?>"}, {"<!--", "-->"}, {"<!DOCTYPE", ">"}};
  std::string_view rest = document;
  for (;;) {
    const size_t start = rest.find_first_not_of(kBlank);
    if (start == std::string_view::npos) return std::string(document);
    rest.remove_prefix(start);
    const Markup* found = nullptr;
    for (const Markup& m : kProlog)
      if (rest.starts_with(m.open)) found = &m;
    if (!found) break;
    const size_t end = rest.find(found->close, found->open.size());
    if (end == std::string_view::npos) return std::string(document);
    rest.remove_prefix(end + found->close.size());
  }
  if (!rest.starts_with("<svg")) return std::string(document);
  const size_t last = rest.find_last_not_of(kBlank);
  return std::string(rest.substr(0, last + 1));
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

ErrorFields error_fields(const repl::Session& session, const repl::Output& error, bool interrupted) {
  ErrorFields f;
  // The first error (not a warning or note) names the failure; frontends show
  // `ename: evalue` in summaries, the traceback in the cell.
  const Diagnostic* first = nullptr;
  for (const Diagnostic& d : error.diagnostics) {
    if (d.severity == Severity::Error) {
      first = &d;
      break;
    }
  }
  if (first == nullptr && !error.diagnostics.empty()) first = &error.diagnostics.front();
  f.ename = interrupted ? "Interrupted" : first ? std::string(first->code()) : "RelayError";
  f.evalue = first ? first->message : error.text;
  f.traceback = split_lines(session.render(error.diagnostics, /*color=*/true, kNotebookLineWidth));
  if (f.traceback.empty() && !error.text.empty()) f.traceback = split_lines(error.text);
  // The blank line that separates diagnostics on a terminal would trail the cell.
  while (!f.traceback.empty() && f.traceback.back().empty()) f.traceback.pop_back();
  return f;
}

}  // namespace relay::kernel
