// A content key for a global definition: what its compiled code depends on, so that an
// interactive session (the REPL, the notebook kernel), whose module is re-checked after
// every input and so hands the tier new FuncDef objects for unchanged definitions, finds
// the code it already compiled instead of counting and compiling again.
//
// The key hashes the definition's printed text (parameters with their types, the body
// with its attributes) and the printed text of every global it reaches through calls,
// transitively: native code for a scalar function inlines or calls its callees' bodies,
// so editing a callee must change the caller's key. Equal keys mean the same code.
#pragma once

#include <cstdint>

#include "lang/syntax/ast.h"

namespace relay::jit {

uint64_t definition_key(const FuncDef& def);

}  // namespace relay::jit
