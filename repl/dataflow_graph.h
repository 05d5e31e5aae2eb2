// The dataflow graph of one Relay function as Graphviz DOT text (`:viz NAME`).
//
// Nodes are what produces a value: the parameters, each operator call (`nn.dense`), each
// call to a global (`@f`) or constructor, tuples, projections (`.0`), constants, and the
// function's result. Edges go from a value's producer to its consumer. Let and graph
// bindings (`let %x = ...;`, `%0 = ...;`) add no nodes: a use of `%x` links straight to
// the node that computed it, and the bound name is shown in that node's label, so the
// picture looks like a Netron graph rather than like the text.
//
// Control flow (`if`, `match`, a nested `fn`) is one node labelled with its kind; its
// inputs are the condition or scrutinee plus every outer value its branches or body use.
//
// The output is deterministic: node ids are assigned in evaluation order.
#pragma once

#include <string>

#include "lang/syntax/ast.h"
#include "lang/types/infer.h"

namespace relay::repl {

// `types` supplies the label's type of every node (TVM's printing, e.g.
// `Tensor[(1, 784), float32]`); with null, parameters show their written annotation and
// other nodes no type.
std::string dataflow_dot(const FuncDef& def, const InferredTypes* types);

}  // namespace relay::repl
