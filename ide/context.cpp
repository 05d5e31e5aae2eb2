#include "ide/context.h"

#include "lang/syntax/lexer.h"

namespace relay::ide {

const CheckedDefinition* definition_at(const FileCheck& check, uint32_t offset) {
  const CheckedDefinition* best = nullptr;
  for (const CheckedDefinition& d : check.definitions)
    if (d.chunk_offset + d.def->span.begin <= offset) best = &d;
  return best;
}

namespace {
bool word_char(char c) { return is_ident_char(c) || c == '.'; }

// The name ending at `end` (skipping spaces before it), with its sigil.
std::string name_before(std::string_view text, uint32_t end) {
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  const Word w = word_before(text, end);
  return std::string(text.substr(w.begin, end - w.begin));
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// `key` when `arg` is `key = ...` with a plain identifier key.
std::string key_of(std::string_view arg, bool* has_eq) {
  std::string t = trim(arg);
  size_t i = 0;
  while (i < t.size() && is_ident_char(t[i])) ++i;
  if (i == 0 || !is_ident_start(t[0])) return "";
  size_t j = i;
  while (j < t.size() && t[j] == ' ') ++j;
  if (j < t.size() && t[j] == '=' && (j + 1 >= t.size() || t[j + 1] != '=')) {
    if (has_eq) *has_eq = true;
    return t.substr(0, i);
  }
  if (j == t.size() && i == t.size()) return t;  // a bare name being typed
  return "";
}

}  // namespace

Word word_before(std::string_view text, uint32_t offset) {
  Word w;
  uint32_t b = offset;
  while (b > 0 && word_char(text[b - 1])) --b;
  w.text = std::string(text.substr(b, offset - b));
  if (b > 0 && (text[b - 1] == '%' || text[b - 1] == '@')) w.sigil = text[--b];
  w.begin = b;
  return w;
}

CursorScan scan_to(std::string_view text, uint32_t from, uint32_t offset) {
  CursorScan s;
  std::vector<OpenBracket> stack;
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  for (uint32_t i = from; i < offset; ++i) {
    const char c = text[i];
    if (c == '"') {
      const uint32_t start = i++;
      while (i < offset && text[i] != '"' && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
      if (i >= offset) {
        s.in_string = true, s.string_begin = start;
        break;
      }
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < offset && text[i] != '\n') ++i;
      if (i >= offset) s.in_comment = true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t e = text.find("*/", i + 2);
      if (e == std::string_view::npos || e + 2 > offset) {
        s.in_comment = true;
        break;
      }
      i = static_cast<uint32_t>(e + 1);
    } else if (c == '(' || c == '[' || c == '{') {
      OpenBracket b;
      b.bracket = c;
      b.pos = i;
      if (c != '{') {
        uint32_t end = i;
        while (end > from && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
        b.callee = name_before(text, i);
        b.callee_end = end;
      }
      stack.push_back(std::move(b));
    } else if (c == ')' || c == ']' || c == '}') {
      const char open = c == ')' ? '(' : c == ']' ? '[' : '{';
      // Pop to the matching bracket; an unmatched closer is ignored (the user's typo).
      for (size_t k = stack.size(); k-- > 0;)
        if (stack[k].bracket == open) {
          stack.resize(k);
          break;
        }
    } else if (c == ',' && !stack.empty()) {
      stack.back().commas.push_back(i);
    }
  }
  if (!stack.empty()) {
    s.open = stack.back();
    if (stack.size() > 1) {
      s.open.outer = stack[stack.size() - 2].bracket;
      s.open.outer_callee = stack[stack.size() - 2].callee;
    }
  }
  s.stack = std::move(stack);
  return s;
}

std::optional<OpenBracket> enclosing_call(std::string_view text, uint32_t offset) {
  const CursorScan scan = scan_to(text, 0, offset);
  if (scan.in_string || scan.in_comment) return std::nullopt;
  for (size_t k = scan.stack.size(); k-- > 0;) {
    const OpenBracket& b = scan.stack[k];
    if (b.bracket == '{') return std::nullopt;
    if (b.bracket != '(') continue;
    const std::string& name = b.callee;
    if (name.empty() || name == "if" || name == "match" || name == "fn" || (name[0] >= '0' && name[0] <= '9') ||
        name == "%" || name == "@")
      continue;
    return b;
  }
  return std::nullopt;
}

CallArgument call_argument(std::string_view text, const OpenBracket& call, uint32_t offset) {
  CallArgument a;
  a.index = call.commas.size();
  uint32_t start = call.pos + 1;
  for (uint32_t comma : call.commas) {
    bool eq = false;
    std::string k = key_of(text.substr(start, comma - start), &eq);
    if (!k.empty() && eq) a.written_keys.push_back(k);
    start = comma + 1;
  }
  a.key = key_of(text.substr(start, offset - start), &a.has_eq);
  return a;
}

}  // namespace relay::ide
