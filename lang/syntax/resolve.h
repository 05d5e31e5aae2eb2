// Name resolution: binds every reference in a parsed module to its declaration.
//
// Locals use lexical scoping with shadowing (parameters, `let`, graph bindings, `{ }`
// blocks, `if` branches, match clauses); globals, types and constructors are visible
// in the whole file, in any order; identifiers in expression position are constructors
// when one of that name exists and operators otherwise. Undefined names get a
// diagnostic with a "did you mean" suggestion and a machine-applicable fix.
#pragma once

#include <string_view>
#include <unordered_map>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"

namespace relay {

// Name tables over a set of modules, built once and shared by many resolutions: the
// checking database resolves each chunk of a file against all the others, and scanning
// every import for every name made that quadratic in the file's size.
struct ImportIndex {
  std::unordered_map<std::string_view, FuncDef*> globals;
  std::unordered_map<std::string_view, TypeDef*> types;
  std::unordered_map<std::string_view, CtorDef*> ctors;
  // Adds `m`'s definitions; a name already present keeps its first definition (the
  // order of `ResolveOptions::imports`).
  void add(const Module& m);
};

struct ResolveOptions {
  // Modules whose global definitions are visible too (the prelude when imported).
  std::vector<const Module*> imports;
  // The names of `imports`, when the caller shares one index among many resolutions;
  // otherwise the resolver builds its own. `imports` still give did-you-mean candidates.
  const ImportIndex* index = nullptr;
  // Report unused `let` variables (W0002).
  bool warn_unused = true;
};

void resolve_names(Module& module, DiagnosticBag& diags, const ResolveOptions& options = {});

}  // namespace relay
