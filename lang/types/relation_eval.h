// Runs one operator's relation on known input types, without a solver: for the
// interpreter (output shapes of calls whose static type had `?` dims) and for tests.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "lang/types/relation.h"

namespace relay {

struct RelationOutcome {
  RelStatus status = RelStatus::Failed;
  Ty output = nullptr;         // the assigned output (a Hole when none was assigned)
  std::vector<Ty> inputs;      // inputs after the relation (forced ones filled in)
  std::vector<RelError> errors;
};

// `inputs[i]` may be a Hole (arena.hole(i)) to leave that input unknown. An op without
// a relation gives Failed with an error saying so.
RelationOutcome eval_relation(std::string_view op, std::span<const Ty> inputs,
                              const CallAttrs& attrs, TypeArena& arena);

}  // namespace relay
