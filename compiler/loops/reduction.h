// Lowering of fused reduction groups to one loop-IR kernel: the contract between the graph
// layer and code generation for TVM's kCommReduce groups (a reduction that took its
// element-wise/broadcast producers).
//
// A ReductionProgram is an element-wise prologue (an ElementwiseProgram, elementwise.h)
// evaluated at every element of the tensor being reduced — its out_shape is that tensor's
// shape — and one reduction of that tensor over `axes` with Relay's keepdims/exclude
// semantics (axes empty: every axis, exclude ignored; negative axes count from the end).
// A group without producers has a one-step prologue (`copy`).
//
// Every output is folded in the reference kernel's order (interpreter/kernels/
// reduction.cpp, reduction_arg.cpp): starting from the reducer's identity, over its
// elements in row-major order of the input, in the reference's accumulator type (the
// input's dtype for integers, wrapping; float32 for float16/bfloat16, rounded to storage
// after every step; float32/float64 for those), so results are bitwise the reference's
// (but for the GPU's float32 sums over a warp, below).
//
// Kernel ABI: buffers = [prologue inputs..., output, status?], contiguous, not overlapping;
// `status` as in elementwise.h (present when the prologue can fail).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/loops/elementwise.h"

namespace relay::loops {

enum class ReduceOp : uint8_t { Sum, Mean, Max, Min, Prod, All, Any, ArgMax, ArgMin };

struct ReductionProgram {
  ElementwiseProgram prologue;   // its out_shape/out_dtype: the reduced tensor's
  ReduceOp op = ReduceOp::Sum;
  std::vector<int64_t> axes;     // empty: every axis
  bool keepdims = false;
  bool exclude = false;
  bool select_last_index = false;  // argmax/argmin: ties take the last index
  int64_t count_offset = 0;      // mean: divide by (count - count_offset); 1 for an
                                 // unbiased variance (a mean of (x - mean)^2)
  DataType out_dtype;            // the prologue's dtype; argmax/argmin: the index dtype
  std::vector<int64_t> out_shape;  // must be what axes/keepdims/exclude give
};

using LoweredReduction = LoweredKernel;

// The accumulator row of a reduction whose innermost dimension is kept is processed in
// chunks of this many outputs (a local array, so it stays in cache / on the stack).
inline constexpr int64_t kReductionRow = 512;
// Reduced innermost (a sum over the last axis), the CPU folds this many outputs side by
// side, each serially in the reference's order.
inline constexpr int64_t kInterleavedOutputs = 8;

// The GPU's warp per output: fewer than kLaneReductionOutputs outputs of at least
// kLaneReductionCount elements each, for float32/int32 sum and mean and int32 max and min.
// Lane l folds elements l, l + 32, ... in row-major order and a LaneReduce combines the
// lanes (ir.h): integer results are the reference's; a float32 sum is the lanes' order's,
// within the reference's by the sum's roundings.
inline constexpr int64_t kLaneReductionOutputs = 32768;
inline constexpr int64_t kLaneReductionCount = 1024;
// A block of kBlockReductionThreads per output instead: fewer than kBlockReductionOutputs
// outputs (a block each fills a large GPU's thread slots: 1024 x 256 is an H100's 270k) of
// at least kBlockReductionCount elements each, the same operators. Thread l folds
// elements l, l + 256, ...; the 256 partial results are combined through shared memory
// by the same tree as LaneReduce's (for s = 128 .. 1, slot l takes slot l + s).
inline constexpr int64_t kBlockReductionOutputs = 1024;
inline constexpr int64_t kBlockReductionCount = 16384;
inline constexpr int64_t kBlockReductionThreads = 256;

// `shape`: the CPU's loops, or the GPU's (a parallel iteration per output, or a warp per
// output as above; ir.h).
LoweredReduction lower_reduction(const ReductionProgram& p, std::string name, LoopShape shape = LoopShape::Cpu);

// On the GPU, a reduction of fewer than kSplitReductionOutputs outputs of at least
// kSplitReductionCount elements each (the operators a team may share, above) is split:
// one block per output would leave most of the GPU idle (a sum over a whole 1 GiB tensor
// on one multiprocessor). Each output's elements are cut into `chunks` consecutive runs
// (row-major) of at least kSplitReductionChunk, about kSplitReductionBlocks runs in all; a
// block of kBlockReductionThreads folds a run as the block per output folds all of them
// and writes the run's unfinished result (partials[output * chunks + chunk], in the
// accumulator's dtype) instead of the output; then `finish`, a thread per output, folds
// its partials in chunk order from the reducer's identity and finishes (a mean's
// division). Integer results are the reference's; a float32 sum is this order's.
inline constexpr int64_t kSplitReductionOutputs = 128;
inline constexpr int64_t kSplitReductionCount = int64_t{1} << 19;
inline constexpr int64_t kSplitReductionChunk = 16384;
inline constexpr int64_t kSplitReductionBlocks = 1024;

struct LoweredSplitReduction {
  LoweredKernel partial;  // buffers [prologue inputs..., partials, status?]; output_buffer: partials
  LoweredKernel finish;   // buffers [partials, out]; output_buffer 1, no status
  int64_t chunks = 0;     // per output
  size_t partial_bytes = 0;
  bool ok() const { return partial.ok() && finish.ok(); }
};
// The chunks per output of p's split (1: not split).
int64_t reduction_split(const ReductionProgram& p);
// The two kernels (`name`, `name`_finish) when p splits; nullopt when it does not.
std::optional<LoweredSplitReduction> lower_split_reduction(const ReductionProgram& p, const std::string& name);

// The ReduceOp of a Relay operator ("sum", "argmax", ...), if it is lowered.
std::optional<ReduceOp> reduce_op_named(std::string_view op);
std::string_view reduce_op_name(ReduceOp op);
// Whether `op` lowers over a reduced tensor of dtype `t` (mean is not defined for bool).
bool reduction_supports(ReduceOp op, DataType t);
// The Relay operators lower_reduction handles (variance as a mean whose prologue squares
// x - mean, with ReductionProgram::count_offset for `unbiased`).
const std::vector<std::string_view>& lowered_reduction_ops();

// The interpreter's message for a failed kernel (status set): the prologue's.
std::string status_message(const ReductionProgram& p);

}  // namespace relay::loops
