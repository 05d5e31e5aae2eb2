// A graph executor over the reference kernels: evaluates the nodes in order and frees
// each value after its last use. It is the oracle for every pass and for fusion (a graph
// must compute what the interpreter computes), and the compiled path's fallback for
// operators without a lowering will reuse it.
#pragma once

#include <span>

#include "compiler/graph/graph.h"
#include "interpreter/value.h"

namespace relay::compiler {

// Node `id` (a Tuple, GetItem or Call) evaluated on the reference kernels over `values`
// (indexed by node; its inputs' must be set). A destination-passing kernel writes into
// `dest` when it is defined. Throws rt::RuntimeError as the kernel does, and for an
// operator without a kernel.
rt::Value eval_node(const Graph& g, NodeId id, std::span<const rt::Value> values, const rt::NDArray& dest = {});

// `args` in parameter order. Throws GraphError (with the node's span) when an operator
// has no kernel or its kernel fails.
rt::Value run_graph(const Graph& g, std::span<const rt::Value> args);

}  // namespace relay::compiler
