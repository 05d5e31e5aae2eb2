#include "repl/input_text.h"

#include <cctype>

#include "lang/syntax/lexer.h"

namespace relay::repl {

bool word_char(char c) { return is_ident_char(c) || c == '.'; }

namespace {

bool starts_word(std::string_view s, uint32_t at, std::string_view word) {
  if (s.substr(at, word.size()) != word) return false;
  size_t after = at + word.size();
  return after >= s.size() || !word_char(s[after]);
}

// Skips a block comment starting at `i` (at its `/*`); block comments nest. Returns the
// offset after it, or s.size() when it is not closed (`*closed` false).
uint32_t skip_block_comment(std::string_view s, uint32_t i, bool* closed) {
  int depth = 0;
  while (i < s.size()) {
    if (s.substr(i, 2) == "/*") {
      ++depth;
      i += 2;
    } else if (s.substr(i, 2) == "*/") {
      i += 2;
      if (--depth == 0) {
        *closed = true;
        return i;
      }
    } else {
      ++i;
    }
  }
  *closed = false;
  return static_cast<uint32_t>(s.size());
}

uint32_t skip_line(std::string_view s, uint32_t i) {
  while (i < s.size() && s[i] != '\n') ++i;
  return i;
}

// Skips a string literal starting at its opening quote. Returns the offset after it,
// or s.size() when it is not closed.
uint32_t skip_string(std::string_view s, uint32_t i, bool* closed) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      *closed = true;
      return i + 1;
    }
  }
  *closed = false;
  return static_cast<uint32_t>(s.size());
}

// Calls `visit(offset)` for each character outside strings and comments.
template <class F>
BracketScan scan(std::string_view s, F&& visit) {
  BracketScan r;
  std::string stack;
  for (uint32_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      i = skip_line(s, i);
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      bool closed;
      i = skip_block_comment(s, i, &closed);
      r.open_comment = !closed;
    } else if (c == '"') {
      bool closed;
      i = skip_string(s, i, &closed);
      r.open_string = !closed;
    } else {
      if (c == '(' || c == '[' || c == '{') {
        stack.push_back(c);
      } else if (c == ')' || c == ']' || c == '}') {
        char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (stack.empty() || stack.back() != want) {
          if (!r.unmatched_close) r.unmatched_at = i;
          r.unmatched_close = true;
        } else {
          stack.pop_back();
        }
      }
      visit(i, static_cast<int>(stack.size()));
      ++i;
    }
  }
  r.depth = static_cast<int>(stack.size());
  return r;
}

}  // namespace

uint32_t skip_space_and_comments(std::string_view s, uint32_t i) {
  while (i < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (s.substr(i, 3) == "///") {
      return i;
    } else if (s.substr(i, 2) == "//") {
      i = skip_line(s, i);
    } else if (s.substr(i, 2) == "/*") {
      bool closed;
      i = skip_block_comment(s, i, &closed);
    } else {
      return i;
    }
  }
  return static_cast<uint32_t>(s.size());
}

InputKind classify(std::string_view s) {
  uint32_t i = skip_space_and_comments(s);
  if (i >= s.size()) return InputKind::Empty;
  if (s[i] == ':') return InputKind::Command;
  if (s.substr(i, 3) == "///" || s.substr(i, 2) == "#[" || starts_word(s, i, "def") || starts_word(s, i, "type") ||
      starts_word(s, i, "extern"))
    return InputKind::Definitions;
  if (starts_word(s, i, "let")) {
    // A binding when the last top-level character is `;` (nothing follows the last let).
    char last = 0;
    scan(s, [&](uint32_t at, int depth) {
      if (!std::isspace(static_cast<unsigned char>(s[at]))) last = depth == 0 ? s[at] : 'x';
    });
    if (last == ';') return InputKind::Binding;
  }
  return InputKind::Expression;
}

BracketScan scan_brackets(std::string_view s) {
  return scan(s, [](uint32_t, int) {});
}

std::optional<std::vector<std::string>> binding_names(std::string_view s) {
  // Statement starts: the input's start and each top-level `;`.
  std::vector<uint32_t> starts{0};
  scan(s, [&](uint32_t at, int depth) {
    if (depth == 0 && s[at] == ';') starts.push_back(at + 1);
  });
  std::vector<std::string> names;
  for (uint32_t start : starts) {
    uint32_t i = skip_space_and_comments(s, start);
    if (i >= s.size()) continue;
    if (!starts_word(s, i, "let")) return std::nullopt;
    i = skip_space_and_comments(s, i + 3);
    if (i >= s.size() || s[i] != '%') return std::nullopt;
    uint32_t b = ++i;
    while (i < s.size() && is_ident_char(s[i])) ++i;
    if (i == b) return std::nullopt;
    names.emplace_back(s.substr(b, i - b));
  }
  if (names.empty()) return std::nullopt;
  return names;
}

std::optional<CommandLine> split_command(std::string_view s) {
  uint32_t i = skip_space_and_comments(s);
  if (i >= s.size() || s[i] != ':') return std::nullopt;
  uint32_t b = ++i;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '_')) ++i;
  CommandLine c;
  c.name = std::string(s.substr(b, i - b));
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  uint32_t e = static_cast<uint32_t>(s.size());
  while (e > i && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  c.arg = s.substr(i, e - i);
  c.arg_offset = i;
  return c;
}

}  // namespace relay::repl
