#include "lang/syntax/lexer.h"

#include "lang/base/utf8.h"

#include <cstdio>

namespace relay {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_plain_name(std::string_view name) {
  if (name.empty() || !is_ident_start(name[0])) return false;
  for (size_t i = 1; i < name.size(); ++i) {
    char c = name[i];
    if (is_ident_char(c)) continue;
    // '/' and '.' are allowed inside a name when an identifier character follows.
    if ((c == '/' || c == '.') && i + 1 < name.size() &&
        (c == '/' ? is_ident_char(name[i + 1]) : is_ident_start(name[i + 1])))
      continue;
    return false;
  }
  return true;
}

// Length of the valid UTF-8 sequence at `s[i]`, or 0 when the bytes are not valid UTF-8.
static size_t utf8_length(std::string_view s, size_t i) {
  char32_t cp;
  return decode_utf8(s, i, &cp);
}

Lexer::Lexer(const SourceFile& file, DiagnosticBag& diags)
    : file_(file), text_(file.text), diags_(diags) {
  // A UTF-8 byte order mark (some Windows editors write one) is not text: skipped, as
  // rustc and Python's utf-8-sig do, so the version header after it is the first token.
  if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
}

void Lexer::report_invalid_utf8(uint32_t b, uint32_t e) {
  if (!diags_.items().empty()) {
    Diagnostic& last = diags_.items().back();
    Span& s = last.labels[0].span;
    if (last.kind == DiagKind::InvalidUtf8 && s.file == file_.id && s.end == b) {
      s.end = e;
      return;
    }
  }
  diags_.emit(DiagKind::InvalidUtf8, span(b, e));
}

void Lexer::skip_block_comment(uint32_t start) {
  // Block comments nest, as in TVM: /* /* */ */.
  int depth = 0;
  uint32_t i = start;
  const uint32_t n = static_cast<uint32_t>(text_.size());
  while (i < n) {
    if (text_[i] == '/' && i + 1 < n && text_[i + 1] == '*') {
      ++depth;
      i += 2;
    } else if (text_[i] == '*' && i + 1 < n && text_[i + 1] == '/') {
      i += 2;
      if (--depth == 0) break;
    } else {
      ++i;
    }
  }
  if (depth > 0) {
    unterminated_ = true;
    diags_.emit(DiagKind::UnterminatedComment, span(start, start + 2))
        .help("close the comment with `*/`; block comments nest, so each `/*` needs its own `*/`");
  }
  comments_.push_back(Comment{CommentKind::Block, span(start, i)});
  pos_ = i;
}

bool Lexer::skip_trivia() {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  uint32_t start = pos_;
  while (pos_ < n) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n') {
      ++pos_;
    } else if (c == '\r') {
      if (pos_ + 1 < n && text_[pos_ + 1] == '\n') {
        pos_ += 2;
      } else {
        diags_.emit(DiagKind::StrayCarriageReturn, span(pos_, pos_ + 1))
            .help("use `\\n` or `\\r\\n` line endings");
        ++pos_;
      }
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
      uint32_t b = pos_;
      bool doc = pos_ + 2 < n && text_[pos_ + 2] == '/' && !(pos_ + 3 < n && text_[pos_ + 3] == '/');
      // to the line's end: '\n', or '\r' (of "\r\n", or a lone one, which ends a line in
      // every editor and is reported on the next round of this loop)
      while (pos_ < n && text_[pos_] != '\n' && text_[pos_] != '\r') {
        if (static_cast<unsigned char>(text_[pos_]) >= 0x80) {
          size_t len = utf8_length(text_, pos_);
          if (len == 0) {
            report_invalid_utf8(pos_, pos_ + 1);
            len = 1;
          }
          pos_ += static_cast<uint32_t>(len);
        } else {
          ++pos_;
        }
      }
      comments_.push_back(Comment{doc ? CommentKind::Doc : CommentKind::Line, span(b, pos_)});
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
      skip_block_comment(pos_);
    } else {
      break;
    }
  }
  return pos_ != start;
}

Token Lexer::next() {
  bool space = skip_trivia();
  Token t = [&]() -> Token {
    const uint32_t n = static_cast<uint32_t>(text_.size());
    if (pos_ >= n) return Token{Tok::Eof, false, n, n};
    uint32_t b = pos_;
    char c = text_[pos_];
    auto one = [&](Tok k) {
      ++pos_;
      return Token{k, false, b, pos_};
    };
    auto two = [&](Tok k) {
      pos_ += 2;
      return Token{k, false, b, pos_};
    };
    char d = pos_ + 1 < n ? text_[pos_ + 1] : '\0';
    switch (c) {
      case '(': return one(Tok::LParen);
      case ')': return one(Tok::RParen);
      case '{': return one(Tok::LBrace);
      case '}': return one(Tok::RBrace);
      case '[': return one(Tok::LBracket);
      case ']': return one(Tok::RBracket);
      case ',': return one(Tok::Comma);
      case ';': return one(Tok::Semi);
      case ':': return one(Tok::Colon);
      case '.': return one(Tok::Dot);
      case '?': return one(Tok::Question);
      case '+': return one(Tok::Plus);
      case '*': return one(Tok::Star);
      case '/': return one(Tok::Slash);
      case '-': return d == '>' ? two(Tok::Arrow) : one(Tok::Minus);
      case '=': return d == '=' ? two(Tok::EqEq) : d == '>' ? two(Tok::FatArrow) : one(Tok::Eq);
      case '!': return d == '=' ? two(Tok::NotEq) : one(Tok::Bang);
      case '<': return d == '=' ? two(Tok::Le) : one(Tok::Lt);
      case '>': return d == '=' ? two(Tok::Ge) : one(Tok::Gt);
      case '"': return lex_string(b);
      case '%': return lex_sigil(b, Tok::Local);
      case '@': return lex_sigil(b, Tok::Global);
      case '#': return lex_file_attribute(b);
      default: break;
    }
    if (is_digit(c)) return lex_number(b);
    if (is_ident_start(c)) return lex_word(b);
    return lex_invalid(b);
  }();
  t.space_before = space;
  // A string token that is itself unterminated sets the flag for the token after it.
  bool this_unterminated = unterminated_ && t.kind == Tok::String;
  t.after_unterminated = unterminated_ && !this_unterminated;
  unterminated_ = this_unterminated;
  prev_ = t.kind;
  return t;
}

Token Lexer::lex_invalid(uint32_t b) {
  // Group a run of characters that start no token into one error token and one
  // diagnostic, so random bytes do not produce a diagnostic per byte.
  const uint32_t n = static_cast<uint32_t>(text_.size());
  bool bad_utf8 = false;
  uint32_t i = b;
  auto starts_token = [&](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || is_ident_char(c) ||
           std::string_view("(){}[],;:.?+*/-=!<>\"%@#").find(c) != std::string_view::npos;
  };
  while (i < n && !starts_token(text_[i])) {
    size_t len = utf8_length(text_, i);
    if (len == 0) {
      bad_utf8 = true;
      len = 1;
    }
    i += static_cast<uint32_t>(len);
  }
  if (i == b) i = b + 1;  // defensive: always make progress
  pos_ = i;
  if (bad_utf8) {
    diags_.emit(DiagKind::InvalidUtf8, span(b, i));
  } else {
    std::string shown;
    std::string_view s = text_.substr(b, i - b);
    if (s.size() == 1 && static_cast<unsigned char>(s[0]) < 0x20) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(s[0]));
      shown = buf;
    } else {
      shown = "`" + std::string(s.substr(0, 32)) + (s.size() > 32 ? "..." : "") + "`";
    }
    diags_.emit(DiagKind::InvalidCharacter, span(b, i), {shown});
  }
  return Token{Tok::Error, false, b, i};
}

Token Lexer::lex_number(uint32_t b) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  uint32_t i = b;
  while (i < n && is_digit(text_[i])) ++i;
  bool is_float = false;
  if (prev_ != Tok::Dot) {
    if (i + 1 < n && text_[i] == '.' && is_digit(text_[i + 1])) {
      is_float = true;
      i += 1;
      while (i < n && is_digit(text_[i])) ++i;
    }
    if (i < n && (text_[i] == 'e' || text_[i] == 'E')) {
      uint32_t j = i + 1;
      if (j < n && (text_[j] == '+' || text_[j] == '-')) ++j;
      if (j < n && is_digit(text_[j])) {
        is_float = true;
        i = j;
        while (i < n && is_digit(text_[i])) ++i;
      }
    }
    // Suffix: f, f16, f32, f64, i, i16, i32, i64 (anything else is reported).
    if (i < n && is_ident_start(text_[i])) {
      uint32_t s = i;
      while (i < n && is_ident_char(text_[i])) ++i;
      std::string_view suffix = text_.substr(s, i - s);
      bool ok = suffix == "f" || suffix == "f16" || suffix == "f32" || suffix == "f64" ||
                (!is_float && (suffix == "i" || suffix == "i16" || suffix == "i32" || suffix == "i64"));
      if (!ok && suffix[0] != 'f' && suffix[0] != 'i' && suffix[0] != 'u') {
        // Not a suffix at all: hex, binary, digit separators or a typo like `12ab`.
        while (i < n && (is_ident_char(text_[i]) || text_[i] == '.')) ++i;
        std::string_view all = text_.substr(b, std::min<uint32_t>(i - b, 40));
        auto& d = diags_.emit(DiagKind::InvalidNumber, span(b, i), {std::string(all)});
        d.note("numbers are decimal: `42`, `-1`, `1.5f`, `1e-05f`, with an optional dtype suffix");
        pos_ = i;
        return Token{Tok::Error, false, b, i};
      }
      if (!ok) {
        auto& d = diags_.emit(DiagKind::InvalidNumericSuffix, span(s, i), {std::string(suffix)});
        d.note("the suffixes are `f` (float32), `f16`, `f32`, `f64` for floats and `i` (int32), `i16`, `i32`, `i64` for integers");
        if (suffix[0] == 'u') d.help("there are no unsigned literals: write e.g. `cast(1, dtype=\"uint8\")`");
        pos_ = i;
        return Token{Tok::Error, false, b, i};
      }
      if (suffix[0] == 'f') is_float = true;
    }
  }
  pos_ = i;
  return Token{is_float ? Tok::Float : Tok::Integer, false, b, i};
}

Token Lexer::lex_string(uint32_t b) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  uint32_t i = b + 1;
  while (i < n) {
    char c = text_[i];
    if (c == '"') {
      pos_ = i + 1;
      return Token{Tok::String, false, b, pos_};
    }
    if (c == '\n') break;  // strings do not span lines: recover at the line end
    if (c == '\\' && i + 1 < n && text_[i + 1] != '\n') {
      i += 2;
      continue;
    }
    if (static_cast<unsigned char>(c) >= 0x80) {
      size_t len = utf8_length(text_, i);
      if (len == 0) {
        report_invalid_utf8(i, i + 1);
        len = 1;
      }
      i += static_cast<uint32_t>(len);
      continue;
    }
    ++i;
  }
  uint32_t e = i;
  if (e > b + 1 && text_[e - 1] == '\r') --e;
  unterminated_ = true;
  diags_.emit(DiagKind::UnterminatedString, span(b, b + 1))
      .help("add a closing `\"`", {TextEdit{span(e, e), "\""}});
  pos_ = i;
  return Token{Tok::String, false, b, e};
}

static Tok keyword(std::string_view w) {
  switch (w.size()) {
    case 2:
      if (w == "fn") return Tok::KwFn;
      if (w == "if") return Tok::KwIf;
      break;
    case 3:
      if (w == "def") return Tok::KwDef;
      if (w == "let") return Tok::KwLet;
      if (w == "ref") return Tok::KwRef;
      break;
    case 4:
      if (w == "else") return Tok::KwElse;
      if (w == "type") return Tok::KwType;
      break;
    case 5:
      if (w == "match") return Tok::KwMatch;
      break;
    case 6:
      if (w == "extern") return Tok::KwExtern;
      break;
    case 8:
      if (w == "free_var") return Tok::KwFreeVar;
      if (w == "ref_read") return Tok::KwRefRead;
      break;
    case 9:
      if (w == "ref_write") return Tok::KwRefWrite;
      break;
  }
  return Tok::Ident;
}

// Scans a name: identifier characters, with '/' (and, when `dotted`, '.') allowed
// between identifier characters.
static uint32_t scan_name(std::string_view text, uint32_t i, bool dotted) {
  const uint32_t n = static_cast<uint32_t>(text.size());
  while (i < n) {
    char c = text[i];
    if (is_ident_char(c)) {
      ++i;
    } else if (c == '/' && i + 1 < n && is_ident_char(text[i + 1])) {
      ++i;
    } else if (dotted && c == '.' && i + 1 < n && is_ident_start(text[i + 1])) {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

Token Lexer::lex_word(uint32_t b) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  if (text_.compare(b, 5, "meta[") == 0) return lex_meta(b);
  uint32_t i = scan_name(text_, b, false);
  std::string_view w = text_.substr(b, i - b);
  pos_ = i;
  if (w == "inff" || w == "nanf") return Token{Tok::Float, false, b, i};
  Tok k = keyword(w);
  if (k == Tok::KwMatch && i < n && text_[i] == '?') {
    pos_ = i + 1;
    return Token{Tok::KwMatchQ, false, b, pos_};
  }
  return Token{k, false, b, i};
}

Token Lexer::lex_sigil(uint32_t b, Tok name_kind) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  uint32_t i = b + 1;
  if (name_kind == Tok::Local && i < n && is_digit(text_[i])) {
    while (i < n && is_digit(text_[i])) ++i;
    pos_ = i;
    return Token{Tok::Graph, false, b, i};
  }
  if (i < n && is_ident_start(text_[i])) {
    pos_ = scan_name(text_, i, true);
    return Token{name_kind, false, b, pos_};
  }
  pos_ = b + 1;
  auto& d = diags_.emit(DiagKind::InvalidCharacter, span(b, b + 1),
                        {std::string("`") + text_[b] + "`"});
  d.labels[0].message = name_kind == Tok::Local ? "expected a variable name or number after `%`"
                                                : "expected a function name after `@`";
  return Token{Tok::Error, false, b, pos_};
}

Token Lexer::lex_file_attribute(uint32_t b) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  if (b + 1 >= n || text_[b + 1] != '[') {
    pos_ = b + 1;
    diags_.emit(DiagKind::MalformedFileAttribute, span(b, b + 1))
        .note("`#` only starts file attributes such as `#[version = \"0.0.5\"]`");
    return Token{Tok::Error, false, b, pos_};
  }
  uint32_t i = b + 2;
  while (i < n && text_[i] != ']' && text_[i] != '\n') ++i;
  if (i >= n || text_[i] != ']') {
    pos_ = i;
    diags_.emit(DiagKind::MalformedFileAttribute, span(b, i))
        .help("close the attribute with `]`", {TextEdit{span(i, i), "]"}});
    return Token{Tok::Error, false, b, i};
  }
  pos_ = i + 1;
  std::string_view inner = text_.substr(b + 2, i - b - 2);
  while (!inner.empty() && (inner.front() == ' ' || inner.front() == '\t')) inner.remove_prefix(1);
  while (!inner.empty() && (inner.back() == ' ' || inner.back() == '\t')) inner.remove_suffix(1);
  if (inner == "metadata") {
    // Everything after `#[metadata]` is JSON; the parser reads it from the token's end.
    Token t{Tok::Metadata, false, b, static_cast<uint32_t>(n)};
    pos_ = n;
    return t;
  }
  return Token{Tok::FileAttr, false, b, pos_};
}

Token Lexer::lex_meta(uint32_t b) {
  // meta[TYPE_KEY][INDEX], no spaces inside.
  const uint32_t n = static_cast<uint32_t>(text_.size());
  uint32_t i = b + 5;
  uint32_t key_b = i;
  while (i < n && (is_ident_char(text_[i]) || text_[i] == '.')) ++i;
  bool ok = i > key_b && i + 1 < n && text_[i] == ']' && text_[i + 1] == '[';
  if (ok) {
    i += 2;
    uint32_t d = i;
    while (i < n && is_digit(text_[i])) ++i;
    ok = i > d && i < n && text_[i] == ']';
    if (ok) ++i;
  }
  if (!ok) {
    while (i < n && text_[i] != ']' && text_[i] != '\n' && text_[i] != ' ') ++i;
    if (i < n && text_[i] == ']') ++i;
    pos_ = i;
    diags_.emit(DiagKind::MalformedMetaRef, span(b, i), {std::string(text_.substr(b, std::min<uint32_t>(i - b, 40)))});
    return Token{Tok::Error, false, b, i};
  }
  pos_ = i;
  return Token{Tok::Meta, false, b, i};
}

std::string unescape_string(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out += c;
      continue;
    }
    char e = raw[++i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 'x': {
        auto hex = [](char h) -> int {
          if (h >= '0' && h <= '9') return h - '0';
          if (h >= 'a' && h <= 'f') return h - 'a' + 10;
          if (h >= 'A' && h <= 'F') return h - 'A' + 10;
          return -1;
        };
        if (i + 2 < raw.size() + 0 && hex(raw[i + 1]) >= 0 && hex(raw[i + 2]) >= 0) {
          out += static_cast<char>(hex(raw[i + 1]) * 16 + hex(raw[i + 2]));
          i += 2;
        } else {
          out += "\\x";
        }
        break;
      }
      default:  // unknown escapes are kept verbatim, as TVM (which has none) would
        out += '\\';
        out += e;
    }
  }
  return out;
}

std::string escape_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    // A `\xNN` escape can put a byte into a string that is not valid UTF-8 on its own
    // (`"\x84"`); printed raw it would make the printout unreadable (E0002). Valid
    // multi-byte characters are kept as they are.
    if (static_cast<unsigned char>(c) >= 0x80) {
      char32_t cp;
      const size_t n = decode_utf8(s, i, &cp);
      if (n == 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
        out += buf;
      } else {
        out.append(s.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string_view token_description(Tok t) {
  switch (t) {
    case Tok::Eof: return "end of file";
    case Tok::Error: return "an invalid token";
    case Tok::Ident: return "an identifier";
    case Tok::Local: return "a local variable";
    case Tok::Graph: return "a graph variable";
    case Tok::Global: return "a global function";
    case Tok::Integer: return "an integer";
    case Tok::Float: return "a float";
    case Tok::String: return "a string";
    case Tok::Meta: return "a meta reference";
    case Tok::FileAttr: return "a file attribute";
    case Tok::Metadata: return "the metadata section";
    case Tok::LParen: return "`(`";
    case Tok::RParen: return "`)`";
    case Tok::LBrace: return "`{`";
    case Tok::RBrace: return "`}`";
    case Tok::LBracket: return "`[`";
    case Tok::RBracket: return "`]`";
    case Tok::Comma: return "`,`";
    case Tok::Semi: return "`;`";
    case Tok::Colon: return "`:`";
    case Tok::Dot: return "`.`";
    case Tok::Question: return "`?`";
    case Tok::Bang: return "`!`";
    case Tok::Eq: return "`=`";
    case Tok::EqEq: return "`==`";
    case Tok::NotEq: return "`!=`";
    case Tok::Lt: return "`<`";
    case Tok::Le: return "`<=`";
    case Tok::Gt: return "`>`";
    case Tok::Ge: return "`>=`";
    case Tok::Plus: return "`+`";
    case Tok::Minus: return "`-`";
    case Tok::Star: return "`*`";
    case Tok::Slash: return "`/`";
    case Tok::Arrow: return "`->`";
    case Tok::FatArrow: return "`=>`";
    case Tok::KwDef: return "`def`";
    case Tok::KwFn: return "`fn`";
    case Tok::KwLet: return "`let`";
    case Tok::KwIf: return "`if`";
    case Tok::KwElse: return "`else`";
    case Tok::KwType: return "`type`";
    case Tok::KwMatch: return "`match`";
    case Tok::KwMatchQ: return "`match?`";
    case Tok::KwExtern: return "`extern`";
    case Tok::KwFreeVar: return "`free_var`";
    case Tok::KwRef: return "`ref`";
    case Tok::KwRefRead: return "`ref_read`";
    case Tok::KwRefWrite: return "`ref_write`";
  }
  return "a token";
}

}  // namespace relay
