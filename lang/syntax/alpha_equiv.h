// Structural equality of syntax trees up to renaming of bound variables.
//
// Two modules are alpha-equal when their definitions (in order), types, attributes and
// expressions have the same structure and every variable reference refers to binders
// at corresponding positions. Ignored: spans, comments, parenthesis/brace flags, whether
// a literal had a suffix, how a dtype was spelled (`float` vs `float32`) and `{ e }`
// blocks that bind nothing. References that were not resolved (no `decl`) and free
// variables are compared by name.
#pragma once

#include <string>

#include "lang/syntax/ast.h"

namespace relay {

struct AlphaEqualOptions {
  // Also require bound variables to have the same names (the printer keeps names, so
  // round-trip tests use this).
  bool compare_var_names = false;
  // Treat `%a + %b`, `add(%a, %b)` and `-%x`, `negative(%x)` as different.
  bool compare_call_syntax = true;
};

// True when `a` and `b` are alpha-equal; otherwise `why` (when given) describes the
// first difference, e.g. "def @main: body: binding 2: value: argument 1: 1f vs 2f".
bool alpha_equal(const Module& a, const Module& b, std::string* why = nullptr);
bool alpha_equal(const Module& a, const Module& b, const AlphaEqualOptions& options,
                 std::string* why = nullptr);

// The same for single expressions and types (free variables compare by name).
bool alpha_equal(const Expr* a, const Expr* b, const AlphaEqualOptions& options = {},
                 std::string* why = nullptr);
bool alpha_equal(const Type* a, const Type* b, std::string* why = nullptr);

}  // namespace relay
