// Pieces the native plans share between the files that build them (native_plan.cpp,
// gpu_master.cpp): not part of the pipeline's interface.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "compiler/loops/ir.h"
#include "compiler/pipeline/native_plan.h"

namespace relay::compiler::detail {

inline std::vector<int64_t> shape_of(Ty t) { return concrete_shape(t).value_or(std::vector<int64_t>{}); }
inline DataType dtype_of(Ty t) { return static_cast<const TensorTy*>(t)->dtype; }

// The sub-group of `group` made of `nodes` with the one output `output`: its inputs are
// the values its nodes read from outside them, in first-use order.
FusedGroup sub_group(const Graph& g, const FusedGroup& group, std::vector<NodeId> nodes, NodeId output);

// The kernel's name for a group: the graph's name and the group's id ("main_g3").
std::string kernel_name(const Graph& g, const FusedGroup& group);

// `lowered` as the native plan of `part` (its inputs in the kernel's buffer order), or
// nullopt with `why` set when the program was not lowered.
std::optional<NativePlan> lowered_plan(NativePlan::Kind kind, FusedGroup part, loops::LoweredKernel lowered,
                                       DataType out_dtype, std::vector<int64_t> out_shape, std::string status_message,
                                       std::string* why);

}  // namespace relay::compiler::detail
