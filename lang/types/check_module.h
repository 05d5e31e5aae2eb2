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

// Which of a definition's type errors are echoes of errors reported before inference,
// and so not shown: the rule of check_module and of the checking database.
// - A name error in an expression (unknown local, global, operator or constructor) hides
//   nothing: inference gives the name the error type, which absorbs every mismatch
//   involving it silently, so the other type errors are real and shown while the name is
//   still being typed.
// - A syntax (or lexical) error hides only the type errors with a label that touches one
//   of its labels: the parser turns the broken piece into an error node, which has the
//   error type (a binding whose value is broken binds its variable to the error type, so
//   its uses are not reported again), and the other bindings of the function are
//   checked as usual. A type error over the broken text may come from how the parser
//   recovered, so it is not trusted.
// - Any other error inside the definition (an unknown type, a duplicate parameter, ...)
//   hides all of its type errors: its signature is not what was meant.
class EarlierErrors {
 public:
  explicit EarlierErrors(Span definition) : def_(definition) {}
  // Takes note of the errors among `diags` that lie inside the definition.
  void add(std::span<const Diagnostic> diags);
  bool hides(const Diagnostic& type_error) const;

 private:
  Span def_;
  bool hide_all_ = false;
  std::vector<Span> broken_;  // the label spans of syntax errors
};

// `@name: TYPE` per global function in source order, as TVM prints types: the contract of
// `relay check --emit=types` (reference corpus *.types.txt).
std::string format_global_types(const ModuleTypes& types);

}  // namespace relay
