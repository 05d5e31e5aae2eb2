// Go-to-definition, type definition, references, highlights and rename over a file's
// symbol index (symbols.h). Results are byte ranges in the real file; a definition in
// the prelude is a range in the prelude's text (prelude_source()) with `in_prelude` set.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ide/symbols.h"
#include "lang/types/database.h"

namespace relay::ide {

struct Location {
  bool in_prelude = false;
  Range range;
  bool operator==(const Location&) const = default;
};

// The definition of the symbol at `offset`.
std::optional<Location> definition_at(const SymbolIndex& index, uint32_t offset);

// The type definition of what is at `offset`: for an expression or binder whose type is
// an ADT, that ADT's definition; for a constructor, its type; for a type name, itself.
std::optional<Location> type_definition_at(const FileCheck& check, const SymbolIndex& index, uint32_t offset);

// Every use of the symbol at `offset`, with its definition first when asked for.
std::vector<Location> references_at(const SymbolIndex& index, uint32_t offset, bool include_declaration);

struct Highlight {
  Range range;
  bool write = false;  // the definition (a binding writes the name); uses read it
};
std::vector<Highlight> highlights_at(const SymbolIndex& index, uint32_t offset);

// Rename. The ranges cover whole tokens with their sigil (`%x`, `@f`), and the new text
// replaces each of them. The new name may be typed with or without the sigil: for a local
// `%y` or `y`, for a global `@g` or `g`; a type or constructor name has no sigil and
// starts with an uppercase letter. Refusals carry a message saying why.
struct RenameResult {
  std::string error;           // non-empty: refused
  Range range;                 // prepare: the token under the cursor
  std::string placeholder;     // prepare: its current text
  std::string new_text;        // rename: what each range becomes
  std::vector<Range> edits;    // rename: definition and every reference, in order
};
RenameResult prepare_rename(const SymbolIndex& index, uint32_t offset);
RenameResult rename(const FileCheck& check, const SymbolIndex& index, uint32_t offset, std::string_view new_name);

}  // namespace relay::ide
