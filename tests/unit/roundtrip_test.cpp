// Round trips through the printer: parse -> print -> parse must give an alpha-equal
// module with no diagnostics, formatting must be idempotent, and every comment must
// survive exactly once, in order. Run over the repository's corpus, TVM's printouts in
// the shared corpus (when present) and random programs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/syntax/alpha_equiv.h"
#include "lang/syntax/frontend.h"
#include "lang/syntax/lexer.h"
#include "lang/syntax/printer.h"
#include "tests/support/random_program.h"

namespace fs = std::filesystem;
using namespace relay;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string comment_texts(const SourceFile& f, const Module& m) {
  std::string s;
  for (const Comment& c : m.comments) {
    std::string_view t = f.slice(c.span);
    if (c.kind != CommentKind::Block) {
      while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
    }
    s += t;
    s += '\n';
  }
  return s;
}

std::string render(const DiagnosticBag& diags, const SourceManager& sm) {
  std::string s;
  for (const Diagnostic& d : diags.items()) {
    LineCol lc = sm.get(d.primary().span.file).lines.lookup(d.primary().span.begin);
    s += std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " +
         std::string(d.code()) + " " + d.message + "\n";
  }
  return s;
}

struct RoundTrip {
  bool ok = true;
  std::string failure;
  std::string printed;
};

// The whole check for one source text. `expect_clean` requires the input itself to be
// free of diagnostics (random programs); corpus files may carry warnings.
RoundTrip round_trip(const std::string& name, const std::string& text, bool expect_clean) {
  RoundTrip r;
  SourceManager sm;
  ParseOptions po;
  po.require_version = false;
  FileId in_id = sm.add(name, text);
  DiagnosticBag d1;
  FrontendResult first = analyze_file(sm, in_id, d1, po);
  bool unexpected_warning = false;
  for (const Diagnostic& d : d1.items())
    if (d.kind != DiagKind::UnusedVariable && d.kind != DiagKind::SelfReferentialLet)
      unexpected_warning = true;  // the generator binds freely: these two are expected
  if (d1.has_errors() || (expect_clean && unexpected_warning)) {
    r.ok = false;
    r.failure = "input has diagnostics:\n" + render(d1, sm);
    return r;
  }
  r.printed = print_module(*first.module, sm.get(in_id));
  FileId out_id = sm.add(name + ".printed", r.printed);
  DiagnosticBag d2;
  FrontendResult second = analyze_file(sm, out_id, d2, po);
  // The printout may not have more diagnostics than the input (warnings such as unused
  // variables carry over).
  if (d2.has_errors() || d2.size() > d1.size()) {
    r.ok = false;
    r.failure = "printed text has diagnostics:\n" + render(d2, sm);
    return r;
  }
  std::string why;
  AlphaEqualOptions strict;
  strict.compare_var_names = true;
  if (!alpha_equal(*first.module, *second.module, strict, &why)) {
    r.ok = false;
    r.failure = "not alpha-equal: " + why;
    return r;
  }
  std::string again = print_module(*second.module, sm.get(out_id));
  if (again != r.printed) {
    r.ok = false;
    r.failure = "not idempotent; second printing:\n" + again;
    return r;
  }
  std::string c1 = comment_texts(sm.get(in_id), *first.module);
  std::string c2 = comment_texts(sm.get(out_id), *second.module);
  if (c1 != c2) {
    r.ok = false;
    r.failure = "comments differ:\n--- input\n" + c1 + "--- printed\n" + c2;
    return r;
  }
  // Without comments the printout must still round-trip.
  PrintOptions bare;
  bare.comments = false;
  std::string plain = print_module(*first.module, sm.get(in_id), bare);
  FileId plain_id = sm.add(name + ".plain", plain);
  DiagnosticBag d3;
  FrontendResult third = analyze_file(sm, plain_id, d3, po);
  if (d3.has_errors() || !alpha_equal(*first.module, *third.module, strict, &why)) {
    r.ok = false;
    r.failure = "comment-free printing does not round-trip: " + why + "\n" + render(d3, sm) + plain;
    return r;
  }
  return r;
}

std::vector<fs::path> relay_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file() && (it->path().extension() == ".relay" || it->path().extension() == ".rly"))
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void check_corpus(const fs::path& dir) {
  for (const fs::path& p : relay_files(dir)) {
    std::string text = read_file(p);
    SourceManager sm;
    DiagnosticBag diags;
    ParseOptions po;
    po.require_version = false;
    analyze_file(sm, sm.add(p.string(), text), diags, po);
    if (diags.has_errors()) continue;  // corpus of invalid programs (diagnostic tests)
    INFO("file: " << p.string());
    RoundTrip r = round_trip(p.string(), text, false);
    INFO(r.failure);
    CHECK(r.ok);
  }
}

}  // namespace

TEST_CASE("round trip: repository corpus", "[roundtrip]") {
  check_corpus(fs::path(RELAY_SOURCE_DIR) / "tests" / "corpus");
  check_corpus(fs::path(RELAY_SOURCE_DIR) / "lang" / "prelude");
  check_corpus(fs::path(RELAY_SOURCE_DIR) / "examples");
}

TEST_CASE("round trip: every error-free UI test file", "[roundtrip]") {
  // Files with warnings count too: the printout must keep their meaning.
  check_corpus(fs::path(RELAY_SOURCE_DIR) / "tests" / "ui");
}

TEST_CASE("round trip: TVM 0.14 printouts", "[roundtrip]") {
  fs::path dir = fs::path(RELAY_SOURCE_DIR) / ".." / "shared" / "corpus";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    WARN("shared corpus not present: " << dir.string());
    return;
  }
  check_corpus(dir);
}

TEST_CASE("round trip: TVM printouts keep their layout", "[roundtrip]") {
  // A TVM printout with a short header is already in the canonical layout.
  std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1, 10), float32] /* ty=Tensor[(1, 10), float32] */) -> Tensor[(1, 10), float32] {\n"
      "  %0 = nn.relu(%x) /* ty=Tensor[(1, 10), float32] */;\n"
      "  nn.softmax(%0) /* ty=Tensor[(1, 10), float32] */\n"
      "}\n";
  RoundTrip r = round_trip("tvm.relay", text, true);
  INFO(r.failure);
  REQUIRE(r.ok);
  CHECK(r.printed ==
        "#[version = \"0.0.5\"]\n"
        "def @main(\n"
        "  %x: Tensor[(1, 10), float32] /* ty=Tensor[(1, 10), float32] */\n"
        ") -> Tensor[(1, 10), float32] {\n"
        "  %0 = nn.relu(%x) /* ty=Tensor[(1, 10), float32] */;\n"
        "  nn.softmax(%0) /* ty=Tensor[(1, 10), float32] */\n"
        "}\n");
}

TEST_CASE("round trip: random programs", "[roundtrip][random]") {
  testing::RandomProgramOptions opts;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    std::string text = testing::random_program(seed, opts);
    RoundTrip r = round_trip("random" + std::to_string(seed) + ".relay", text, true);
    if (!r.ok) {
      INFO("seed " << seed << "\n" << text << "\n---- printed ----\n" << r.printed);
      INFO(r.failure);
      CHECK(r.ok);
      break;
    }
  }
}

TEST_CASE("round trip: random programs with comments and irregular layout", "[roundtrip][random]") {
  testing::RandomProgramOptions opts;
  opts.messy_layout = true;
  opts.comments = true;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    std::string text = testing::random_program(seed * 7919, opts);
    RoundTrip r = round_trip("messy" + std::to_string(seed) + ".relay", text, true);
    if (!r.ok) {
      INFO("seed " << seed * 7919 << "\n" << text << "\n---- printed ----\n" << r.printed);
      INFO(r.failure);
      CHECK(r.ok);
      break;
    }
  }
}

TEST_CASE("round trip: narrow widths", "[roundtrip][random]") {
  // Every header breaks at width 20; the result must still round-trip and be stable.
  testing::RandomProgramOptions opts;
  opts.comments = true;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    std::string text = testing::random_program(seed * 31, opts);
    SourceManager sm;
    ParseOptions po;
    FileId id = sm.add("narrow.relay", text);
    DiagnosticBag d1;
    FrontendResult first = analyze_file(sm, id, d1, po);
    INFO(render(d1, sm));
    REQUIRE_FALSE(d1.has_errors());
    PrintOptions narrow;
    narrow.max_width = 20;
    std::string printed = print_module(*first.module, sm.get(id), narrow);
    FileId id2 = sm.add("narrow2.relay", printed);
    DiagnosticBag d2;
    FrontendResult second = analyze_file(sm, id2, d2, po);
    INFO("seed " << seed * 31 << "\n" << text << "\n---- printed ----\n" << printed);
    REQUIRE_FALSE(d2.has_errors());
    std::string why;
    REQUIRE(alpha_equal(*first.module, *second.module, &why));
    CHECK(print_module(*second.module, sm.get(id2), narrow) == printed);
  }
}
