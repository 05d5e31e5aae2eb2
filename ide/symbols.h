// The symbol index of one checked file: every binder (parameters, let/graph/pattern
// variables, free variables, globals, type names, constructors, type parameters) with its
// definition and every reference to it in the file.
//
// Offsets are in the real file (chunk spans moved by their chunk's offset). A symbol
// defined in the prelude (files with `#[import = "prelude"]`) has `in_prelude` set and
// its `def` in the prelude's text (prelude_source()); only its references are in the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

// A half-open byte range [begin, end).
struct Range {
  uint32_t begin = 0, end = 0;
  bool operator==(const Range&) const = default;
  bool operator<(const Range& o) const { return begin != o.begin ? begin < o.begin : end < o.end; }
};

enum class SymbolKind { Local, Global, Type, Ctor, TypeParam };

struct Symbol {
  SymbolKind kind;
  std::string name;         // without the sigil: "x", "0", "main", "List"
  const void* key = nullptr;  // the binder: VarDecl*, FuncDef*, TypeDef*, CtorDef*, TypeParam*
  bool in_prelude = false;
  Range def;                // the name at the definition (with its sigil, as written)
  std::vector<Range> refs;  // the uses in the file, in order
  // Locals and type parameters: the range of the top-level definition they belong to
  // (their scope, for rename collision checks).
  Range owner;
  bool graph = false;       // a graph binding `%0 = ...` (numbered, not renameable)
};

struct Occurrence {
  Range range;
  size_t symbol;
  bool is_def;
};

struct SymbolIndex {
  std::vector<Symbol> symbols;
  std::vector<Occurrence> occurrences;  // sorted by range
  // The occurrence whose range holds `offset` (an offset at a token's end counts, so a
  // cursor right after `%x` finds it); nullptr when there is none.
  const Occurrence* at(uint32_t offset) const;
};

SymbolIndex build_symbol_index(const FileCheck& check);

// Whether `name` may be written after `%` or `@`, or as a type or constructor name: an
// identifier made of letters, digits and `_`, not starting with a digit.
bool is_identifier(std::string_view name);

}  // namespace relay::ide
