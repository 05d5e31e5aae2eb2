// Inlay hints: the inferred type after every unannotated binder: `let` and graph
// bindings (`%0: Tensor[(1, 64, 56, 56), float32] = ...`) and parameters. Annotated
// binders are skipped (the type is already written there).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

struct InlayHint {
  uint32_t offset;    // right after the binder's name, in the real file
  std::string label;  // `: TYPE`
};

// The hints whose offset lies in [begin, end], in source order.
std::vector<InlayHint> inlay_hints(const FileCheck& check, uint32_t begin, uint32_t end);

}  // namespace relay::ide
