// The compile pipeline for one global at one argument signature: graph (build_graph,
// optimize), fusion, lowering and LLVM code generation of the groups it can, reference
// kernels for the rest; `JitRuntime` puts it behind tiering (compiler/tier) for a front end.
#pragma once

#include <functional>
#include <memory>

#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/execution_options.h"
#include "compiler/tier/tiered_compiler.h"
#include "interpreter/eval/run.h"

namespace relay::compiler {

// Where a function's checked types and its module's constants come from: a file's
// (rt::LoadedProgram) or a REPL session's growing module.
struct ProgramTypes {
  std::function<const InferredTypes*(const FuncDef*)> types;
  const Metadata* metadata = nullptr;
  const SourceManager* sources = nullptr;  // names regions by lines in the report (may be null)
};
ProgramTypes program_types(const rt::LoadedProgram& program);

// Compiles `def` for `sig`; what stays interpreted says why. With `run.gpu`, a graph's
// groups run on that GPU (gpu_executable.h) instead of the CPU's native code.
jit::CompileOutcome compile_function(const ProgramTypes& program, const FuncDef& def, const jit::Signature& sig,
                                     ThreadPool* pool, const ExecutionOptions& run = {});
inline jit::CompileOutcome compile_function(const rt::LoadedProgram& program, const FuncDef& def,
                                            const jit::Signature& sig, ThreadPool* pool) {
  return compile_function(program_types(program), def, sig, pool);
}

// Compiles a tensor region of an interpreted function (mixed mode) for `sig`, the shapes
// and dtypes of its inputs: its graph (build_region_graph) through the same passes,
// fusion and code generation as a function's; the result is a tuple of its outputs.
jit::CompileOutcome compile_region(const ProgramTypes& program, const rt::RegionInfo& region,
                                   const jit::Signature& sig, ThreadPool* pool, const ExecutionOptions& run = {});

// `lines 5-9` for a region when `program` has the sources, else empty.
std::string region_place(const ProgramTypes& program, const rt::RegionInfo& region);

// The JIT of one front end: the thread pool and the tiering over the pipeline.
class JitRuntime {
 public:
  // `run`: how compiled graphs run (on its GPU when it names one: relay run --device=cuda);
  // its GPU and tuner must outlive the runtime.
  JitRuntime(ProgramTypes program, jit::TierOptions options, unsigned threads = 0, ExecutionOptions run = {});
  // The JIT of an interactive session (the REPL, the notebook kernel): functions compile at
  // their second call with the same shapes, on the calling thread — the session's module
  // changes between inputs, so nothing compiles behind its back.
  static std::unique_ptr<JitRuntime> for_session(std::function<const InferredTypes*(const FuncDef*)> types);
  jit::TieredCompiler& tier() { return tier_; }
  ThreadPool& pool() { return pool_; }

 private:
  ProgramTypes program_;
  ThreadPool pool_;
  ExecutionOptions run_;
  jit::TieredCompiler tier_;
};

}  // namespace relay::compiler
