// Semantic classification of a checked file, for editors' highlighting.
//
// Names are classified from the resolved IR (a `%x` reference is a parameter or a
// variable according to its binder; `nn.conv2d` is an operator; `Cons` a constructor;
// attribute keys are properties); literals, comments and keywords come from the lexer.
//
// The legend (token types, in this order; the LSP layer declares it):
//   parameter  function parameters (binders and references)
//   variable   let, graph (`%0`) and pattern variables
//   function   global functions (`@f`)
//   operator   Relay operators (`nn.conv2d`, and infix `+` that stands for `add`)
//   enumMember ADT constructors
//   type       `Tensor`, dtypes, ADT names, type parameters
//   property   attribute keys (`units=`)
//   number, string, comment, keyword
//   macro      file attributes (`#[version = ...]`) and `meta[...]` references
// Modifiers (bit flags): declaration (a binding site), defaultLibrary (an operator),
// deprecated (an operator that is not supported yet).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

enum class TokenType : uint8_t {
  Parameter, Variable, Function, Operator, EnumMember, Type, Property, Number, String, Comment, Keyword, Macro
};
enum TokenModifier : uint32_t { kModDeclaration = 1, kModDefaultLibrary = 2, kModDeprecated = 4 };

std::span<const std::string_view> token_type_names();
std::span<const std::string_view> token_modifier_names();

struct SemanticToken {
  uint32_t begin, end;  // bytes in the real file, never across a line end
  TokenType type;
  uint32_t modifiers = 0;
};

// Sorted by position, not overlapping.
std::vector<SemanticToken> semantic_tokens(const FileCheck& check);

}  // namespace relay::ide
