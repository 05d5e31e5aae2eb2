// TVM's FuseOps partitioner over the graph IR; fuse.h states the rules.
#include "compiler/graph/fuse.h"

#include <algorithm>
#include <queue>

namespace relay::compiler {

namespace {

using P = FusionPattern;

P combine(P a, P b) { return a > b ? a : b; }

bool tensors_only(Ty t) {
  const auto* tup = ty_as<TupleTy>(t);
  if (!tup) return false;
  for (Ty f : tup->fields)
    if (!ty_as<TensorTy>(f)) return false;
  return true;
}

struct Edge {
  NodeId to;
  P pattern;
};

// The forward graph: each node's consumers with edge patterns, and whether the node is
// read from outside (the result: "extern_ref" in TVM).
struct ForwardGraph {
  std::vector<P> pattern;
  std::vector<std::vector<Edge>> outputs;
  std::vector<bool> external;
};

ForwardGraph forward_graph(const Graph& g) {
  ForwardGraph f;
  f.pattern.resize(g.size());
  f.outputs.resize(g.size());
  f.external.assign(g.size(), false);
  f.external[g.output] = true;
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes[i];
    f.pattern[i] = node_pattern(g, i);
    switch (n.kind) {
      case NodeKind::Call: {
        auto out_shape = concrete_shape(n.type);
        for (NodeId in : n.inputs) {
          P e = f.pattern[i];
          if (e == P::Broadcast && out_shape && concrete_shape(g.nodes[in].type) == out_shape) e = P::Elementwise;
          f.outputs[in].push_back({i, e});
        }
        break;
      }
      case NodeKind::Tuple:
        for (NodeId in : n.inputs) {
          if (tensors_only(n.type)) f.outputs[in].push_back({i, P::Injective});
          else f.external[in] = true;  // TVM: a non-tensor field is not fused through
        }
        break;
      case NodeKind::GetItem:
        if (tensors_only(g.nodes[n.inputs[0]].type)) f.outputs[n.inputs[0]].push_back({i, P::Injective});
        else f.external[n.inputs[0]] = true;
        break;
      case NodeKind::Input:
      case NodeKind::Constant: break;
    }
  }
  return f;
}

// The post-dominator tree: parent = the least common ancestor of a node's consumers,
// pattern = the combined pattern of the edges and tree paths up to it.
struct DomTree {
  std::vector<int64_t> parent;  // -1: none
  std::vector<uint32_t> depth;
  std::vector<P> pattern;
};

DomTree post_dominators(const ForwardGraph& f) {
  const size_t n = f.pattern.size();
  DomTree t{std::vector<int64_t>(n, -1), std::vector<uint32_t>(n, 1), std::vector<P>(n, P::Opaque)};
  auto lca = [&](int64_t a, int64_t b, P& pat) -> int64_t {
    while (a != b) {
      if (a < 0 || b < 0) return -1;
      if (t.depth[a] < t.depth[b]) {
        pat = combine(pat, t.pattern[b]);
        b = t.parent[b];
      } else if (t.depth[b] < t.depth[a]) {
        pat = combine(pat, t.pattern[a]);
        a = t.parent[a];
      } else {
        pat = combine(pat, combine(t.pattern[a], t.pattern[b]));
        a = t.parent[a];
        b = t.parent[b];
      }
    }
    return a;
  };
  for (size_t i = n; i-- > 0;) {
    if (f.external[i] || f.outputs[i].empty()) continue;  // a root
    P pat = P::Elementwise;
    int64_t parent = f.outputs[i][0].to;
    pat = combine(pat, f.outputs[i][0].pattern);
    for (size_t k = 1; k < f.outputs[i].size(); ++k) {
      parent = lca(parent, f.outputs[i][k].to, pat);
      pat = combine(pat, f.outputs[i][k].pattern);
    }
    t.parent[i] = parent;
    t.depth[i] = parent >= 0 ? t.depth[parent] + 1 : 1;
    t.pattern[i] = pat;
  }
  return t;
}

// Union-find groups as TVM keeps them: a root's pattern changes only when a group with
// an anchor (an out-elemwise-fusable op) merges into it.
class Partitioner {
 public:
  Partitioner(const ForwardGraph& f, size_t max_ops) : f_(f), max_ops_(max_ops) {
    const size_t n = f.pattern.size();
    parent_.resize(n);
    pattern_ = f.pattern;
    anchor_.resize(n);
    size_.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
      parent_[i] = i;
      anchor_[i] = f.pattern[i] == P::OutElementwiseFusable;
    }
  }

  size_t root(size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }

  void run(const DomTree& dom) {
    for (int phase = 0; phase < 3; ++phase)
      for (size_t i = 0; i < f_.pattern.size(); ++i) step(dom, i, phase);
  }

 private:
  void step(const DomTree& dom, size_t i, int phase) {
    const P own = pattern_[i];  // the node's group object (a root's is its group's)
    if (own == P::Opaque || dom.parent[i] < 0) return;
    const size_t sink = static_cast<size_t>(dom.parent[i]);
    if (fused_count(i, sink) > max_ops_) return;
    if (phase == 2) {
      // Injective nodes into tuples that already joined injective consumers.
      if (own > P::Injective) return;
      const size_t sink_root = root(sink);
      if (pattern_[sink_root] == P::Tuple) return;
      if (pattern_[sink] == P::Tuple && pattern_[sink_root] <= P::Injective &&
          check_path(i, sink, [](P k, bool) { return k <= P::Injective; }))
        commit(i, sink);
      return;
    }
    if (root(i) == root(sink)) return;
    if (pattern_[root(sink)] == P::Tuple) return;  // not into a tuple (yet)
    if (own == P::OutElementwiseFusable) {
      if (phase != 0) return;
      if (dom.pattern[i] == P::Elementwise && check_path(i, sink, [](P k, bool) { return k <= P::Broadcast; }))
        commit(i, sink);
    } else if (own <= P::Broadcast) {
      if (dom.pattern[i] <= P::Injective || dom.pattern[i] == P::Reduction) {
        auto cond = [](P k, bool is_sink) {
          return is_sink ? (k <= P::Injective || k == P::Reduction || k == P::OutElementwiseFusable) : k <= P::Injective;
        };
        if (check_path(i, sink, cond)) commit(i, sink);
      }
    } else if (own == P::Injective || own == P::Tuple) {
      if (phase != 1) return;
      if (check_path(i, sink, [](P k, bool) { return k <= P::Injective; })) commit(i, sink);
    }
    // Reductions: nothing (they take producers; they do not move into consumers).
  }

  template <class F>
  bool check_path(size_t src, size_t sink, F cond) {
    visited_.assign(f_.pattern.size(), false);
    for (const Edge& e : f_.outputs[src])
      if (!check_path_from(e.to, sink, cond)) return false;
    return true;
  }

  template <class F>
  bool check_path_from(size_t n, size_t sink, F cond) {
    if (visited_[n]) return true;
    visited_[n] = true;
    if (!cond(pattern_[root(n)], n == sink)) return false;
    if (n == sink) return true;
    for (const Edge& e : f_.outputs[n])
      if (!check_path_from(e.to, sink, cond)) return false;
    return true;
  }

  // Merges every group on the paths src -> sink into sink's group.
  void commit(size_t src, size_t sink) {
    visited_.assign(f_.pattern.size(), false);
    const size_t target = sink;
    commit_from(src, sink, target);
  }

  void commit_from(size_t n, size_t sink, size_t target) {
    if (n == sink || visited_[n]) return;
    visited_[n] = true;
    merge(n, target);
    for (const Edge& e : f_.outputs[n]) commit_from(e.to, sink, target);
  }

  void merge(size_t child, size_t parent) {
    child = root(child);
    parent = root(parent);
    if (child == parent) return;
    size_[parent] += size_[child];
    parent_[child] = parent;
    if (anchor_[child]) {
      anchor_[parent] = true;
      pattern_[parent] = combine(pattern_[child], pattern_[parent]);
    }
  }

  // The size sink's group would have with every group between src and sink merged in.
  size_t fused_count(size_t src, size_t sink) {
    visited_.assign(f_.pattern.size(), false);
    std::vector<bool> counted(f_.pattern.size(), false);
    size_t total = size_[root(sink)];
    counted[root(sink)] = true;
    std::vector<size_t> stack{src};
    while (!stack.empty()) {
      size_t n = stack.back();
      stack.pop_back();
      if (n == sink || visited_[n]) continue;
      visited_[n] = true;
      if (!counted[root(n)]) {
        counted[root(n)] = true;
        total += size_[root(n)];
      }
      for (const Edge& e : f_.outputs[n]) stack.push_back(e.to);
    }
    return total;
  }

  const ForwardGraph& f_;
  size_t max_ops_;
  std::vector<size_t> parent_;
  std::vector<P> pattern_;
  std::vector<bool> anchor_;
  std::vector<size_t> size_;
  std::vector<bool> visited_;
};

bool is_member(const Node& n) { return n.kind != NodeKind::Input && n.kind != NodeKind::Constant; }

// Orders groups so each comes after the groups it reads (Kahn's algorithm, earliest
// last member first, which keeps the source order where there is a choice).
std::vector<uint32_t> topological_groups(const Graph& g, const std::vector<FusedGroup>& groups,
                                         const std::vector<int32_t>& group_of) {
  const size_t n = groups.size();
  std::vector<std::vector<uint32_t>> succ(n);
  std::vector<uint32_t> indegree(n, 0);
  for (const FusedGroup& gr : groups)
    for (NodeId in : gr.inputs)
      if (group_of[in] >= 0) {
        succ[group_of[in]].push_back(gr.id);
        ++indegree[gr.id];
      }
  using Item = std::pair<NodeId, uint32_t>;  // (last member, group)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (uint32_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push({groups[i].nodes.back(), i});
  std::vector<uint32_t> order;
  while (!ready.empty()) {
    uint32_t i = ready.top().second;
    ready.pop();
    order.push_back(i);
    for (uint32_t s : succ[i])
      if (--indegree[s] == 0) ready.push({groups[s].nodes.back(), s});
  }
  (void)g;
  return order;
}

}  // namespace

FusionPattern node_pattern(const Graph& g, NodeId id) {
  const Node& n = g.nodes[id];
  switch (n.kind) {
    case NodeKind::Call: return n.op->pattern;
    case NodeKind::Tuple: return P::Tuple;
    case NodeKind::GetItem: return tensors_only(g.nodes[n.inputs[0]].type) ? P::Injective : P::Opaque;
    case NodeKind::Input:
    case NodeKind::Constant: return P::Opaque;
  }
  return P::Opaque;
}

FusionPlan fuse(const Graph& g, size_t max_fused_ops) {
  ForwardGraph f = forward_graph(g);
  DomTree dom = post_dominators(f);
  Partitioner part(f, max_fused_ops);
  part.run(dom);

  // Collect groups by root, in order of their first member.
  std::vector<std::vector<NodeId>> members;
  std::vector<int32_t> by_root(g.size(), -1);
  for (NodeId i = 0; i < g.size(); ++i) {
    if (!is_member(g.nodes[i])) continue;
    size_t r = part.root(i);
    if (by_root[r] < 0) {
      by_root[r] = static_cast<int32_t>(members.size());
      members.emplace_back();
    }
    members[by_root[r]].push_back(i);
  }
  return plan_of_groups(g, std::move(members));
}

FusionPlan plan_of_groups(const Graph& g, std::vector<std::vector<NodeId>> members) {
  std::vector<FusedGroup> groups(members.size());
  std::vector<int32_t> group_of(g.size(), -1);
  for (size_t k = 0; k < members.size(); ++k) {
    groups[k].id = static_cast<uint32_t>(k);
    std::sort(members[k].begin(), members[k].end());
    groups[k].nodes = std::move(members[k]);
    for (NodeId i : groups[k].nodes) group_of[i] = static_cast<int32_t>(k);
  }
  auto users = g.users();
  for (FusedGroup& gr : groups) {
    const auto mine = static_cast<int32_t>(gr.id);
    int best = -1;
    gr.pattern = P::Elementwise;
    for (NodeId m : gr.nodes) {
      for (NodeId in : g.nodes[m].inputs)
        if (group_of[in] != mine && std::find(gr.inputs.begin(), gr.inputs.end(), in) == gr.inputs.end())
          gr.inputs.push_back(in);
      bool escapes = m == g.output;
      for (NodeId u : users[m]) escapes = escapes || group_of[u] != mine;
      if (escapes) gr.outputs.push_back(m);
      P p = node_pattern(g, m);
      if (p == P::Tuple) p = P::Injective;  // a tuple inside a group is plumbing
      gr.pattern = combine(gr.pattern, p);
      const bool is_call = g.nodes[m].kind == NodeKind::Call;
      if (is_call && (best < 0 || static_cast<int>(p) > best)) {
        best = static_cast<int>(p);
        gr.master = m;
      }
    }
    if (best < 0) gr.master = gr.nodes.front();
    if (gr.nodes.size() == 1 && g.nodes[gr.nodes[0]].kind == NodeKind::Tuple) gr.pattern = P::Tuple;
  }
  // Renumber in topological order.
  std::vector<uint32_t> order = topological_groups(g, groups, group_of);
  std::vector<int32_t> new_id(groups.size());
  FusionPlan plan;
  for (uint32_t k = 0; k < order.size(); ++k) {
    new_id[order[k]] = static_cast<int32_t>(k);
    plan.groups.push_back(std::move(groups[order[k]]));
    plan.groups.back().id = k;
  }
  plan.group_of = group_of;
  for (int32_t& x : plan.group_of)
    if (x >= 0) x = new_id[x];
  return plan;
}

}  // namespace relay::compiler
