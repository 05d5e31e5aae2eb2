// The readable text of a graph (`relay compile --emit=graph`) and of its fusion plan
// (`--emit=fused`). Not Relay syntax: a listing for people and golden tests.
//
//   group 3 (out-elemwise-fusable: nn.conv2d + multiply + add + nn.relu) %p0: Tensor[(1, 64, 56, 56), float32], %p1: ... -> Tensor[(1, 64, 56, 56), float32]
//     inputs: %p0 = %9, %p1 = %stage1_unit1_conv1_weight
//     %10 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]) : Tensor[...]
//     ...
#pragma once

#include <string>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"

namespace relay::compiler {

// One line per node: `%N = op(%a, %b, attrs) : type`; inputs print as their parameter
// names, scalar constants as their value.
std::string print_graph(const Graph& g);
// The groups in order, each with its header, input bindings and member nodes.
std::string print_fused(const Graph& g, const FusionPlan& plan);
// `nn.conv2d + multiply + add + nn.relu`: the member operators in order.
std::string group_summary(const Graph& g, const FusedGroup& group);

}  // namespace relay::compiler
