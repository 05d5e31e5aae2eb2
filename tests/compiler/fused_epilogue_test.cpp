// A convolution's or dense layer's element-wise epilogue computed inside the kernel
// library's call (compiler/graph/epilogue.h, compiler/dnnl/fused_epilogue.h): for each
// chain the library takes (batch-norm scale folded into the weights, bias, relu, clip,
// sigmoid, tanh, a residual add as the sum post-op before or after other steps, NHWC,
// depthwise, dense, batch_matmul with every step a post-op), compiled code computes what
// the interpreter does, call after call; new batch-norm values (a new folded scale) give new weights, not the cached ones; and a
// chain the library does not take (an exp after relu) stays a native epilogue with
// the same answer. Without oneDNN every group keeps its native epilogue.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include "tests/compiler/compiler_test_util.h"

using namespace relay;
using namespace relay::compiler;
namespace t = relay::testing;

namespace {

struct Case {
  const char* name;
  const char* params;
  const char* body;
  size_t fused;        // groups with the epilogue inside the library call (with oneDNN)
  const char* report;  // what the compile notes say of it (with oneDNN; "" for none)
  bool uses_vectors;   // reads its 1-D parameters (the batch norm's, a bias)
};

const char* kConvParams =
    "%x: Tensor[(1, 8, 12, 12), float32], %w: Tensor[(16, 8, 3, 3), float32], %g: Tensor[(16), float32], "
    "%b: Tensor[(16), float32], %m: Tensor[(16), float32], %var: Tensor[(16), float32], "
    "%r: Tensor[(1, 16, 12, 12), float32]";

const Case kCases[] = {
    {"batch norm and relu", kConvParams,
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
     "%1 = nn.batch_norm(%0, %g, %b, %m, %var);\n"
     "%2 = nn.relu(%1.0);\n"
     "nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2])",
     1, "scale folded into the weights, bias, post-ops relu", true},
    {"residual add, then relu", kConvParams,
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
     "%1 = add(%0, %r);\n"
     "%2 = nn.relu(%1);\n"
     "multiply(%2, 2f)",
     1, "post-ops sum + relu + scale", false},
    {"residual add, then batch norm and relu", kConvParams,
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
     "%1 = add(%0, %r);\n"
     "%2 = nn.batch_norm(%1, %g, %b, %m, %var);\n"
     "%3 = nn.relu(%2.0);\n"
     "nn.max_pool2d(%3, pool_size=[2, 2], strides=[2, 2])",
     1, "post-ops sum + scale + shift + relu", true},
    {"scalar scale, per-channel subtract, sigmoid", kConvParams,
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
     "%1 = multiply(%0, 0.5f);\n"
     "%2 = subtract(%1, expand_dims(%b, axis=1, num_newaxis=2));\n"
     "sigmoid(%2)",
     1, "scale folded into the weights, bias, post-ops sigmoid", true},
    {"depthwise with a bias and clip",
     "%x: Tensor[(1, 8, 12, 12), float32], %w: Tensor[(8, 1, 3, 3), float32], %b: Tensor[(8), float32]",
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=8, channels=8, kernel_size=[3, 3]);\n"
     "%1 = nn.bias_add(%0, %b);\n"
     "%2 = clip(%1, a_min=0f, a_max=1f);\n"
     "nn.avg_pool2d(%2, pool_size=[2, 2], strides=[2, 2])",
     1, "bias, post-ops clip", true},
    {"NHWC with a bias and tanh",
     "%x: Tensor[(1, 12, 12, 8), float32], %w: Tensor[(3, 3, 8, 16), float32], %b: Tensor[(16), float32]",
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], data_layout=\"NHWC\", "
     "kernel_layout=\"HWIO\");\n"
     "%1 = nn.bias_add(%0, %b, axis=3);\n"
     "%2 = tanh(%1);\n"
     "nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2], layout=\"NHWC\")",
     1, "bias, post-ops tanh", true},
    {"dense with a bias and relu, twice",
     "%x: Tensor[(4, 32), float32], %w1: Tensor[(24, 32), float32], %b1: Tensor[(24), float32], "
     "%w2: Tensor[(10, 24), float32], %b2: Tensor[(10), float32]",
     "%0 = nn.dense(%x, %w1, units=24);\n"
     "%1 = nn.bias_add(%0, %b1);\n"
     "%2 = nn.relu(%1);\n"
     "%3 = nn.dense(%2, %w2, units=10);\n"
     "%4 = add(%3, %b2);\n"
     "nn.softmax(%4)",
     2, "bias, post-ops relu", true},
    {"batch_matmul with a bias, a residual and relu",
     "%x: Tensor[(2, 5, 32), float32], %y: Tensor[(2, 24, 32), float32], %b: Tensor[(24), float32], "
     "%r: Tensor[(2, 5, 24), float32]",
     "%0 = nn.batch_matmul(%x, %y, transpose_b=True);\n"
     "%1 = add(%0, %b);\n"
     "%2 = add(%1, %r);\n"
     "nn.relu(%2)",
     1, "post-ops shift + sum + relu", true},
    {"batch_matmul scaled, on a broadcast batch, then tanh",
     "%x: Tensor[(3, 7, 16), float32], %y: Tensor[(1, 16, 9), float32]",
     "%0 = nn.batch_matmul(%x, %y, transpose_b=False);\n"
     "%1 = multiply(%0, 0.125f);\n"
     "tanh(%1)",
     1, "post-ops scale + tanh", false},
    {"residual add after relu", kConvParams,
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
     "%1 = nn.relu(%0);\n"
     "%2 = add(%1, %r);\n"
     "multiply(%2, 2f)",
     1, "post-ops relu + sum + scale", false},
    {"exp after relu (not a step: not taken)", kConvParams,
     "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
     "%1 = nn.relu(%0);\n"
     "exp(%1)",
     0, "", false},
};

std::string all_notes(const jit::CompileOutcome& out) {
  std::string s;
  for (const std::string& n : out.notes) s += n + "\n";
  return s;
}

}  // namespace

TEST_CASE("epilogues inside the library call compute what the interpreter does", "[compiler][library]") {
  for (const Case& c : kCases) {
    DYNAMIC_SECTION(c.name) {
      auto m = t::load_model_text(std::string("#[version = \"0.0.5\"]\ndef @main(") + c.params + ") {\n" + c.body +
                                  "\n}\n");
      REQUIRE(m->error == "");
      std::vector<rt::NDArray> args = t::random_args(*m, 11);  // (%var: positive variances)
      std::vector<rt::Value> vals(args.begin(), args.end());
      t::CompiledMain compiled = t::compile_for_args(*m, args);
      const jit::CompileOutcome& out = compiled.outcome;
      const Executable* exe = compiled.exe;
      const std::string notes = all_notes(out);
      INFO(notes);
      if (library_kernels_built()) {
        CHECK(exe->fused_library_groups() == c.fused);
        if (*c.report) CHECK(notes.find(std::string("with its epilogue (") + c.report + ")") != std::string::npos);
      } else {
        CHECK(exe->fused_library_groups() == 0);
      }
      const rt::NDArray want = t::interpret(*m, args).tensor();
      for (int call = 0; call < 2; ++call) CHECK(t::max_rel_diff(out.code->call(vals).tensor(), want) < 2e-5);
      // New batch-norm (or bias) values: a new folded scale, new prepared weights.
      for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].shape().size() != 1) continue;
        rt::NDArray changed = rt::NDArray::empty(args[i].shape(), args[i].dtype());
        const auto* from = static_cast<const float*>(args[i].raw());
        auto* to = static_cast<float*>(changed.raw());
        for (int64_t k = 0; k < args[i].size(); ++k) to[k] = from[k] * 1.5f + 0.25f;
        args[i] = changed;
      }
      vals.assign(args.begin(), args.end());
      const rt::NDArray want2 = t::interpret(*m, args).tensor();
      if (c.uses_vectors) CHECK(t::max_rel_diff(want2, want) > 1e-3);  // the change matters
      CHECK(t::max_rel_diff(out.code->call(vals).tensor(), want2) < 2e-5);
    }
  }
}

#endif
