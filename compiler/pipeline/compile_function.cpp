#include "compiler/pipeline/compile_function.h"

#include "compiler/graph/passes.h"
#include "compiler/pipeline/scalar_call.h"

namespace relay::compiler {

ProgramTypes program_types(const rt::LoadedProgram& program) {
  const ModuleTypes* types = &program.types;
  return {[types](const FuncDef* d) { return types->find(d); }, program.front.module->metadata.get()};
}

namespace {

// A function that is not a graph (control flow, calls of globals, recursion) may still be
// a scalar function: native control flow (compiler/llvm/scalar_codegen.h). If it is not
// either, the reason names both refusals.
jit::CompileOutcome compile_scalar(const ProgramTypes& program, const FuncDef& def, const jit::Signature& sig,
                                   const std::string& not_a_graph) {
  jit::CompileOutcome out;
  ScalarFunction f = compile_scalar_function(def, program.types, Jit::instance());
  if (f.ok()) {
    bool fits = f.params.size() == sig.args.size();
    for (size_t i = 0; fits && i < sig.args.size(); ++i)
      fits = sig.args[i].shape.empty() && sig.args[i].dtype == f.params[i];
    if (!fits) f.reason = "the arguments are not its scalar parameters";
  }
  if (!f.ok()) {
    out.reason = not_a_graph + "; not a scalar function: " + f.reason;
    return out;
  }
  out.notes.push_back("scalar function: native control flow (" + std::to_string(f.functions) +
                      (f.functions == 1 ? " function" : " functions") + " in one module)");
  out.code = std::make_unique<ScalarCall>(std::move(f));
  return out;
}

}  // namespace

jit::CompileOutcome compile_function(const ProgramTypes& program, const FuncDef& def, const jit::Signature& sig,
                                     ThreadPool* pool) {
  jit::CompileOutcome out;
  std::vector<ArgSpec> specs;
  for (const jit::ArgType& a : sig.args) specs.push_back({a.shape, a.dtype});
  try {
    BuildResult built =
        build_graph(def, program.types ? program.types(&def) : nullptr, program.metadata, specs);
    if (!built.ok()) return compile_scalar(program, def, sig, built.reason);
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

JitRuntime::JitRuntime(ProgramTypes program, jit::TierOptions options, unsigned threads)
    : program_(std::move(program)),
      pool_(threads ? threads : default_threads()),
      tier_(options, [this](const FuncDef& def, const jit::Signature& sig) {
        return compile_function(program_, def, sig, &pool_);
      }) {}

std::unique_ptr<JitRuntime> JitRuntime::for_session(std::function<const InferredTypes*(const FuncDef*)> types) {
  jit::TierOptions options;
  options.mode = jit::JitMode::Auto;
  options.threshold = 2;
  options.background = false;
  return std::make_unique<JitRuntime>(ProgramTypes{std::move(types), nullptr}, options);
}

}  // namespace relay::compiler
