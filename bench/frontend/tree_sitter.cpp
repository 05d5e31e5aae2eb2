// relay_bench_tree_sitter: the tree-sitter grammar (editors/tree-sitter-relay) on a large
// TVM-style module, beside the hand-written parser on the same text.
//
//   relay_bench_tree_sitter [--lines N] [--runs N] [--seed S] [--input FILE]
//                           [--replicate FILE] [--check]
//
// Generates the module with bench/support's generator (the one bench/frontend uses;
// 100,000 lines by default), or reads it (--input), or repeats a real printed model until
// it has --lines lines (--replicate ../shared/corpus/tvm-0.14/resnet18_224.relay: TVM's
// own text, its globals renamed in each copy), then reports the best of --runs full
// parses with tree-sitter (ts_parser_parse_string, no old tree) and with parse_module, in seconds and MB/s, and
// that the tree-sitter tree has no error. Target (issue 16): a 100,000-line printed model
// in well under a second; with --check the exit status is 1 when a parse takes 1 s or
// more or the tree has an error.
//
// Not a test: nothing registers it with CTest (timings depend on the machine).
#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/support/generate.h"
#include "bench/support/args.h"
#include "bench/support/measure.h"
#include "lang/base/source.h"
#include "lang/syntax/parser.h"

extern "C" const TSLanguage* tree_sitter_relay(void);

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  size_t lines = 100000;
  int runs = 5;
  uint64_t seed = 1;
  std::string input;
  std::string replicate;
  bool check = false;
};

[[noreturn]] void usage(int status) {
  std::fprintf(status ? stderr : stdout,
               "usage: relay_bench_tree_sitter [--lines N] [--runs N] [--seed S] [--input FILE] [--replicate FILE] [--check]\n");
  std::exit(status);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (relay::bench::ArgReader r(argc, argv, usage); r.next();) {
    if (r.is("--lines")) o.lines = r.number();
    else if (r.is("--runs")) o.runs = r.count();
    else if (r.is("--seed")) o.seed = r.number();
    else if (r.is("--input")) o.input = r.value();
    else if (r.is("--replicate")) o.replicate = r.value();
    else if (r.is("--check")) o.check = true;
    else r.unknown();
  }
  return o;
}

std::string read_file(const std::string& path) {
  std::string text, error;
  if (!relay::read_text_file(path, &text, &error)) {
    std::fprintf(stderr, "relay_bench_tree_sitter: %s\n", error.c_str());
    std::exit(2);
  }
  return text;
}

// Copies of one printed module (its version line once) until there are `min_lines`
// lines; each copy's global definitions get a suffix so that the module stays valid.
std::string replicate_module(const std::string& model, size_t min_lines) {
  std::string header, body = model;
  if (body.rfind("#[version", 0) == 0) {
    size_t eol = body.find('\n');
    header = body.substr(0, eol + 1);
    body = body.substr(eol + 1);
  }
  if (body.empty() || body.back() != '\n') body += '\n';
  std::string out = header;
  const size_t copy_lines = relay::bench::count_lines(body);
  for (size_t copy = 0, lines = relay::bench::count_lines(header); lines < min_lines; ++copy, lines += copy_lines + 1) {
    std::string renamed;
    const std::string suffix = "_" + std::to_string(copy);
    for (size_t i = 0; i < body.size(); ++i) {
      renamed += body[i];
      if (body[i] != '@') continue;
      size_t j = i + 1;
      while (j < body.size() && (std::isalnum(static_cast<unsigned char>(body[j])) || body[j] == '_')) renamed += body[j++];
      renamed += suffix;
      i = j - 1;
    }
    out += renamed + "\n";
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt = parse_args(argc, argv);
  std::string text;
  if (!opt.input.empty()) {
    text = read_file(opt.input);
  } else if (!opt.replicate.empty()) {
    text = replicate_module(read_file(opt.replicate), opt.lines);
  } else {
    text = relay::bench::generate_tvm_like_module(opt.lines, opt.seed).text;
  }
  const size_t lines = relay::bench::count_lines(text);
  const double mbytes = static_cast<double>(text.size()) / 1e6;

  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_relay());
  double ts_best = 1e30;
  bool has_error = false;
  uint32_t nodes_checked = 0;
  for (int r = 0; r < opt.runs; ++r) {
    auto t0 = Clock::now();
    TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
    auto t1 = Clock::now();
    TSNode root = ts_tree_root_node(tree);
    has_error = ts_node_has_error(root);
    nodes_checked = ts_node_named_child_count(root);
    ts_tree_delete(tree);
    ts_best = std::min(ts_best, std::chrono::duration<double>(t1 - t0).count());
  }
  ts_parser_delete(parser);

  double hand_best = 1e30;
  for (int r = 0; r < opt.runs; ++r) {
    relay::SourceManager sources;
    relay::FileId id = sources.add("bench.relay", text);
    relay::DiagnosticBag diags;
    auto t0 = Clock::now();
    auto module = relay::parse_module(sources.get(id), diags);
    auto t1 = Clock::now();
    hand_best = std::min(hand_best, std::chrono::duration<double>(t1 - t0).count());
  }

  std::printf("module: %zu lines, %.1f MB, %u top-level nodes\n", lines, mbytes, nodes_checked);
  std::printf("tree-sitter parse   %8.3f s  %7.1f MB/s  %9.0f lines/s  %s\n", ts_best, mbytes / ts_best,
              static_cast<double>(lines) / ts_best, has_error ? "TREE HAS ERRORS" : "no errors");
  std::printf("hand-written parse  %8.3f s  %7.1f MB/s  %9.0f lines/s\n", hand_best, mbytes / hand_best,
              static_cast<double>(lines) / hand_best);
  if (opt.check && (has_error || ts_best >= 1.0)) {
    std::fprintf(stderr, "relay_bench_tree_sitter: target missed (%s)\n",
                 has_error ? "the tree has errors" : "a parse took 1 s or more");
    return 1;
  }
  return 0;
}
