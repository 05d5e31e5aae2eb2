// The Relay lexer: a pull lexer over one source file.
//
// It never fails: malformed input becomes Tok::Error tokens (or best-effort tokens)
// plus a diagnostic. Comments are not returned as tokens; they are appended to
// `comments()` so that the formatter can put them back.
//
// Differences from TVM's tokenizer (all accept more, none reject TVM output):
//   * numbers lex as digits[.digits][e[+-]digits][suffix], so `1+2` is three tokens and
//     `1.5` (no suffix) is a float32; a number right after `.` is digits only, so
//     `%t.0.1` is two projections;
//   * `-` is always its own token; the parser folds `-` + literal into a negative
//     literal and otherwise reads unary minus;
//   * `/` continues an identifier only when an identifier character follows, so
//     `%x/%y` divides while `%conv1/weight` is still one name;
//   * local and global names may contain `.name` segments (`%fc1.weight`), as TVM
//     prints names of imported models;
//   * strings process the escapes TVM's printer writes (\" \\ \n \t \r \xHH).
#pragma once

#include <string>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"
#include "lang/syntax/token.h"

namespace relay {

class Lexer {
 public:
  Lexer(const SourceFile& file, DiagnosticBag& diags);
  Token next();
  const std::vector<Comment>& comments() const { return comments_; }
  std::vector<Comment> take_comments() { return std::move(comments_); }
  const SourceFile& file() const { return file_; }

 private:
  Token lex_number(uint32_t start);
  Token lex_string(uint32_t start);
  Token lex_word(uint32_t start);
  Token lex_sigil(uint32_t start, Tok name_kind);
  Token lex_file_attribute(uint32_t start);
  Token lex_meta(uint32_t start);
  Token lex_invalid(uint32_t start);
  bool skip_trivia();  // returns true if anything was skipped
  void skip_block_comment(uint32_t start);
  // Reports invalid UTF-8 at [b, e), extending the previous report when adjacent.
  void report_invalid_utf8(uint32_t b, uint32_t e);
  Span span(uint32_t b, uint32_t e) const { return Span{file_.id, b, e}; }

  const SourceFile& file_;
  std::string_view text_;
  DiagnosticBag& diags_;
  uint32_t pos_ = 0;
  Tok prev_ = Tok::Eof;
  bool unterminated_ = false;  // the last string or comment was unterminated
  std::vector<Comment> comments_;
};

// Helpers shared with the parser and printer.
bool is_ident_start(char c);
bool is_ident_char(char c);
// True when `name` can be written as %name / @name / a bare identifier and read back.
bool is_plain_name(std::string_view name);
// Unescapes a string token's text (between the quotes).
std::string unescape_string(std::string_view raw);
std::string escape_string(std::string_view s);

}  // namespace relay
