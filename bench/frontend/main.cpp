// relay_bench_frontend: throughput and memory of the front end on a large TVM-style module.
//
//   relay_bench_frontend [--lines N] [--runs N] [--seed S] [--input FILE] [--emit FILE]
//                        [--only STAGE] [--check]
//
// Measures, single-threaded and pinned to one core, the best of --runs repetitions of
//   lex            Lexer::next until end of file (tokens only)
//   parse          parse_module
//   parse+resolve  analyze_file (parse, imports, name resolution)
//   print          print_module with comments (the `relay fmt` path)
// as MB/s and lines/s of the source (print: of its output), then the memory of the
// parsed module: arena bytes per source byte, and the process RSS delta around one parse
// and peak RSS. Targets (issue): parsing >= 50 MB/s on one core, < 20 bytes of IR per
// source byte. With --check the exit status is 1 when a target is missed.
//
// Not a test: nothing registers it with CTest (timings depend on the machine).
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "bench/support/generate.h"
#include "bench/support/args.h"
#include "bench/support/measure.h"
#include "lang/base/render.h"
#include "lang/syntax/frontend.h"
#include "lang/syntax/lexer.h"
#include "lang/syntax/parser.h"

#if defined(RELAY_BENCH_HAVE_PRINTER) && __has_include("lang/syntax/printer.h")
#include "lang/syntax/printer.h"
#define RELAY_BENCH_PRINT 1
#else
#define RELAY_BENCH_PRINT 0
#endif

namespace {

using namespace relay;
using bench::count_lines;
using bench::current_rss;
using bench::mb;
using bench::peak_rss;
using Clock = std::chrono::steady_clock;

constexpr double kParseTargetMBs = 50.0;
constexpr double kIrBytesPerSourceByteTarget = 20.0;

struct Options {
  size_t lines = 100000;
  int runs = 5;
  uint64_t seed = 1;
  std::string input, emit, only;  // only: run just this stage (for profiling)
  bool check = false;
};

[[noreturn]] void usage(int status) {
  std::fprintf(status ? stderr : stdout,
               "usage: relay_bench_frontend [--lines N] [--runs N] [--seed S] [--input FILE] [--emit FILE]\n"
               "                            [--only lex|parse|resolve|print] [--check]\n"
               "  --lines N    size of the generated module (default 100000)\n"
               "  --runs N     repetitions per measurement; the best is reported (default 5)\n"
               "  --seed S     generator seed (default 1)\n"
               "  --input F    measure FILE instead of a generated module\n"
               "  --emit F     write the generated module to FILE and exit\n"
               "  --only S     run only stage S (lex, parse, resolve or print), e.g. under perf\n"
               "  --check      exit 1 when a target is missed\n");
  std::exit(status);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (relay::bench::ArgReader r(argc, argv, usage); r.next();) {
    if (r.is("--lines")) o.lines = r.number();
    else if (r.is("--runs")) o.runs = r.count();
    else if (r.is("--seed")) o.seed = r.number();
    else if (r.is("--input")) o.input = r.value();
    else if (r.is("--emit")) o.emit = r.value();
    else if (r.is("--only")) o.only = r.value();
    else if (r.is("--check")) o.check = true;
    else r.unknown();
  }
  return o;
}

// Best wall time of `runs` calls of `body`, in seconds; `teardown` runs untimed after
// each call (e.g. freeing the parsed module).
double best_of(int runs, const std::function<void()>& body,
               const std::function<void()>& teardown = [] {}) {
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    auto t0 = Clock::now();
    body();
    auto t1 = Clock::now();
    teardown();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

struct Row {
  const char* name;
  double seconds;
  size_t bytes, lines;
  std::string note;
};

void fail_on_errors(const DiagnosticBag& diags, const SourceManager& sources, const char* what) {
  bench::fail_on_errors("relay_bench_frontend", diags, sources, what);
}

}  // namespace

int main(int argc, char** argv) {
  Options opt = parse_args(argc, argv);

  // One core: stay on the CPU we started on, so the scheduler does not migrate us.
  int cpu = sched_getcpu();
  if (cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
  }

  std::string text, origin;
  size_t functions = 0;
  if (!opt.input.empty()) {
    std::ifstream in(opt.input, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "relay_bench_frontend: cannot read %s\n", opt.input.c_str());
      return 2;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    origin = opt.input;
  } else {
    auto t0 = Clock::now();
    bench::GeneratedModule g = bench::generate_tvm_like_module(opt.lines, opt.seed);
    double gen_s = std::chrono::duration<double>(Clock::now() - t0).count();
    text = std::move(g.text);
    functions = g.functions;
    origin = "generated (seed " + std::to_string(opt.seed) + ", " + std::to_string(functions) +
             " functions, " + std::to_string(static_cast<int>(gen_s * 1000)) + " ms to generate)";
    if (!opt.emit.empty()) {
      std::ofstream out(opt.emit, std::ios::binary);
      out << text;
      std::printf("wrote %s: %zu lines, %zu bytes, %zu functions\n", opt.emit.c_str(),
                  count_lines(text), text.size(), functions);
      return out ? 0 : 1;
    }
  }
  const size_t lines = count_lines(text);

  SourceManager sources;
  const FileId id = sources.add("bench.relay", std::move(text));
  const SourceFile& file = sources.get(id);
  const size_t bytes = file.text.size();

  // ---- memory: the first parse, before any other allocation churn ----
  size_t rss_before = current_rss();
  DiagnosticBag mem_diags;
  std::unique_ptr<Module> held = parse_module(file, mem_diags);
  size_t rss_after = current_rss();
  fail_on_errors(mem_diags, sources, "the input");
  const size_t arena_used = held->arena.bytes_used();
  const size_t arena_reserved = held->arena.bytes_reserved();
  const size_t side = held->defs.capacity() * sizeof(Definition) +
                      held->comments.capacity() * sizeof(Comment) +
                      held->imports.capacity() * sizeof(Span);
  const size_t rss_delta = rss_after > rss_before ? rss_after - rss_before : 0;
  held.reset();

  std::vector<Row> rows;
  auto wanted = [&](const char* stage) { return opt.only.empty() || opt.only == stage; };
  if (!opt.only.empty() && !wanted("lex") && !wanted("parse") && !wanted("resolve") && !wanted("print")) usage(2);

  // ---- lex ----
  size_t tokens = 0;
  double lex_s = !wanted("lex") ? 0 : best_of(opt.runs, [&] {
    DiagnosticBag diags;
    Lexer lexer(file, diags);
    size_t n = 0;
    while (lexer.next().kind != Tok::Eof) ++n;
    tokens = n;
  });
  if (wanted("lex")) {
    std::string note = std::to_string(tokens) + " tokens, " +
                       std::to_string(static_cast<long long>(static_cast<double>(tokens) / lex_s / 1e6)) +
                       " M tokens/s";
    rows.push_back({"lex (tokens only)", lex_s, bytes, lines, note});
  }

  // ---- parse ----
  std::unique_ptr<Module> m;
  double parse_s = !wanted("parse") ? 0 : best_of(
      opt.runs,
      [&] {
        DiagnosticBag diags;
        m = parse_module(file, diags);
      },
      [&] { m.reset(); });
  if (wanted("parse")) rows.push_back({"parse", parse_s, bytes, lines, ""});

  // ---- parse + resolve ----
  FrontendResult fr;
  double resolve_s = !wanted("resolve") ? 0 : best_of(
      opt.runs,
      [&] {
        DiagnosticBag diags;
        fr = analyze_file(sources, id, diags);
      },
      [&] { fr = FrontendResult{}; });
  if (wanted("resolve")) rows.push_back({"parse + resolve", resolve_s, bytes, lines, ""});

#if RELAY_BENCH_PRINT
  // ---- print ----
  if (wanted("print")) {
    DiagnosticBag diags;
    FrontendResult parsed = analyze_file(sources, id, diags);
    fail_on_errors(diags, sources, "the input");
    std::string printed;
    double print_s = best_of(opt.runs, [&] { printed = print_module(*parsed.module, file); });
    // Not timed: the printout must read back without errors.
    FileId pid = sources.add("printed.relay", printed);
    DiagnosticBag pdiags;
    analyze_file(sources, pid, pdiags);
    std::string note = "output " + std::to_string(printed.size()) + " bytes; " +
                       (pdiags.has_errors() ? "RE-PARSE FAILED (" + std::to_string(pdiags.error_count()) + " errors)"
                                            : std::string("re-parses without errors"));
    rows.push_back({"print (output)", print_s, printed.size(), count_lines(printed), note});
  }
#else
  rows.push_back({"print", 0, 0, 0, "printer not built yet"});
#endif

  // ---- report ----
  std::printf("relay_bench_frontend: %s\n", origin.c_str());
  std::printf("input: %zu lines, %zu bytes (%.2f MB), best of %d runs, pinned to CPU %d\n\n", lines,
              bytes, mb(bytes), opt.runs, cpu);
  std::printf("%-20s %10s %10s %12s  %s\n", "stage", "time ms", "MB/s", "lines/s", "notes");
  for (const Row& r : rows) {
    if (r.seconds <= 0) {
      std::printf("%-20s %10s %10s %12s  %s\n", r.name, "-", "-", "-", r.note.c_str());
      continue;
    }
    std::printf("%-20s %10.2f %10.1f %12.0f  %s\n", r.name, r.seconds * 1e3, mb(r.bytes) / r.seconds,
                static_cast<double>(r.lines) / r.seconds, r.note.c_str());
  }

  const double used_per_byte = static_cast<double>(arena_used) / static_cast<double>(bytes);
  const double total_per_byte = static_cast<double>(arena_reserved + side) / static_cast<double>(bytes);
  std::printf("\nmemory of the parsed module\n");
  std::printf("  arena bytes used          %12zu  %6.2f bytes per source byte\n", arena_used, used_per_byte);
  std::printf("  arena bytes reserved      %12zu  %6.2f bytes per source byte\n", arena_reserved,
              static_cast<double>(arena_reserved) / static_cast<double>(bytes));
  std::printf("  + defs/comments vectors   %12zu  %6.2f bytes per source byte (total)\n", side, total_per_byte);
  std::printf("  RSS delta around parse    %12zu  %6.2f bytes per source byte\n", rss_delta,
              static_cast<double>(rss_delta) / static_cast<double>(bytes));
  std::printf("  peak RSS (ru_maxrss)      %12zu  (%.1f MB, whole process)\n", peak_rss(), mb(peak_rss()));

  if (!opt.only.empty()) return 0;  // a partial run has no verdict
  const double parse_mbs = mb(bytes) / parse_s;
  bool parse_ok = parse_mbs >= kParseTargetMBs, ir_ok = used_per_byte < kIrBytesPerSourceByteTarget;
  std::printf("\n%-44s %-12s %-14s %s\n", "target", "required", "measured", "pass");
  std::printf("%-44s %-12s %-14s %s\n", "parse throughput, one core (MB/s)", ">= 50",
              std::to_string(static_cast<int>(parse_mbs)).c_str(), parse_ok ? "PASS" : "FAIL");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", used_per_byte);
  std::printf("%-44s %-12s %-14s %s\n", "IR bytes per source byte (arena used)", "< 20", buf,
              ir_ok ? "PASS" : "FAIL");
  std::snprintf(buf, sizeof buf, "%.2f", total_per_byte);
  std::printf("%-44s %-12s %-14s %s\n", "IR bytes per source byte (reserved + side)", "< 20", buf,
              total_per_byte < kIrBytesPerSourceByteTarget ? "PASS" : "FAIL");
  return opt.check && !(parse_ok && ir_ok) ? 1 : 0;
}
