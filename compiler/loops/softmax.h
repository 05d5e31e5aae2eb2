// nn.softmax, nn.fast_softmax and nn.log_softmax as one kernel each: per row along `axis`,
// the maximum, the sum of exponentials, then the normalised values, in exactly the
// reference kernel's order and formulas (interpreter/kernels/nn_activation.cpp), so the
// results are bitwise the reference's for float32 and float64, and for float16/bfloat16,
// which are computed in float32 and rounded where the reference stores them:
//  * max folds from the row's first element with `m < x ? x : m` (std::max: a NaN after
//    the first element is skipped);
//  * the sum folds exp(x - m) in row order, in the dtype;
//  * softmax along the innermost axis stores e = exp(x - m) and then multiplies it by
//    1 / sum; along any other axis it is exp(x - m) / sum; log_softmax is x - m - log(sum).
// fast_softmax's reference kernel is softmax's, so it lowers the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/loops/ir.h"

namespace relay::loops {

struct SoftmaxProgram {
  DataType dtype;
  std::vector<int64_t> shape;
  int64_t axis = -1;  // negative from the end
  bool log = false;
  // Softmax with the reference's formula for an axis that is not innermost, exp(x - m) /
  // sum, even where this program's axis is innermost: a channels-last tensor's channel axis
  // is innermost in its bytes but not in the NCHW tensor the reference computes on.
  bool divide = false;
};

using LoweredSoftmax = LoweredKernel;  // buffers [in, out]: output_buffer 1, no status

// The largest product of the dimensions after `axis` in the CPU's shape (the per-row
// accumulators are a local array of that many elements). The GPU's shape has no such
// bound: a thread per row along the axis, the positions after it in parallel (or a team
// per row, below).
inline constexpr int64_t kSoftmaxInner = 4096;

// The GPU's shape for a softmax along the innermost axis of kSoftmaxTeamMin to
// kSoftmaxTeamMax elements (float32, float16, bfloat16): a team of a warp per row
// instead of a thread. Its lanes copy the row (in float32) into shared memory; every lane
// folds the maximum from there in row order (each the same; a shared read of one address
// is a broadcast); the lanes write exp(x - m) into a second shared row; every lane folds
// their sum in row order; the lanes write the outputs. The reference's folds in its order,
// so the bits stay its own, with the row's loads, exponentials and stores spread over 32
// threads. (Two rows, not one overwritten: a lane must not write what another may still
// be reading, and barriers only follow Threads loops.)
inline constexpr int64_t kSoftmaxTeamMin = 64;
inline constexpr int64_t kSoftmaxTeamMax = 4096;  // two rows: 32 KiB of shared memory
bool softmax_uses_team(const SoftmaxProgram& p, LoopShape shape);
// Longer float32 rows along the innermost axis (a language model's vocabulary) take a
// block of kSoftmaxBlockThreads each: thread 0 folds the maximum in row order, the threads
// write exp(x - m) into the output row, thread 0 folds those in order into the sum (after
// a barrier: the output row is global memory the block shares), and the threads write the
// outputs. The folds stay the reference's, so the bits do; a row's exponentials, loads and
// stores are spread over 256 threads instead of one. (float16/bfloat16 keep a thread per
// row: the sum folds float32 exponentials that their output row cannot hold.)
inline constexpr int64_t kSoftmaxBlockThreads = 256;
bool softmax_uses_block(const SoftmaxProgram& p, LoopShape shape);

// `shape`: the CPU's loops (a parallel iteration per row before the axis), or the GPU's
// (a parallel iteration per row along the axis: the rows before it times the positions
// after it, each folded serially in the reference's order; a warp per row where
// softmax_uses_team says).
LoweredSoftmax lower_softmax(const SoftmaxProgram& p, std::string name, LoopShape shape = LoopShape::Cpu);

const std::vector<std::string_view>& lowered_softmax_ops();

}  // namespace relay::loops
