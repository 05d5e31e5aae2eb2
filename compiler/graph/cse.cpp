// Common-subexpression elimination: one forward sweep with a table from a node's key
// (kind, operator, attributes, remapped inputs, field) to the first node with that key.
// Inputs are remapped before the key is made, so chains of duplicates collapse in one
// sweep. Small constants are merged by value too, so calls on equal literals meet; casts
// to a wider float are left for each reader to fuse.
#include <cstring>
#include <map>

#include "compiler/graph/attrs_key.h"
#include "compiler/graph/passes.h"

namespace relay::compiler {

namespace {

constexpr size_t kMaxMergedConstantBytes = 64;

bool is_random(const Node& n) { return n.kind == NodeKind::Call && n.op->name.starts_with("random."); }

// A cast to a wider float is not merged: fused into each reader it costs a register
// conversion, merged it becomes a value several groups read, materialised at twice the
// bytes of its input (the normalisations' float64 statistics, simplify_inference.cpp).
bool is_widening_cast(const Graph& g, const Node& n) {
  if (n.kind != NodeKind::Call || n.op->name != "cast" || n.inputs.size() != 1) return false;
  const auto* from = ty_as<TensorTy>(g[n.inputs[0]].type);
  const auto* to = ty_as<TensorTy>(n.type);
  return from && to && from->dtype.is_float() && to->dtype.is_float() && to->dtype.bits > from->dtype.bits;
}

std::string key_of(const Node& n, const std::vector<NodeId>& inputs) {
  std::string k = std::to_string(static_cast<int>(n.kind)) + "|";
  if (n.kind == NodeKind::Call) k += std::string(n.op->name) + "|" + attrs_text(n.attrs) + "|";
  if (n.kind == NodeKind::GetItem) k += std::to_string(n.index) + "|";
  if (n.kind == NodeKind::Constant) {
    k += type_to_string(n.type) + "|";
    k.append(static_cast<const char*>(n.constant.raw()), n.constant.nbytes());
  }
  for (NodeId i : inputs) k += std::to_string(i) + ",";
  return k;
}

}  // namespace

Graph eliminate_common_subexpressions(const Graph& g) {
  GraphBuilder b(g.arena);
  std::vector<NodeId> map(g.size(), 0);
  std::map<std::string, NodeId> seen;
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes[i];
    std::vector<NodeId> inputs;
    for (NodeId in : n.inputs) inputs.push_back(map[in]);
    bool mergeable = n.kind != NodeKind::Input && !is_random(n) && !is_widening_cast(g, n) &&
                     (n.kind != NodeKind::Constant || n.constant.nbytes() <= kMaxMergedConstantBytes);
    if (!mergeable) {
      map[i] = b.copy(n, std::move(inputs));
      continue;
    }
    std::string key = key_of(n, inputs);
    auto it = seen.find(key);
    if (it != seen.end()) {
      map[i] = it->second;
      continue;
    }
    map[i] = b.copy(n, std::move(inputs));
    seen.emplace(std::move(key), map[i]);
  }
  return eliminate_dead_code(b.finish(map[g.output], g.name));
}

}  // namespace relay::compiler
