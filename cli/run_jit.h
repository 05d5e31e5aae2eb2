// `relay run`'s compile-path options: --jit=off|auto|eager, --jit-threshold N, --jit-wait,
// --threads N, --jit-report, --bench N, --device=cuda[:N], --tune-tiles and --profile, and running
// the entry with them (tiering through compiler/tier and the pipeline of compiler/pipeline).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "interpreter/eval/run.h"

namespace relay::cuda {
class Device;
}

namespace relay::cli {

// The most threads `--threads` takes: more than any machine's cores.
constexpr uint64_t kMaxThreads = 1024;

struct JitOptions {
  std::string mode = "auto";  // off, auto, eager
  bool mode_given = false;    // --jit= was given (else --profile makes it eager)
  uint64_t threshold = 2;
  bool wait = false;          // compile on the running thread: the call that reaches the
                              // threshold already runs native (reproducible runs)
  unsigned threads = 0;       // 0: the number of cores; at most kMaxThreads
  bool report = false;
  uint64_t bench = 0;         // > 0: time that many runs after a warm-up
  std::string device = "cpu"; // cpu, or cuda: compiled graphs run on GPU device_ordinal
  int device_ordinal = 0;
  bool tune_tiles = false;    // cuda: time the products' and convolutions' tiles (tile_tuner.h)
  bool profile = false;       // time each compiled group (cuda: each launch); the report lists the heaviest
};

// Parses one option at args[i] (consuming its value); false when it is not a JIT option.
// Sets `error` (and returns true) on a bad value.
bool parse_jit_option(const std::vector<std::string>& args, size_t& i, JitOptions& jit, std::string& error);

// The GPU that --device=cuda[:N] names, or null with `why` set (no driver, no such GPU).
std::unique_ptr<cuda::Device> open_device(const JitOptions& jit, std::string* why);

// Runs the loaded entry with the tier the options ask for; prints the report and the
// bench timings to stderr. With `gpu` (from open_device), the entry is compiled before it
// runs and its graphs run on that GPU.
rt::RunOutcome run_with_jit(rt::LoadedProgram& loaded, const JitOptions& jit, rt::RunOptions options,
                            const SourceManager& sources, cuda::Device* gpu = nullptr);

}  // namespace relay::cli
