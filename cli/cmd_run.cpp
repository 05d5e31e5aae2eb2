// `relay run FILE`: type-checks the file, then evaluates @main (or --entry) with the
// reference interpreter on tensors from .npy files or seeded random inputs, prints the
// result, and optionally saves it (.npy for a tensor, .npz for a tuple of tensors).
// Exit 0 on success, 1 on any error (diagnostics, run-time errors), 2 on usage errors,
// 130 when interrupted.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>

#include "cli/commands.h"
#include "cli/option_value.h"
#include "cli/diagnostic_output.h"
#include "cli/load_entry.h"
#include "cli/numbers.h"
#include "cli/run_jit.h"
#include "compiler/cuda/device.h"
#include "interpreter/eval/run.h"
#include "interpreter/runtime/npy.h"
#include "interpreter/value_print.h"

namespace relay::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_run_sigint(int) { g_interrupted.store(true); }

void run_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay run FILE [--entry NAME] [--arg NAME=PATH.npy]... [--random-inputs SEED]\n"
               "                      [--out PATH.npy|PATH.npz] [--check-numerics] [--max-depth N]\n"
               "                      [--jit=off|auto|eager] [--jit-threshold N] [--jit-wait] [--threads N] [--jit-report]\n"
               "                      [--bench N] [--device=cpu|cuda|cuda:N] [--tune-tiles] [--profile]\n"
               "                      [--error-format=human|json] [--error-limit=N] [--color=auto|always|never]\n"
               "\n"
               "Runs @main (or NAME) of FILE and prints the result: the reference interpreter runs it and\n"
               "compiles hot functions to native code (--jit).\n"
               "  --arg NAME=PATH       a parameter's tensor from a .npy file (NAME with or without %%)\n"
               "  --random-inputs SEED  seeded random tensors for parameters not given by --arg\n"
               "  --out PATH            save the result: .npy for a tensor, .npz for a tuple (keys 0, 1.0, ...)\n"
               "  --check-numerics      stop at the first operator that turns finite inputs into NaN/Inf\n"
               "  --max-depth N         maximum call depth (default %zu)\n"
               "  --jit=off|auto|eager  native code for hot functions (auto, the default: once a function\n"
               "                        has been called --jit-threshold times with the same shapes; eager:\n"
               "                        the entry too, before it runs)\n"
               "  --jit-threshold N     calls before a function is compiled (default 2)\n"
               "  --jit-wait            compile a hot function on the running thread, so the call that\n"
               "                        reaches the threshold runs native (the default compiles in the\n"
               "                        background and the program runs on meanwhile)\n"
               "  --threads N           threads for compiled code (default: the number of cores)\n"
               "  --jit-report          print what was compiled, how long it took and what stayed interpreted\n"
               "  --bench N             run the entry N more times after a warm-up; print min and median time\n"
               "  --device=cuda[:N]     run the compiled graphs on NVIDIA GPU N (0 by default): the entry is\n"
               "                        compiled before it runs (--jit=eager), what cannot run on the GPU\n"
               "                        stays on the host (--jit-report says which); needs the NVIDIA driver\n"
               "  --tune-tiles          with --device=cuda: time every tile of each matrix product and\n"
               "                        convolution on the GPU and take the fastest; choices are kept in\n"
               "                        $RELAY_TILE_CACHE (default ~/.cache/relay/gpu-tiles.tsv) for later runs\n"
               "  --profile             time each compiled group of each call (with --device=cuda each kernel\n"
               "                        launch, the calls run kernel by kernel, not as a CUDA graph) and print\n"
               "                        the heaviest with their FLOP/s or bytes a second in the --jit-report,\n"
               "                        which it turns on; the entry is compiled before it runs unless --jit\n"
               "                        says otherwise\n"
               "Exit status: 0 ok, 1 errors, 2 usage error, 130 interrupted.\n",
               rt::Machine::kDefaultMaxDepth);
}

// Tensors of a (nested) tuple result keyed by their tuple path: `0`, `1.0`, ...
bool flatten(const rt::Value& v, const std::string& key, std::vector<std::pair<std::string, rt::NDArray>>& out) {
  if (v.is_tensor()) {
    out.emplace_back(key, v.tensor());
    return true;
  }
  if (!v.is_tuple()) return false;
  const auto& f = v.tuple().fields;
  for (size_t i = 0; i < f.size(); ++i)
    if (!flatten(f[i], key.empty() ? std::to_string(i) : key + "." + std::to_string(i), out)) return false;
  return true;
}

}  // namespace

int cmd_run(const Args& args) {
  OutputOptions out_opts;
  std::string file, entry = "main", out_path;
  rt::EntryInputs inputs;
  bool check_numerics = false;
  size_t max_depth = rt::Machine::kDefaultMaxDepth;
  JitOptions jit;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string jit_error;
    if (parse_jit_option(args, i, jit, jit_error)) {
      if (!jit_error.empty()) {
        std::fprintf(stderr, "error: %s\n", jit_error.c_str());
        return kExitUsage;
      }
      continue;
    }
    auto value = [&](const char* opt) { return option_value(args, i, opt); };
    if (a == "--help" || a == "-h") {
      run_usage(stdout);
      return kExitOk;
    } else if (a == "--entry") {
      auto v = value("--entry");
      if (!v) return kExitUsage;
      entry = *v;
      if (!entry.empty() && entry[0] == '@') entry.erase(0, 1);
    } else if (a == "--arg") {
      auto v = value("--arg");
      if (!v) return kExitUsage;
      size_t eq = v->find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fprintf(stderr, "error: `--arg` takes NAME=PATH.npy, got `%s`\n", v->c_str());
        return kExitUsage;
      }
      std::string name = v->substr(0, eq);
      if (name[0] == '%') name.erase(0, 1);
      inputs.files.emplace_back(name, v->substr(eq + 1));
    } else if (a == "--random-inputs") {
      auto v = value("--random-inputs");
      if (!v) return kExitUsage;
      const std::optional<uint64_t> seed = parse_whole_number(*v);
      if (!seed) {
        std::fprintf(stderr, "error: `--random-inputs` takes a seed, a whole number >= 0, got `%s`\n", v->c_str());
        return kExitUsage;
      }
      inputs.random_seed = *seed;
    } else if (a == "--out") {
      auto v = value("--out");
      if (!v) return kExitUsage;
      out_path = *v;
    } else if (a == "--check-numerics") {
      check_numerics = true;
    } else if (a == "--max-depth") {
      auto v = value("--max-depth");
      if (!v) return kExitUsage;
      const std::optional<uint64_t> depth = parse_whole_number(*v);
      if (!depth || *depth == 0) {
        std::fprintf(stderr, "error: `--max-depth` takes a positive integer, got `%s`\n", v->c_str());
        return kExitUsage;
      }
      max_depth = static_cast<size_t>(*depth);
    } else {
      if (!take_argument_of_one_file(args, i, out_opts, run_usage, "run", file)) return kExitUsage;
    }
  }
  if (file.empty()) {
    run_usage(stderr);
    return kExitUsage;
  }
  if (!out_path.empty() && !(out_path.ends_with(".npy") || out_path.ends_with(".npz"))) {
    std::fprintf(stderr, "error: `--out` must name a .npy or .npz file\n");
    return kExitUsage;
  }
  if (jit.tune_tiles && jit.device != "cuda") {
    std::fprintf(stderr, "error: `--tune-tiles` times the GPU's kernels; it needs `--device=cuda`\n");
    return kExitUsage;
  }
  if (jit.profile && jit.mode == "off") {
    std::fprintf(stderr, "error: `--profile` times compiled code; it cannot be combined with `--jit=off`\n");
    return kExitUsage;
  }
  // a profile of one run needs the entry compiled before it runs
  if (jit.profile && !jit.mode_given) jit.mode = "eager";
  if (jit.device == "cuda" && jit.mode == "off") {
    std::fprintf(stderr, "error: `--device=cuda` runs compiled code; it cannot be combined with `--jit=off`\n");
    return kExitUsage;
  }
  // The GPU first: without one, nothing else is worth loading.
  std::unique_ptr<cuda::Device> gpu;
  if (jit.device == "cuda") {
    std::string why;
    gpu = open_device(jit, &why);
    if (!gpu) {
      std::fprintf(stderr, "error: --device=cuda:%d: cannot use the GPU: %s\n", jit.device_ordinal, why.c_str());
      return kExitErrors;
    }
  }

  DiagnosticPrinter printer(out_opts);
  SourceManager sources;
  auto loaded = load_entry(file, entry, &inputs, printer, sources);
  if (!loaded) return kExitErrors;

  rt::RunOptions options;
  options.check_numerics = check_numerics;
  options.max_depth = max_depth;
  options.interrupt = &g_interrupted;
  struct sigaction sa {}, old {};
  sa.sa_handler = on_run_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  rt::RunOutcome outcome = run_with_jit(*loaded, jit, options, sources, gpu.get());
  sigaction(SIGINT, &old, nullptr);
  if (outcome.error) {
    DiagnosticBag run_diags;
    run_diags.add(std::move(*outcome.error));
    printer.print(run_diags, sources);
  }
  if (!outcome.value) return outcome.exit_code();
  const rt::Value& result = *outcome.value;
  std::printf("%s\n", rt::format_value(result).c_str());
  if (!out_path.empty()) {
    try {
      if (out_path.ends_with(".npy")) {
        if (!result.is_tensor()) {
          std::fprintf(stderr, "error: the result is not a tensor; save a tuple with `--out PATH.npz`\n");
          return kExitErrors;
        }
        rt::write_npy(out_path, result.tensor());
      } else {
        std::vector<std::pair<std::string, rt::NDArray>> arrays;
        if (!flatten(result, "", arrays)) {
          std::fprintf(stderr, "error: only tensors and tuples of tensors can be saved\n");
          return kExitErrors;
        }
        if (result.is_tensor()) arrays[0].first = "0";
        rt::write_npz(out_path, arrays);
      }
    } catch (const rt::RuntimeError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return kExitErrors;
    }
  }
  return kExitOk;
}

}  // namespace relay::cli
