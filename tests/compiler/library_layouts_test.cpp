// The layout pass between kernel-library calls (compiler/pipeline/library_layouts.h): a
// residual block's activations go from one oneDNN convolution to the next in oneDNN's
// layout, and compiled code still computes what the interpreter does; a value that a
// native kernel also reads (a pool beside the next convolution) is not handed over in a
// layout only libraries read, though it may be held channels-last (or blocked), which
// native kernels read too; the answer is still right. Run with ONEDNN_MAX_CPU_ISA=AVX2
// (ctest's compiler.layouts_avx2), where oneDNN's convolutions choose the blocked nChw8c,
// the native kernels between them hold that layout instead.
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

// Transposed convolutions, whose epilogues stay native kernels after the library call (an
// activation oneDNN would take, but measured faster outside it; docs/compiler.md).
const char* kTransposed =
    "%0 = nn.conv2d_transpose(%x, %w1, channels=64, kernel_size=[3, 3], padding=[1, 1, 1, 1]);\n"
    "%1 = nn.relu(add(%0, 0.5f));\n"
    "%2 = nn.conv2d_transpose(%1, %w2, channels=64, kernel_size=[3, 3], padding=[1, 1, 1, 1]);\n"
    "%3 = nn.relu(add(%2, 0.5f));\n"
    "%4 = nn.conv2d_transpose(%3, %w3, channels=64, kernel_size=[3, 3], padding=[1, 1, 1, 1]);\n"
    "nn.global_avg_pool2d(nn.relu(%4))";

// The layout oneDNN keeps this program's first `op`'s result in here (its choice depends
// on the processor: NHWC for brgconv on AVX-512, blocked nChw8c/16c for others).
ActivationLayout first_conv_layout(const t::CompiledModel& m, std::string_view op = "nn.conv2d") {
  const t::FusedGraph fused = t::fused_main(m);
  for (NodeId id = 0; id < fused.graph.size(); ++id)
    if (fused.graph[id].op && fused.graph[id].op->name == op) {
      std::string why;
      auto kernel = make_library_kernel(fused.graph, id, &why);
      return kernel ? kernel->written_layout() : ActivationLayout::plain();
    }
  return ActivationLayout::plain();
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
  // The library sums each convolution's K terms in its own order (its blocking follows the
  // CPU's cache sizes): K roundings per convolution, compounding along the chain.
  const compiler::BuildResult built = t::build_main(*c.model);
  REQUIRE(built.ok());
  size_t convolutions = 0;
  for (std::string_view rest = body; rest.find("nn.conv") != std::string_view::npos; ++convolutions)
    rest.remove_prefix(rest.find("nn.conv") + 1);
  const double tolerance =
      std::max(1e-4, static_cast<double>(convolutions) * static_cast<double>(t::longest_accumulation(*built.graph)) * 0x1p-23);
  for (int call = 0; call < 3; ++call)
    CHECK(t::max_rel_diff(c.compiled.outcome.code->call(vals).tensor(), want) < tolerance);
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
  if (library_kernels_built() && first_conv_layout(*c.model) == ActivationLayout::channels_last()) {
    // The pool, the softmax, the concatenation and the global pool read (and the first three
    // write) NHWC.
    CHECK(c.compiled.exe->held_layout() == ActivationLayout::channels_last());
    CHECK(c.compiled.exe->held_values() >= 5);
    CHECK(c.notes.find("(nn.max_pool2d, 1 ops): one native kernel on NHWC values") != std::string::npos);
    CHECK(c.notes.find("(nn.softmax, 1 ops): one native kernel on NHWC values") != std::string::npos);
  } else if (!library_kernels_built()) {
    CHECK(c.compiled.exe->held_values() == 0);
  }
}

TEST_CASE("the native epilogues of transposed convolutions keep the library's blocked activations",
          "[compiler][library]") {
  const Checked c = compile_and_check(kTransposed, 9);
  INFO(c.notes);
  if (!library_kernels_built()) return;
  const ActivationLayout layout = first_conv_layout(*c.model, "nn.conv2d_transpose");
  if (layout.is_plain()) return;  // (a library build whose transposed convolutions keep NCHW)
  // Each transposed convolution writes its result in the library's layout; its epilogue
  // reads it there and writes its own result there for the next one (the last epilogue's
  // result is read by the global pool, a native kernel too).
  CHECK(c.compiled.exe->held_layout() == layout);
  CHECK(c.compiled.exe->held_values() >= 5);
  size_t held_epilogues = 0;
  for (size_t at = 0; (at = c.notes.find("-op epilogue native on " + layout.name() + " values", at)) != std::string::npos;
       ++at)
    ++held_epilogues;
  CHECK(held_epilogues == 3);
}

// Hidden from the default run: ctest runs it as compiler.layouts_avx2 with
// ONEDNN_MAX_CPU_ISA=AVX2, which must be set before oneDNN's first call.
TEST_CASE("native kernels between AVX2 convolutions keep the library's blocked activations", "[.avx2]") {
  const Checked c = compile_and_check(kThroughNative, 7);
  INFO(c.notes);
  if (!library_kernels_built()) return;
  REQUIRE(first_conv_layout(*c.model) == ActivationLayout::blocked(8));
  // The pool and the concatenation read and write nChw8c, the global pool reads it; the
  // softmax (refused on a blocked layout) keeps its input and output plain.
  CHECK(c.compiled.exe->held_layout() == ActivationLayout::blocked(8));
  CHECK(c.compiled.exe->held_values() >= 3);
  CHECK(c.notes.find("(nn.max_pool2d, 1 ops): one native kernel on nChw8c values") != std::string::npos);
  CHECK(c.notes.find("(concatenate, ") != std::string::npos);
  CHECK(c.notes.find("(nn.softmax, 1 ops): one native kernel") == std::string::npos);
}

#endif
