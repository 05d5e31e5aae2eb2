// Graph basics: the builder (every call typed by its operator's relation), type helpers.
#include "compiler/graph/graph.h"

#include "lang/types/relation_eval.h"

namespace relay::compiler {

std::string_view node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::Input: return "input";
    case NodeKind::Constant: return "constant";
    case NodeKind::Call: return "call";
    case NodeKind::Tuple: return "tuple";
    case NodeKind::GetItem: return "get-item";
  }
  return "?";
}

std::vector<std::vector<NodeId>> Graph::users() const {
  std::vector<std::vector<NodeId>> out(nodes.size());
  for (NodeId i = 0; i < nodes.size(); ++i)
    for (NodeId in : nodes[i].inputs) out[in].push_back(i);
  return out;
}

size_t Graph::count(NodeKind k) const {
  size_t n = 0;
  for (const Node& node : nodes) n += node.kind == k;
  return n;
}

size_t Graph::count_op(std::string_view op_name) const {
  size_t n = 0;
  for (const Node& node : nodes) n += node.kind == NodeKind::Call && node.op->name == op_name;
  return n;
}

Ty tensor_type(TypeArena& arena, std::span<const int64_t> shape, DataType dtype) {
  std::vector<Dim> dims;
  dims.reserve(shape.size());
  for (int64_t d : shape) dims.push_back(Dim::constant(d));
  return arena.tensor(dims, dtype);
}

std::optional<std::vector<int64_t>> concrete_shape(Ty t) {
  const auto* tt = ty_as<TensorTy>(t);
  if (!tt) return std::nullopt;
  std::vector<int64_t> out;
  for (const Dim& d : tt->shape) {
    auto v = d.constant_value();
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

bool is_concrete(Ty t) {
  if (const auto* tup = ty_as<TupleTy>(t)) {
    for (Ty f : tup->fields)
      if (!is_concrete(f)) return false;
    return true;
  }
  return concrete_shape(t).has_value();
}

std::vector<ArgSpec> arg_specs_of(std::span<const rt::NDArray> args) {
  std::vector<ArgSpec> out;
  for (const rt::NDArray& a : args) out.push_back({a.shape(), a.dtype()});
  return out;
}

std::optional<double> scalar_constant(const Node& n) {
  if (n.kind != NodeKind::Constant || n.constant.size() != 1) return std::nullopt;
  return n.constant.get_double(0);
}

AttrVal attr_int(int64_t v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Int;
  a.int_value = v;
  return a;
}

AttrVal attr_double(double v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Float;
  a.float_value = v;
  return a;
}

AttrVal attr_ints(std::span<const int64_t> v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Array;
  for (int64_t x : v) a.items.push_back(attr_int(x));
  return a;
}

AttrVal attr_string(std::string s) {
  AttrVal a;
  a.kind = AttrVal::Kind::String;
  a.text = std::move(s);
  return a;
}

AttrVal attr_bool(bool v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Bool;
  a.int_value = v ? 1 : 0;
  return a;
}

GraphBuilder::GraphBuilder(std::shared_ptr<TypeArena> arena) { graph_.arena = std::move(arena); }

NodeId GraphBuilder::push(Node n) {
  graph_.nodes.push_back(std::move(n));
  return static_cast<NodeId>(graph_.nodes.size() - 1);
}

NodeId GraphBuilder::input(uint32_t index, std::string name, Ty type, Span span) {
  Node n;
  n.kind = NodeKind::Input;
  n.index = index;
  n.name = std::move(name);
  n.type = type;
  n.span = span;
  NodeId id = push(std::move(n));
  if (graph_.params.size() <= index) graph_.params.resize(index + 1);
  graph_.params[index] = id;
  return id;
}

NodeId GraphBuilder::constant(rt::NDArray value, Span span) {
  Node n;
  n.kind = NodeKind::Constant;
  n.type = tensor_type(*graph_.arena, value.shape(), value.dtype());
  n.constant = std::move(value);
  n.span = span;
  return push(std::move(n));
}

NodeId GraphBuilder::call(const OpInfo& op, CallAttrs attrs, std::vector<NodeId> inputs, Span span) {
  std::vector<Ty> in_types;
  for (NodeId i : inputs) in_types.push_back(graph_.nodes[i].type);
  RelationOutcome r = eval_relation(op.name, in_types, attrs, *graph_.arena);
  if (r.status != RelStatus::Solved || !is_concrete(r.output)) {
    std::string why = r.errors.empty() ? "its type is not concrete for these shapes" : r.errors.front().message;
    throw GraphError("`" + std::string(op.name) + "`: " + why, span);
  }
  Node n;
  n.kind = NodeKind::Call;
  n.op = &op;
  n.attrs = std::move(attrs);
  n.inputs = std::move(inputs);
  n.type = r.output;
  n.span = span;
  return push(std::move(n));
}

NodeId GraphBuilder::call(std::string_view op, std::vector<std::pair<std::string, AttrVal>> attrs,
                          std::vector<NodeId> inputs, Span span) {
  const OpInfo* info = find_op(op);
  if (!info) throw GraphError("no operator `" + std::string(op) + "`", span);
  return call(*info, CallAttrs::from_values(info->attrs, std::move(attrs), span), std::move(inputs), span);
}

NodeId GraphBuilder::tuple(std::vector<NodeId> fields, Span span) {
  std::vector<Ty> types;
  for (NodeId f : fields) types.push_back(graph_.nodes[f].type);
  Node n;
  n.kind = NodeKind::Tuple;
  n.type = graph_.arena->tuple(types);
  n.inputs = std::move(fields);
  n.span = span;
  return push(std::move(n));
}

NodeId GraphBuilder::get_item(NodeId tuple, uint32_t index, Span span) {
  const auto* tt = ty_as<TupleTy>(graph_.nodes[tuple].type);
  if (!tt || index >= tt->fields.size())
    throw GraphError("projection ." + std::to_string(index) + " of a value that has no such field", span);
  Node n;
  n.kind = NodeKind::GetItem;
  n.type = tt->fields[index];
  n.index = index;
  n.inputs = {tuple};
  n.span = span;
  return push(std::move(n));
}

NodeId GraphBuilder::copy(const Node& src, std::vector<NodeId> inputs) {
  Node n = src;
  n.inputs = std::move(inputs);
  if (n.kind == NodeKind::Input) {
    return input(n.index, n.name, n.type, n.span);
  }
  return push(std::move(n));
}

Graph GraphBuilder::finish(NodeId output, std::string name) {
  graph_.output = output;
  graph_.name = std::move(name);
  return std::move(graph_);
}

}  // namespace relay::compiler
