#include "ide/range_format.h"

#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"
#include "lang/syntax/parser.h"
#include "lang/syntax/printer.h"

namespace relay::ide {

namespace {
// Line start offsets, plus the text's size as a final sentinel.
std::vector<uint32_t> line_starts(std::string_view s) {
  std::vector<uint32_t> v{0};
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n' && i + 1 < s.size()) v.push_back(i + 1);
  v.push_back(static_cast<uint32_t>(s.size()));
  return v;
}
std::string_view line(std::string_view s, const std::vector<uint32_t>& st, size_t i) {
  return s.substr(st[i], st[i + 1] - st[i]);
}
}  // namespace

std::optional<std::string> format_document(std::string_view path, std::string_view text) {
  SourceManager sources;
  const SourceFile& file = sources.get(sources.add(std::string(path), std::string(text)));
  DiagnosticBag diags;
  ParseOptions po;
  po.require_version = false;
  auto module = parse_module(file, diags, po);
  if (diags.has_errors()) return std::nullopt;
  return print_module(*module, file);
}

std::optional<LineEdit> format_range(std::string_view path, std::string_view text, uint32_t first_line,
                                     uint32_t last_line) {
  const std::optional<std::string> result = format_document(path, text);
  if (!result || *result == text) return std::nullopt;
  const std::string& formatted = *result;
  const std::vector<uint32_t> a = line_starts(text), b = line_starts(formatted);
  const size_t na = a.size() - 1, nb = b.size() - 1;
  size_t pre = 0;
  while (pre < na && pre < nb && line(text, a, pre) == line(formatted, b, pre)) ++pre;
  size_t suf = 0;
  while (suf < na - pre && suf < nb - pre && line(text, a, na - 1 - suf) == line(formatted, b, nb - 1 - suf)) ++suf;
  // Old lines [pre, na - suf) become new lines [pre, nb - suf).
  const size_t old_last = na - suf;  // exclusive
  const bool meets = old_last == pre ? (pre >= first_line && pre <= last_line + 1)
                                     : (pre <= last_line && old_last > first_line);
  if (!meets) return std::nullopt;
  return LineEdit{a[pre], a[old_last], formatted.substr(b[pre], b[nb - suf] - b[pre])};
}

}  // namespace relay::ide
