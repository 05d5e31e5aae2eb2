// The memory plan (compiler/pipeline/memory_plan.h): over every model's graph, no two
// values live at once share storage, in-place writes happen only where they are legal, and
// nothing that reaches the result is planned; on a small network, what the plan reuses and
// that compiled code computes what the interpreter does (call after call with the arena
// kept, and from several threads at once, when the arena is busy).
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <memory>
#include <thread>

#include "compiler/graph/passes.h"
#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/kernel_fusion.h"
#include "compiler/pipeline/memory_plan.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
namespace t = relay::testing;

namespace {

struct Planned {
  Graph g;
  FusionPlan fusion;
  std::vector<PlanStep> steps;
  MemoryPlan plan;
};

Planned plan_model(const t::CompiledModel& m) {
  Planned p{t::optimized_main(m), {}, {}, {}};
  p.fusion = fuse_for_kernels(p.g);
  p.steps = plan_steps(p.g, p.fusion);
  p.plan = plan_memory(p.g, p.steps);
  return p;
}

// The plan's invariants; returns how many values it placed (and counts the library calls
// writing over their residual).
size_t check_plan(const Planned& p, size_t& library_in_place) {
  const MemoryPlan& m = p.plan;
  const Graph& g = p.g;
  std::vector<NodeId> placed;
  for (NodeId id = 0; id < g.size(); ++id)
    if (m.slot_of[id] >= 0) placed.push_back(id);
  CHECK(m.slot_of[g.output] < 0);
  size_t end = 0;
  for (const MemoryPlan::Slot& s : m.slots) {
    CHECK(s.offset % MemoryPlan::kAlignment == 0);
    CHECK(s.offset >= end);  // slots do not overlap
    end = s.offset + s.bytes;
  }
  CHECK(end == m.arena_bytes);
  auto in_place = [&](NodeId out, NodeId in) {
    return std::find(m.in_place.begin(), m.in_place.end(), std::make_pair(out, in)) != m.in_place.end();
  };
  for (NodeId a : placed) {
    INFO("value %" << a);
    CHECK(m.live_until[a] != INT32_MAX);  // never a value that reaches the result
    CHECK(m.live_until[a] >= m.def_step[a]);
    CHECK(value_bytes(g, a) <= m.slots[static_cast<size_t>(m.slot_of[a])].bytes);
    for (NodeId b : placed) {
      if (a == b || m.slot_of[a] != m.slot_of[b]) continue;
      // Same storage: their lifetimes are disjoint, or b writes in place of a at the step a
      // dies (or the other way round).
      const bool disjoint = m.live_until[a] < m.def_step[b] || m.live_until[b] < m.def_step[a];
      const bool legal_in_place = (in_place(b, a) && m.live_until[a] == m.def_step[b]) ||
                                  (in_place(a, b) && m.live_until[b] == m.def_step[a]);
      INFO("shares its slot with %" << b);
      CHECK((disjoint || legal_in_place));
    }
  }
  for (const auto& [out, in] : m.in_place) {
    INFO("%" << out << " in place of %" << in);
    const PlanStep& s = p.steps[static_cast<size_t>(m.def_step[out])];
    if (s.library_residual && s.library_output == out) {
      // A library call writing over the residual its epilogue adds (its sum post-op), one
      // that the call does not also read as its data or weights.
      CHECK(*s.library_residual == in);
      CHECK(std::count(g[s.group->master].inputs.begin(), g[s.group->master].inputs.end(), in) == 0);
      ++library_in_place;
    } else {
      CHECK(s.native);
      CHECK(s.elementwise);
      CHECK(s.group->outputs[0] == out);
      CHECK(std::count(s.native_inputs.begin(), s.native_inputs.end(), in) > 0);
    }
    CHECK(concrete_shape(g[in].type) == concrete_shape(g[out].type));
    CHECK(static_cast<const TensorTy*>(g[in].type)->dtype == static_cast<const TensorTy*>(g[out].type)->dtype);
    CHECK(m.live_until[in] == m.def_step[out]);
  }
  CHECK(m.arena_bytes <= m.planned_bytes + MemoryPlan::kAlignment * m.slots.size());
  return placed.size();
}

// A program's plan, with its invariants checked (check_plan).
struct CheckedPlan {
  std::unique_ptr<t::CompiledModel> model;  // (the graph's types live in it)
  Planned p;
  size_t library_in_place = 0;
};
CheckedPlan plan_and_check(const char* text) {
  CheckedPlan c;
  c.model = t::load_model_text(text);
  REQUIRE(c.model->error == "");
  c.p = plan_model(*c.model);
  check_plan(c.p, c.library_in_place);
  return c;
}

}  // namespace

TEST_CASE("the memory plan of every model never overlaps live values", "[compiler][memory]") {
  size_t models = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(RELAY_SOURCE_DIR) + "/tests/models")) {
    if (e.path().extension() != ".relay") continue;
    DYNAMIC_SECTION(e.path().filename().string()) {
      auto m = t::load_model_file(e.path().string());
      REQUIRE(m->error == "");
      Planned p = plan_model(*m);
      size_t library_in_place = 0;
      const size_t placed = check_plan(p, library_in_place);
      INFO(print_memory_plan(p.g, p.plan));
      // A model with float convolutions or dense layers has them and their epilogues to
      // place, and a network of them reuses storage: fewer arena bytes than one buffer per
      // value. (The quantized CNN has qnn.* kernels, which return fresh arrays: nothing of
      // it is planned. The SSD head's three values overlap in time or do not fit each
      // other's slot once its convolutions compute their epilogues inside the library call.)
      const bool float_products = p.g.count_op("nn.conv2d") + p.g.count_op("nn.dense") > 0;
      if (float_products) {
        CHECK(placed > 0);
        CHECK(p.plan.arena_bytes <= p.plan.planned_bytes);
        if (placed >= 8) CHECK(p.plan.arena_bytes < p.plan.planned_bytes);
      }
      // ResNets add each block's input to its last convolution inside the library call; the
      // block's input dies there, so the call writes over it (where the library computes the
      // epilogue at all).
      if (library_kernels_built() && e.path().stem().string().rfind("resnet", 0) == 0) CHECK(library_in_place > 0);
    }
    ++models;
  }
  CHECK(models >= 14);  // MLP ... Inception-v3, the quantized CNN, the SSD detection head
}

namespace {
// Convolutions with an epilogue the kernel library does not take (leaky_relu), so it stays
// a native element-wise kernel after each convolution, with or without oneDNN (which may
// hold the activations in its own layout, the epilogues and the pool reading them so: each
// epilogue still reads and writes one element at the same place).
const char* kConvChain = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 16, 16), float32], %w: Tensor[(8, 8, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  %1 = nn.leaky_relu(%0, alpha=0.1f);
  %2 = nn.conv2d(%1, %w, padding=[1, 1, 1, 1]);
  %3 = nn.leaky_relu(%2, alpha=0.1f);
  %4 = nn.conv2d(%3, %w, padding=[1, 1, 1, 1]);
  %5 = nn.leaky_relu(%4, alpha=0.1f);
  nn.global_avg_pool2d(%5)
}
)";

// The same with relu, which oneDNN computes inside the convolution's call (a post-op).
const char* kConvReluChain = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 16, 16), float32], %w: Tensor[(8, 8, 3, 3), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  %1 = nn.relu(%0);
  %2 = nn.conv2d(%1, %w, padding=[1, 1, 1, 1]);
  %3 = nn.relu(%2);
  %4 = nn.conv2d(%3, %w, padding=[1, 1, 1, 1]);
  %5 = nn.relu(%4);
  nn.softmax(%5)
}
)";

// A transformer-like block: the second product adds its bias and the block's input (a
// value computed here, which dies at that call) inside the library call.
const char* kMatmulResidualBlock = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 16, 32), float32], %w1: Tensor[(2, 48, 32), float32], %w2: Tensor[(2, 32, 48), float32],
          %b: Tensor[(32), float32]) {
  %0 = tanh(%x);
  %1 = nn.batch_matmul(%0, %w1, transpose_b=True);
  %2 = nn.relu(%1);
  %3 = nn.batch_matmul(%2, %w2, transpose_b=True);
  %4 = add(%3, %b);
  %5 = add(%4, %0);
  nn.softmax(%5)
}
)";
}  // namespace

TEST_CASE("a batch_matmul writes its result over the residual its epilogue adds", "[compiler][memory]") {
  const CheckedPlan c = plan_and_check(kMatmulResidualBlock);
  const Planned& p = c.p;
  INFO(print_memory_plan(p.g, p.plan));
  // tanh's value, read by the first product as its data, dies at the second (not one of
  // its inputs): the second call's destination is its slot.
  CHECK(c.library_in_place == (library_kernels_built() ? 1u : 0u));
}

TEST_CASE("a convolution chain reuses two slots and writes its activations in place", "[compiler][memory]") {
  const CheckedPlan c = plan_and_check(kConvChain);
  const Planned& p = c.p;
  INFO(print_memory_plan(p.g, p.plan));
  const size_t act = 8 * 16 * 16 * 4;
  // Each leaky_relu writes over its convolution's output; the third convolution reuses the
  // first one's slot; the pool (the result) is not planned.
  CHECK(p.plan.in_place.size() == 3);
  CHECK(p.plan.slots.size() == 2);
  CHECK(p.plan.arena_bytes == 2 * act);
  CHECK(p.plan.planned_bytes == 6 * act);
  const std::string printed = print_memory_plan(p.g, p.plan);
  CHECK(printed.find("2 slots") != std::string::npos);
  CHECK(printed.find("in place:") != std::string::npos);
}

TEST_CASE("a convolution whose relu runs inside the library call plans one value per layer", "[compiler][memory]") {
  const CheckedPlan c = plan_and_check(kConvReluChain);
  const Planned& p = c.p;
  INFO(print_memory_plan(p.g, p.plan));
  const size_t act = 8 * 16 * 16 * 4;
  if (library_kernels_built()) {
    // Each convolution writes its relu's value into its slot; the convolutions' own
    // results are never written, so they get none.
    CHECK(p.plan.in_place.empty());
    CHECK(p.plan.planned_bytes == 3 * act);
    CHECK(p.plan.slots.size() == 2);
    for (NodeId id = 0; id < p.g.size(); ++id)
      if (p.g[id].op && p.g[id].op->name == "nn.conv2d") CHECK(p.plan.slot_of[id] < 0);
  } else {
    CHECK(p.plan.in_place.size() == 3);  // the relu writes over the convolution's output
    CHECK(p.plan.planned_bytes == 6 * act);
  }
}

TEST_CASE("compiled code with a memory plan computes what the interpreter does, call after call", "[compiler][memory]") {
  for (const char* text : {kConvChain, kConvReluChain, kMatmulResidualBlock}) {
    auto m = t::load_model_text(text);
    REQUIRE(m->error == "");
    const std::vector<rt::NDArray> args = t::random_args(*m, 7);
    const rt::NDArray want = t::interpret(*m, args).tensor();
    std::vector<rt::Value> vals(args.begin(), args.end());
    t::CompiledMain compiled = t::compile_for_args(*m, args);
    jit::CompileOutcome& out = compiled.outcome;
    CHECK(compiled.exe->memory_plan().arena_bytes > 0);
    // (The library sums each convolution's 72 products in its own order, three layers
    // deep: about 1e-5 apart from the reference, not bit-equal.)
    const double tolerance = 1e-4;
    for (int call = 0; call < 3; ++call) {  // the arena is kept and reused between calls
      const rt::NDArray got = out.code->call(vals).tensor();
      CHECK(t::max_rel_diff(got, want) < tolerance);
    }
    // Calls at the same time: one holds the kept arena, the others allocate their own.
    // Each thread has its own copies of the arguments: values are reference-counted without
    // atomics (interpreter/runtime/object.h), so threads must never copy one value at once.
    std::vector<rt::NDArray> results(4);
    std::vector<std::vector<rt::Value>> own_args(results.size());
    for (auto& a : own_args)
      for (const rt::NDArray& arg : args) a.push_back(rt::Value(arg.copy()));
    std::vector<std::thread> threads;
    for (size_t i = 0; i < results.size(); ++i)
      threads.emplace_back([&, i] {
        for (int k = 0; k < 5; ++k) results[i] = out.code->call(own_args[i]).tensor();
      });
    for (std::thread& th : threads) th.join();
    for (const rt::NDArray& got : results) CHECK(t::max_rel_diff(got, want) < tolerance);
  }
}
#endif
