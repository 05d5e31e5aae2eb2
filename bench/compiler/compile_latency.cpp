// Compile latency of the compile path on a whole model (default ResNet-18), measured three
// ways in one run:
//  * per fused group: each group's native kernel compiled alone (Jit::compile: one LLVM
//    module, O2 pipeline, machine code, link), min / median / max over the groups;
//  * the model's native kernels in one module (Jit::compile_all, what an Executable does);
//  * the whole model through compile_function (graph, passes, fusion, lowering, LLVM): the
//    time from a signature to a CompiledCall. Target: ResNet-18 under 1 s.
// Wall time and the compiling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) are both shown:
// on a shared machine wall time includes waiting for a core, CPU time does not. Each
// figure is the best of --rounds rounds (per group: each group's best).
//
//   build/release/bench/relay_bench_compiler_latency [--model NAME] [--rounds N]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/graph/passes.h"
#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/kernel_fusion.h"
#include "interpreter/eval/run.h"
#include "lang/base/source.h"

using namespace relay;

namespace {

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "relay_bench_compiler_latency: %s\n", why.c_str());
  std::exit(2);
}

struct Clock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpu_ms();
  static double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
  }
  double wall_ms() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall).count(); }
  double cpu_elapsed_ms() const { return cpu_ms() - cpu; }
};

struct Time {
  double wall = 1e300, cpu = 1e300;
  void keep_best(const Clock& c) {
    wall = std::min(wall, c.wall_ms());
    cpu = std::min(cpu, c.cpu_elapsed_ms());
  }
};

void print_spread(const char* label, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::printf("  %-44s %8.2f %8.2f %8.2f\n", label, v.front(), v[v.size() / 2], v.back());
}

}  // namespace

int main(int argc, char** argv) {
  std::string model = "resnet18";
  int rounds = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--model") && i + 1 < argc) model = argv[++i];
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else die(std::string("unknown argument ") + argv[i]);
  }
  const std::string path = std::string(RELAY_SOURCE_DIR) + "/tests/models/" + model + ".relay";
  std::string text, error;
  if (!read_text_file(path, &text, &error)) die(error);
  SourceManager sources;
  DiagnosticBag diags;
  auto loaded = rt::load_program(sources, sources.add(path, text), "main", nullptr, diags);
  if (!loaded || diags.has_errors()) die("cannot load " + path);
  const FuncDef& def = *loaded->entry;
  const InferredTypes* types = loaded->types.find(&def);
  auto specs = compiler::arg_specs_from_types(def, types, {}, error);
  if (!specs) die(error);
  jit::Signature sig;
  for (const compiler::ArgSpec& s : *specs) sig.args.push_back({s.dtype, s.shape});

  // The native kernels of the model's groups, as the Executable plans them.
  compiler::BuildResult built = compiler::build_graph(def, types, loaded->front.module->metadata.get(), *specs);
  if (!built.ok()) die(built.reason);
  const compiler::Graph g = compiler::optimize(*built.graph);
  const compiler::FusionPlan plan = compiler::fuse_for_kernels(g);
  std::vector<loops::Kernel> kernels;
  for (const compiler::FusedGroup& group : plan.groups) {
    std::string why;
    if (auto native = compiler::plan_native(g, group, &why)) kernels.push_back(std::move(native->kernel));
  }
  if (kernels.empty()) die(model + " has no native group");
  compiler::Jit& jit = compiler::Jit::instance();
  std::printf("%s: %zu fused groups, %zu with a native kernel; host %s (%s); best of %d rounds\n", model.c_str(),
              plan.groups.size(), kernels.size(), jit.host().cpu.c_str(), jit.host().triple.c_str(), rounds);

  std::vector<Time> per_group(kernels.size());
  Time together, whole;
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < kernels.size(); ++i) {
      Clock c;
      jit.compile(kernels[i]);
      per_group[i].keep_best(c);
    }
    std::vector<const loops::Kernel*> all;
    for (const loops::Kernel& k : kernels) all.push_back(&k);
    {
      Clock c;
      jit.compile_all(all);
      together.keep_best(c);
    }
    {
      Clock c;
      jit::CompileOutcome out = compiler::compile_function(*loaded, def, sig, nullptr);
      if (!out.code) die("not compiled: " + out.reason);
      whole.keep_best(c);
    }
  }
  std::vector<double> wall, cpu;
  double wall_sum = 0, cpu_sum = 0;
  for (const Time& t : per_group) {
    wall.push_back(t.wall), cpu.push_back(t.cpu);
    wall_sum += t.wall, cpu_sum += t.cpu;
  }
  std::printf("\n  %-44s %8s %8s %8s\n", "ms", "min", "median", "max");
  print_spread("per fused group alone, wall", wall);
  print_spread("per fused group alone, CPU", cpu);
  std::printf("\n  %-44s %8s %8s\n", "ms", "wall", "CPU");
  std::printf("  %-44s %8.1f %8.1f\n", "sum of the groups compiled alone", wall_sum, cpu_sum);
  std::printf("  %-44s %8.1f %8.1f\n", "all groups in one module (compile_all)", together.wall, together.cpu);
  std::printf("  %-44s %8.1f %8.1f\n", ("whole " + model + " (compile_function)").c_str(), whole.wall, whole.cpu);
  std::printf("\ntarget: whole %s compiled in under 1 s: %s\n", model.c_str(), whole.wall < 1000 ? "met" : "missed");
  return 0;
}
