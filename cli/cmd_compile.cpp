// `relay compile FILE [--entry NAME] [--shape NAME=DxDx...]... --emit=STAGE`: builds the
// entry's graph at its parameters' shapes (annotations, or --shape for `?`/symbolic
// dims) and prints a stage of the compile path: `graph` (as built), `optimized` (after
// the graph passes), `fused` (the fusion groups); `loops`, `llvm` and `asm` print each
// group's native kernel at that stage; `memory` the memory plan (compiler/pipeline/memory_plan.h). Exit 1 when the file has errors or the
// function is not a graph (the reason and where).
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "cli/commands.h"
#include "cli/option_value.h"
#include "cli/diagnostic_output.h"
#include "cli/load_entry.h"
#include "compiler/graph/fuse.h"
#include "compiler/graph/passes.h"
#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/gpu_groups.h"
#include "compiler/pipeline/kernel_fusion.h"
#include "compiler/graph/print.h"
#include "interpreter/eval/run.h"

namespace relay::cli {

namespace {

void compile_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay compile FILE [--entry NAME] [--shape NAME=DIMS]... [--target=T] [--emit=STAGE]\n"
               "\n"
               "Compiles @main (or NAME) of FILE for its parameters' shapes and prints a stage.\n"
               "  --shape NAME=DIMS  a parameter's shape, e.g. data=1x3x224x224 (needed for `?` dims)\n"
               "  --emit=STAGE       graph | optimized | fused (default) | loops | llvm | asm | ptx | memory\n"
               "  loops, llvm, asm: each fused group's native kernel (loop IR, optimised LLVM IR, host\n"
               "  assembly), or why it runs on reference kernels\n"
               "  memory: the memory plan (arena slots, in-place pairs, peak bytes)\n"
               "  --target=T         cpu (default) or cuda[:sm_XX] (sm_80 unless named): loops, llvm and\n"
               "                     ptx print the GPU kernels (PTX from LLVM's NVPTX target; --emit=ptx\n"
               "                     implies cuda); no GPU or CUDA toolkit is needed\n"
               "Exit status: 0 ok, 1 errors or not a graph, 2 usage error.\n");
}

// `1x3x224x224` (or `` for a scalar); false when malformed.
bool parse_dims(const std::string& s, std::vector<int64_t>& out) {
  size_t i = 0;
  while (i < s.size()) {
    char* end = nullptr;
    long long v = std::strtoll(s.c_str() + i, &end, 10);
    if (end == s.c_str() + i || v < 0) return false;
    out.push_back(v);
    i = static_cast<size_t>(end - s.c_str());
    if (i < s.size()) {
      if (s[i] != 'x' && s[i] != ',') return false;
      ++i;
      if (i == s.size()) return false;
    }
  }
  return true;
}

}  // namespace

int cmd_compile(const Args& args) {
  OutputOptions out_opts;
  std::string file, entry = "main", emit = "fused", target = "cpu";
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* opt) { return option_value(args, i, opt); };
    if (a == "--help" || a == "-h") {
      compile_usage(stdout);
      return kExitOk;
    } else if (a == "--entry") {
      auto v = value("--entry");
      if (!v) return kExitUsage;
      entry = *v;
      if (!entry.empty() && entry[0] == '@') entry.erase(0, 1);
    } else if (a == "--emit" || a.starts_with("--emit=")) {
      if (a == "--emit") {
        auto v = value("--emit");
        if (!v) return kExitUsage;
        emit = *v;
      } else {
        emit = a.substr(7);
      }
    } else if (a == "--target" || a.starts_with("--target=")) {
      if (a == "--target") {
        auto v = value("--target");
        if (!v) return kExitUsage;
        target = *v;
      } else {
        target = a.substr(9);
      }
    } else if (a == "--shape") {
      auto v = value("--shape");
      if (!v) return kExitUsage;
      size_t eq = v->find('=');
      std::vector<int64_t> dims;
      if (eq == std::string::npos || eq == 0 || !parse_dims(v->substr(eq + 1), dims)) {
        std::fprintf(stderr, "error: `--shape` takes NAME=DIMS such as data=1x3x224x224, got `%s`\n", v->c_str());
        return kExitUsage;
      }
      std::string name = v->substr(0, eq);
      if (name[0] == '%') name.erase(0, 1);
      shapes.emplace_back(name, std::move(dims));
    } else {
      if (!take_argument_of_one_file(args, i, out_opts, compile_usage, "compile", file)) return kExitUsage;
    }
  }
  if (file.empty()) {
    compile_usage(stderr);
    return kExitUsage;
  }
  if (emit != "graph" && emit != "optimized" && emit != "fused" && emit != "loops" && emit != "llvm" &&
      emit != "asm" && emit != "memory" && emit != "ptx") {
    std::fprintf(stderr, "error: unknown stage `%s` (graph, optimized, fused, loops, llvm, asm, memory, ptx)\n",
                 emit.c_str());
    return kExitUsage;
  }
  std::optional<compiler::gpu::PtxTarget> gpu_target;
  if (target != "cpu") {
    gpu_target = compiler::gpu::parse_ptx_target(target);
    if (!gpu_target) {
      std::fprintf(stderr,
                   "error: unknown target `%s` (cpu, cuda, cuda:sm_80, cuda:sm_90, ...: sm_70 to the newest this "
                   "LLVM knows, sm_90 for LLVM 19; sm_90's PTX runs on newer GPUs)\n",
                   target.c_str());
      return kExitUsage;
    }
  } else if (emit == "ptx") {
    gpu_target = compiler::gpu::PtxTarget{};
  }
  if (gpu_target && emit != "loops" && emit != "llvm" && emit != "ptx" && emit != "asm" && emit != "graph" &&
      emit != "optimized" && emit != "fused") {
    std::fprintf(stderr, "error: `--emit=%s` is for the CPU; with --target=cuda: loops, llvm, ptx\n", emit.c_str());
    return kExitUsage;
  }

  DiagnosticPrinter printer(out_opts);
  SourceManager sources;
  auto loaded = load_entry(file, entry, nullptr, printer, sources);
  if (!loaded) return kExitErrors;
  std::string error;
  const InferredTypes* types = loaded->types.find(loaded->entry);
  auto specs = compiler::arg_specs_from_types(*loaded->entry, types, shapes, error);
  if (!specs) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return kExitUsage;
  }
  compiler::BuildResult built =
      compiler::build_graph(*loaded->entry, types, loaded->front.module->metadata.get(), *specs);
  if (!built.ok()) {
    const SourceFile& src = sources.get(loaded->file);
    LineCol at = src.lines.lookup(built.where.begin);
    std::fprintf(stderr, "error: @%s is not a graph: %s\n  --> %s:%u:%u\n", entry.c_str(), built.reason.c_str(),
                 src.name.c_str(), at.line, at.column);
    return kExitErrors;
  }
  try {
    if (emit == "graph") {
      std::fputs(compiler::print_graph(*built.graph).c_str(), stdout);
      return kExitOk;
    }
    compiler::Graph g = compiler::optimize(*built.graph);
    if (emit == "optimized") std::fputs(compiler::print_graph(g).c_str(), stdout);
    else if (emit == "fused") std::fputs(compiler::print_fused(g, compiler::fuse_for_kernels(g)).c_str(), stdout);
    else if (emit == "memory") {
      const compiler::FusionPlan plan = compiler::fuse_for_kernels(g);
      const std::vector<compiler::PlanStep> steps = compiler::plan_steps(g, plan);
      std::fputs(compiler::print_memory_plan(g, compiler::plan_memory(g, steps)).c_str(), stdout);
    }
    else if (gpu_target)
      std::fputs(compiler::emit_gpu_groups(g, compiler::fuse_for_kernels(g), emit == "asm" ? "ptx" : emit, *gpu_target).c_str(),
                 stdout);
    else std::fputs(compiler::emit_groups(g, compiler::fuse_for_kernels(g), emit, compiler::Jit::instance()).c_str(), stdout);
  } catch (const compiler::GraphError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitErrors;
  } catch (const std::runtime_error& e) {  // the GPU back end: no libdevice, no NVPTX target
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitErrors;
  }
  return kExitOk;
}

}  // namespace relay::cli
