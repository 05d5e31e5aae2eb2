// repl/dataflow_graph (a function as a DOT dataflow graph) and repl/graphviz_render (DOT
// to SVG through libgvc): node labels with types, edges through let and graph bindings,
// every expression kind, determinism, escaping, rendering and Graphviz errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"
#include "repl/dataflow_graph.h"
#include "repl/graphviz_render.h"
#include "tests/support/module_lookup.h"

using namespace relay;

namespace {

struct Program {
  SourceManager sources;
  DiagnosticBag diags;
  FrontendResult front;
  ModuleTypes types;  // after `front`: it points into the module

  const FuncDef& def(std::string_view name) const {
    const FuncDef* f = testing::find_def(*front.module, name);
    REQUIRE(f);
    return *f;
  }
  std::string dot(std::string_view name, bool with_types = true) const {
    const FuncDef& f = def(name);
    return repl::dataflow_dot(f, with_types ? types.find(&f) : nullptr);
  }
};

std::unique_ptr<Program> check(const std::string& text) {
  auto p = std::make_unique<Program>();
  const FileId file = p->sources.add("test.relay", "#[version = \"0.0.5\"]\n#[import = \"prelude\"]\n" + text);
  p->front = analyze_file(p->sources, file, p->diags);
  p->types = check_module(*p->front.module, p->front.prelude.get(), p->diags);
  for (const auto& d : p->diags.items())
    if (d.code() != "W0002") FAIL(std::string(d.code()) << " " << d.message);  // unused variables are fine
  return p;
}

// The nodes (id -> label, as written in the DOT text, i.e. with `\n` escapes) and edges
// ("n0 -> n4", with " [style=dashed]" when dashed) of dataflow_dot's output.
struct Graph {
  std::map<std::string, std::string> labels;
  std::vector<std::string> edges;

  explicit Graph(const std::string& dot) {
    size_t start = 0;
    while (start < dot.size()) {
      size_t end = dot.find('\n', start);
      if (end == std::string::npos) end = dot.size();
      parse_line(dot.substr(start, end - start));
      start = end + 1;
    }
  }

  // `  n3 [label="...", ...];` or `  n0 -> n3;` / `  n0 -> n3 [style=dashed];`.
  void parse_line(const std::string& line) {
    if (line.rfind("  n", 0) != 0) return;
    const size_t id_end = line.find(' ', 2);
    if (id_end == std::string::npos) return;
    const std::string node = line.substr(2, id_end - 2);
    if (line.compare(id_end, 4, " -> ") == 0) {
      edges.push_back(line.substr(2, line.size() - 3));  // without the indent and ';'
      return;
    }
    const std::string open = " [label=\"";
    if (line.compare(id_end, open.size(), open) != 0) return;
    std::string label;
    for (size_t i = id_end + open.size(); i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) label += line[i++];  // keep escapes as written
      label += line[i];
    }
    labels[node] = label;
  }

  // The id of the only node with this label.
  std::string id(const std::string& label) const {
    std::string found;
    for (const auto& [node, l] : labels) {
      if (l != label) continue;
      if (!found.empty()) FAIL("two nodes labelled " << label);
      found = node;
    }
    if (found.empty()) FAIL("no node labelled " << label << "; labels:\n" << all_labels());
    return found;
  }
  bool has_edge(const std::string& from, const std::string& to, bool dashed = false) const {
    const std::string want = id(from) + " -> " + id(to) + (dashed ? " [style=dashed]" : "");
    return std::find(edges.begin(), edges.end(), want) != edges.end();
  }
  std::string all_labels() const {
    std::string out;
    for (const auto& [node, l] : labels) out += node + ": " + l + "\n";
    return out;
  }
};

const char* kMlp = R"(
def @mlp(%x: Tensor[(1, 784), float32], %w1: Tensor[(128, 784), float32], %b1: Tensor[(128), float32],
         %w2: Tensor[(10, 128), float32]) -> Tensor[(1, 10), float32] {
  %0 = nn.dense(%x, %w1, units=128);
  let %hidden = nn.relu(nn.bias_add(%0, %b1));
  let %alias = %hidden;
  nn.softmax(nn.dense(%alias, %w2, units=10))
}
)";

// Runs `f` with file descriptor 2 sent to a temporary file; returns what was written there.
template <class F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  FILE* capture = std::tmpfile();
  REQUIRE(capture);
  const int saved = dup(2);
  dup2(fileno(capture), 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  std::rewind(capture);
  for (int c; (c = std::fgetc(capture)) != EOF;) text += static_cast<char>(c);
  std::fclose(capture);
  return text;
}

}  // namespace

TEST_CASE("dataflow graph: an MLP's nodes carry their types", "[repl][viz]") {
  auto p = check(kMlp);
  const std::string dot = p->dot("mlp");
  const Graph g(dot);
  INFO(dot);
  CHECK(dot.rfind("digraph \"mlp\" {\n", 0) == 0);
  CHECK(dot.find("rankdir=TB") != std::string::npos);
  // Parameters, operators (named after the binding that holds them), the result.
  const std::vector<std::string> expected = {
      "%x\\nTensor[(1, 784), float32]",
      "%w1\\nTensor[(128, 784), float32]",
      "%b1\\nTensor[(128), float32]",
      "%w2\\nTensor[(10, 128), float32]",
      "%0 = nn.dense\\nTensor[(1, 128), float32]",
      "nn.bias_add\\nTensor[(1, 128), float32]",
      "%hidden = nn.relu\\nTensor[(1, 128), float32]",
      "nn.dense\\nTensor[(1, 10), float32]",
      "nn.softmax\\nTensor[(1, 10), float32]",
      "result\\nTensor[(1, 10), float32]",
  };
  for (const auto& label : expected) CHECK_FALSE(g.id(label).empty());
  // Bindings are transparent: no node for %alias (nor a second one for %0 or %hidden).
  CHECK(g.labels.size() == expected.size());
  CHECK(dot.find("alias") == std::string::npos);

  CHECK(g.has_edge("%x\\nTensor[(1, 784), float32]", "%0 = nn.dense\\nTensor[(1, 128), float32]"));
  CHECK(g.has_edge("%w1\\nTensor[(128, 784), float32]", "%0 = nn.dense\\nTensor[(1, 128), float32]"));
  CHECK(g.has_edge("%0 = nn.dense\\nTensor[(1, 128), float32]", "nn.bias_add\\nTensor[(1, 128), float32]"));
  CHECK(g.has_edge("%b1\\nTensor[(128), float32]", "nn.bias_add\\nTensor[(1, 128), float32]"));
  CHECK(g.has_edge("nn.bias_add\\nTensor[(1, 128), float32]", "%hidden = nn.relu\\nTensor[(1, 128), float32]"));
  // %alias is %hidden: the use of %alias links to the relu.
  CHECK(g.has_edge("%hidden = nn.relu\\nTensor[(1, 128), float32]", "nn.dense\\nTensor[(1, 10), float32]"));
  CHECK(g.has_edge("%w2\\nTensor[(10, 128), float32]", "nn.dense\\nTensor[(1, 10), float32]"));
  CHECK(g.has_edge("nn.dense\\nTensor[(1, 10), float32]", "nn.softmax\\nTensor[(1, 10), float32]"));
  CHECK(g.has_edge("nn.softmax\\nTensor[(1, 10), float32]", "result\\nTensor[(1, 10), float32]"));
  CHECK(g.edges.size() == 9);
  // Attributes are in the tooltip, not the label.
  CHECK(dot.find("tooltip=\"nn.dense(units=128)\"") != std::string::npos);
}

TEST_CASE("dataflow graph: deterministic, and without types", "[repl][viz]") {
  auto first = check(kMlp);
  auto second = check(kMlp);  // other addresses, same text
  CHECK(first->dot("mlp") == first->dot("mlp"));
  CHECK(first->dot("mlp") == second->dot("mlp"));

  // Without inferred types, parameters show their annotations and other nodes no type.
  const Graph g(first->dot("mlp", /*with_types=*/false));
  CHECK_FALSE(g.id("%x\\nTensor[(1, 784), float32]").empty());
  CHECK_FALSE(g.id("%hidden = nn.relu").empty());
  CHECK(g.has_edge("%0 = nn.dense", "nn.bias_add"));
  CHECK_FALSE(g.id("result\\nTensor[(1, 10), float32]").empty());  // the written return type
}

TEST_CASE("dataflow graph: every expression kind", "[repl][viz]") {
  auto p = check(R"(
def @id(%a: Tensor[(2), float32]) -> Tensor[(2), float32] { %a }
def @kinds(%c: bool, %v: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %t = (%v, 1f);
  let %p = %t.0;
  let %f = fn (%y: Tensor[(2), float32]) { add(%y, %p) };
  let %z = @id(%f(%p));
  let %r = ref(%v);
  ref_write(%r, %z);
  let %l = Cons(%v, Nil);
  let %m = match %l { Cons(%h, _) => %h, Nil => %v };
  if (%c) { %m } else { ref_read(%r) }
}
)");
  const std::string dot = p->dot("kinds");
  const Graph g(dot);
  INFO(dot);
  const std::string c = "%c\\nbool", v = "%v\\nTensor[(2), float32]";
  const std::string one = "1f\\nfloat32";
  const std::string tuple = "%t = tuple\\n(Tensor[(2), float32], float32)";
  const std::string proj = "%p = .0\\nTensor[(2), float32]";
  const std::string fn = "%f = fn\\nfn (Tensor[(2), float32]) -> Tensor[(2), float32]";
  const std::string call = "call\\nTensor[(2), float32]";
  const std::string global = "%z = @id\\nTensor[(2), float32]";
  const std::string ref = "%r = ref\\nref(Tensor[(2), float32])";
  const std::string write = "ref_write\\n()";
  const std::string nil = "Nil\\nList[Tensor[(2), float32]]";
  const std::string cons = "%l = Cons\\nList[Tensor[(2), float32]]";
  const std::string match = "%m = match\\nTensor[(2), float32]";
  const std::string cond = "if\\nTensor[(2), float32]";
  const std::string result = "result\\nTensor[(2), float32]";
  CHECK(g.labels.size() == 15);
  CHECK(g.has_edge(v, tuple));
  CHECK(g.has_edge(one, tuple));
  CHECK(g.has_edge(tuple, proj));
  CHECK(g.has_edge(proj, fn));              // the closure captures %p
  CHECK(g.has_edge(fn, call, /*dashed=*/true));  // the function being called
  CHECK(g.has_edge(proj, call));
  CHECK(g.has_edge(call, global));
  CHECK(g.has_edge(v, ref));
  CHECK(g.has_edge(ref, write));
  CHECK(g.has_edge(global, write));
  CHECK(g.has_edge(v, cons));
  CHECK(g.has_edge(nil, cons));
  CHECK(g.has_edge(cons, match));
  CHECK(g.has_edge(v, match));              // used inside a clause
  CHECK(g.has_edge(c, cond));
  CHECK(g.has_edge(match, cond));           // the branches use %m and %r
  CHECK(g.has_edge(ref, cond));
  CHECK(g.has_edge(cond, result));
  // Names bound only inside branches, clauses or closures do not become nodes.
  CHECK(dot.find("%h") == std::string::npos);
  CHECK(dot.find("%y") == std::string::npos);
}

TEST_CASE("dataflow graph: odd trees do not crash and names are escaped", "[repl][viz]") {
  FunctionExpr fn(Span{});  // no parameters, no body
  FuncDef def;
  def.name = "we\"ird\\name&co";
  def.fn = &fn;
  const std::string dot = repl::dataflow_dot(def, nullptr);
  CHECK(dot.rfind("digraph \"we\\\"ird\\\\name&amp;co\" {\n", 0) == 0);
  const Graph g(dot);
  CHECK(g.has_edge("missing", "result"));

  FuncDef empty;
  empty.name = "empty";
  CHECK(repl::dataflow_dot(empty, nullptr).find("digraph \"empty\"") == 0);

  std::string svg, error;
  REQUIRE(repl::render_svg(dot, &svg, &error));
  CHECK(svg.find(">@we&quot;ird\\name&amp;co</text>") != std::string::npos);  // the graph's label
}

TEST_CASE("graphviz: a dataflow graph renders as SVG", "[repl][viz]") {
  auto p = check(kMlp);
  std::string svg, error;
  REQUIRE(repl::render_svg(p->dot("mlp"), &svg, &error));
  CHECK(error.empty());
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(svg.find(">nn.softmax</text>") != std::string::npos);
  CHECK(svg.find(">%0 = nn.dense</text>") != std::string::npos);
  CHECK(svg.find(">Tensor[(1, 784), float32]</text>") != std::string::npos);
}

TEST_CASE("graphviz: bad DOT is an error with a message, quietly", "[repl][viz]") {
  std::string svg = "unchanged", error;
  bool ok = true;
  const std::string printed = stderr_of([&] { ok = repl::render_svg("digraph { a -> ; }", &svg, &error); });
  CHECK_FALSE(ok);
  CHECK(error.find("syntax error") != std::string::npos);
  CHECK(svg == "unchanged");
  CHECK(printed.empty());

  error.clear();
  CHECK_FALSE(repl::render_svg("", &svg, &error));
  CHECK_FALSE(error.empty());

  // Graphviz recovers: the next graph renders.
  error.clear();
  CHECK(repl::render_svg("digraph { a -> b }", &svg, &error));
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(error.empty());
}
