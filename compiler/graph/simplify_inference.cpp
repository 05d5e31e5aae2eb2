// Inference simplification (TVM's SimplifyInference, for the operators the models use):
// batch_norm, dropout and bias_add become elementwise and broadcast ops that fuse into
// their neighbours' groups. The op sequence follows TVM's BatchNormToInferUnpack, which
// is also the order the reference kernel computes in (interpreter/kernels/nn_norm.cpp),
// so results agree to rounding.
#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"

namespace relay::compiler {

namespace {

int64_t rank_of(const GraphBuilder& b, NodeId id) { return static_cast<int64_t>(ty_as<TensorTy>(b.type_of(id))->rank()); }

int64_t normalized_axis(int64_t axis, int64_t ndim) { return axis < 0 ? axis + ndim : axis; }

// `v` (shape (C)) reshaped to broadcast along `axis` of a rank-`ndim` tensor: (C, 1, ...).
NodeId expand_to_axis(GraphBuilder& b, NodeId v, int64_t axis, int64_t ndim, Span span) {
  const int64_t pad = ndim - axis - 1;
  if (pad <= 0) return v;
  return b.call("expand_dims", {{"axis", attr_int(1)}, {"num_newaxis", attr_int(pad)}}, {v}, span);
}

NodeId scalar_like(GraphBuilder& b, NodeId like, double value, Span span) {
  DataType dt = ty_as<TensorTy>(b.type_of(like))->dtype;
  return b.constant(rt::NDArray::scalar(value, dt), span);
}

NodeId batch_norm(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const NodeId data = in[0], gamma = in[1], beta = in[2], mean = in[3], var = in[4];
  const int64_t ndim = rank_of(b, data);
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", 1), ndim);
  NodeId eps = scalar_like(b, data, n.attrs.get_double("epsilon", 1e-5), s);
  NodeId sqrt_var = b.call("sqrt", {}, {b.call("add", {}, {var, eps}, s)}, s);
  NodeId scale = b.call("divide", {}, {scalar_like(b, data, 1.0, s), sqrt_var}, s);
  if (n.attrs.get_bool("scale", true)) scale = b.call("multiply", {}, {scale, gamma}, s);
  NodeId shift = b.call("multiply", {}, {b.call("negative", {}, {mean}, s), scale}, s);
  if (n.attrs.get_bool("center", true)) shift = b.call("add", {}, {shift, beta}, s);
  NodeId out = b.call("multiply", {}, {data, expand_to_axis(b, scale, axis, ndim, s)}, s);
  out = b.call("add", {}, {out, expand_to_axis(b, shift, axis, ndim, s)}, s);
  // The statistics outputs are the moving statistics in inference.
  return b.tuple({out, mean, var}, s);
}

NodeId bias_add(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const int64_t ndim = rank_of(b, in[0]);
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", 1), ndim);
  return b.call("add", {}, {in[0], expand_to_axis(b, in[1], axis, ndim, n.span)}, n.span);
}

}  // namespace

Graph simplify_inference(const Graph& g) {
  return rebuild(g, [](GraphBuilder& b, const Node& n, std::vector<NodeId> in) {
    if (n.kind == NodeKind::GetItem && b.node(in[0]).kind == NodeKind::Tuple) return b.node(in[0]).inputs[n.index];
    if (n.kind == NodeKind::Call && n.op->name == "nn.batch_norm") return batch_norm(b, n, in);
    if (n.kind == NodeKind::Call && n.op->name == "nn.bias_add") return bias_add(b, n, in);
    if (n.kind == NodeKind::Call && n.op->name == "nn.dropout") {
      // The result is the input; the mask stays a projection of the original call, which
      // dead-code elimination drops unless something reads it.
      const NodeId data = in[0];
      const NodeId kept = b.copy(n, std::move(in));
      return b.tuple({data, b.get_item(kept, 1, n.span)}, n.span);
    }
    return b.copy(n, std::move(in));
  });
}

Graph optimize(const Graph& g) {
  return eliminate_dead_code(eliminate_common_subexpressions(fold_constants(slice_split_fields(simplify_inference(g)))));
}

}  // namespace relay::compiler
