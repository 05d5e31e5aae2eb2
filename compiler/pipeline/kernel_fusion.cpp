#include "compiler/pipeline/kernel_fusion.h"

#include <algorithm>
#include <string>

#include "compiler/loops/softmax.h"
#include "compiler/pipeline/native_plan.h"

namespace relay::compiler {

namespace {

// The master of `group` as a group of its own, of `pattern` (what the master's kernel
// expects: Reduction for a reduction, OutElementwiseFusable for a softmax).
FusedGroup master_alone(const Graph& g, const FusedGroup& group, FusionPattern pattern) {
  FusedGroup alone;
  alone.id = group.id;
  alone.nodes = {group.master};
  alone.outputs = {group.master};
  alone.master = group.master;
  alone.pattern = pattern;
  for (NodeId in : g[group.master].inputs)
    if (std::find(alone.inputs.begin(), alone.inputs.end(), in) == alone.inputs.end()) alone.inputs.push_back(in);
  return alone;
}

// Whether `group` is a reduction with producers that the reduction kernel cannot take while
// the reduction alone lowers.
bool splits(const Graph& g, const FusedGroup& group) {
  if (group.pattern != FusionPattern::Reduction || group.nodes.size() < 2 || group.nodes.back() != group.master)
    return false;
  std::vector<NodeId> inputs;
  std::string why;
  if (reduction_program(g, group, &inputs, &why)) return false;
  return reduction_program(g, master_alone(g, group, FusionPattern::Reduction), &inputs, &why).has_value();
}

// Whether `group` is a softmax with an epilogue, which the softmax kernel does not take,
// while the softmax alone lowers.
bool splits_softmax(const Graph& g, const FusedGroup& group) {
  const Node& master = g[group.master];
  const auto& ops = loops::lowered_softmax_ops();
  if (group.pattern != FusionPattern::OutElementwiseFusable || group.nodes.size() < 2 || !master.op ||
      std::find(ops.begin(), ops.end(), master.op->name) == ops.end())
    return false;
  std::string why;
  return plan_native(g, master_alone(g, group, FusionPattern::OutElementwiseFusable), &why).has_value();
}

// The plan with each projection of a tuple made outside its group (an operator's result of
// several fields, a tuple parameter) taken out into a group of its own, or `plan` itself
// when there is none. Such a group computes nothing (the field is the value), and the
// rest of its former group can then be one kernel that reads the field's buffer.
FusionPlan split_projections(const Graph& g, FusionPlan plan) {
  std::vector<std::vector<NodeId>> members;
  bool split = false;
  for (const FusedGroup& group : plan.groups) {
    std::vector<NodeId> rest;
    for (NodeId id : group.nodes) {
      const Node& n = g[id];
      const bool outside = n.kind == NodeKind::GetItem && plan.group_of[n.inputs[0]] != static_cast<int32_t>(group.id);
      if (outside && group.nodes.size() > 1) members.push_back({id});
      else rest.push_back(id);
    }
    split = split || rest.size() != group.nodes.size();
    if (!rest.empty()) members.push_back(std::move(rest));
  }
  return split ? plan_of_groups(g, std::move(members)) : plan;
}

}  // namespace

FusionPlan fuse_for_kernels(const Graph& g) {
  FusionPlan plan = split_projections(g, fuse(g));
  std::vector<std::vector<NodeId>> members;
  bool split = false;
  // The members before the master, the master, the members after it: each part non-empty.
  auto split_at_master = [&](const FusedGroup& group) {
    const auto at = std::find(group.nodes.begin(), group.nodes.end(), group.master);
    if (at != group.nodes.begin()) members.emplace_back(group.nodes.begin(), at);
    members.push_back({group.master});
    if (at + 1 != group.nodes.end()) members.emplace_back(at + 1, group.nodes.end());
    split = true;
  };
  for (const FusedGroup& group : plan.groups) {
    if (splits(g, group) || splits_softmax(g, group)) split_at_master(group);
    else members.push_back(group.nodes);
  }
  return split ? plan_of_groups(g, std::move(members)) : plan;
}

}  // namespace relay::compiler
