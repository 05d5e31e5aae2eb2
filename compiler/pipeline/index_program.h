// A fused group as an IndexProgram (compiler/loops/injective.h): injective layout and
// indexing operators, pools and element-wise operators in one loop nest over the group's
// output. Each operator's attributes are read here, with the reference kernel's rules
// (negative axes, strided_slice's canonical begin/end, take's modes, pool padding), and
// turned into the index maps the loop IR lowers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "compiler/loops/injective.h"

namespace relay::compiler {

// The group's program, or nullopt with `why` set (an operator, dtype or attribute the
// index lowering does not take, a tuple input, several outputs). `inputs` gets the nodes
// whose values the kernel reads, in buffer order.
std::optional<loops::IndexProgram> index_program(const Graph& g, const FusedGroup& group, std::vector<NodeId>* inputs,
                                                 std::string* why);

// Copies the scalar attributes the element-wise lowering of step.op reads
// (loops::elementwise_attrs) from the call into the step.
void copy_scalar_attrs(const Node& n, loops::EwStep& step);

}  // namespace relay::compiler
