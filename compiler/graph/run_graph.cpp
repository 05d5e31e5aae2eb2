#include "compiler/graph/run_graph.h"

#include "interpreter/kernels/kernel.h"

namespace relay::compiler {

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
      case NodeKind::Tuple: {
        std::vector<rt::Value> fields;
        for (NodeId f : n.inputs) fields.push_back(values[f]);
        values[i] = rt::make_tuple(std::move(fields));
        break;
      }
      case NodeKind::GetItem: values[i] = values[n.inputs[0]].tuple().fields[n.index]; break;
      case NodeKind::Call: {
        rt::KernelFn fn = rt::find_kernel(*n.op);
        if (!fn) throw GraphError("`" + std::string(n.op->name) + "` has no reference kernel", n.span);
        std::vector<rt::Value> in;
        for (NodeId x : n.inputs) in.push_back(values[x]);
        rt::KernelCall call{*n.op, in, n.attrs, n.type};
        try {
          values[i] = fn(call);
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
