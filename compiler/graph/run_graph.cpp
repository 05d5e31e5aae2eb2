#include "compiler/graph/run_graph.h"

#include "interpreter/kernels/kernel.h"

namespace relay::compiler {

rt::Value eval_node(const Graph& g, NodeId id, std::span<const rt::Value> values, const rt::NDArray& dest) {
  const Node& n = g[id];
  switch (n.kind) {
    case NodeKind::Tuple: {
      std::vector<rt::Value> fields;
      for (NodeId f : n.inputs) fields.push_back(values[f]);
      return rt::make_tuple(std::move(fields));
    }
    case NodeKind::GetItem: return values[n.inputs[0]].tuple().fields[n.index];
    case NodeKind::Call: {
      rt::KernelFn fn = rt::find_kernel(*n.op);
      if (!fn) throw rt::RuntimeError("the operator `" + std::string(n.op->name) + "` has no reference kernel");
      std::vector<rt::Value> in;
      for (NodeId x : n.inputs) in.push_back(values[x]);
      rt::KernelCall call{*n.op, in, n.attrs, n.type};
      call.dest = dest;
      return fn(call);
    }
    default: return values[id];
  }
}

rt::Value run_graph(const Graph& g, std::span<const rt::Value> args) {
  if (args.size() != g.params.size())
    throw GraphError("the graph takes " + std::to_string(g.params.size()) + " arguments, given " +
                         std::to_string(args.size()),
                     {});
  // The last node reading each value: it is released after that node ran, so a ResNet
  // holds a few activations at a time rather than all of them.
  std::vector<NodeId> last_use(g.size(), 0);
  for (NodeId i = 0; i < g.size(); ++i)
    for (NodeId in : g.nodes[i].inputs) last_use[in] = i;
  std::vector<rt::Value> values(g.size());
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes[i];
    switch (n.kind) {
      case NodeKind::Input: values[i] = args[n.index]; break;
      case NodeKind::Constant: values[i] = rt::Value(n.constant); break;
      case NodeKind::Tuple:
      case NodeKind::GetItem: values[i] = eval_node(g, i, values); break;
      case NodeKind::Call: {
        if (!rt::find_kernel(*n.op)) throw GraphError("`" + std::string(n.op->name) + "` has no reference kernel", n.span);
        try {
          values[i] = eval_node(g, i, values);
        } catch (const rt::RuntimeError& e) {
          throw GraphError(std::string(n.op->name) + ": " + e.what(), n.span);
        }
        break;
      }
    }
    for (NodeId in : n.inputs)
      if (last_use[in] == i && in != g.output) values[in] = rt::Value();
  }
  return values[g.output];
}

}  // namespace relay::compiler
