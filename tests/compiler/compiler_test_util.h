// Helpers for the compiler tests: a checked program (from a file of tests/models or from
// text), its graph at the annotated shapes, seeded random arguments, and comparison.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "interpreter/eval/run.h"
#ifdef RELAY_HAVE_PIPELINE
#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/executable.h"
#endif

namespace relay::testing {

struct CompiledModel {
  SourceManager sources;
  std::unique_ptr<rt::LoadedProgram> program;
  std::string error;  // load errors
  const InferredTypes* types() const { return program->types.find(program->entry); }
  const Metadata* metadata() const { return program->front.module->metadata.get(); }
};

std::unique_ptr<CompiledModel> load_model_file(const std::string& path);
std::unique_ptr<CompiledModel> load_model_text(const std::string& text);

// @main's graph at its annotated shapes (REQUIREs that the shapes are concrete).
compiler::BuildResult build_main(const CompiledModel& m);

// @main's graph through the passes (REQUIREs that it is a graph).
compiler::Graph optimized_main(const CompiledModel& m);

// The same and its fusion into kernels (fuse_for_kernels).
struct FusedGraph {
  compiler::Graph graph;
  compiler::FusionPlan plan;
};
FusedGraph fused_main(const CompiledModel& m);

// Seeded uniform values in [-1, 1); parameters named *var* get [0.5, 1.5) so that
// batch-norm variances are positive.
std::vector<rt::NDArray> random_args(const CompiledModel& m, uint64_t seed);
// The same, with every parameter after the first of rank 2 or more (a weight) scaled by
// sqrt(3 / fan-in), fan-in the product of its dimensions after the first: activations
// keep their scale through a deep network (bench/compiler/bench_models.py's make_inputs),
// so a float16 model neither overflows nor ends in a one-hot softmax.
std::vector<rt::NDArray> scaled_args(const CompiledModel& m, uint64_t seed);

// The interpreter's result for @main on `args`.
rt::Value interpret(CompiledModel& m, const std::vector<rt::NDArray>& args);

// Largest |a - b| / (1 + |b|) over two tensors of one shape (infinity when shapes differ).
double max_rel_diff(const rt::NDArray& a, const rt::NDArray& b);

// The longest sum of products in the graph: a convolution's in_channels / groups * kh * kw,
// a dense layer's input features, a batch_matmul's K, a global pool's window. Summing K
// products in another order (a kernel library's blocking) differs by up to K roundings.
int64_t longest_accumulation(const compiler::Graph& g);

#ifdef RELAY_HAVE_PIPELINE
// @main compiled for the signature of `args`, as the tier compiles it (REQUIREs that it
// compiles to an Executable, which `exe` then points into).
struct CompiledMain {
  jit::CompileOutcome outcome;
  compiler::Executable* exe = nullptr;
};
CompiledMain compile_for_args(CompiledModel& m, const std::vector<rt::NDArray>& args, compiler::ThreadPool* pool = nullptr);
#endif

}  // namespace relay::testing
