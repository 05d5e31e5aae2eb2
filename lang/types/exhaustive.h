// Match coverage: which values no clause matches, and which clauses can never match.
//
// The usefulness algorithm over pattern matrices (Maranget, "Warnings for pattern
// matching"): a pattern row is useful with respect to earlier rows if some value matches
// it and none of them. The missing cases of a `match` are witnesses of the usefulness of
// `_` after all clauses; a clause that is not useful after the clauses before it is
// unreachable. Constructor signatures come from the ADT definitions (adt.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lang/syntax/ast.h"
#include "lang/types/env.h"

namespace relay {

struct CoverageResult {
  std::vector<std::string> missing;        // patterns not covered, e.g. "Cons(_, Nil)"; at most a few
  bool more_missing = false;               // there are more than listed
  std::vector<size_t> unreachable_clauses;  // indices of clauses no value reaches
};

CoverageResult check_coverage(std::span<const Clause> clauses, CheckEnv& env);

}  // namespace relay
