#include "debugger/breakpoints.h"

#include <cctype>

namespace relay::dbg {

bool HitCondition::matches(uint64_t hits) const {
  switch (op) {
    case Op::Equal: return hits == n;
    case Op::AtLeast: return hits >= n;
    case Op::Every: return n != 0 && hits % n == 0;
  }
  return false;
}

std::optional<HitCondition> parse_hit_condition(std::string_view text, std::string* error) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  std::string_view s = trim(text);
  HitCondition h;
  if (s.starts_with("==")) s.remove_prefix(2);
  else if (s.starts_with(">=")) h.op = HitCondition::Op::AtLeast, s.remove_prefix(2);
  else if (s.starts_with("%")) h.op = HitCondition::Op::Every, s.remove_prefix(1);
  s = trim(s);
  uint64_t n = 0;
  bool ok = !s.empty() && s.size() <= 18;
  for (char c : s) {
    if (c < '0' || c > '9') ok = false;
    else n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok || n == 0) {
    *error = "the hit condition `" + std::string(text) +
             "` is not one of `N`, `==N`, `>=N` or `%N` with a positive whole number N";
    return std::nullopt;
  }
  h.n = n;
  return h;
}

std::optional<LogTemplate> parse_log_message(std::string_view text, std::string* error) {
  LogTemplate t;
  std::string literal;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      literal += c;
      ++i;
      continue;
    }
    if (c == '}') {
      *error = "unmatched `}` in the log message (write `}}` for a brace)";
      return std::nullopt;
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    // An expression up to the matching brace (Relay uses braces for blocks too).
    int depth = 1;
    size_t j = i + 1;
    for (; j < text.size() && depth > 0; ++j) depth += text[j] == '{' ? 1 : text[j] == '}' ? -1 : 0;
    if (depth != 0) {
      *error = "unclosed `{` in the log message (write `{{` for a brace)";
      return std::nullopt;
    }
    if (!literal.empty()) t.parts.push_back({false, std::move(literal)});
    literal.clear();
    t.parts.push_back({true, std::string(text.substr(i + 1, j - i - 2))});
    i = j - 1;
  }
  if (!literal.empty()) t.parts.push_back({false, std::move(literal)});
  return t;
}

}  // namespace relay::dbg
