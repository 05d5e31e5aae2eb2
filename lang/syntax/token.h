// Tokens of the Relay text format.
#pragma once

#include <cstdint>
#include <string_view>

#include "lang/base/source.h"

namespace relay {

enum class Tok : uint8_t {
  Eof,
  Error,       // bytes that form no token; already reported by the lexer
  Ident,       // foo, nn, conv2d, Tensor, float32, True, _
  Local,       // %x  (text includes '%')
  Graph,       // %0
  Global,      // @f
  Integer,     // 42, 42i64
  Float,       // 1.5f, 1e-5f, 1.5 (extension), inff, nanf
  String,      // "..."
  Meta,        // meta[relay.Constant][0]
  FileAttr,    // #[version = "0.0.5"], #[import = "prelude"]
  Metadata,    // #[metadata] and everything after it
  LParen, RParen, LBrace, RBrace, LBracket, RBracket,
  Comma, Semi, Colon, Dot, Question, Bang,
  Eq,          // =
  EqEq, NotEq, Lt, Le, Gt, Ge,
  Plus, Minus, Star, Slash,
  Arrow,       // ->
  FatArrow,    // =>
  KwDef, KwFn, KwLet, KwIf, KwElse, KwType, KwMatch, KwMatchQ, KwExtern, KwFreeVar,
  KwRef, KwRefRead, KwRefWrite,
};

struct Token {
  Tok kind = Tok::Eof;
  bool space_before = false;  // whitespace or a comment precedes it
  uint32_t begin = 0;
  uint32_t end = 0;
  // It directly follows an unterminated string or comment: errors here are cascades.
  bool after_unterminated = false;
};

// A human name for error messages: "`)`", "an identifier", "end of file".
std::string_view token_description(Tok t);

}  // namespace relay
