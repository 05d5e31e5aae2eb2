// The layout pass between kernel-library calls (compiler/pipeline/library_layouts.h): a
// residual block's activations go from one oneDNN convolution to the next in oneDNN's
// layout, and compiled code still computes what the interpreter does; a value that a
// native kernel also reads (a pool beside the next convolution) is not handed over in a
// layout only libraries read, though it may be kept channels-last, which native kernels
// read too; the answer is still right.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
namespace t = relay::testing;

namespace {

const char* kParams =
    "%x: Tensor[(1, 64, 14, 14), float32], %w1: Tensor[(64, 64, 3, 3), float32], "
    "%w2: Tensor[(64, 64, 3, 3), float32], %w3: Tensor[(64, 64, 3, 3), float32]";

std::string program(const std::string& body) {
  return std::string("#[version = \"0.0.5\"]\ndef @main(") + kParams + ") {\n" + body + "\n}\n";
}

// A residual block: relu(conv) feeds conv, whose sum adds the block's input (a conv's
// result too), then relu; a pool reads the end.
const char* kBlock =
    "%0 = nn.relu(nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]));\n"
    "%1 = nn.relu(nn.conv2d(%0, %w2, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]));\n"
    "%2 = nn.conv2d(%1, %w3, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]);\n"
    "%3 = nn.relu(add(%2, %0));\n"
    "nn.global_avg_pool2d(%3)";

// The first activation is read by a convolution and by a native max pool.
const char* kShared =
    "%0 = nn.relu(nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]));\n"
    "%1 = nn.conv2d(%0, %w2, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]);\n"
    "%2 = nn.max_pool2d(%0, pool_size=[3, 3], padding=[1, 1, 1, 1]);\n"
    "add(%1, %2)";

// Native kernels between the convolutions: a pool whose result the next convolution adds
// back (a residual from a native kernel), a softmax over the channels, a concatenation of
// a convolution with its own input, a global pool at the end.
const char* kThroughNative =
    "%0 = nn.relu(nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]));\n"
    "%1 = nn.max_pool2d(%0, pool_size=[3, 3], padding=[1, 1, 1, 1]);\n"
    "%2 = nn.relu(add(nn.conv2d(%1, %w2, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]), %1));\n"
    "%3 = nn.conv2d(nn.softmax(%2, axis=1), %w3, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]);\n"
    "%4 = concatenate((%3, %2), axis=1);\n"
    "nn.global_avg_pool2d(%4)";

// Whether oneDNN keeps this program's first convolution's result as NHWC bytes here (its
// choice depends on the processor: NHWC for brgconv on AVX-512, blocked nChw8c/16c for
// others).
bool first_conv_channels_last(const t::CompiledModel& m) {
  const t::FusedGraph fused = t::fused_main(m);
  for (NodeId id = 0; id < fused.graph.size(); ++id)
    if (fused.graph[id].op && fused.graph[id].op->name == std::string_view("nn.conv2d")) {
      std::string why;
      auto kernel = make_library_kernel(fused.graph, id, &why);
      return kernel && kernel->writes_channels_last();
    }
  return false;
}

// The program compiled for seeded arguments, three calls of it checked against the
// interpreter; its report's notes, one per line.
struct Checked {
  std::unique_ptr<t::CompiledModel> model;
  t::CompiledMain compiled;
  std::string notes;
};
Checked compile_and_check(const char* body, uint64_t seed) {
  Checked c;
  c.model = t::load_model_text(program(body));
  REQUIRE(c.model->error == "");
  std::vector<rt::NDArray> args = t::random_args(*c.model, seed);
  std::vector<rt::Value> vals(args.begin(), args.end());
  c.compiled = t::compile_for_args(*c.model, args);
  for (const std::string& n : c.compiled.outcome.notes) c.notes += n + "\n";
  INFO(c.notes);
  const rt::NDArray want = t::interpret(*c.model, args).tensor();
  for (int call = 0; call < 3; ++call)
    CHECK(t::max_rel_diff(c.compiled.outcome.code->call(vals).tensor(), want) < 1e-4);
  return c;
}

void check_compiled(const char* body, bool expect_handover) {
  const Checked c = compile_and_check(body, 5);
  INFO(c.notes);
  const Executable& exe = *c.compiled.exe;
  if (!library_kernels_built()) {
    CHECK(exe.library_layout_values() == 0);
    return;
  }
  // oneDNN's direct convolutions here (brgconv, jit) keep blocked or NHWC activations; a
  // GEMM-based one would take them plain, and then nothing is handed over.
  const bool own_layout = c.notes.find("gemm") == std::string::npos && c.notes.find("ref:") == std::string::npos;
  if (expect_handover && own_layout) {
    CHECK(exe.library_layout_values() > 0);
    CHECK(c.notes.find("its result in oneDNN's layout") != std::string::npos);
  }
  if (!expect_handover) CHECK(exe.library_layout_values() == 0);
}

}  // namespace

TEST_CASE("a residual block hands its activations over in the library's layout", "[compiler][library]") {
  check_compiled(kBlock, true);
}

TEST_CASE("a value a native kernel also reads is not kept in a layout for libraries only", "[compiler][library]") {
  check_compiled(kShared, false);
}

TEST_CASE("native kernels between convolutions keep the library's NHWC activations", "[compiler][library]") {
  const Checked c = compile_and_check(kThroughNative, 7);
  INFO(c.notes);
  if (library_kernels_built() && first_conv_channels_last(*c.model)) {
    // The pool, the softmax, the concatenation and the global pool read (and the first three
    // write) NHWC.
    CHECK(c.compiled.exe->channels_last_values() >= 5);
    CHECK(c.notes.find("(nn.max_pool2d, 1 ops): one native kernel on channels-last (NHWC) values") != std::string::npos);
    CHECK(c.notes.find("(nn.softmax, 1 ops): one native kernel on channels-last (NHWC) values") != std::string::npos);
  } else if (!library_kernels_built()) {
    CHECK(c.compiled.exe->channels_last_values() == 0);
  }
}

// The kept arena's slot views are made once (executable.h), but a weight computed inside
// the function lands in a slot too: the prepared-weight cache knows a tensor by its serial,
// so such a weight must come as a new tensor on every call, or the second call would reuse
// the first call's prepared weights.
TEST_CASE("a weight computed inside the function is prepared again for each call", "[compiler][library]") {
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(16, 16, 3, 3), float32], %s: Tensor[(16, 1, 1, 1), float32]) {
  %0 = multiply(%w, %s);
  nn.conv2d(%x, %0, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3])
}
)");
  REQUIRE(m->error == "");
  std::vector<rt::NDArray> args = t::random_args(*m, 9);
  t::CompiledMain compiled = t::compile_for_args(*m, args);
  for (double scale : {1.0, -2.0, 0.5}) {
    INFO("scale " << scale);
    rt::NDArray s = rt::NDArray::empty({16, 1, 1, 1}, DataType::float_(32));
    for (int64_t i = 0; i < 16; ++i) s.set_double(i, scale * static_cast<double>(i + 1));
    args[2] = s;
    std::vector<rt::Value> vals(args.begin(), args.end());
    const rt::NDArray want = t::interpret(*m, args).tensor();
    CHECK(t::max_rel_diff(compiled.outcome.code->call(vals).tensor(), want) < 1e-4);
  }
}

#endif
