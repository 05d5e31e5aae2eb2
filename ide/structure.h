// The structure of a checked file: its outline (document symbols), foldable regions and
// the nested ranges a selection grows through. Byte ranges in the real file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ide/symbols.h"
#include "lang/types/database.h"

namespace relay::ide {

enum class OutlineKind { Type, Ctor, Function, Param };

struct OutlineSymbol {
  std::string name;    // `@f`, `%x`, `List`, `Cons`
  std::string detail;  // a type, or the constructor's fields as written
  OutlineKind kind;
  Range range;         // the whole definition
  Range selection;     // its name
  std::vector<OutlineSymbol> children;  // a type's constructors, a function's parameters
};

// Type definitions (with their constructors) and global functions (with their
// parameters), in source order.
std::vector<OutlineSymbol> document_outline(const FileCheck& check);

// Whether every character of `query` occurs in `name` in order, ignoring case (an empty
// query matches everything): `workspace/symbol`'s filter.
bool subsequence_match(std::string_view query, std::string_view name);

// `workspace/symbol` for one file: the types, constructors and functions whose name
// matches `query` (subsequence_match), in source order; a constructor names its type as
// its container.
struct WorkspaceSymbol {
  std::string name;
  OutlineKind kind;      // Type, Ctor or Function
  Range selection;
  std::string container;
};
std::vector<WorkspaceSymbol> workspace_symbols(const FileCheck& check, std::string_view query);

enum class FoldKind { Region, Comment };
struct Fold {
  uint32_t start_line = 0, end_line = 0;  // 0-based, inclusive
  FoldKind kind = FoldKind::Region;
};
// Function bodies, blocks, match bodies, type definitions, multi-line comments, runs of
// `//` or `///` lines, and the metadata section. A region that ends with a `}` on its own
// line stops on the line before, so the brace stays visible; folds are at least two
// lines; of several folds starting on one line only the largest is kept.
std::vector<Fold> folding_ranges(const FileCheck& check);

// The ranges a selection at `offset` expands through, innermost first: the token, every
// enclosing expression, the top-level definition, the whole file. Each contains the one
// before it.
std::vector<Range> selection_chain(const FileCheck& check, const SymbolIndex& index, uint32_t offset);

}  // namespace relay::ide
