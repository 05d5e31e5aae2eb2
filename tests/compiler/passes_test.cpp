// Each pass on small programs (node counts and kinds), and every pass together against
// the reference: batch_norm simplified equals the batch_norm kernel.
#include <catch2/catch.hpp>

#include "compiler/graph/passes.h"
#include "compiler/graph/run_graph.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
using relay::testing::build_main;
using relay::testing::load_model_text;

namespace {

Graph graph_of(const std::string& text) {
  auto m = load_model_text(text);
  INFO(m->error);
  REQUIRE(m->error.empty());
  BuildResult r = build_main(*m);
  INFO(r.reason);
  REQUIRE(r.ok());
  return std::move(*r.graph);
}

rt::NDArray random_tensor(std::vector<int64_t> shape, uint64_t seed, double lo = -1, double hi = 1) {
  rt::NDArray a = rt::NDArray::empty(shape, DataType::float_(32));
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int64_t i = 0; i < a.size(); ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    a.set_double(i, lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0);
  }
  return a;
}

}  // namespace

TEST_CASE("dead-code elimination drops what the result does not read", "[compiler][passes]") {
  Graph g = graph_of(R"(
def @main(%x: Tensor[(4), float32], %unused: Tensor[(4), float32]) {
  %0 = exp(%x);
  %1 = log(%unused);
  let %2 = tanh(%x);
  nn.relu(%0)
}
)");
  CHECK(g.count(NodeKind::Call) == 4);
  Graph d = eliminate_dead_code(g);
  CHECK(d.count(NodeKind::Call) == 2);
  CHECK(d.count_op("log") == 0);
  CHECK(d.count_op("tanh") == 0);
  CHECK(d.params.size() == 2);  // parameters are positional: they stay
}

TEST_CASE("common-subexpression elimination merges equal calls", "[compiler][passes]") {
  Graph g = graph_of(R"(
def @main(%x: Tensor[(2, 4), float32]) {
  %0 = nn.relu(%x);
  %1 = nn.relu(%x);
  %2 = sum(%0, axis=[1]);
  %3 = sum(%1, axis=[1]);
  %4 = sum(%1, axis=[0]);
  %5 = nn.softmax(%x, axis=1);
  %6 = nn.softmax(%x, axis=-1);
  (add(%2, %3), %4, %5, %6)
}
)");
  Graph c = eliminate_common_subexpressions(g);
  CHECK(c.count_op("nn.relu") == 1);
  CHECK(c.count_op("sum") == 2);  // axis differs
  CHECK(c.count_op("nn.softmax") == 2);  // axis=1 and axis=-1 are different attribute values
  auto add = std::find_if(c.nodes.begin(), c.nodes.end(), [](const Node& n) { return n.kind == NodeKind::Call && n.op->name == "add"; });
  REQUIRE(add != c.nodes.end());
  CHECK(add->inputs[0] == add->inputs[1]);
}

TEST_CASE("constant folding evaluates calls on constants once", "[compiler][passes]") {
  Graph g = graph_of(R"(
def @main(%x: Tensor[(3), float32]) {
  %0 = add(2f, 3f);
  %1 = multiply(%0, ones(shape=[3], dtype="float32"));
  %2 = split(%1, indices_or_sections=3);
  add(%x, %2.1)
}
)");
  Graph f = fold_constants(g);
  CHECK(f.count(NodeKind::Call) == 1);  // the add of %x
  CHECK(f.count_op("add") == 1);
  const Node& out = f[f.output];
  REQUIRE(out.kind == NodeKind::Call);
  const Node& k = f[out.inputs[1]];
  REQUIRE(k.kind == NodeKind::Constant);
  CHECK(k.constant.size() == 1);
  CHECK(k.constant.get_double(0) == 5.0);
  rt::NDArray x = random_tensor({3}, 1);
  rt::Value args[] = {x};
  CHECK(relay::testing::max_rel_diff(run_graph(f, args).tensor(), run_graph(g, args).tensor()) == 0);
}

TEST_CASE("inference simplification removes dropout and bias_add", "[compiler][passes]") {
  Graph g = graph_of(R"(
def @main(%x: Tensor[(2, 5), float32], %w: Tensor[(3, 5), float32], %b: Tensor[(3), float32],
          %img: Tensor[(1, 3, 4, 4), float32]) {
  %0 = nn.dropout(%x, rate=0.5f);
  %1 = nn.dense(%0.0, %w, units=3);
  %2 = nn.bias_add(%1, %b, axis=-1);
  %3 = nn.bias_add(%img, %b);
  (%2, %3)
}
)");
  Graph s = optimize(g);
  CHECK(s.count_op("nn.dropout") == 0);
  CHECK(s.count_op("nn.bias_add") == 0);
  CHECK(s.count_op("add") == 2);
  CHECK(s.count_op("expand_dims") == 1);  // only the NCHW one needs (C, 1, 1)
  CHECK(s.count(NodeKind::GetItem) == 0);
  rt::Value args[] = {random_tensor({2, 5}, 1), random_tensor({3, 5}, 2), random_tensor({3}, 3),
                      random_tensor({1, 3, 4, 4}, 4)};
  rt::Value a = run_graph(s, args);
  // The reference: the same graph without the rewrites (dropout is the identity in the
  // kernel's inference mode).
  rt::Value b = run_graph(g, args);
  for (size_t i = 0; i < 2; ++i)
    CHECK(relay::testing::max_rel_diff(a.tuple().fields[i].tensor(), b.tuple().fields[i].tensor()) < 1e-6);
}

TEST_CASE("batch_norm simplified agrees with the reference batch_norm", "[compiler][passes]") {
  const char* text = R"(
def @main(%x: Tensor[(2, 4, 3, 3), float32], %g: Tensor[(4), float32], %b: Tensor[(4), float32],
          %m: Tensor[(4), float32], %v: Tensor[(4), float32], %y: Tensor[(3, 4), float32]) {
  %0 = nn.batch_norm(%x, %g, %b, %m, %v, epsilon=2e-05f);
  %1 = nn.batch_norm(%x, %g, %b, %m, %v, scale=False, center=False);
  %2 = nn.batch_norm(%y, %g, %b, %m, %v, axis=-1);
  (%0.0, %1.0, %2.0, %0.2)
}
)";
  Graph g = graph_of(text);
  Graph s = optimize(g);
  CHECK(s.count_op("nn.batch_norm") == 0);
  CHECK(s.count_op("sqrt") >= 1);
  rt::Value args[] = {random_tensor({2, 4, 3, 3}, 1), random_tensor({4}, 2), random_tensor({4}, 3),
                      random_tensor({4}, 4), random_tensor({4}, 5, 0.5, 1.5), random_tensor({3, 4}, 6)};
  rt::Value got = run_graph(s, args);
  rt::Value want = run_graph(g, args);  // the batch_norm kernel
  for (size_t i = 0; i < 4; ++i) {
    INFO(i);
    CHECK(relay::testing::max_rel_diff(got.tuple().fields[i].tensor(), want.tuple().fields[i].tensor()) < 1e-6);
  }
}

TEST_CASE("batch_norm with constant parameters folds to one multiply and one add", "[compiler][passes]") {
  Graph g = graph_of(R"(
def @main(%x: Tensor[(1, 2, 2, 2), float32]) {
  %0 = nn.batch_norm(%x, ones(shape=[2], dtype="float32"), zeros(shape=[2], dtype="float32"),
                     zeros(shape=[2], dtype="float32"), ones(shape=[2], dtype="float32"));
  nn.relu(%0.0)
}
)");
  Graph s = optimize(g);
  CHECK(s.count(NodeKind::Call) == 3);
  CHECK(s.count_op("multiply") == 1);
  CHECK(s.count_op("add") == 1);
  CHECK(s.count_op("nn.relu") == 1);
  rt::Value args[] = {random_tensor({1, 2, 2, 2}, 9)};
  CHECK(relay::testing::max_rel_diff(run_graph(s, args).tensor(), run_graph(g, args).tensor()) < 1e-6);
}

TEST_CASE("a split's fields read on their own become slices of its input", "[compiler][passes]") {
  // Equal sections, and points: [0, 2), [2, 5), [5, 8) of an axis of 8.
  Graph g = graph_of(R"(
def @main(%x: Tensor[(3, 8), float32]) {
  %0 = split(%x, indices_or_sections=4, axis=1);
  %1 = split(%x, indices_or_sections=[2, 5], axis=-1);
  %2 = add(sigmoid(%0.0), tanh(%0.3));
  %3 = multiply(%2, %1.0);
  (%3, %1.1, %1.2, %0.1)
}
)");
  Graph s = eliminate_dead_code(slice_split_fields(g));
  CHECK(s.count_op("split") == 0);
  CHECK(s.count_op("strided_slice") == 6);
  rt::Value args[] = {random_tensor({3, 8}, 3)};
  rt::Value got = run_graph(s, args);
  rt::Value want = run_graph(g, args);
  REQUIRE(got.is_tuple());
  for (size_t k = 0; k < 4; ++k) {
    INFO("field " << k);
    const rt::NDArray a = got.tuple().fields[k].tensor(), b = want.tuple().fields[k].tensor();
    CHECK(a.shape() == b.shape());
    CHECK(relay::testing::max_rel_diff(a, b) == 0);
  }
}

TEST_CASE("a split whose tuple is read whole stays", "[compiler][passes]") {
  Graph g = graph_of(R"(
def @main(%x: Tensor[(4, 6), float32]) {
  %0 = split(%x, indices_or_sections=2);
  (%0, sigmoid(%0.1))
}
)");
  Graph s = eliminate_dead_code(slice_split_fields(g));
  CHECK(s.count_op("split") == 1);
  CHECK(s.count_op("strided_slice") == 1);
}
