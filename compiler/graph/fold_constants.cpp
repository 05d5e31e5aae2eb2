// Constant folding: a forward sweep; a call whose inputs are all constants (or tuples of
// constants, as concatenate takes) runs once through its reference kernel and becomes a
// constant (a tuple result becomes a tuple of constants). Projections of tuples whose
// fields are known are forwarded, so folding continues through split/batch_norm results.
#include "compiler/graph/passes.h"
#include "interpreter/kernels/kernel.h"

namespace relay::compiler {

namespace {

bool foldable_op(const OpInfo& op) {
  // Random operators give a different value per call; dropout's mask is random in
  // training (simplify_inference removes it for inference).
  return !op.name.starts_with("random.") && op.name != "nn.dropout" && rt::find_kernel(op) != nullptr;
}

int64_t elements_of(Ty t) {
  if (const auto* tup = ty_as<TupleTy>(t)) {
    int64_t n = 0;
    for (Ty f : tup->fields) n += elements_of(f);
    return n;
  }
  int64_t n = 1;
  const std::vector<int64_t> shape = concrete_shape(t).value();  // a named copy: the optional is a temporary
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace

Graph fold_constants(const Graph& g, int64_t max_elements) {
  GraphBuilder b(g.arena);
  std::vector<NodeId> map(g.size(), 0);
  // The value of a new node when it is a constant or a tuple of constants.
  auto value_of = [&](NodeId id, auto& self) -> std::optional<rt::Value> {
    const Node& n = b.node(id);
    if (n.kind == NodeKind::Constant) return rt::Value(n.constant);
    if (n.kind != NodeKind::Tuple) return std::nullopt;
    std::vector<rt::Value> fields;
    for (NodeId f : n.inputs) {
      auto v = self(f, self);
      if (!v) return std::nullopt;
      fields.push_back(*v);
    }
    return rt::make_tuple(std::move(fields));
  };
  // A constant value as nodes: a tensor constant, or a tuple node of them.
  auto emit = [&](const rt::Value& v, Span span, auto& self) -> NodeId {
    if (v.is_tensor()) return b.constant(v.tensor(), span);
    std::vector<NodeId> fields;
    for (const rt::Value& f : v.tuple().fields) fields.push_back(self(f, span, self));
    return b.tuple(std::move(fields), span);
  };
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes[i];
    std::vector<NodeId> inputs;
    for (NodeId in : n.inputs) inputs.push_back(map[in]);
    if (n.kind == NodeKind::GetItem && b.node(inputs[0]).kind == NodeKind::Tuple) {
      map[i] = b.node(inputs[0]).inputs[n.index];
      continue;
    }
    if (n.kind == NodeKind::Call && foldable_op(*n.op) && elements_of(n.type) <= max_elements) {
      std::vector<rt::Value> args;
      bool all_constant = true;
      for (NodeId in : inputs) {
        auto v = value_of(in, value_of);
        if (!v) {
          all_constant = false;
          break;
        }
        args.push_back(*v);
      }
      if (all_constant) {
        rt::KernelCall call{*n.op, args, n.attrs, n.type};
        try {
          rt::Value out = rt::find_kernel(*n.op)(call);
          map[i] = emit(out, n.span, emit);
          continue;
        } catch (const rt::RuntimeError&) {
          // Left to fail at run time, where the error gets its diagnostic.
        }
      }
    }
    map[i] = b.copy(n, std::move(inputs));
  }
  return eliminate_dead_code(b.finish(map[g.output], g.name));
}

}  // namespace relay::compiler
