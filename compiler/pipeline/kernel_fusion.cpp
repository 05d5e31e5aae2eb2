#include "compiler/pipeline/kernel_fusion.h"

#include <algorithm>
#include <string>

#include "compiler/pipeline/native_plan.h"

namespace relay::compiler {

namespace {

// The reduction `group.master` as a group of its own.
FusedGroup reduction_alone(const Graph& g, const FusedGroup& group) {
  FusedGroup alone;
  alone.id = group.id;
  alone.nodes = {group.master};
  alone.outputs = {group.master};
  alone.master = group.master;
  alone.pattern = FusionPattern::Reduction;
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
  return reduction_program(g, reduction_alone(g, group), &inputs, &why).has_value();
}

}  // namespace

FusionPlan fuse_for_kernels(const Graph& g) {
  FusionPlan plan = fuse(g);
  std::vector<std::vector<NodeId>> members;
  bool split = false;
  for (const FusedGroup& group : plan.groups) {
    if (splits(g, group)) {
      members.emplace_back(group.nodes.begin(), group.nodes.end() - 1);
      members.push_back({group.master});
      split = true;
    } else {
      members.push_back(group.nodes);
    }
  }
  return split ? plan_of_groups(g, std::move(members)) : plan;
}

}  // namespace relay::compiler
