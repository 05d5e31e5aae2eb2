// relay_bench_debugger: what debugging costs (issue 12 §5).
//
//   relay_bench_debugger [--runs N] [--threads N] [--only fib|resnet18] [--explain]
//
// For fib(25) on int32 scalars (bench/debugger/fib25.relay) and the ResNet-18 forward
// pass (tests/models/resnet18.relay on seeded random inputs), in one process:
//   (a) plain: the interpreter alone (rt::run_function on the loaded program);
//   (b) engine: the debugging engine (dbg::Debugger: launch, start, advance until it
//       exits) with no breakpoint set;
//   (c) engine + cond: the same with a conditional breakpoint that is never true on a
//       statement inside the hot function (fib: the recursive branch, `less(%n, 0)`;
//       ResNet-18: a binding in the middle of @main, `equal(1, 2)`).
// Only the run is timed (not parsing, checking, launching); the configurations are
// interleaved, N times each after one untimed warm-up, and reported as min and median with the
// ratios (b)/(a) and (c)/(a) against the targets (<= 1.3x, <= 3x; wall-clock medians
// decide), in wall-clock and in CPU time.
// Every result must print the same as the plain run's, every breakpoint must be verified
// and never hit, and a control run with an always-true condition must stop there
// (so the timed breakpoint is really evaluated); otherwise this exits 1. A missed
// target only prints MISS: this is a benchmark, not a test, and exits 0. Two rows are not
// targets but say where the time goes: the plain run with an observer that does
// nothing (the machine's cost of calling hooks), and with --explain a breakpoint with
// no condition (the lookup and hit count) and one whose condition reads no variable.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "debugger/debugger.h"
#include "interpreter/runtime/npy.h"
#include "interpreter/value_print.h"
#include "lang/base/render.h"

using namespace relay;

namespace {

// Wall-clock and CPU time of the process (all threads: BLAS's too, when it has any).
// On a shared machine CPU time hardly changes with the load, so its ratios are the
// steadier check; the targets are judged on wall-clock time.
struct Timing {
  double wall_ms = 0, cpu_ms = 0;
};

Timing now() {
  timespec cpu{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  return {std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(),
          cpu.tv_sec * 1e3 + cpu.tv_nsec / 1e6};
}

Timing since(const Timing& start) {
  Timing t = now();
  return {t.wall_ms - start.wall_ms, t.cpu_ms - start.cpu_ms};
}

std::string g_input_dir;  // removed on every way out

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "relay_bench_debugger: %s\n", what.c_str());
  if (!g_input_dir.empty()) std::filesystem::remove_all(g_input_dir);
  std::exit(1);
}

// The 1-based line of the first line of `path` containing `needle`: the breakpoint
// lines are found by content, so editing the files' comments does not move them.
uint32_t line_of(const std::string& path, const std::string& needle) {
  std::string text, error;
  if (!read_text_file(path, &text, &error)) die(error);
  size_t at = text.find(needle);
  if (at == std::string::npos) die("no `" + needle + "` in " + path);
  return 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

struct Case {
  std::string name, path;
  uint32_t line;                 // the breakpoint's line, in the hot function
  std::string never, always;     // a condition false at every hit, one true at every hit
  std::string always_hits;       // hit condition for the control: the hit count it stops at
  std::vector<std::pair<std::string, std::string>> args;  // parameter -> .npy (the rest: seed 0)
};

// (a): loaded once (untimed); each run is a fresh Machine, as `relay run` has.
class Plain {
 public:
  explicit Plain(const Case& c) {
    std::string text, error;
    if (!read_text_file(c.path, &text, &error)) die(error);
    FileId id = sources_.add(c.path, std::move(text));
    DiagnosticBag diags;
    rt::EntryInputs inputs;
    inputs.files = c.args;
    inputs.random_seed = 0;  // the same seed as the engine's launch: the same tensors
    loaded_ = rt::load_program(sources_, id, "main", &inputs, diags);
    if (!loaded_) die(c.path + " does not load");
  }
  // `observer`: attached to the run (the machine's cost of calling hooks at all).
  Timing run(std::string* result, rt::Observer* observer = nullptr) {
    std::vector<rt::Value> args(loaded_->arguments.begin(), loaded_->arguments.end());
    const rt::Value fn = loaded_->program->global(*loaded_->entry);
    rt::RunOptions options;
    if (observer) options.observers.push_back(observer);
    const Timing t = now();
    rt::RunOutcome out = rt::run_function(*loaded_->program, fn, std::move(args), options, sources_);
    const Timing ms = since(t);
    if (!out.value) die("the plain run failed: " + render_diagnostic(*out.error, sources_, RenderOptions{false}));
    *result = rt::format_value(*out.value);
    return ms;
  }

 private:
  SourceManager sources_;
  std::unique_ptr<rt::LoadedProgram> loaded_;
};

dbg::LaunchConfig launch_config(const Case& c) {
  dbg::LaunchConfig config;
  config.program = c.path;
  config.args = c.args;
  config.random_seed = 0;
  return config;
}

// (b) and (c): a launched engine per run (a Debugger runs its program once). `condition`
// empty: no breakpoint. The launch and the breakpoint's compilation are not timed.
// `hit_condition` (with or without a condition) makes a breakpoint that is looked up and
// counted at every pass but stops only at an unreachable count (for --explain).
Timing engine_run(const Case& c, const std::string& condition, std::string* result,
                  const std::string& hit_condition = "") {
  dbg::Debugger d;
  std::string error;
  if (!d.launch(launch_config(c), &error)) die("launch failed: " + error);
  if (!condition.empty() || !hit_condition.empty()) {
    auto views = d.set_line_breakpoints({{c.line, std::nullopt, condition, hit_condition, ""}});
    if (views.size() != 1 || !views[0].verified || !views[0].pos || views[0].pos->line != c.line)
      die(c.name + ": the breakpoint at line " + std::to_string(c.line) + " if `" + condition +
          "` is not verified there: " + (views.empty() ? "" : views[0].message));
  }
  const Timing t = now();
  d.start();
  auto state = dbg::Debugger::State::Running;
  while (state == dbg::Debugger::State::Running) state = d.advance(UINT64_MAX);
  const Timing ms = since(t);
  if (state != dbg::Debugger::State::Exited)
    die(c.name + ": the engine stopped (" + d.stop().description + ") with `" + condition + "`, which is never true");
  if (d.exit_code() != 0) die(c.name + ": the engine's run ended with exit code " + std::to_string(d.exit_code()));
  result->clear();
  for (const dbg::Output& o : d.take_output()) {
    if (o.category != "stdout") die(c.name + ": unexpected " + o.category + " output from the engine: " + o.text);
    *result += o.text;
  }
  if (!result->empty() && result->back() == '\n') result->pop_back();
  return ms;
}

// The control: with an always-true condition and a hit condition, the breakpoint must
// stop exactly once, at its line, and the run must then finish. This proves the timed
// breakpoint is on a statement the hot path evaluates (`always_hits` times).
void control_run(const Case& c) {
  dbg::Debugger d;
  std::string error;
  if (!d.launch(launch_config(c), &error)) die("launch failed: " + error);
  auto views = d.set_line_breakpoints({{c.line, std::nullopt, c.always, c.always_hits, ""}});
  if (views.size() != 1 || !views[0].verified) die(c.name + ": the control breakpoint is not verified");
  d.start();
  int stops = 0;
  for (;;) {
    auto state = d.advance(UINT64_MAX);
    if (state == dbg::Debugger::State::Exited) break;
    if (state != dbg::Debugger::State::Stopped) continue;
    ++stops;
    if (d.stop().reason != dbg::StopReason::Breakpoint) die(c.name + ": the control stopped: " + d.stop().description);
    d.resume();
  }
  if (stops != 1)
    die(c.name + ": the control breakpoint (`" + c.always + "`, hit condition " + c.always_hits + ") stopped " +
        std::to_string(stops) + " times, not once");
}

// `--random-inputs 0` draws N(0, 1) for every float: ResNet-18's batch norms then divide
// by negative variances and the run is NaN from its first operator on. Written once as
// .npy files into `dir`: N(0, 0.05) (the same draws, scaled), variances 1.
std::vector<std::pair<std::string, std::string>> scaled_inputs(const std::string& path, const std::string& dir) {
  SourceManager sources;
  std::string text, error;
  if (!read_text_file(path, &text, &error)) die(error);
  FileId id = sources.add(path, std::move(text));
  DiagnosticBag diags;
  rt::EntryInputs seeded;
  seeded.random_seed = 0;
  auto loaded = rt::load_program(sources, id, "main", &seeded, diags);
  if (!loaded) die(path + " does not load");
  std::vector<std::pair<std::string, std::string>> out;
  const auto& params = loaded->entry->fn->params;
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string name(params[i]->name);
    const rt::NDArray& a = loaded->arguments[i];
    const bool variance = name.find("var") != std::string::npos;
    for (int64_t k = 0; k < a.size(); ++k) a.set_double(k, variance ? 1.0 : 0.05 * a.get_double(k));
    out.emplace_back(name, dir + "/" + name + ".npy");
    rt::write_npy(out.back().second, a);
  }
  return out;
}

struct Series {
  std::string label;
  std::function<Timing(std::string*)> run;
  std::vector<double> wall, cpu;  // ms per run
};

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Returns whether both targets were met.
bool bench_case(const Case& c, int runs, bool explain) {
  std::printf("%s: breakpoint at %s:%u if `%s`\n", c.name.c_str(), c.path.c_str(), c.line, c.never.c_str());
  control_run(c);
  Plain plain(c);
  rt::Observer nothing;  // every hook is the base class's empty one
  std::vector<Series> series = {
      {"(a) plain interpreter", [&](std::string* r) { return plain.run(r); }, {}, {}},
      {"(b) engine, no breakpoint", [&](std::string* r) { return engine_run(c, "", r); }, {}, {}},
      {"(c) engine, never-true condition", [&](std::string* r) { return engine_run(c, c.never, r); }, {}, {}},
      // Not a target: splits (b)'s cost into the machine calling hooks and the engine's.
      {"    plain + an observer doing nothing", [&](std::string* r) { return plain.run(r, &nothing); }, {}, {}},
  };
  if (explain) {
    // Splits (c)'s cost: finding and counting the breakpoint alone, then a condition
    // that reads no variable (no frame variables are collected for it).
    const std::string never_count = "1000000000000";
    series.push_back({"    engine, breakpoint without condition",
                      [&c, never_count](std::string* r) { return engine_run(c, "", r, never_count); }, {}, {}});
    series.push_back({"    engine, `equal(1, 2)` (reads no variable)",
                      [&](std::string* r) { return engine_run(c, "equal(1, 2)", r); }, {}, {}});
  }
  std::string expected;
  for (int r = -1; r < runs; ++r) {  // r == -1: the untimed warm-up
    for (size_t k = 0; k < series.size(); ++k) {
      // Rotate the order each round, so no configuration always runs after the same one.
      Series& s = series[(k + static_cast<size_t>(r + 1)) % series.size()];
      std::string result;
      const Timing ms = s.run(&result);
      if (expected.empty()) expected = result;
      if (result != expected)
        die(c.name + ": " + s.label + " printed\n" + result + "\nbut another configuration printed\n" + expected);
      if (r >= 0) {
        s.wall.push_back(ms.wall_ms);
        s.cpu.push_back(ms.cpu_ms);
      }
    }
  }
  std::string shown = expected.size() > 60 ? expected.substr(0, 57) + "..." : expected;
  std::printf("  result (the same in every run): %s\n", shown.c_str());
  std::printf("  %-46s %19s %8s %19s %8s\n", "", "wall min / median", "ratio", "CPU min / median", "ratio");
  const double wall0 = median_of(series[0].wall), cpu0 = median_of(series[0].cpu);
  for (const Series& s : series)
    std::printf("  %-46s %8.1f / %6.1f ms %7.2fx %8.1f / %6.1f ms %7.2fx\n", s.label.c_str(), min_of(s.wall),
                median_of(s.wall), median_of(s.wall) / wall0, min_of(s.cpu), median_of(s.cpu), median_of(s.cpu) / cpu0);
  bool ok = true;
  const double targets[] = {0, 1.3, 3.0};
  for (size_t k = 1; k < 3; ++k) {
    const double ratio = median_of(series[k].wall) / wall0;
    const bool pass = ratio <= targets[k];
    ok &= pass;
    std::printf("  target %s <= %.1fx: %.2fx (of wall minima %.2fx, of CPU medians %.2fx) %s\n",
                k == 1 ? "(b)/(a)" : "(c)/(a)", targets[k], ratio, min_of(series[k].wall) / min_of(series[0].wall),
                median_of(series[k].cpu) / cpu0, pass ? "PASS" : "MISS");
  }
  std::printf("\n");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 7, threads = 1;
  std::string only;
  bool explain = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--explain") explain = true;
    else {
      std::fprintf(stderr, "usage: relay_bench_debugger [--runs N] [--threads N] [--only fib|resnet18] [--explain]\n");
      return 2;
    }
  }
  // OpenBLAS reads these when it starts its thread pool (the first convolution).
  setenv("OPENBLAS_NUM_THREADS", std::to_string(threads).c_str(), 1);
  setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
  const std::string root = RELAY_SOURCE_DIR;
  std::printf("relay_bench_debugger: %d interleaved runs per configuration, %d BLAS thread(s)\n\n", runs, threads);

  auto wanted = [&](const std::string& name) { return only.empty() || name.starts_with(only); };
  bool all = true;
  if (wanted("fib")) {
    // fib(25) makes 242,785 calls of @fib; 121,392 of them take the recursive branch.
    const std::string fib = root + "/bench/debugger/fib25.relay";
    all &= bench_case({"fib(25)", fib, line_of(fib, "add(@fib("), "less(%n, 0)", "greater_equal(%n, 2)", "121392", {}},
                      runs, explain);
  }
  if (wanted("resnet18")) {
    const std::string resnet = root + "/tests/models/resnet18.relay";
    g_input_dir = (std::filesystem::temp_directory_path() / ("relay_bench_debugger_" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(g_input_dir);
    all &= bench_case({"resnet18", resnet, line_of(resnet, "  %50 = "), "equal(1, 2)", "equal(1, 1)", "1",
                       scaled_inputs(resnet, g_input_dir)},
                      runs, explain);
    std::filesystem::remove_all(g_input_dir);
  }
  std::printf("%s\n", all ? "all targets met" : "some targets missed");
  return 0;
}
