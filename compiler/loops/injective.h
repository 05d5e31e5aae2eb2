// Lowering of fused groups whose values are not all computed at the output's own index:
// injective (layout/indexing) operators such as transpose, reshape, strided_slice,
// concatenate, layout_transform, nn.pad and take, mixed with element-wise and broadcast
// operators (TVM fuses injective chains), and pooling windows with their element-wise
// epilogues (pools are out-elementwise-fusable).
//
// An IndexProgram is a DAG evaluated at every element of its output: each node is
// evaluated at a multi-index of its own shape. An element-wise node evaluates its operands
// at the same index (numpy-broadcast: size-1 dimensions read index 0); an index-mapping
// node evaluates its operand at a mapped index (transpose permutes it, reshape unravels
// the flat offset in the operand's shape, a slice computes begin + i * step, ...); a pool
// node folds its operand over a window. Inputs are loaded at the index's row-major offset.
// Nothing is materialised between nodes: the kernel is one loop nest over the output, as
// TVM's injective schedule computes it.
//
// Kernel ABI (ir.h): buffers = [inputs..., output, status?], contiguous, not overlapping.
// `status` (an int32 the caller sets to 0) exists when the program can fail where the
// reference kernel throws (an integer division by zero in an element-wise node, take's
// "fast" mode with an index out of range); the kernel then stores 1 there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/loops/elementwise.h"

namespace relay::loops {

struct IxRef {
  bool is_input = true;
  int index = 0;  // into IndexProgram::inputs or ::nodes (an earlier node)
  static IxRef input(int i) { return {true, i}; }
  static IxRef node(int i) { return {false, i}; }
};

enum class IxKind : uint8_t {
  Elementwise,  // `step` (op, attrs, dtype) applied to the operands, broadcast to `shape`
  Transpose,    // out[i] = x[j] with j[perm[d]] = i[d]
  Reshape,      // the same elements in row-major order (reshape, squeeze, expand_dims,
                // nn.batch_flatten, contrib_reverse_reshape)
  Slice,        // x[begin[d] + i[d] * step[d]] (strided_slice, reverse; steps may be < 0)
  Broadcast,    // numpy broadcasting of x to `shape` (broadcast_to)
  Tile,         // x right-aligned, each dimension read modulo its extent
  Repeat,       // x[..., i[axis] / repeats, ...] (repeat; nn.upsampling's nearest neighbour
                // by whole factors is one per spatial axis)
  Concat,       // operands joined along `axis`
  Pad,          // x[i - before] inside, else operand 1 (a scalar: the pad value); `edge`
                // reads the nearest element instead, the mirrors the reflected one
                // (nn.pad's reflect, nn.mirror_pad)
  Take,         // data (operand 0) at indices (operand 1) along `axis` (-1: flattened),
                // `mode` 0 clip, 1 wrap, 2 fast (out of range fails)
  Gather,       // data (operand 0) at the same index but along `axis`, where it reads
                // indices (operand 1, the output's shape) there; out of range fails
  GatherNd,     // data (operand 0) at an index tuple read from indices (operand 1, shape
                // (M, Y...)) at the output's leading Y position: out[y..., t...] =
                // data[y[:batch_dims]..., indices[0, y...], ..., indices[M-1, y...], t...];
                // out of range fails
  Layout,       // layout_transform from `src_layout` to `dst_layout` (primal axes upper
                // case, "<n><lower>" split sub-axes); coordinates past a padded split read 0
  Pool,         // max/avg over a 2-D window, see PoolSpec
};

// nn.max_pool2d / nn.avg_pool2d / global pools, following the reference kernel
// (interpreter/kernels/pool.cpp): the taps inside the input are folded in row-major order
// (padding is never read); max starts from the dtype's lowest finite value and keeps
// `x > best`; avg sums in float64 (floats) or wrapping int64 (integers) and divides by the
// count of taps inside (or the padded count with count_include_pad; ceil_mode's extra tail
// is never counted).
struct PoolSpec {
  bool is_max = true;
  int h_axis = 2, w_axis = 3;  // the spatial axes of the operand (and the output)
  int64_t kernel[2] = {1, 1}, stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t pad_before[2] = {0, 0}, pad_after[2] = {0, 0};
  bool count_include_pad = false;
  bool max_from_first_tap = false;  // adaptive max: the window's first tap starts the fold
                                    // (NaN or -inf there stay), not the lowest finite value
};

struct IxNode {
  IxKind kind = IxKind::Elementwise;
  std::vector<IxRef> operands;
  DataType dtype;
  std::vector<int64_t> shape;
  EwStep step;                  // Elementwise (step.operands unused: `operands` are)
  std::vector<int64_t> perm;    // Transpose
  std::vector<int64_t> begin;   // Slice: first index per dim; Pad: padding before per dim
  std::vector<int64_t> steps;   // Slice: step per dim
  int64_t axis = 0;             // Repeat, Concat, Take, Gather
  int64_t repeats = 1;          // Repeat
  int mode = 0;                 // Take: 0 clip, 1 wrap, 2 fast; Pad: 0 constant, 1 edge,
                                // 2 reflect, 3 symmetric (mirrors within one fold)
  int64_t batch_dims = 0;       // Take, GatherNd
  std::string src_layout, dst_layout;  // Layout
  PoolSpec pool;                // Pool
};

struct IndexProgram {
  std::vector<EwInput> inputs;
  std::vector<IxNode> nodes;  // the last is the output
};

using LoweredIndexProgram = LoweredKernel;

// The widest pad a mirror `mode` (Pad: 2 reflect, 3 symmetric) takes on a dimension of
// `extent`: one fold (reflect repeats no edge, so it has one element fewer to give).
// Other modes have no limit.
inline int64_t widest_mirror_pad(int mode, int64_t extent) {
  return mode == 2 ? extent - 1 : mode == 3 ? extent : INT64_MAX;
}

// `shape`: the CPU's loops (rows in parallel, a row's elements vectorisable), or the GPU's
// (a parallel iteration per output element; ir.h).
LoweredIndexProgram lower_index_program(const IndexProgram& p, std::string name, LoopShape shape = LoopShape::Cpu);

// The operators the graph layer turns into index-mapping or pool nodes (each lowered here).
const std::vector<std::string_view>& lowered_index_ops();

// Whether a pool over this dtype lowers (floats, float16/bfloat16 compared and averaged as
// the reference does, integers).
bool pool_supports(DataType t);

}  // namespace relay::loops
