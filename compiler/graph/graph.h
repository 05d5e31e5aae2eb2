// The compiler's graph IR: one Relay function specialised to concrete argument shapes
// and dtypes, as a dataflow graph.
//
// Nodes are kept in a vector in topological order (every input of a node has a smaller
// id), so passes are loops over ids rather than recursive walks, and a 100,000-binding
// model cannot overflow the stack. Every node has a concrete type (a tensor type, or a
// tuple of them, with constant dims only): types are recomputed from the argument shapes
// with each operator's relation (eval_relation), never copied from the checker, whose
// types may hold `?` or symbolic dims. Every node keeps the span of the expression it came
// from, so a compiled group can point back at source (diagnostics, NaN replay).
//
// Passes (passes.h) do not mutate a graph in place: each builds a new one through
// GraphRewriter, which keeps ids dense and topological.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "lang/base/source.h"
#include "lang/ops/op_registry.h"
#include "lang/syntax/ast.h"
#include "lang/syntax/metadata.h"
#include "lang/types/call_attrs.h"
#include "lang/types/infer.h"
#include "lang/types/type.h"

namespace relay::rt {
struct RegionInfo;  // interpreter/eval/tier.h
}

namespace relay::compiler {

using NodeId = uint32_t;

enum class NodeKind : uint8_t {
  Input,     // parameter `index` of the function
  Constant,  // a tensor: a literal, meta[relay.Constant][i], or a folded value
  Call,      // an operator call
  Tuple,     // (inputs...)
  GetItem,   // inputs[0].index
};
std::string_view node_kind_name(NodeKind k);

struct Node {
  NodeKind kind = NodeKind::Call;
  Ty type = nullptr;  // concrete; lives in the graph's arena
  Span span;          // the source expression (empty for nodes a pass made up)
  uint32_t index = 0;            // Input: parameter position; GetItem: field
  std::string name;              // Input: the parameter's name (without %)
  rt::NDArray constant;          // Constant
  const OpInfo* op = nullptr;    // Call
  CallAttrs attrs;               // Call: checked, with the schema's defaults
  std::vector<NodeId> inputs;    // Call: arguments; Tuple: fields; GetItem: the tuple
};

struct Graph {
  std::shared_ptr<TypeArena> arena = std::make_shared<TypeArena>();
  std::vector<Node> nodes;      // topological
  std::vector<NodeId> params;   // the Input nodes, in parameter order
  NodeId output = 0;
  std::string name;             // the function's name (for printing)

  const Node& operator[](NodeId id) const { return nodes[id]; }
  size_t size() const { return nodes.size(); }
  // For each node, the nodes that use it (in id order; a node using another twice is
  // listed twice, as TVM's forward graph lists one edge per argument).
  std::vector<std::vector<NodeId>> users() const;
  size_t count(NodeKind k) const;
  size_t count_op(std::string_view op_name) const;
};

// Thrown when a graph cannot be built or rewritten (a relation rejects the concrete
// types, a kernel fails during folding). `span` says where, when known.
struct GraphError : std::runtime_error {
  GraphError(const std::string& message, Span where) : std::runtime_error(message), span(where) {}
  Span span;
};

// Builds a graph node by node. Appending keeps the order topological because an input
// must already exist. `call` computes the output type with the operator's relation.
class GraphBuilder {
 public:
  explicit GraphBuilder(std::shared_ptr<TypeArena> arena);
  NodeId input(uint32_t index, std::string name, Ty type, Span span);
  NodeId constant(rt::NDArray value, Span span);
  NodeId call(const OpInfo& op, CallAttrs attrs, std::vector<NodeId> inputs, Span span);
  // By operator name, attributes as (field, value) pairs with the other fields defaulted.
  NodeId call(std::string_view op, std::vector<std::pair<std::string, AttrVal>> attrs,
              std::vector<NodeId> inputs, Span span);
  NodeId tuple(std::vector<NodeId> fields, Span span);
  NodeId get_item(NodeId tuple, uint32_t index, Span span);
  // Copies a node whose inputs are already ids of this builder (type kept).
  NodeId copy(const Node& n, std::vector<NodeId> inputs);

  Ty type_of(NodeId id) const { return graph_.nodes[id].type; }
  const Node& node(NodeId id) const { return graph_.nodes[id]; }
  Graph finish(NodeId output, std::string name = {});
  Graph& graph() { return graph_; }

 private:
  NodeId push(Node n);
  Graph graph_;
};

// AttrVal helpers for passes that make calls.
AttrVal attr_int(int64_t v);
AttrVal attr_double(double v);
AttrVal attr_ints(std::span<const int64_t> v);
AttrVal attr_string(std::string s);
AttrVal attr_bool(bool v);

// A tensor type of the graph's arena from a concrete shape, and back.
Ty tensor_type(TypeArena& arena, std::span<const int64_t> shape, DataType dtype);
// The constant shape of a concrete tensor type (nullopt when not a tensor or a dim is not
// constant).
std::optional<std::vector<int64_t>> concrete_shape(Ty t);

// The value of a Constant node holding one element (a scale or zero point), as a double;
// nullopt for any other node.
std::optional<double> scalar_constant(const Node& n);
// Tensor, or tuple of them (nested), with constant dims only.
bool is_concrete(Ty t);

// One argument of the specialisation: its shape and dtype.
struct ArgSpec {
  std::vector<int64_t> shape;
  DataType dtype = DataType::float_(32);
};
std::vector<ArgSpec> arg_specs_of(std::span<const rt::NDArray> args);
// The parameters' checked types as specs; `overrides` (parameter name without % ->
// shape) replace a parameter's shape, and must where it has `?` or symbolic dims. On
// failure (a non-tensor parameter, a dim left unknown, an override of another rank or
// for no parameter) returns nullopt and says why in `error`.
std::optional<std::vector<ArgSpec>> arg_specs_from_types(
    const FuncDef& def, const InferredTypes* types,
    const std::vector<std::pair<std::string, std::vector<int64_t>>>& overrides, std::string& error);

struct BuildResult {
  std::optional<Graph> graph;
  std::string reason;  // why the function is not a graph (empty on success)
  Span where;          // the expression that made it so
  bool ok() const { return graph.has_value(); }
};

// Builds the graph of `def` for arguments of `args`' shapes and dtypes. `types` (may be
// null) is the checker's side table: parameters must agree with it where it is concrete.
// `metadata` serves meta[relay.Constant][i]. Lets, graph bindings and nested calls all
// become edges; a let-bound function literal that is only called is inlined at each call
// (the LSTM's cell); anything else that is not dataflow — if, match, references,
// constructors, globals, closures that escape, operators as values — gives a reason.
BuildResult build_graph(const FuncDef& def, const InferredTypes* types, const Metadata* metadata,
                        std::span<const ArgSpec> args);

// The graph of a tensor region of an interpreted function (mixed mode, rt::RegionInfo in
// interpreter/eval/tier.h) for inputs of `args`' shapes and dtypes: the region's input
// variables are the graph's inputs, its bindings the body, and the tuple of its output
// variables the result. `types` is the enclosing definition's side table.
BuildResult build_region_graph(const rt::RegionInfo& region, const InferredTypes* types, const Metadata* metadata,
                               std::span<const ArgSpec> args);

}  // namespace relay::compiler
