// The compile pipeline for one global at one argument signature: graph (build_graph,
// optimize), fusion, lowering and LLVM code generation of the groups it can, reference
// kernels for the rest. `compile_callback` packages it for tiering (compiler/tier).
#pragma once

#include "compiler/pipeline/executable.h"
#include "compiler/tier/tiered_compiler.h"
#include "interpreter/eval/run.h"

namespace relay::compiler {

// Compiles `def` of `program` for `sig`; what stays interpreted says why.
jit::CompileOutcome compile_function(const rt::LoadedProgram& program, const FuncDef& def, const jit::Signature& sig,
                                     ThreadPool* pool);

// The tiering callback over `program` (which must outlive the tier).
jit::CompileFn compile_callback(const rt::LoadedProgram& program, ThreadPool* pool);

}  // namespace relay::compiler
