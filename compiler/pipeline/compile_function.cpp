#include "compiler/pipeline/compile_function.h"

#include "compiler/graph/passes.h"
#include "compiler/pipeline/gpu_executable.h"
#include "compiler/pipeline/kernel_fusion.h"
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

std::vector<ArgSpec> specs_of(const jit::Signature& sig) {
  std::vector<ArgSpec> specs;
  for (const jit::ArgType& a : sig.args) specs.push_back({a.shape, a.dtype});
  return specs;
}

// A built graph through the passes, fusion and code generation.
void compile_graph(Graph built, ThreadPool* pool, const ExecutionOptions& run, jit::CompileOutcome& out) {
  Graph g = optimize(built);
  FusionPlan plan = fuse_for_kernels(g);
  if (run.gpu) {
    out.code = std::make_unique<GpuExecutable>(std::move(g), std::move(plan), run, &out.notes);
    return;
  }
  auto exe = std::make_unique<Executable>(std::move(g), std::move(plan), Jit::instance(), pool, &out.notes);
  if (run.profile) exe->profile_calls();
  out.notes.insert(out.notes.begin(),
                   std::to_string(exe->native_groups() + exe->epilogue_groups() + exe->fused_library_groups() +
                                  exe->library_alone_groups() + exe->reference_groups()) +
                       " fused groups: " + std::to_string(exe->native_groups()) + " native, " +
                       std::to_string(exe->epilogue_groups()) + " with a native epilogue, " +
                       std::to_string(exe->fused_library_groups()) + " with the epilogue inside a library call, " +
                       std::to_string(exe->library_alone_groups()) + " a library call alone, " +
                       std::to_string(exe->reference_groups()) + " on reference kernels");
  out.code = std::move(exe);
}

// A region with one output: its graph returns the value itself (no tuple group in the
// fusion plan and the report), and this wraps it in the one-field tuple the machine reads.
class OneOutput final : public rt::CompiledCall {
 public:
  explicit OneOutput(std::unique_ptr<rt::CompiledCall> inner) : inner_(std::move(inner)) {}
  rt::Value call(std::span<const rt::Value> args) override { return rt::make_tuple({inner_->call(args)}); }
  bool takes_next_call() override { return inner_->takes_next_call(); }
  std::vector<std::string> run_notes() const override { return inner_->run_notes(); }

 private:
  std::unique_ptr<rt::CompiledCall> inner_;
};

}  // namespace

jit::CompileOutcome compile_function(const ProgramTypes& program, const FuncDef& def, const jit::Signature& sig,
                                     ThreadPool* pool, const ExecutionOptions& run) {
  jit::CompileOutcome out;
  try {
    BuildResult built =
        build_graph(def, program.types ? program.types(&def) : nullptr, program.metadata, specs_of(sig));
    if (!built.ok()) return compile_scalar(program, def, sig, built.reason);
    compile_graph(std::move(*built.graph), pool, run, out);
  } catch (const GraphError& e) {
    out.reason = e.what();
  } catch (const std::exception& e) {
    out.reason = std::string("compilation failed: ") + e.what();
  }
  return out;
}

jit::CompileOutcome compile_region(const ProgramTypes& program, const rt::RegionInfo& region,
                                   const jit::Signature& sig, ThreadPool* pool, const ExecutionOptions& run) {
  jit::CompileOutcome out;
  try {
    const InferredTypes* types = program.types && region.enclosing ? program.types(region.enclosing) : nullptr;
    BuildResult built = build_region_graph(region, types, program.metadata, specs_of(sig));
    if (!built.ok()) {
      out.reason = "not a graph: " + built.reason;
      return out;
    }
    Graph& g = *built.graph;
    const bool one = region.outputs.size() == 1;
    if (one) g.output = g.nodes[g.output].inputs[0];  // the tuple is left dead: the passes drop it
    compile_graph(std::move(g), pool, run, out);
    if (one && out.code) out.code = std::make_unique<OneOutput>(std::move(out.code));
  } catch (const GraphError& e) {
    out.reason = e.what();
  } catch (const std::exception& e) {
    out.reason = std::string("compilation failed: ") + e.what();
  }
  return out;
}

std::string region_place(const ProgramTypes& program, const rt::RegionInfo& region) {
  if (!program.sources || !region.span.valid()) return {};
  const SourceFile& file = program.sources->get(region.span.file);
  const uint32_t first = file.lines.lookup(region.span.begin).line;
  const uint32_t last = file.lines.lookup(region.span.end > region.span.begin ? region.span.end - 1 : region.span.end).line;
  return first == last ? "line " + std::to_string(first) : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

JitRuntime::JitRuntime(ProgramTypes program, jit::TierOptions options, unsigned threads, ExecutionOptions run)
    : program_(std::move(program)),
      pool_(threads ? threads : default_threads()),
      run_(run),
      tier_(
          options,
          [this](const FuncDef& def, const jit::Signature& sig) { return compile_function(program_, def, sig, &pool_, run_); },
          [this](const rt::RegionInfo& region, const jit::Signature& sig) {
            return compile_region(program_, region, sig, &pool_, run_);
          },
          [this](const rt::RegionInfo& region) { return region_place(program_, region); }) {}

std::unique_ptr<JitRuntime> JitRuntime::for_session(std::function<const InferredTypes*(const FuncDef*)> types) {
  jit::TierOptions options;
  options.mode = jit::JitMode::Auto;
  options.threshold = 2;
  options.background = false;
  options.content_keys = true;
  return std::make_unique<JitRuntime>(ProgramTypes{std::move(types), nullptr}, options);
}

}  // namespace relay::compiler
