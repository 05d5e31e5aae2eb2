// Hover: what to show for the position under the cursor, as markdown plus the source range
// it describes (real-file offsets). Shared by the language server and, later, the REPL's
// and the notebook kernel's inspection.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lang/types/database.h"

namespace relay::ide {

struct HoverInfo {
  std::string markdown;
  uint32_t begin = 0, end = 0;
};

// The type of the innermost expression or binder at `offset`; an operator's signature,
// rule and attribute schema; a global's type and doc comment; a constructor's type and
// ADT. nullopt when there is nothing to show.
std::optional<HoverInfo> hover_at(const FileCheck& check, uint32_t offset);

}  // namespace relay::ide
