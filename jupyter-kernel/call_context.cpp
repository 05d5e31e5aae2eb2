#include "jupyter-kernel/call_context.h"

#include <vector>

namespace relay::kernel {

namespace {

// Characters of the names a call can start with: operators (`nn.dense`), globals
// (`@f`), locals (`%f`), constructors (`Cons`), `fn` is not a call.
bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '@' || c == '%' || static_cast<unsigned char>(c) >= 0x80;
}

// The end of the name right before the `(` at `open` (blank space allowed between), or
// nothing when no name precedes it.
std::optional<size_t> callee_before(std::string_view code, size_t open) {
  size_t end = open;
  while (end > 0 && (code[end - 1] == ' ' || code[end - 1] == '\t' || code[end - 1] == '\n')) --end;
  size_t begin = end;
  while (begin > 0 && name_char(code[begin - 1])) --begin;
  if (begin == end) return std::nullopt;
  const std::string_view name = code.substr(begin, end - begin);
  // Keywords that take parentheses are not calls; a number is not a callee.
  if (name == "if" || name == "match" || name == "fn" || (name[0] >= '0' && name[0] <= '9')) return std::nullopt;
  return end;
}

}  // namespace

std::optional<size_t> enclosing_callee_end(std::string_view code, size_t cursor) {
  if (cursor > code.size()) cursor = code.size();
  // The brackets open at the cursor, scanned from the start so that comments and strings
  // are known (a backward scan cannot tell `"(" ` from code).
  std::vector<size_t> open;
  for (size_t i = 0; i < cursor; ++i) {
    const char c = code[i];
    if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      while (i < cursor && code[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
      const size_t end = code.find("*/", i + 2);
      if (end == std::string_view::npos || end + 2 > cursor) return std::nullopt;  // the cursor is in the comment
      i = end + 1;
    } else if (c == '"') {
      ++i;
      while (i < cursor && code[i] != '"') i += code[i] == '\\' ? 2 : 1;
      if (i >= cursor) return std::nullopt;  // the cursor is in the string
    } else if (c == '(' || c == '[' || c == '{') {
      open.push_back(i);
    } else if (c == ')' || c == ']' || c == '}') {
      if (!open.empty()) open.pop_back();
    }
  }
  // The innermost open `(` with a name before it; a `{` (a body) ends the search, since
  // a call around a function body is not what the cursor is in.
  for (size_t k = open.size(); k-- > 0;) {
    if (code[open[k]] == '{') return std::nullopt;
    if (code[open[k]] != '(') continue;
    if (std::optional<size_t> end = callee_before(code, open[k])) return end;
  }
  return std::nullopt;
}

}  // namespace relay::kernel
