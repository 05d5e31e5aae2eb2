// Turns written types (ast.h) into semantic types (type.h).
//
// Type parameters in scope and ADTs are looked up through a LowerScope; `_` becomes a
// fresh unknown from `fresh` (or an error type when no solver is involved). Dimension
// names stay symbols (`n`); arithmetic is normalised by Dim.
#pragma once

#include <functional>
#include <unordered_map>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"
#include "lang/types/adt.h"
#include "lang/types/type.h"

namespace relay {

struct LowerScope {
  std::unordered_map<const TypeParam*, const TyParamDecl*> params;
  std::function<const AdtInfo*(const TypeDef*)> adt;  // may be empty: ADTs lower to errors
  std::function<Ty()> fresh;                          // may be empty: `_` lowers to error
};

Ty lower_type(const Type* t, TypeArena& arena, const LowerScope& scope);

}  // namespace relay
