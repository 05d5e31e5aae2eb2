// Name resolution: binds every reference in a parsed module to its declaration.
//
// Locals use lexical scoping with shadowing (parameters, `let`, graph bindings, `{ }`
// blocks, `if` branches, match clauses); globals, types and constructors are visible
// in the whole file, in any order; identifiers in expression position are constructors
// when one of that name exists and operators otherwise. Undefined names get a
// diagnostic with a "did you mean" suggestion and a machine-applicable fix.
#pragma once

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"

namespace relay {

struct ResolveOptions {
  // Modules whose global definitions are visible too (the prelude when imported).
  std::vector<const Module*> imports;
  // Report unused `let` variables (W0002).
  bool warn_unused = true;
};

void resolve_names(Module& module, DiagnosticBag& diags, const ResolveOptions& options = {});

}  // namespace relay
