// Native kernels on values held in a library's layout (compiler/pipeline/native_plan.h:
// plan_native_held): every group of the CNN models that can run so is compiled with its
// rank-4 inputs, its output, or both held as NHWC, nChw16c or nChw8c bytes, run on the
// interpreter's values of its inputs moved into that layout, and its result (moved back)
// must equal the reference kernels' bit for bit: the layout nodes only move where elements
// are read and written, the program is the plain kernel's.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "compiler/graph/run_graph.h"
#include "compiler/pipeline/native_plan.h"
#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
namespace t = relay::testing;

namespace {

// Whether `layout` can hold value `id` (rank 4, whole blocks of channels).
bool holds(const Graph& g, NodeId id, const ActivationLayout& layout) {
  const auto s = concrete_shape(g[id].type);
  return s && layout.holds(*s);
}

// The position of element (n, c, h, w) of an NCHW tensor of shape `s` in `layout`'s bytes.
int64_t position(const std::vector<int64_t>& s, const ActivationLayout& layout, int64_t n, int64_t c, int64_t h,
                 int64_t w) {
  switch (layout.kind) {
    case ActivationLayout::Kind::ChannelsLast: return ((n * s[2] + h) * s[3] + w) * s[1] + c;
    case ActivationLayout::Kind::Blocked: {
      const int64_t b = layout.block;
      return (((n * (s[1] / b) + c / b) * s[2] + h) * s[3] + w) * b + c % b;
    }
    default: return ((n * s[1] + c) * s[2] + h) * s[3] + w;
  }
}

// A copy of rank-4 tensor `a` of logical (NCHW) shape `nchw` with its elements moved from
// NCHW order into `layout`'s (`into`), or back.
rt::NDArray relayout(const rt::NDArray& a, const std::vector<int64_t>& nchw, const ActivationLayout& layout,
                     bool into) {
  const auto& s = nchw;
  rt::NDArray out = rt::NDArray::empty(into ? layout.physical_shape(s) : s, a.dtype());
  const size_t w = rt::dtype_bytes(a.dtype());
  const ActivationLayout plain_layout = ActivationLayout::plain();
  for (int64_t n = 0; n < s[0]; ++n)
    for (int64_t c = 0; c < s[1]; ++c)
      for (int64_t h = 0; h < s[2]; ++h)
        for (int64_t x = 0; x < s[3]; ++x) {
          const int64_t plain = position(s, plain_layout, n, c, h, x), held = position(s, layout, n, c, h, x);
          const int64_t from = into ? plain : held, to = into ? held : plain;
          std::memcpy(static_cast<char*>(out.raw()) + static_cast<size_t>(to) * w,
                      static_cast<const char*>(a.raw()) + static_cast<size_t>(from) * w, w);
        }
  return out;
}

// Bitwise, any NaN equal to any NaN; the first differing element, or -1.
int64_t first_difference(const rt::NDArray& a, const rt::NDArray& b) {
  const size_t w = rt::dtype_bytes(a.dtype());
  for (int64_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(static_cast<const char*>(a.raw()) + static_cast<size_t>(i) * w,
                    static_cast<const char*>(b.raw()) + static_cast<size_t>(i) * w, w) == 0)
      continue;
    if (a.dtype().is_float() && std::isnan(a.get_double(i)) && std::isnan(b.get_double(i))) continue;
    return i;
  }
  return -1;
}

enum class Mark { Inputs, Output, Both };

// Checks each group of the program that can run on held values with the values `layout`
// holds marked each way (a softmax only with both, and only channels-last); returns how
// many groups were checked.
size_t check_program(const t::CompiledModel& m, const std::string& name, const ActivationLayout& layout) {
  const t::FusedGraph fused = t::fused_main(m);
  const Graph& g = fused.graph;
  const std::vector<rt::NDArray> args = t::random_args(m, 3);
  std::vector<rt::Value> values(g.size());
  for (NodeId id = 0; id < g.size(); ++id) {
    const Node& n = g[id];
    if (n.kind == NodeKind::Input) values[id] = rt::Value(args[n.index]);
    else if (n.kind == NodeKind::Constant) values[id] = rt::Value(n.constant);
    else values[id] = eval_node(g, id, values);
  }
  size_t checked = 0;
  for (Mark mark : {Mark::Both, Mark::Inputs, Mark::Output}) {
    for (const FusedGroup& group : fused.plan.groups) {
      const bool softmax = channels_last_softmax(g, group);
      if (!held_layout_capable(g, group) && !softmax) continue;
      std::vector<bool> held(g.size(), false);
      bool any = false;
      if (mark != Mark::Output)
        for (NodeId in : group.inputs)
          if (holds(g, in, layout)) held[in] = any = true;
      const NodeId out = group.outputs[0];
      if (mark != Mark::Inputs && holds(g, out, layout)) held[out] = any = true;
      if (!any) continue;
      const char* marked = mark == Mark::Both ? "both" : mark == Mark::Inputs ? "inputs" : "output";
      INFO(name << ": group " << group.id << " (" << (g[group.master].op ? g[group.master].op->name : "tuple")
                << "), " << layout.name() << ": " << marked);
      std::string why;
      auto plan = plan_native_held(g, group, held, layout, &why);
      INFO(why);
      // A softmax: one side only, or a layout other than NHWC, is refused.
      if (softmax && (mark != Mark::Both || layout != ActivationLayout::channels_last())) {
        CHECK_FALSE(plan);
        continue;
      }
      REQUIRE(plan);
      const CompiledKernel k = Jit::instance().compile(plan->kernel);
      std::vector<rt::NDArray> inputs;
      std::vector<void*> buffers;
      for (NodeId in : plan->part.inputs) {
        const rt::NDArray& v = values[in].tensor();
        inputs.push_back(held[in] ? relayout(v, v.shape(), layout, true) : v);
        buffers.push_back(inputs.back().raw());
      }
      const rt::NDArray& want = values[out].tensor();
      CHECK(plan->out_shape == (held[out] ? layout.physical_shape(want.shape()) : want.shape()));
      rt::NDArray got = rt::NDArray::empty(plan->out_shape, want.dtype());
      buffers.push_back(got.raw());
      int32_t status = 0;
      if (plan->status_buffer >= 0) buffers.push_back(&status);
      run_kernel(k, buffers.data(), nullptr);
      CHECK(status == 0);
      const rt::NDArray plain = held[out] ? relayout(got, want.shape(), layout, false) : got;
      const int64_t at = first_difference(plain, want);
      INFO("first difference at element " << at);
      CHECK(at == -1);
      ++checked;
    }
  }
  return checked;
}

size_t check_model(const std::string& name, const ActivationLayout& layout) {
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
  REQUIRE(m->error == "");
  return check_program(*m, name, layout);
}

const ActivationLayout kHeldLayouts[] = {ActivationLayout::channels_last(), ActivationLayout::blocked(16),
                                         ActivationLayout::blocked(8)};

}  // namespace

TEST_CASE("native kernels on held values compute the reference's results", "[compiler][layout]") {
  // Pools with batch-norm epilogues, batch norms with ReLU, concatenations, global pools.
  for (const ActivationLayout& layout : kHeldLayouts)
    for (const char* name : {"resnet18", "densenet121", "inception_v3", "mobilenet", "squeezenet1_1"})
      DYNAMIC_SECTION(name << " on " << layout.name()) { CHECK(check_model(name, layout) > 0); }
}

TEST_CASE("softmax over channels-last values computes the reference's results", "[compiler][layout]") {
  // Along N, C and H, softmax and log_softmax; along W it is not offered (the reference's
  // formula there is its innermost axis's, and W is not innermost in NHWC bytes).
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 5, 3, 4), float32]) {
  %0 = nn.softmax(%x, axis=1);
  %1 = nn.log_softmax(%x, axis=-2);
  %2 = nn.softmax(%x, axis=0);
  %3 = nn.softmax(%x, axis=3);
  (%0, %1, %2, %3)
}
)");
  REQUIRE(m->error == "");
  const t::FusedGraph fused = t::fused_main(*m);
  size_t softmaxes = 0, along_w = 0;
  for (const FusedGroup& group : fused.plan.groups) {
    const Node& n = fused.graph[group.master];
    if (!n.op || std::string_view(n.op->name).find("softmax") == std::string_view::npos) continue;
    const bool w = n.attrs.get_int("axis", -1) == 3;
    CHECK(channels_last_softmax(fused.graph, group) == !w);  // along W: not offered
    softmaxes += !w;
    along_w += w;
  }
  CHECK(softmaxes == 3);
  CHECK(along_w == 1);
  CHECK(check_program(*m, "softmaxes", ActivationLayout::channels_last()) == 3);  // each of the three, both sides
  CHECK(check_program(*m, "softmaxes", ActivationLayout::blocked(8)) == 0);  // (5 channels: not held)
}

TEST_CASE("softmax over blocked values is refused", "[compiler][layout]") {
  // Only NHWC moves the softmax's axis; a blocked layout splits the channels.
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 3, 4), float32]) {
  nn.softmax(%x, axis=1)
}
)");
  REQUIRE(m->error == "");
  CHECK(check_program(*m, "softmax", ActivationLayout::channels_last()) == 1);
  CHECK(check_program(*m, "softmax", ActivationLayout::blocked(8)) == 0);  // refused: checked inside
}

TEST_CASE("a reduction or a group with a reference part has no kernel on held values", "[compiler][layout]") {
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 6, 6), float32], %w: Tensor[(4, 4, 3, 3), float32]) {
  %0 = mean(%x, axis=[2, 3], keepdims=True);
  %1 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  add(%1, %0)
}
)");
  REQUIRE(m->error == "");
  const t::FusedGraph fused = t::fused_main(*m);
  size_t refused = 0;
  for (const FusedGroup& group : fused.plan.groups) {
    const std::string op(fused.graph[group.master].op ? fused.graph[group.master].op->name : "tuple");
    if (op != "mean" && op != "nn.conv2d") continue;
    INFO(op);
    CHECK_FALSE(held_layout_capable(fused.graph, group));
    for (const ActivationLayout& layout : kHeldLayouts) {
      std::string why;
      CHECK_FALSE(plan_native_held(fused.graph, group, std::vector<bool>(fused.graph.size(), true), layout, &why));
      CHECK_FALSE(why.empty());
    }
    ++refused;
  }
  CHECK(refused == 2);
}

#endif
