// The sweep every rewriting pass makes: nodes in order, each one's inputs mapped to the new
// graph's ids, then `rewrite` gives the node's new id (a copy, or whatever replaces it).
#pragma once

#include <functional>
#include <vector>

#include "compiler/graph/graph.h"

namespace relay::compiler {

// `rewrite(b, node, inputs)`: the new graph's node for `node`, whose `inputs` are already
// ids of `b`; `b.copy(node, inputs)` keeps it as it is.
using NodeRewrite = std::function<NodeId(GraphBuilder& b, const Node& node, std::vector<NodeId> inputs)>;
Graph rebuild(const Graph& g, const NodeRewrite& rewrite);

}  // namespace relay::compiler
