// The GPU's kernel for a group's master when it is a matrix product or a convolution, in
// float32, float16 or bfloat16 throughout: nn.dense, or nn.batch_matmul with transpose_b
// and not transpose_a, as the tiled product sum over k of a[..., m, k] * b[..., n, k]
// (loops/matmul.h); nn.conv2d in NCHW/OIHW (any groups, strides, dilation, padding) as
// the tiled convolution (loops/conv2d.h). Both in the GPU loop shape. The master's kernel
// computes the master node alone; the group's element-wise epilogue is plan_native's
// Epilogue plan. (On the CPU the kernel library computes these.)
//
// A master can take any of several tiles (registers, a warp, shared-memory blocks, tensor
// cores): loops' rules pick one from the shape, and a measured choice (tile_tuner.h) may
// pick another by timing them all on the GPU at hand.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "compiler/loops/conv2d.h"
#include "compiler/llvm/nvptx.h"
#include "compiler/loops/matmul.h"
#include "compiler/pipeline/native_plan.h"

namespace relay::compiler {

// A lowered program with the tiles it can take (loops::conv2d_tiles, matmul_tiles: the
// rule's first), listed once when the master is planned.
template <class Program, class Tile>
struct TiledProgram {
  Program program;
  std::vector<Tile> tiles;
};

struct GpuMaster {
  FusedGroup part;          // the master alone; inputs {data, weight} or {a, b}
  std::string kernel_name;  // "main_g3_conv2d"
  DataType dtype;
  std::vector<int64_t> out_shape;
  std::variant<TiledProgram<loops::Conv2dProgram, loops::Conv2dTile>, TiledProgram<loops::MatmulProgram, loops::MatmulTile>>
      program;

  size_t tiles() const;
  std::string tile_label(size_t tile) const;  // "t4x7", "block8", "mma", ...
  std::string tile_words(size_t tile) const;  // for reports
  // The program's shape in words that name it across runs and programs, for a cache of
  // measured tiles: "conv2d float32 n1 c64 56x56 o64 k3x3 s1x1 d1x1 p1x1 g1",
  // "matmul float16 b16/16/16 m512 n512 k512".
  std::string key() const;
  // The bytes of each kernel buffer: inputs, then the output.
  std::vector<size_t> buffer_bytes() const;
  // 2 per multiply-add: outputs x terms of each output's sum.
  double flops() const;
};

// The master of `group` when the GPU has a kernel for it; nullopt with `why` otherwise.
// Its tiles are those `target` runs (tensor cores only where it has them for the dtype).
std::optional<GpuMaster> gpu_master(const Graph& g, const FusedGroup& group, const gpu::PtxTarget& target,
                                    std::string* why);

// The master's kernel with its candidate `tile` (0: the rule's), named `name` (its
// kernel_name when empty). Nullopt with `why` when that tile does not lower.
std::optional<NativePlan> plan_gpu_master(const GpuMaster& master, size_t tile, std::string* why,
                                          std::string name = {});
// gpu_master then the rule's tile.
std::optional<NativePlan> plan_gpu_master(const Graph& g, const FusedGroup& group, const gpu::PtxTarget& target,
                                          std::string* why);

}  // namespace relay::compiler
