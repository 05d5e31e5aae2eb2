#include "jupyter-kernel/mime_bundles.h"

#include "repl/value_html.h"

namespace relay::kernel {

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
  return {{"image/svg+xml", picture.svg}, {"text/plain", "<" + what + ">"}};
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
  f.traceback = split_lines(session.render(error.diagnostics, /*color=*/true));
  if (f.traceback.empty() && !error.text.empty()) f.traceback = split_lines(error.text);
  return f;
}

}  // namespace relay::kernel
