#include "compiler/pipeline/compile_function.h"

#include "compiler/graph/passes.h"

namespace relay::compiler {

jit::CompileOutcome compile_function(const rt::LoadedProgram& program, const FuncDef& def, const jit::Signature& sig,
                                     ThreadPool* pool) {
  jit::CompileOutcome out;
  std::vector<ArgSpec> specs;
  for (const jit::ArgType& a : sig.args) specs.push_back({a.shape, a.dtype});
  try {
    BuildResult built =
        build_graph(def, program.types.find(&def), program.front.module->metadata.get(), specs);
    if (!built.ok()) {
      out.reason = built.reason;
      return out;
    }
    Graph g = optimize(*built.graph);
    FusionPlan plan = fuse(g);
    auto exe = std::make_unique<Executable>(std::move(g), std::move(plan), Jit::instance(), pool, &out.notes);
    out.notes.insert(out.notes.begin(),
                     std::to_string(exe->native_groups() + exe->epilogue_groups() + exe->reference_groups()) +
                         " fused groups: " + std::to_string(exe->native_groups()) + " native, " +
                         std::to_string(exe->epilogue_groups()) + " with a native epilogue, " +
                         std::to_string(exe->reference_groups()) + " on reference kernels");
    out.code = std::move(exe);
  } catch (const GraphError& e) {
    out.reason = e.what();
  } catch (const std::exception& e) {
    out.reason = std::string("compilation failed: ") + e.what();
  }
  return out;
}

jit::CompileFn compile_callback(const rt::LoadedProgram& program, ThreadPool* pool) {
  return [&program, pool](const FuncDef& def, const jit::Signature& sig) {
    return compile_function(program, def, sig, pool);
  };
}

}  // namespace relay::compiler
