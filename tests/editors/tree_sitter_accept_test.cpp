// The tree-sitter grammar (editors/tree-sitter-relay) against the hand-written parser
// (lang/syntax): over every .relay file of the repository and the shared TVM corpus,
// found at run time, the two accept the same files. A file the hand-written parser
// accepts parses with no ERROR or MISSING node; one it rejects for its structure yields
// at least one. Errors about values inside a well-formed structure (a number out of
// range, an unknown dtype, a duplicate attribute, ...) are the toolchain's checks, not the
// grammar's, and do not count as rejections (kValueChecks).
#include <catch2/catch.hpp>

#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"
#include "lang/syntax/parser.h"

extern "C" const TSLanguage* tree_sitter_relay(void);

namespace fs = std::filesystem;

namespace {

// Diagnostics of the hand-written parser that judge values, not structure.
const char* const kValueChecks[] = {
    "E0002",  // invalid UTF-8 (an encoding check; tree-sitter reads bytes)
    "E0007",  // number out of range
    "E0008",  // a bare carriage return (whitespace to tree-sitter)
    "E0012",  // unsupported version string
    "E0013",  // unknown file attribute name
    "E0014",  // the metadata JSON itself
    "E0015",  // unknown import
    "E0016",  // extern type with constructors
    "E0017",  // file attribute after a definition
    "E0027",  // nesting depth limit
    "E0028",  // positional argument after attributes
    "E0029",  // duplicate attribute
    "E0032",  // unknown dtype
};

bool is_value_check(std::string_view code) {
  return std::any_of(std::begin(kValueChecks), std::end(kValueChecks),
                     [&](const char* c) { return code == c; });
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every .relay file under the directories the brief names, sorted for stable output.
std::vector<fs::path> relay_files() {
  const fs::path root = RELAY_SOURCE_DIR;
  const fs::path dirs[] = {root / "tests/corpus", root / "examples", root / "lang/prelude",
                           root / "tests/ui",     root / "tests/models",
                           root / "../shared/corpus/tvm-0.14"};
  std::vector<fs::path> out;
  for (const auto& d : dirs) {
    if (!fs::is_directory(d)) continue;
    for (const auto& e : fs::recursive_directory_iterator(d)) {
      if (e.is_regular_file() && e.path().extension() == ".relay") out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The first structural error code of the hand-written parser, or "" when it accepts.
std::string hand_rejects(const std::string& name, const std::string& text) {
  relay::SourceManager sources;
  relay::FileId id = sources.add(name, text);
  relay::DiagnosticBag diags;
  relay::parse_module(sources.get(id), diags);
  for (const auto& d : diags.items()) {
    if (d.severity == relay::Severity::Error && !is_value_check(d.code())) return std::string(d.code());
  }
  return "";
}

struct TsTree {
  TSParser* parser = ts_parser_new();
  TSTree* tree = nullptr;
  explicit TsTree(const std::string& text) {
    ts_parser_set_language(parser, tree_sitter_relay());
    tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  }
  ~TsTree() {
    ts_tree_delete(tree);
    ts_parser_delete(parser);
  }
  TSNode root() const { return ts_tree_root_node(tree); }
};

// Where the first ERROR or MISSING node is ("line:col"), or "" when there is none.
std::string first_error(TSNode n) {
  if (!ts_node_has_error(n)) return "";
  if (std::strcmp(ts_node_type(n), "ERROR") == 0 || ts_node_is_missing(n)) {
    TSPoint p = ts_node_start_point(n);
    return std::to_string(p.row + 1) + ":" + std::to_string(p.column + 1) +
           (ts_node_is_missing(n) ? " missing " + std::string(ts_node_type(n)) : " ERROR");
  }
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
    std::string e = first_error(ts_node_child(n, i));
    if (!e.empty()) return e;
  }
  return "error below " + std::string(ts_node_type(n));
}

int count_type(TSNode n, std::string_view type) {
  int c = std::string_view(ts_node_type(n)) == type ? 1 : 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) c += count_type(ts_node_named_child(n, i), type);
  return c;
}

}  // namespace

TEST_CASE("the grammar and the hand-written parser accept the same files", "[tree-sitter]") {
  auto files = relay_files();
  REQUIRE(files.size() >= 100);  // the corpus, models, prelude and UI cases are all there
  int accepted = 0, rejected = 0;
  std::vector<std::string> disagreements;
  for (const auto& f : files) {
    std::string text = read_file(f);
    std::string hand = hand_rejects(f.string(), text);
    TsTree ts(text);
    std::string ts_error = first_error(ts.root());
    if (hand.empty()) ++accepted;
    else ++rejected;
    if (hand.empty() && !ts_error.empty()) {
      disagreements.push_back(f.string() + ": accepted by the hand-written parser; tree-sitter: " + ts_error);
    } else if (!hand.empty() && ts_error.empty()) {
      disagreements.push_back(f.string() + ": rejected (" + hand + ") by the hand-written parser; tree-sitter finds no error");
    }
  }
  std::ostringstream report;
  for (const auto& d : disagreements) report << d << "\n";
  INFO(files.size() << " files, " << accepted << " accepted, " << rejected << " rejected\n" << report.str());
  CHECK(accepted > 50);
  CHECK(rejected > 20);
  CHECK(disagreements.empty());
}

TEST_CASE("a broken definition leaves the rest of the tree intact", "[tree-sitter]") {
  const std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @broken(%x: float32) -> float32 {\n"
      "  %0 = add(%x, ;\n"
      "  %0\n"
      "}\n"
      "\n"
      "def @fine(%a: Tensor[(2, 2), float32]) -> Tensor[(2, 2), float32] {\n"
      "  nn.relu(%a)\n"
      "}\n"
      "\n"
      "type List[A] {\n"
      "  Cons(A, List[A]),\n"
      "  Nil,\n"
      "}\n";
  TsTree ts(text);
  TSNode root = ts.root();
  REQUIRE(ts_node_has_error(root));
  // The definitions after the error are whole and error-free.
  bool fine_intact = false, type_intact = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode c = ts_node_named_child(root, i);
    std::string type = ts_node_type(c);
    TSNode name = ts_node_child_by_field_name(c, "name", 4);
    std::string name_text = ts_node_is_null(name) ? "" : text.substr(ts_node_start_byte(name),
                                                                      ts_node_end_byte(name) - ts_node_start_byte(name));
    if (type == "function_definition" && name_text == "@fine") fine_intact = !ts_node_has_error(c);
    if (type == "type_definition" && name_text == "List") type_intact = !ts_node_has_error(c);
  }
  CHECK(fine_intact);
  CHECK(type_intact);
  CHECK(count_type(root, "constructor_definition") == 2);
}

TEST_CASE("TVM-printed and extension syntax gets the expected nodes", "[tree-sitter]") {
  const std::string text =
      "#[version = \"0.0.5\"]\n"
      "#[import = \"prelude\"]\n"
      "/// Documented.\n"
      "def @main(%t: ((float32, float32), float32), %x: Tensor[(n, 2 * n), float32] /* ty=T /* nested */ */) {\n"
      "  let %a = %t.0.1;\n"
      "  %0 = nn.conv2d(%x, meta[relay.Constant][0], padding=[1, 1], data_layout=\"NCHW\");\n"
      "  let %m = match? (%a) { _ => -1.5 };\n"
      "  (%0, %m, 1e-05f)\n"
      "}\n"
      "#[metadata]\n"
      "{\"root\": 1, \"nodes\": [], \"b64ndarrays\": []}\n";
  TsTree ts(text);
  TSNode root = ts.root();
  INFO(first_error(root));
  REQUIRE_FALSE(ts_node_has_error(root));
  CHECK(count_type(root, "file_attribute") == 2);
  CHECK(count_type(root, "doc_comment") == 1);
  CHECK(count_type(root, "block_comment") == 1);  // the nested one is a single comment
  CHECK(count_type(root, "projection") == 2);
  CHECK(count_type(root, "binary_dimension") == 1);
  CHECK(count_type(root, "meta_reference") == 1);
  CHECK(count_type(root, "attribute") == 2);
  CHECK(count_type(root, "match_expression") == 1);
  CHECK(count_type(root, "unary_expression") == 1);
  CHECK(count_type(root, "metadata_json") == 1);
}

// The grammar matches nested block comments with one regular expression, eight levels
// deep (grammar.js, COMMENT_DEPTH); the hand-written lexer counts to any depth.
std::string nested_comment(int depth) {
  std::string open, close;
  for (int d = 1; d <= depth; ++d) {
    open += "/* " + std::to_string(d) + " ";
    close = " " + std::to_string(d) + " */" + close;
  }
  return open + "* / ** // /" + close;
}

TEST_CASE("block comments nest to the grammar's depth, eight", "[tree-sitter]") {
  for (int depth = 1; depth <= 9; ++depth) {
    const std::string text = nested_comment(depth) + "\ndef @main() { 0 }\n";
    INFO("depth " << depth << ": " << text);
    CHECK(hand_rejects("nested.relay", text).empty());
    TsTree ts(text);
    if (depth <= 8) {
      CHECK_FALSE(ts_node_has_error(ts.root()));
      CHECK(count_type(ts.root(), "block_comment") == 1);
    } else {
      CHECK(ts_node_has_error(ts.root()));  // the documented limit
    }
  }
  // Unterminated at any depth: an error in both parsers.
  const std::string unterminated = "/* 1 /* 2 */\ndef @main() { 0 }\n";
  CHECK_FALSE(hand_rejects("open.relay", unterminated).empty());
  CHECK(ts_node_has_error(TsTree(unterminated).root()));
}

TEST_CASE("a shape of integer literals is one token, any other shape has its dimensions", "[tree-sitter]") {
  const std::string text =
      "def @f(%a: Tensor[(1, 64, 56, 56), float32], %b: Tensor[(), bool], %c: Tensor[(n, 3), int8],\n"
      "       %d: Tensor[(2i64), float32], %e: Tensor[(1,\n 2), float32]) { %a }\n";
  REQUIRE(hand_rejects("shapes.relay", text).empty());
  TsTree ts(text);
  INFO(first_error(ts.root()));
  REQUIRE_FALSE(ts_node_has_error(ts.root()));
  CHECK(count_type(ts.root(), "static_shape") == 2);
  CHECK(count_type(ts.root(), "shape") == 3);
  CHECK(count_type(ts.root(), "integer") == 4);  // 3, 2i64, 1 and 2
  CHECK(count_type(ts.root(), "dimension_name") == 1);
}

TEST_CASE("every query file compiles against the grammar", "[tree-sitter]") {
  const fs::path dir = fs::path(RELAY_SOURCE_DIR) / "editors/tree-sitter-relay/queries";
  for (const char* name : {"highlights.scm", "locals.scm", "folds.scm", "indents.scm", "injections.scm",
                           "textobjects.scm"}) {
    std::string source = read_file(dir / name);
    REQUIRE_FALSE(source.empty());
    uint32_t offset = 0;
    TSQueryError error = TSQueryErrorNone;
    TSQuery* q = ts_query_new(tree_sitter_relay(), source.data(), static_cast<uint32_t>(source.size()), &offset, &error);
    INFO(name << ": query error " << static_cast<int>(error) << " at byte " << offset);
    CHECK(q != nullptr);
    if (q) ts_query_delete(q);
  }
}
