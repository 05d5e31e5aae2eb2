// Dead-code elimination: mark from the output backwards (ids are topological, so one
// reverse sweep finds every live node), then copy the live nodes in order.
#include "compiler/graph/passes.h"

namespace relay::compiler {

Graph eliminate_dead_code(const Graph& g) {
  std::vector<bool> live(g.size(), false);
  live[g.output] = true;
  for (NodeId p : g.params) live[p] = true;
  for (size_t i = g.size(); i-- > 0;)
    if (live[i])
      for (NodeId in : g.nodes[i].inputs) live[in] = true;
  GraphBuilder b(g.arena);
  std::vector<NodeId> map(g.size(), 0);
  for (NodeId i = 0; i < g.size(); ++i) {
    if (!live[i]) continue;
    std::vector<NodeId> inputs;
    for (NodeId in : g.nodes[i].inputs) inputs.push_back(map[in]);
    map[i] = b.copy(g.nodes[i], std::move(inputs));
  }
  return b.finish(map[g.output], g.name);
}

}  // namespace relay::compiler
