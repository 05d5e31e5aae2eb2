// The binders visible at an offset of a definition: parameters of the enclosing
// functions, `let`/graph bindings that end before the offset in the enclosing blocks,
// pattern variables of the enclosing match clauses. Inner binders come last, so a
// shadowing binder follows the one it hides.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "lang/syntax/ast.h"

namespace relay::ide {

// `rel` is an offset in the definition's chunk. `open_end` lets the search enter the
// last child of a node the cursor is past (error recovery cut the tree before the
// cursor, as while typing an unfinished line). `chunk_text` is the text the offsets
// index (the real file from the chunk's start): a binding that does not end with its `;`
// was cut short by a syntax error and is still being typed, so it binds nothing yet.
std::vector<const VarDecl*> binders_in_scope(const FuncDef& def, std::string_view chunk_text, uint32_t rel,
                                             bool open_end);

}  // namespace relay::ide
