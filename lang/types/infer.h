// Type inference of one global definition (reference §2.2–§2.5): constraints from a walk
// of the function, solved with operator relations to a fixpoint, then written back as a
// side table from every expression and binder to its type.
//
// Each definition is inferred on its own, against the *declared* signatures of the
// others (env.h), so results can be cached per definition (lang/types/database.h).
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"
#include "lang/types/env.h"
#include "lang/types/type.h"

namespace relay {

struct InferredTypes {
  std::shared_ptr<TypeArena> arena;  // owns every type below
  // The definition's function type (for a lone expression: the expression's type).
  Ty type = nullptr;
  std::unordered_map<const Expr*, Ty> exprs;     // every expression
  std::unordered_map<const VarDecl*, Ty> vars;   // every binder
  std::vector<Diagnostic> diagnostics;
  size_t relations_run = 0;
  // Arenas of the signatures and ADTs these types point into.
  std::vector<std::shared_ptr<const void>> keep_alive;

  Ty type_of(const Expr* e) const {
    auto it = exprs.find(e);
    return it == exprs.end() ? nullptr : it->second;
  }
  Ty type_of(const VarDecl* v) const {
    auto it = vars.find(v);
    return it == vars.end() ? nullptr : it->second;
  }
};

InferredTypes infer_definition(const FuncDef& def, CheckEnv& env);
// A lone expression (REPL input, `parse_expression`).
InferredTypes infer_expression(const Expr& expr, CheckEnv& env);

}  // namespace relay
