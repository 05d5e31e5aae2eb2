// Quick fixes: the machine-applicable helps of a check's diagnostics (did-you-mean
// names, missing match clauses, an annotation for an unsolved type), as edits in the
// real file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

struct FixEdit {
  uint32_t begin, end;  // bytes of the real file to replace
  std::string text;
};

struct Fix {
  size_t diagnostic;  // index into FileCheck::diagnostics
  std::string title;  // the help's message
  std::vector<FixEdit> edits;
  bool preferred;     // the first fix of its diagnostic
};

// The fixes of the diagnostics whose primary span meets [begin, end]. A help with an
// edit outside the file (the prelude) is not offered.
std::vector<Fix> quick_fixes(const FileCheck& check, uint32_t begin, uint32_t end);

}  // namespace relay::ide
