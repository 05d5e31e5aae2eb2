// Inference simplification (TVM's SimplifyInference): batch_norm, dropout and bias_add
// become elementwise and broadcast ops that fuse into their neighbours' groups; layer_norm,
// instance_norm and group_norm become a mean, a variance and an element-wise tail, which
// lower as reductions and element-wise kernels. The op sequences follow TVM's
// *ToInferUnpack rewrites. batch_norm's is also the order the reference kernel computes in
// (interpreter/kernels/nn_norm.cpp); the other normalisations' reference kernels work in
// double, so compiled results agree with them to the dtype's rounding.
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

bool is_float_tensor(const GraphBuilder& b, NodeId id) {
  const auto* t = ty_as<TensorTy>(b.type_of(id));
  return t && t->dtype.is_float();
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

// (data - mean) / sqrt(variance + epsilon) with the statistics over `axes`, kept as
// size-1 dimensions so they broadcast back.
NodeId standardize(GraphBuilder& b, NodeId data, const std::vector<int64_t>& axes, double epsilon, Span s) {
  NodeId mean = b.call("mean", {{"axis", attr_ints(axes)}, {"keepdims", attr_bool(true)}}, {data}, s);
  NodeId var = b.call("variance", {{"axis", attr_ints(axes)}, {"keepdims", attr_bool(true)}}, {data, mean}, s);
  NodeId denom = b.call("sqrt", {}, {b.call("add", {}, {var, scalar_like(b, data, epsilon, s)}, s)}, s);
  return b.call("divide", {}, {b.call("subtract", {}, {data, mean}, s), denom}, s);
}

// `out` * gamma + beta along `axis`, as the layer's scale and center attributes say.
NodeId scale_and_center(GraphBuilder& b, const Node& n, NodeId out, NodeId gamma, NodeId beta, int64_t axis,
                        int64_t ndim) {
  if (n.attrs.get_bool("scale", true)) out = b.call("multiply", {}, {out, expand_to_axis(b, gamma, axis, ndim, n.span)}, n.span);
  if (n.attrs.get_bool("center", true)) out = b.call("add", {}, {out, expand_to_axis(b, beta, axis, ndim, n.span)}, n.span);
  return out;
}

// Statistics over `axis`.
NodeId layer_norm(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const int64_t ndim = rank_of(b, in[0]);
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", -1), ndim);
  NodeId out = standardize(b, in[0], {axis}, n.attrs.get_double("epsilon", 1e-5), n.span);
  return scale_and_center(b, n, out, in[1], in[2], axis, ndim);
}

// Statistics over every axis but the first (the batch) and `axis`.
NodeId instance_norm(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const int64_t ndim = rank_of(b, in[0]);
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", 1), ndim);
  std::vector<int64_t> axes;
  for (int64_t d = 1; d < ndim; ++d)
    if (d != axis) axes.push_back(d);
  NodeId out = standardize(b, in[0], axes, n.attrs.get_double("epsilon", 1e-5), n.span);
  return scale_and_center(b, n, out, in[1], in[2], axis, ndim);
}

// The channel axis split into (num_groups, channels / num_groups); statistics over the
// in-group channels and every axis after them; then the data's own shape again.
NodeId group_norm(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const std::vector<int64_t> shape = *concrete_shape(b.type_of(in[0]));
  const int64_t ndim = static_cast<int64_t>(shape.size());
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", 1), ndim);
  const int64_t groups = n.attrs.get_int("num_groups", 0);
  if (groups <= 0 || shape[axis] % groups != 0) return b.copy(n, in);  // its kernel says why
  std::vector<int64_t> grouped(shape.begin(), shape.begin() + axis);
  grouped.push_back(groups);
  grouped.push_back(shape[axis] / groups);
  grouped.insert(grouped.end(), shape.begin() + axis + 1, shape.end());
  std::vector<int64_t> axes;
  for (int64_t d = axis + 1; d < static_cast<int64_t>(grouped.size()); ++d) axes.push_back(d);
  NodeId out = b.call("reshape", {{"newshape", attr_ints(grouped)}}, {in[0]}, n.span);
  out = standardize(b, out, axes, n.attrs.get_double("epsilon", 1e-5), n.span);
  out = b.call("reshape", {{"newshape", attr_ints(shape)}}, {out}, n.span);
  return scale_and_center(b, n, out, in[1], in[2], axis, ndim);
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
    // On integers the normalisations' kernels refuse to run: they stay, to say so.
    const bool on_floats = n.kind == NodeKind::Call && !in.empty() && is_float_tensor(b, in[0]);
    if (on_floats && n.op->name == "nn.layer_norm") return layer_norm(b, n, in);
    if (on_floats && n.op->name == "nn.instance_norm") return instance_norm(b, n, in);
    if (on_floats && n.op->name == "nn.group_norm") return group_norm(b, n, in);
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
