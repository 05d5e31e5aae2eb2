// Inference simplification (TVM's SimplifyInference): batch_norm, dropout and bias_add
// become elementwise and broadcast ops that fuse into their neighbours' groups; layer_norm,
// instance_norm and group_norm become a mean, a variance and an element-wise tail, which
// lower as reductions and element-wise kernels, as TVM's *ToInferUnpack rewrites do;
// l2_normalize a sum of squares and a division, lrn a windowed sum of squares and a
// division (TVM's topi computes them so). Each
// follows the order the reference kernel computes in (interpreter/kernels/nn_norm.cpp):
// batch_norm in the data's dtype, the others in float64 as their reference kernels do,
// so results agree with them to the dtype's rounding.
#include <algorithm>

#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"
#include "compiler/graph/rewrite_util.h"

namespace relay::compiler {

namespace {

bool is_float_tensor(const GraphBuilder& b, NodeId id) {
  const auto* t = ty_as<TensorTy>(b.type_of(id));
  return t && t->dtype.is_float();
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

// The layer `n` normalising `data` (as the caller has shaped it) over `axes`:
//   (data - mean) * (1 / sqrt(variance + epsilon)), back to `shape`, * gamma + beta
// along `axis`, in float64 and then the data's dtype. That is the reference kernels' op
// sequence and precision (interpreter/kernels/nn_norm.cpp), which matters: over an axis
// of nearly equal values the statistics cancel, and float32 ones made results differ in
// the second digit (tests/fuzz/jit_differential.py found it). TVM's decomposition works
// in the data's dtype.
NodeId normalize(GraphBuilder& b, const Node& n, NodeId data, const std::vector<int64_t>& axes,
                 const std::vector<int64_t>& shape, int64_t axis, NodeId gamma, NodeId beta) {
  const Span s = n.span;
  const DataType dtype = ty_as<TensorTy>(b.type_of(data))->dtype, f64 = DataType::float_(64);
  const int64_t ndim = static_cast<int64_t>(shape.size());
  // A cast per reader: each fuses into its reader's kernel (common-subexpression
  // elimination leaves widening casts apart), where one shared cast would be a float64
  // copy of the data written once and read three times.
  NodeId x = cast_to(b, data, f64, s);
  NodeId mean = b.call("mean", {{"axis", attr_ints(axes)}, {"keepdims", attr_bool(true)}}, {cast_to(b, data, f64, s)}, s);
  NodeId var = b.call("variance", {{"axis", attr_ints(axes)}, {"keepdims", attr_bool(true)}},
                      {cast_to(b, data, f64, s), mean}, s);
  NodeId eps = scalar_like(b, x, n.attrs.get_double("epsilon", 1e-5), s);
  NodeId rstd = b.call("divide", {}, {scalar_like(b, x, 1.0, s), b.call("sqrt", {}, {b.call("add", {}, {var, eps}, s)}, s)}, s);
  NodeId out = b.call("multiply", {}, {b.call("subtract", {}, {x, mean}, s), rstd}, s);
  if (*concrete_shape(b.type_of(out)) != shape) out = b.call("reshape", {{"newshape", attr_ints(shape)}}, {out}, s);
  if (n.attrs.get_bool("scale", true))
    out = b.call("multiply", {}, {out, expand_to_axis(b, cast_to(b, gamma, f64, s), axis, ndim, s)}, s);
  if (n.attrs.get_bool("center", true))
    out = b.call("add", {}, {out, expand_to_axis(b, cast_to(b, beta, f64, s), axis, ndim, s)}, s);
  return cast_to(b, out, dtype, s);
}

// Statistics over `axis`.
NodeId layer_norm(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const std::vector<int64_t> shape = *concrete_shape(b.type_of(in[0]));
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", -1), static_cast<int64_t>(shape.size()));
  return normalize(b, n, in[0], {axis}, shape, axis, in[1], in[2]);
}

// Statistics over every axis but the first (the batch) and `axis`.
NodeId instance_norm(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const std::vector<int64_t> shape = *concrete_shape(b.type_of(in[0]));
  const int64_t ndim = static_cast<int64_t>(shape.size());
  const int64_t axis = normalized_axis(n.attrs.get_int("axis", 1), ndim);
  std::vector<int64_t> axes;
  for (int64_t d = 1; d < ndim; ++d)
    if (d != axis) axes.push_back(d);
  return normalize(b, n, in[0], axes, shape, axis, in[1], in[2]);
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
  NodeId x = b.call("reshape", {{"newshape", attr_ints(grouped)}}, {in[0]}, n.span);
  return normalize(b, n, x, axes, shape, axis, in[1], in[2]);
}

// data / sqrt(max(sum(data * data over `axis`), eps)) in float64, then the data's dtype:
// the reference kernel's sequence and precision (nn_norm.cpp), whose std::max(s, eps) is
// maximum(eps, s) (a NaN sum stays NaN). TVM's topi::l2_normalize works in the dtype. An
// empty axis list makes each element its own group (no `sum`: it would read [] as every axis).
NodeId l2_normalize(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const int64_t ndim = rank_of(b, in[0]);
  std::vector<int64_t> axes;
  for (int64_t a : n.attrs.get_ints("axis")) {
    if (a < -ndim || a >= ndim) return b.copy(n, in);  // its kernel says why
    axes.push_back(normalized_axis(a, ndim));
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  const DataType dtype = ty_as<TensorTy>(b.type_of(in[0]))->dtype, f64 = DataType::float_(64);
  NodeId x = cast_to(b, in[0], f64, s);
  NodeId sum = b.call("multiply", {}, {x, x}, s);
  if (!axes.empty()) sum = b.call("sum", {{"axis", attr_ints(axes)}, {"keepdims", attr_bool(true)}}, {sum}, s);
  NodeId norm = b.call("sqrt", {}, {b.call("maximum", {}, {scalar_like(b, x, n.attrs.get_double("eps"), s), sum}, s)}, s);
  return cast_to(b, b.call("divide", {}, {cast_to(b, in[0], f64, s), norm}, s), dtype, s);
}

// x / (bias + alpha * s / size)^beta with s the sum of squares over the `size` positions
// of `axis` from i - size/2 (clipped at both ends), in float64 and then the data's dtype:
// the reference kernel's sequence (nn_norm.cpp). The window is `size` slices of the
// squares padded with zeros (size/2 before, the rest after), added in window order; a
// zero where the reference's window is clipped adds nothing (0 + a is a), so the sums are
// its own. One index-mapping kernel: the pad and slices read the squares in place.
NodeId lrn(GraphBuilder& b, const Node& n, const std::vector<NodeId>& in) {
  const Span s = n.span;
  const std::vector<int64_t> shape = *concrete_shape(b.type_of(in[0]));
  const auto ndim = static_cast<int64_t>(shape.size());
  int64_t axis = n.attrs.get_int("axis", 1);
  const int64_t size = n.attrs.get_int("size", 5);
  // Out of range: its kernel says why; a long window stays a loop (its kernel's).
  if (axis < -ndim || axis >= ndim || size <= 0 || size > 16) return b.copy(n, in);
  axis = normalized_axis(axis, ndim);
  const DataType dtype = ty_as<TensorTy>(b.type_of(in[0]))->dtype, f64 = DataType::float_(64);
  NodeId x = cast_to(b, in[0], f64, s);
  NodeId squares = b.call("multiply", {}, {x, x}, s);
  AttrVal widths;
  widths.kind = AttrVal::Kind::Array;
  for (int64_t d = 0; d < ndim; ++d) {
    const int64_t around[2] = {d == axis ? size / 2 : 0, d == axis ? size - 1 - size / 2 : 0};
    widths.items.push_back(attr_ints(around));
  }
  NodeId padded = b.call("nn.pad", {{"pad_width", widths}, {"pad_mode", attr_string("constant")}},
                         {squares, scalar_like(b, x, 0.0, s)}, s);
  NodeId sum = 0;
  for (int64_t k = 0; k < size; ++k) {
    const int64_t begin[1] = {k}, end[1] = {k + shape[static_cast<size_t>(axis)]}, step[1] = {1}, axes[1] = {axis};
    NodeId window = b.call("strided_slice",
                           {{"begin", attr_ints(begin)}, {"end", attr_ints(end)}, {"strides", attr_ints(step)},
                            {"axes", attr_ints(axes)}, {"slice_mode", attr_string("end")}},
                           {padded}, s);
    sum = k == 0 ? window : b.call("add", {}, {sum, window}, s);
  }
  NodeId scaled = b.call("divide", {}, {b.call("multiply", {}, {scalar_like(b, x, n.attrs.get_double("alpha", 1e-4), s), sum}, s),
                                        scalar_like(b, x, static_cast<double>(size), s)}, s);
  NodeId norm = b.call("power", {}, {b.call("add", {}, {scalar_like(b, x, n.attrs.get_double("bias", 2), s), scaled}, s),
                                     scalar_like(b, x, n.attrs.get_double("beta", 0.75), s)}, s);
  return cast_to(b, b.call("divide", {}, {cast_to(b, in[0], f64, s), norm}, s), dtype, s);
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
    if (on_floats && n.op->name == "nn.l2_normalize") return l2_normalize(b, n, in);
    if (on_floats && n.op->name == "nn.lrn") return lrn(b, n, in);
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
  return eliminate_dead_code(
      eliminate_common_subexpressions(
      fold_constants(slice_split_fields(one_d_as_two_d(resize_as_takes(canonicalize_qnn(simplify_inference(g))))))));
}

}  // namespace relay::compiler
