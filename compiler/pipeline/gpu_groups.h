// The fused groups of a function as GPU kernels: each group's native plan in the GPU loop
// shape (loops::LoopShape::Gpu) and one PTX module for all of them (compiler/llvm/nvptx.h).
// `relay compile --target=cuda --emit=loops|llvm|ptx` prints these; the GPU runtime loads
// the module.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "compiler/llvm/nvptx.h"
#include "compiler/pipeline/gpu_master.h"
#include "compiler/pipeline/native_plan.h"

namespace relay::compiler {

struct GpuGroups {
  // Per group of the plan, in order: its native plan, or nullopt with why_not[i] set
  // (those groups stay on the host's kernels).
  std::vector<std::optional<NativePlan>> plans;
  std::vector<std::string> why_not;
  // Per group: the GPU kernel of its master when the master is a matrix product or a
  // convolution (gpu_master.h); the plan is then its epilogue.
  std::vector<std::optional<NativePlan>> masters;
  // Per group, in order, the master's kernel then the plan's: entries of the module.
  gpu::PtxModule module;
  size_t planned() const;  // groups with a plan
  size_t whole_on_gpu() const;  // groups whose every node runs on the GPU
  // module.kernels' index of group i's master kernel, the master's finish (a product split
  // along k: its second kernel), the plan kernel and the plan's finish (a split
  // reduction's second kernel) (-1: none).
  std::vector<int> master_entry, master_finish_entry, plan_entry, finish_entry;
};

// Which of a master's tiles to take (an index into its candidates; 0 is the rule's).
using TileChooser = std::function<size_t(const GpuMaster&)>;

// Plans every group for the GPU and generates the PTX (throws what gpu::emit_ptx throws).
// `choose`: each product's and convolution's tile (tile_tuner.h); the rules' when empty.
GpuGroups plan_gpu_groups(const Graph& g, const FusionPlan& plan, const gpu::PtxTarget& target,
                          const TileChooser& choose = {});

// `relay compile --target=cuda --emit=STAGE`: loops (each group's GPU-shaped kernel),
// llvm (the module's optimised NVPTX IR) or ptx (the module), each group first named with
// its entry and launch shape or the reason it stays on the host.
std::string emit_gpu_groups(const Graph& g, const FusionPlan& plan, std::string_view stage,
                            const gpu::PtxTarget& target);

}  // namespace relay::compiler
