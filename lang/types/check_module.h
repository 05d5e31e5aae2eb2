// Type-checks every definition of a resolved module (the non-incremental path used by
// `relay check`; the checking database, database.h, caches the same steps).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"
#include "lang/types/env.h"
#include "lang/types/infer.h"

namespace relay {

struct ModuleTypes {
  std::unique_ptr<ModuleEnv> env;
  std::vector<std::pair<const FuncDef*, InferredTypes>> defs;  // source order
  std::unique_ptr<InferredTypes> expr;                         // a lone expression's

  const InferredTypes* find(const FuncDef* def) const;
};

// Diagnostics of every definition are appended to `diags`.
ModuleTypes check_module(const Module& module, const Module* prelude, DiagnosticBag& diags);

// Whether an error was already reported inside `span` whose type errors would be mostly
// echoes of it (a syntax error, an unknown type), so they are not reported: the rule of
// check_module and of the checking database. A name error in an expression (unknown
// local, global, operator or constructor) does not count: inference gives the name the
// error type, which absorbs every mismatch involving it silently, so the definition's
// other type errors are real and shown while the name is still being typed.
bool has_error_within(std::span<const Diagnostic> diags, Span span);

// `@name: TYPE` per global function in source order, as TVM prints types: the contract of
// `relay check --emit=types` (reference corpus *.types.txt).
std::string format_global_types(const ModuleTypes& types);

}  // namespace relay
