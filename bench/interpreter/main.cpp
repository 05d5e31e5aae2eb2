// relay_bench_interpreter: the reference interpreter's speed.
//
//   relay_bench_interpreter [--runs N] [--threads N] [--skip-peers] [--check]
//
// 1. fib(25) on int32 scalars (recursive, non-tail), reporting time and evaluation
//    steps per second (target: at least 10 million steps/s on scalar code);
// 2. @foldl summing a 100,000-element list (prelude), steps per second;
// 3. tail-recursive loop of 10,000,000 iterations: time and peak-RSS growth (flat);
// 4. Ctrl-C latency: `relay run` on an endless loop gets SIGINT; time until it has exited
//    with status 130 (target: within 100 ms);
// 5. the MLP (tests/models/mlp.relay) and ResNet-18 (tests/models/resnet18.relay,
//    batch 1, 3x224x224) forward passes on random inputs, against the same computation
//    in numpy and PyTorch eager (bench/interpreter/peers.py, run with the same thread
//    count; OpenBLAS is limited to it too). Target: ResNet-18 within 3x of PyTorch.
// 6. the int8 CNN (tests/models/quantized_cnn.relay, 1x3x32x32): time and steps/s.
// --check exits 1 when a target is missed.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "interpreter/eval/machine.h"
#include "interpreter/value_print.h"
#include "lang/base/source.h"
#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"

using namespace relay;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

size_t peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<size_t>(u.ru_maxrss);
}

struct Loaded {
  SourceManager sources;
  FrontendResult front;
  ModuleTypes types;
  std::unique_ptr<rt::Program> program;
  explicit Loaded(const std::string& text, const std::string& name) {
    FileId id = sources.add(name, text);
    DiagnosticBag diags;
    front = analyze_file(sources, id, diags);
    types = check_module(*front.module, front.prelude.get(), diags);
    if (diags.error_count()) {
      std::fprintf(stderr, "%s does not check\n", name.c_str());
      std::exit(2);
    }
    program = std::make_unique<rt::Program>([this](const FuncDef* d) { return types.find(d); },
                                            front.module->metadata.get());
  }
  const FuncDef& def(std::string_view name) {
    for (const auto& d : front.module->defs)
      if (d.kind == Definition::Func && d.func->name == name) return *d.func;
    std::fprintf(stderr, "no @%s\n", std::string(name).c_str());
    std::exit(2);
  }
};

std::string read_file(const std::string& path) {
  std::string text, error;
  if (!relay::read_text_file(path, &text, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(2);
  }
  return text;
}

rt::Value i32(int64_t v) { return rt::NDArray::scalar_int(v, DataType::int_(32)); }

struct Timing {
  double ms;
  uint64_t steps;
};

// Best of `runs` calls of @entry(args).
Timing time_call(Loaded& l, std::string_view entry, const std::vector<rt::Value>& args, int runs,
                 std::string* result = nullptr) {
  Timing best{1e300, 0};
  for (int r = 0; r < runs; ++r) {
    rt::Machine m(*l.program);
    double t = now_ms();
    rt::Value v = m.call(l.program->global(l.def(entry)), args);
    double ms = now_ms() - t;
    if (ms < best.ms) best = {ms, m.steps()};
    if (result) *result = rt::format_value(v);
  }
  return best;
}

std::vector<rt::Value> random_inputs(Loaded& l, std::string_view entry) {
  std::mt19937_64 gen(0);
  std::normal_distribution<double> normal(0, 0.05);
  const FuncDef& def = l.def(entry);
  const InferredTypes* t = l.types.find(&def);
  std::vector<rt::Value> out;
  for (const VarDecl* p : def.fn->params) {
    auto* tt = static_cast<const TensorTy*>(t->type_of(p));
    rt::Shape shape;
    for (const Dim& d : tt->shape) shape.push_back(*d.constant_value());
    rt::NDArray a = rt::NDArray::empty(shape, tt->dtype);
    const std::string name(p->name);
    if (tt->dtype != DataType::float_(32)) {
      // The quantized model's int8 weights and int32 biases: uniform integers in a range
      // that keeps its activations off the int8 bounds.
      const int64_t bound = tt->dtype.bits <= 8 ? 127 : 1000;
      std::uniform_int_distribution<int64_t> uniform(-bound, bound);
      for (int64_t i = 0; i < a.size(); ++i) a.set_int(i, uniform(gen));
      out.push_back(a);
      continue;
    }
    float* f = a.data<float>();
    // Per-channel quantization scales stay positive and small.
    if (name.find("scale") != std::string::npos) {
      for (int64_t i = 0; i < a.size(); ++i) f[i] = 0.002f;
      out.push_back(a);
      continue;
    }
    // Variances stay positive so batch norm is finite.
    const bool positive = name.find("var") != std::string::npos;
    for (int64_t i = 0; i < a.size(); ++i) f[i] = positive ? 1.0f : static_cast<float>(normal(gen));
    out.push_back(a);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3, threads = 1;
  bool skip_peers = false, check = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (a == "--skip-peers") skip_peers = true;
    else if (a == "--check") check = true;
    else {
      std::fprintf(stderr, "usage: relay_bench_interpreter [--runs N] [--threads N] [--skip-peers] [--check]\n");
      return 2;
    }
  }
  // OpenBLAS reads this when it starts its thread pool (first BLAS call).
  setenv("OPENBLAS_NUM_THREADS", std::to_string(threads).c_str(), 1);
  setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
  const std::string root = RELAY_SOURCE_DIR;
  bool ok = true;
  std::printf("relay_bench_interpreter: best of %d runs, %d thread(s)\n\n", runs, threads);

  {
    Loaded l(R"(#[version = "0.0.5"]
def @fib(%n: int32) -> int32 {
  if (less(%n, 2)) { %n } else { add(@fib(subtract(%n, 1)), @fib(subtract(%n, 2))) }
}
def @loop(%n: int32, %acc: int32) -> int32 {
  if (equal(%n, 0)) { %acc } else { @loop(subtract(%n, 1), add(%acc, 1)) }
}
)", "scalar.relay");
    std::string result;
    Timing t = time_call(l, "fib", {i32(25)}, runs, &result);
    double rate = t.steps / (t.ms / 1e3);
    std::printf("fib(25) = %s: %.1f ms, %llu steps, %.2f M steps/s (target >= 10)\n", result.c_str(), t.ms,
                static_cast<unsigned long long>(t.steps), rate / 1e6);
    if (rate < 10e6) ok = false;
    size_t rss_before = peak_rss_kb();
    Timing loop = time_call(l, "loop", {i32(10'000'000), i32(0)}, 1, &result);
    std::printf("tail loop of 10,000,000 iterations = %s: %.1f ms, %.2f M steps/s, peak RSS growth %.1f MB\n",
                result.c_str(), loop.ms, loop.steps / (loop.ms / 1e3) / 1e6, (peak_rss_kb() - rss_before) / 1024.0);
  }
  {
    Loaded l("#[version = \"0.0.5\"]\n#[import = \"prelude\"]\n"
             "def @build(%n: int32, %acc: List[int32]) -> List[int32] {\n"
             "  if (equal(%n, 0)) { %acc } else { @build(subtract(%n, 1), Cons(%n, %acc)) }\n}\n"
             "def @main() -> int32 {\n"
             "  @foldl(fn (%a: int32, %x: int32) { add(%a, %x) }, 0, @build(100000, Nil))\n}\n",
             "fold.relay");
    std::string result;
    Timing t = time_call(l, "main", {}, runs, &result);
    std::printf("foldl summing a 100,000-element list (incl. building it) = %s: %.1f ms, %.2f M steps/s\n",
                result.c_str(), t.ms, t.steps / (t.ms / 1e3) / 1e6);
  }
  {
    // Interrupt latency of the binary, as a user sees it.
    const std::string path = "/tmp/relay_bench_spin_" + std::to_string(getpid()) + ".relay";
    {
      std::ofstream f(path);
      f << "#[version = \"0.0.5\"]\ndef @spin(%n: int32) -> int32 { @spin(add(%n, 1)) }\n"
           "def @main() -> int32 { @spin(0) }\n";
    }
    double worst = 0;
    int status_seen = 0;
    for (int r = 0; r < runs; ++r) {
      pid_t pid = fork();
      if (pid == 0) {
        int devnull = ::open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        execl(RELAY_BENCH_RELAY_PATH, "relay", "run", path.c_str(), static_cast<char*>(nullptr));
        _exit(127);
      }
      usleep(300'000);  // well inside the loop
      const double sent = now_ms();
      kill(pid, SIGINT);
      int status = 0;
      waitpid(pid, &status, 0);
      worst = std::max(worst, now_ms() - sent);
      status_seen = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::remove(path.c_str());
    std::printf("Ctrl-C latency of `relay run` (SIGINT to exit), worst of %d: %.2f ms, exit status %d (target < 100 ms, 130)\n",
                runs, worst, status_seen);
    if (worst >= 100 || status_seen != 130) ok = false;
  }
  std::map<std::string, double> peers;
  if (!skip_peers) {
    std::string cmd = "/usr/bin/python3 " + root + "/bench/interpreter/peers.py " + std::to_string(threads) + " " +
                      std::to_string(runs);
    if (FILE* p = popen(cmd.c_str(), "r")) {
      char name[64];
      double ms;
      while (std::fscanf(p, "%63s %lf", name, &ms) == 2) peers[name] = ms;
      pclose(p);
    }
  }
  auto peer = [&](const std::string& k) -> std::string {
    auto it = peers.find(k);
    if (it == peers.end()) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f ms", it->second);
    return buf;
  };
  for (const char* model : {"mlp", "resnet18"}) {
    Loaded l(read_file(root + "/tests/models/" + model + ".relay"), model);
    auto args = random_inputs(l, "main");
    Timing t = time_call(l, "main", args, runs);
    std::printf("\n%s forward pass: relay %.3f ms (%llu steps, %.2f k steps/s); numpy %s; torch %s\n", model, t.ms,
                static_cast<unsigned long long>(t.steps), t.steps / t.ms, peer(std::string(model) + "_numpy").c_str(),
                peer(std::string(model) + "_torch").c_str());
    auto it = peers.find(std::string(model) + "_torch");
    if (it != peers.end()) {
      std::printf("  relay / torch = %.2fx%s\n", t.ms / it->second,
                  std::string(model) == "resnet18" ? " (target <= 3x)" : "");
      if (std::string(model) == "resnet18" && t.ms > 3 * it->second) ok = false;
    }
  }
  {
    // The int8 CNN of issue 17 §4 (qnn.conv2d / requantize / qnn.dense on the reference
    // kernels); no peer runs integer arithmetic the same way, so only its own numbers.
    Loaded l(read_file(root + "/tests/models/quantized_cnn.relay"), "quantized_cnn");
    auto args = random_inputs(l, "main");
    Timing t = time_call(l, "main", args, runs);
    std::printf("\nquantized_cnn forward pass: relay %.3f ms (%llu steps, %.2f k steps/s)\n", t.ms,
                static_cast<unsigned long long>(t.steps), t.steps / t.ms);
  }
  std::printf("\n%s\n", ok ? "all targets met" : "some targets missed");
  return check && !ok ? 1 : 0;
}
