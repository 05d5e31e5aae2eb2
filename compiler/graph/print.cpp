#include "compiler/graph/print.h"

#include <cstdio>
#include <unordered_map>

#include "compiler/graph/attrs_key.h"

namespace relay::compiler {

namespace {

std::string constant_text(const Node& n) {
  if (n.constant.size() == 1 && n.constant.ndim() == 0) {
    char buf[64];
    if (n.constant.dtype().is_float()) std::snprintf(buf, sizeof buf, "%g", n.constant.get_double(0));
    else std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n.constant.get_int(0)));
    return std::string(buf) + "(" + dtype_name(n.constant.dtype()) + ")";
  }
  return "constant " + type_to_string(n.type);
}

// How a node is referred to outside its own line.
std::string value_name(const Graph& g, NodeId id) {
  const Node& n = g.nodes[id];
  if (n.kind == NodeKind::Input) return "%" + n.name;
  if (n.kind == NodeKind::Constant) return constant_text(n);
  return "%" + std::to_string(id);
}

using Names = std::unordered_map<NodeId, std::string>;

std::string name_in(const Graph& g, const Names& local, NodeId id) {
  auto it = local.find(id);
  return it != local.end() ? it->second : value_name(g, id);
}

std::string node_line(const Graph& g, NodeId id, const Names& local) {
  const Node& n = g.nodes[id];
  std::string rhs;
  switch (n.kind) {
    case NodeKind::Input: rhs = "input " + std::to_string(n.index); break;
    case NodeKind::Constant: rhs = constant_text(n); break;
    case NodeKind::Call: {
      rhs = std::string(n.op->name) + "(";
      for (size_t k = 0; k < n.inputs.size(); ++k) rhs += (k ? ", " : "") + name_in(g, local, n.inputs[k]);
      std::string attrs = attrs_text(n.attrs, /*only_given=*/true);
      if (!attrs.empty()) rhs += (n.inputs.empty() ? "" : ", ") + attrs;
      rhs += ")";
      break;
    }
    case NodeKind::Tuple: {
      rhs = "(";
      for (size_t k = 0; k < n.inputs.size(); ++k) rhs += (k ? ", " : "") + name_in(g, local, n.inputs[k]);
      rhs += n.inputs.size() == 1 ? ",)" : ")";
      break;
    }
    case NodeKind::GetItem: rhs = name_in(g, local, n.inputs[0]) + "." + std::to_string(n.index); break;
  }
  const std::string lhs = n.kind == NodeKind::Input ? "%" + n.name : "%" + std::to_string(id);
  return lhs + " = " + rhs + " : " + type_to_string(n.type);
}

std::string types_of(const Graph& g, const std::vector<NodeId>& ids) {
  if (ids.size() == 1) return type_to_string(g.nodes[ids[0]].type);
  std::string s = "(";
  for (size_t k = 0; k < ids.size(); ++k) s += (k ? ", " : "") + type_to_string(g.nodes[ids[k]].type);
  return s + ")";
}

}  // namespace

std::string print_graph(const Graph& g) {
  std::string out = "graph @" + g.name + " (" + std::to_string(g.size()) + " nodes)\n";
  Names none;
  for (NodeId i = 0; i < g.size(); ++i) out += "  " + node_line(g, i, none) + "\n";
  out += "  return " + value_name(g, g.output) + "\n";
  return out;
}

std::string group_summary(const Graph& g, const FusedGroup& group) {
  std::string s;
  for (NodeId m : group.nodes) {
    const Node& n = g.nodes[m];
    std::string part = n.kind == NodeKind::Call ? std::string(n.op->name) : std::string(node_kind_name(n.kind));
    s += (s.empty() ? "" : " + ") + part;
  }
  return s;
}

std::string print_fused(const Graph& g, const FusionPlan& plan) {
  std::string out = "fused @" + g.name + ": " + std::to_string(plan.groups.size()) + " groups\n";
  for (const FusedGroup& gr : plan.groups) {
    Names local;
    std::string params, bindings;
    for (size_t k = 0; k < gr.inputs.size(); ++k) {
      const std::string p = "%p" + std::to_string(k);
      local[gr.inputs[k]] = p;
      params += (k ? ", " : " ") + p + ": " + type_to_string(g.nodes[gr.inputs[k]].type);
      bindings += (k ? ", " : "") + p + " = " + value_name(g, gr.inputs[k]);
    }
    out += "group " + std::to_string(gr.id) + " (" + std::string(fusion_pattern_name(gr.pattern)) + ": " +
           group_summary(g, gr) + ")" + params + " -> " + types_of(g, gr.outputs) + "\n";
    if (!bindings.empty()) out += "  inputs: " + bindings + "\n";
    for (NodeId m : gr.nodes) out += "  " + node_line(g, m, local) + "\n";
  }
  out += "return " + value_name(g, g.output) + "\n";
  return out;
}

}  // namespace relay::compiler
