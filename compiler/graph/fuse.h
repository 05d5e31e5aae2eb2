// Operator fusion by TVM 0.14's FuseOps rules (src/relay/transforms/fuse_ops.cc and
// graph_partitioner.cc), over the graph IR.
//
// Every node has a pattern (its operator's TOpPattern from ops.def; tuples kTuple,
// projections kInjective); every edge has one too (the consumer's pattern, except that
// a broadcast consumer whose output shape equals the input's makes an elementwise edge).
// A post-dominator tree over the forward graph gives each node its immediate
// post-dominator and the combined (maximum) pattern of the paths to it. Then, in three
// phases over the nodes in topological order, a node's group is merged into its
// post-dominator's group when every node on every path between them passes the rule:
//   phase 0  out-elemwise-fusable (conv2d, dense, pools, softmax, batch_norm) when the
//            path pattern is elementwise and every node on the way is at most broadcast;
//            elementwise/broadcast when the path pattern is at most injective or
//            reduction, intermediate nodes at most injective, the sink anything but
//            opaque/tuple (so they join conv epilogues and reductions as producers);
//   phase 1  injective and tuple nodes when every node on the way is at most injective;
//   phase 2  injective nodes into tuples already fused into injective consumers.
// A reduction's own group never moves into its consumers (TVM does not fuse
// elementwise epilogues after kCommReduce); opaque nodes stay alone; the function's
// result never fuses forward; no group grows past `max_fused_ops` nodes (TVM: 256).
//
// Where this differs from TVM: inputs and constants are never group members (TVM
// inlines scalar constants into the fused function; here they are group inputs), and
// nodes are visited in this graph's order, which is the source's evaluation order where
// TVM uses its post-DFS order; the two agree on graph-normal-form models.
#pragma once

#include <vector>

#include "compiler/graph/graph.h"

namespace relay::compiler {

struct FusedGroup {
  uint32_t id = 0;                 // position in FusionPlan::groups
  std::vector<NodeId> nodes;       // members (calls, tuples, projections), topological
  std::vector<NodeId> inputs;      // values from outside the group, in first-use order
  std::vector<NodeId> outputs;     // members read outside the group (or the result)
  NodeId master = 0;               // the anchor (out-elemwise-fusable) op, else the
                                   // first op of the highest pattern
  FusionPattern pattern = FusionPattern::Opaque;  // the highest member pattern
};

struct FusionPlan {
  std::vector<FusedGroup> groups;  // topological: a group's inputs come from earlier ones
  std::vector<int32_t> group_of;   // per node; -1 for inputs and constants
};

// TVM's pattern of a node (Input/Constant: Opaque).
FusionPattern node_pattern(const Graph& g, NodeId id);

FusionPlan fuse(const Graph& g, size_t max_fused_ops = 256);

// The plan whose groups have these members (each call, tuple and projection of `g` in
// exactly one): each group's inputs, outputs, pattern and master as fuse() derives them,
// the groups in topological order. fuse() ends with it; a later pass that splits or
// merges groups (compiler/pipeline/kernel_fusion.h) rebuilds its plan with it.
FusionPlan plan_of_groups(const Graph& g, std::vector<std::vector<NodeId>> members);

}  // namespace relay::compiler
