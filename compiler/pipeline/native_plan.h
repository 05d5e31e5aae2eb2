// What of each fused group runs as one native kernel, and the program that kernel is
// lowered from: an element-wise group, a reduction with its element-wise producers, an
// index-mapping group (layout operators, pools with their epilogues), softmax, or the
// element-wise epilogue after a convolution's or dense layer's reference kernel. The
// Executable (executable.h) compiles and runs these plans; `relay compile --emit=...`
// prints them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/graph/activation_layout.h"
#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "compiler/llvm/jit.h"
#include "compiler/loops/elementwise.h"
#include "compiler/loops/reduction.h"

namespace relay::compiler {

// The element-wise program of a group, or nullopt with `why` set when the group is not
// one the loop IR lowers (its ops, dtypes, or several outputs).
// With `buffers`, a reshape or expand_dims of a value from outside the group reads that
// value's buffer instead of being a step; `buffers` gets, per program input, the node
// whose value the kernel reads (else the inputs are `group.inputs`, in order).
std::optional<loops::ElementwiseProgram> elementwise_program(const Graph& g, const FusedGroup& group, std::string* why,
                                                            std::vector<NodeId>* buffers = nullptr);

// The reduction program of a group whose master is a lowered reduction (sum, mean, max,
// min, prod, all, any, argmax, argmin) fed by element-wise/broadcast producers, which
// become its prologue; `inputs` gets the group's inputs in the kernel's buffer order.
// Nullopt with `why` set otherwise.
std::optional<loops::ReductionProgram> reduction_program(const Graph& g, const FusedGroup& group,
                                                         std::vector<NodeId>* inputs, std::string* why);

// What of a group runs native: all of an element-wise group, all of a reduction group
// (the reduction and its element-wise producers, one kernel), or the element-wise
// epilogue after a convolution's or dense layer's master op (whose first
// `reference_nodes` nodes then run on reference kernels). Nullopt with `why` otherwise.
struct NativePlan {
  enum class Kind : uint8_t { Elementwise, Reduction, Epilogue, Index } kind = Kind::Elementwise;
  // The kernel is an element-wise program (a whole group, or an epilogue without layout
  // operators): it reads an input of the output's shape only at the index it writes, so the
  // memory plan may write its output in place of such an input.
  bool pointwise = false;
  size_t reference_nodes = 0;
  FusedGroup part;  // the native nodes, their inputs from outside (in the kernel's buffer
                    // order), the group's output
  loops::Kernel kernel;
  int output_buffer = -1, status_buffer = -1;
  DataType out_dtype;
  std::vector<int64_t> out_shape;
  std::string status_message;
  // A GPU master's (gpu_master.h), for reports: its shape in words (GpuMaster::key), its
  // tile in words and its floating-point operations (2 per multiply-add).
  std::string master_key, tile;
  double flops = 0;
  // A GPU reduction split in two kernels (loops::lower_split_reduction): `kernel` writes
  // `workspace_bytes` of partial results (its output_buffer) in place of the output, and
  // `finish` (buffers [partials, out]) reduces them into the output.
  std::optional<loops::Kernel> finish;
  size_t workspace_bytes = 0;
  int64_t chunks = 0;  // per output, for reports
};
// `shape`: the loops for the CPU or the GPU (loops::LoopShape; the element-wise and
// reduction lowerings have both, the others build the CPU shape for either).
std::optional<NativePlan> plan_native(const Graph& g, const FusedGroup& group, std::string* why,
                                      loops::LoopShape shape = loops::LoopShape::Cpu);

// Held layouts (the layout pass, library_layouts.h): a tensor of rank 4 may be held as
// the NHWC or nChw<b>c bytes of its NCHW value (compiler/graph/activation_layout.h) when
// oneDNN's convolutions chose that layout, so it is not reordered around the compiler's
// own kernels between them.
// Whether `group` can run as one native kernel that reads some of its inputs, or writes its
// output, in such a layout: a whole group that is one index-mapping program (element-wise
// and broadcast operators, pools, concatenation, layout operators; not reductions or
// softmax).
bool held_layout_capable(const Graph& g, const FusedGroup& group);
// Whether `group` is a softmax alone over a rank-4 tensor, along N, C or H: it runs on
// channels-last values only with its input and its output both so (the softmax over the
// NHWC bytes, its axis moved), and on no other held layout.
bool channels_last_softmax(const Graph& g, const FusedGroup& group);
// That kernel for values held in `layout`: the group's index program with a layout node
// from `layout` to NCHW after each input `held` marks (per node), and one from NCHW into
// `layout` before the output when it marks the output. The program is unchanged otherwise,
// so it computes what the plain kernel does, and the loops follow the output's bytes
// (channels innermost when it is held). For a softmax (channels_last_softmax): the softmax
// of the NHWC bytes along the moved axis, in the reference's order and formula, so again
// bit for bit the plain result.
std::optional<NativePlan> plan_native_held(const Graph& g, const FusedGroup& group, const std::vector<bool>& held,
                                           const ActivationLayout& layout, std::string* why);

// `relay compile --emit=loops|llvm|asm`: each group's native kernel at that stage, or the
// reason it has none.
std::string emit_groups(const Graph& g, const FusionPlan& plan, std::string_view stage, Jit& jit);

}  // namespace relay::compiler
