// build_graph: every model of tests/models becomes a graph at its annotated shapes, with
// concrete types everywhere; functions that are not dataflow give a reason.
#include <catch2/catch.hpp>

#include "compiler/graph/print.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
using relay::testing::build_main;
using relay::testing::load_model_file;
using relay::testing::load_model_text;

TEST_CASE("every model of tests/models builds as a graph with concrete types", "[compiler][graph]") {
  const char* models[] = {"mlp", "resnet18", "resnet50", "mobilenet", "squeezenet1_0", "squeezenet1_1",
                          "vgg11", "densenet121", "inception_v3", "dcgan", "dqn", "lstm"};
  for (const char* name : models) {
    INFO(name);
    auto m = load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
    REQUIRE(m->error.empty());
    BuildResult r = build_main(*m);
    INFO(r.reason);
    REQUIRE(r.ok());
    const Graph& g = *r.graph;
    CHECK(g.params.size() == m->program->entry->fn->params.size());
    for (const Node& n : g.nodes) CHECK(is_concrete(n.type));
    // The result type is the one the checker gave @main's body.
    const auto* fn_type = ty_as<FuncTy>(m->types()->type);
    REQUIRE(fn_type);
    CHECK(type_to_string(g.nodes[g.output].type) == type_to_string(fn_type->ret));
  }
}

TEST_CASE("the graph keeps spans, parameters and operators of the source", "[compiler][graph]") {
  auto m = load_model_text(R"(
def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]) {
  %0 = add(%x, %y);
  let %z = nn.relu(%0);
  (%z, multiply(%z, 2f))
}
)");
  REQUIRE(m->error.empty());
  BuildResult r = build_main(*m);
  REQUIRE(r.ok());
  const Graph& g = *r.graph;
  CHECK(g.count(NodeKind::Input) == 2);
  CHECK(g.count(NodeKind::Call) == 3);
  CHECK(g.count(NodeKind::Constant) == 1);
  CHECK(g.count(NodeKind::Tuple) == 1);
  CHECK(g[g.output].kind == NodeKind::Tuple);
  CHECK(type_to_string(g[g.output].type) == "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])");
  for (const Node& n : g.nodes) CHECK(n.span.end > n.span.begin);
  CHECK(g[g.params[1]].name == "y");
}

TEST_CASE("shapes come from the arguments, not the annotations", "[compiler][graph]") {
  auto m = load_model_text(R"(
def @main(%x: Tensor[(?, 4), float32]) {
  sum(nn.relu(%x), axis=[1])
}
)");
  REQUIRE(m->error.empty());
  std::vector<ArgSpec> args{{{5, 4}, DataType::float_(32)}};
  BuildResult r = build_graph(*m->program->entry, m->types(), m->metadata(), args);
  REQUIRE(r.ok());
  CHECK(type_to_string(r.graph->nodes[r.graph->output].type) == "Tensor[(5), float32]");
  // An argument that contradicts a concrete annotation is refused.
  std::vector<ArgSpec> bad{{{5, 3}, DataType::float_(32)}};
  BuildResult r2 = build_graph(*m->program->entry, m->types(), m->metadata(), bad);
  CHECK_FALSE(r2.ok());
  CHECK_THAT(r2.reason, Catch::Contains("%x"));
}

TEST_CASE("functions that are not dataflow give a reason", "[compiler][graph]") {
  struct Case {
    const char* text;
    const char* reason;
  } cases[] = {
      {"def @main(%x: Tensor[(2), float32], %c: bool) { if (%c) { %x } else { negative(%x) } }", "control flow (`if`)"},
      {"type Box { B(Tensor[(2), float32]) }\ndef @main(%x: Tensor[(2), float32]) { match (B(%x)) { B(%y) => %y } }",
       "control flow (`match`)"},
      {"def @main(%x: Tensor[(2), float32]) { let %r = ref(%x); ref_read(%r) }", "references"},
      {"def @f(%x: Tensor[(2), float32]) -> Tensor[(2), float32] { %x }\ndef @main(%x: Tensor[(2), float32]) { @f(%x) }", "another global"},
      {"def @main(%x: Tensor[(2), float32]) { fn (%y: Tensor[(2), float32]) { add(%x, %y) } }", "closure"},
      {"def @main(%x: Tensor[(2), float32]) { let %f = fn (%y: Tensor[(2), float32]) { %y }; (%f, %x) }",
       "closure used as a value"},
      {"def @main(%x: Tensor[(2), float32]) { let %f = nn.relu; %f(%x) }", "operator used as a value"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto m = load_model_text(c.text);
    INFO(m->error);
    REQUIRE(m->error.empty());
    std::vector<ArgSpec> args;
    for (const VarDecl* p : m->program->entry->fn->params)
      args.push_back({p->name == "c" ? std::vector<int64_t>{} : std::vector<int64_t>{2},
                      p->name == "c" ? DataType::bool_() : DataType::float_(32)});
    BuildResult r = build_graph(*m->program->entry, m->types(), m->metadata(), args);
    CHECK_FALSE(r.ok());
    CHECK_THAT(r.reason, Catch::Contains(c.reason));
    CHECK(r.where.end > r.where.begin);
  }
}

TEST_CASE("a let-bound function literal that is only called is inlined", "[compiler][graph]") {
  auto m = load_model_text(R"(
def @main(%x: Tensor[(2), float32]) {
  let %f = fn (%y: Tensor[(2), float32]) { nn.relu(%y) };
  %f(%f(%x))
}
)");
  REQUIRE(m->error.empty());
  BuildResult r = build_main(*m);
  REQUIRE(r.ok());
  CHECK(r.graph->count_op("nn.relu") == 2);
}
