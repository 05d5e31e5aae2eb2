#include "compiler/graph/rebuild.h"

namespace relay::compiler {

Graph rebuild(const Graph& g, const NodeRewrite& rewrite) {
  GraphBuilder b(g.arena);
  std::vector<NodeId> map(g.size(), 0);
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes[i];
    std::vector<NodeId> in;
    in.reserve(n.inputs.size());
    for (NodeId x : n.inputs) in.push_back(map[x]);
    map[i] = rewrite(b, n, std::move(in));
  }
  return b.finish(map[g.output], g.name);
}

}  // namespace relay::compiler
