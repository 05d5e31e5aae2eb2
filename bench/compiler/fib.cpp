// fib(25) on int32 scalars (bench/debugger/fib25.relay): the scalar-function compiler's
// native recursion against the interpreter, in the same process and run. The interpreter
// runs the program with no tier; the compiled side runs it through compiler::JitRuntime in
// eager mode (@main and @fib compiled once, untimed), so each timed run is what
// `relay run --jit=eager --bench` times. Min and median of --runs runs each.
//
//   build/release/bench/relay_bench_compiler_fib [--runs N] [--check]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/pipeline/compile_function.h"
#include "interpreter/eval/run.h"
#include "lang/base/source.h"

using namespace relay;

namespace {

[[noreturn]] void die(const std::string& why) {
  std::fprintf(stderr, "relay_bench_compiler_fib: %s\n", why.c_str());
  std::exit(2);
}

struct Stats {
  double min_ms, median_ms;
  int32_t result;
};

Stats time_runs(rt::LoadedProgram& p, const SourceManager& sources, rt::TierUp* tier, int runs) {
  std::vector<double> ms;
  int32_t result = 0;
  for (int r = 0; r < runs; ++r) {
    rt::RunOptions options;
    options.tier = tier;
    const auto start = std::chrono::steady_clock::now();
    rt::RunOutcome out = rt::run_function(*p.program, p.program->global(*p.entry), {}, options, sources);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (!out.value) die("the run failed");
    result = *out.value->tensor().data<int32_t>();
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2], result};
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 7;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--check")) check = true;
    else die(std::string("unknown argument ") + argv[i]);
  }
  const std::string path = std::string(RELAY_SOURCE_DIR) + "/bench/debugger/fib25.relay";
  std::string text, error;
  if (!read_text_file(path, &text, &error)) die(error);
  SourceManager sources;
  FileId id = sources.add(path, std::move(text));
  DiagnosticBag diags;
  rt::EntryInputs inputs;
  auto loaded = rt::load_program(sources, id, "main", &inputs, diags);
  if (!loaded) die(path + " does not load");

  jit::TierOptions options;
  options.mode = jit::JitMode::Eager;
  options.background = false;
  compiler::JitRuntime jit(compiler::program_types(*loaded), options, 1);
  const auto c0 = std::chrono::steady_clock::now();
  if (!jit.tier().compile_now(*loaded->entry, {})) die("@main did not compile:\n" + jit.tier().describe());
  const double compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c0).count();

  const Stats interpreted = time_runs(*loaded, sources, nullptr, runs);
  const Stats compiled = time_runs(*loaded, sources, &jit.tier(), runs);
  if (interpreted.result != compiled.result) die("compiled and interpreted results differ");
  std::printf("fib(25) on int32 scalars = %d, %d runs each (min / median)\n", compiled.result, runs);
  std::printf("  interpreter        %9.3f ms %9.3f ms\n", interpreted.min_ms, interpreted.median_ms);
  std::printf("  compiled (native)  %9.3f ms %9.3f ms   (compiled once in %.1f ms)\n", compiled.min_ms,
              compiled.median_ms, compile_ms);
  std::printf("  speed-up %.0fx; target compiled <= 2 ms: %s\n", interpreted.min_ms / compiled.min_ms,
              compiled.min_ms <= 2.0 ? "met" : "missed");
  return check && compiled.min_ms > 2.0 ? 1 : 0;
}
