#include "cli/run_jit.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cli/numbers.h"
#include "compiler/cuda/device.h"
#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/tile_tuner.h"

namespace relay::cli {

bool parse_jit_option(const std::vector<std::string>& args, size_t& i, JitOptions& jit, std::string& error) {
  const std::string& a = args[i];
  auto number = [&](const char* opt, uint64_t& out, uint64_t most = UINT64_MAX) {
    if (i + 1 >= args.size()) return error = std::string("`") + opt + "` needs a value", true;
    const std::string& v = args[++i];
    const std::optional<uint64_t> n = parse_whole_number(v);
    if (!n || *n == 0 || *n > most)
      error = std::string("`") + opt + "` takes a positive integer" +
              (most < UINT64_MAX ? " up to " + std::to_string(most) : std::string()) + ", got `" + v + "`";
    else
      out = *n;
    return true;
  };
  if (a.starts_with("--jit=")) {
    jit.mode = a.substr(6);
    jit.mode_given = true;
    if (jit.mode != "off" && jit.mode != "auto" && jit.mode != "eager")
      error = "`--jit` is off, auto or eager, not `" + jit.mode + "`";
    return true;
  }
  if (a == "--jit-threshold") return number("--jit-threshold", jit.threshold);
  if (a == "--bench") return number("--bench", jit.bench);
  if (a == "--threads") {
    // more threads than any machine has cores only costs their stacks and start-up
    uint64_t n = jit.threads;
    number("--threads", n, kMaxThreads);
    jit.threads = static_cast<unsigned>(n);
    return true;
  }
  if (a == "--jit-report") return jit.report = true, true;
  if (a == "--jit-wait") return jit.wait = true, true;
  if (a == "--tune-tiles") return jit.tune_tiles = true, true;
  if (a == "--profile") return jit.profile = jit.report = true, true;
  if (a.starts_with("--device=")) {
    const std::string d = a.substr(9);
    jit.device = d.starts_with("cuda") ? "cuda" : d;
    if (d == "cuda") jit.device_ordinal = 0;
    else if (d.starts_with("cuda:") && d.size() > 5 && d.size() < 8 &&
             d.find_first_not_of("0123456789", 5) == std::string::npos)
      jit.device_ordinal = std::stoi(d.substr(5));
    else if (d != "cpu") error = "`--device` is cpu, cuda or cuda:N, not `" + d + "`";
    return true;
  }
  return false;
}

std::unique_ptr<cuda::Device> open_device(const JitOptions& jit, std::string* why) {
  if (jit.device != "cuda") return nullptr;
  return cuda::Device::open(jit.device_ordinal, why);
}

rt::RunOutcome run_with_jit(rt::LoadedProgram& loaded, const JitOptions& jit, rt::RunOptions options,
                            const SourceManager& sources, cuda::Device* gpu) {
  jit::TierOptions tier_options;
  tier_options.mode = jit.mode == "off" ? jit::JitMode::Off : jit.mode == "eager" ? jit::JitMode::Eager : jit::JitMode::Auto;
  tier_options.threshold = jit.threshold;
  tier_options.background = !jit.wait;
  if (gpu) {
    // The entry's graphs go to the GPU before it runs, compiled on this thread (the one
    // that drives the device).
    tier_options.mode = jit::JitMode::Eager;
    tier_options.background = false;
  }
  compiler::ProgramTypes program = compiler::program_types(loaded);
  program.sources = &sources;  // the report names a function's tensor regions by lines
  // --tune-tiles: the tiles are timed on the GPU, or read from the cache of earlier runs.
  std::unique_ptr<compiler::TileTuner> tiles;
  if (gpu && jit.tune_tiles) tiles = std::make_unique<compiler::TileTuner>(*gpu, compiler::TileTuner::default_cache_file());
  compiler::JitRuntime runtime(std::move(program), tier_options, jit.threads,
                               compiler::ExecutionOptions{gpu, tiles.get(), jit.profile});
  jit::TieredCompiler& tier = runtime.tier();
  compiler::ThreadPool& pool = runtime.pool();
  if (tier_options.mode != jit::JitMode::Off) options.tier = &tier;
  const rt::Value entry = loaded.program->global(*loaded.entry);
  const std::vector<rt::Value> args(loaded.arguments.begin(), loaded.arguments.end());
  if (tier_options.mode == jit::JitMode::Eager) tier.compile_now(*loaded.entry, args);

  auto once = [&] { return rt::run_function(*loaded.program, entry, args, options, sources); };
  rt::RunOutcome outcome = once();
  if (jit.bench > 0 && outcome.value) {
    tier.drain();  // what got hot in the warm-up run is native now
    std::vector<double> ms;
    for (uint64_t r = 0; r < jit.bench && outcome.value; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      outcome = once();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    if (!ms.empty())
      std::fprintf(stderr, "bench: %zu runs after a warm-up, min %.3f ms, median %.3f ms (--jit=%s, --threads %u)\n",
                   ms.size(), ms.front(), ms[ms.size() / 2], gpu ? "eager" : jit.mode.c_str(), pool.threads());
  }
  tier.drain();
  if (jit.report)
    std::fprintf(stderr, "jit report (--jit=%s, --jit-threshold %llu, --threads %u):\n%s", jit.mode.c_str(),
                 static_cast<unsigned long long>(jit.threshold), pool.threads(), tier.describe().c_str());
  return outcome;
}

}  // namespace relay::cli
