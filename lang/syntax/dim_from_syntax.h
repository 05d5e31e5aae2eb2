// Converts a parsed shape dimension (DimExpr) into the normalised Dim the type checker
// works with.
#pragma once

#include <optional>

#include "lang/base/dim.h"
#include "lang/syntax/ast.h"

namespace relay {

// nullopt for what has no static meaning here: Meta and Error dimensions, and `/` whose
// right side is not a positive constant (Dim only divides by constants). An overflowing
// result is Any, as for all Dim arithmetic.
std::optional<Dim> dim_from_syntax(const DimExpr& d);

}  // namespace relay
