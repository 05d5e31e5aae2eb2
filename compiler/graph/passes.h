// Graph passes. Each takes a graph and returns a new one (ids stay dense and
// topological); none changes what the graph computes, up to floating-point rounding
// where simplify_inference rewrites batch_norm. `optimize` runs them in the order the
// compile path uses.
#pragma once

#include "compiler/graph/graph.h"

namespace relay::compiler {

// Drops every node the output does not depend on. Inputs stay (they are positional).
Graph eliminate_dead_code(const Graph& g);

// Merges calls of the same operator with equal attributes on the same inputs, equal
// tuples and equal projections (keeps the first). Random operators are never merged.
Graph eliminate_common_subexpressions(const Graph& g);

// Evaluates, once, with the reference kernel, every call whose inputs are all constants
// (and projections of constant tuples), and replaces it with its value. Random operators
// and calls without a kernel are left alone; so are results over `max_elements`
// elements (folding a broadcast_to of a scalar into megabytes is no gain).
Graph fold_constants(const Graph& g, int64_t max_elements = int64_t{1} << 22);

// TVM's SimplifyInference for the operators this graph meets: nn.dropout's result is its
// input; nn.batch_norm becomes data * scale + shift along its axis, with
// scale = gamma / sqrt(var + eps) (1 / sqrt(var + eps) with scale=False) and
// shift = beta - mean * scale (-mean * scale with center=False), computed by small
// per-channel ops (fold_constants folds them when the parameters are constants);
// nn.bias_add becomes add with the bias expanded to broadcast along its axis.
// Projections of the rewritten tuples are forwarded; run eliminate_dead_code after.
Graph simplify_inference(const Graph& g);

// Each field of a `split` that is read on its own (a projection of the split's tuple)
// becomes a `strided_slice` of the split's input, which fuses into its reader; run
// eliminate_dead_code after (the split goes when nothing else reads the tuple).
Graph slice_split_fields(const Graph& g);

// nn.conv1d, nn.max_pool1d and nn.avg_pool1d (NCW or NWC) as their 2-D forms over a unit
// height between an expand_dims and a squeeze, so that they reach the 2-D convolution
// library calls and pool kernels; the same sums over the same taps.
Graph one_d_as_two_d(const Graph& g);

// qnn.quantize, dequantize, requantize (compute_dtype int64), add, subtract, mul,
// leaky_relu, avg_pool2d, softmax and concatenate as the element-wise operators (and
// the pool and reductions) TVM's QNN canonicalisation lowers them to,
// the unary ones (qnn.exp, ...) as lookups in a table of every int8 result; bit for bit
// the reference kernels' results. Requantize's fixed-point multiplier and shift are
// computed from the scales once per call (folded when the scales are constants).
Graph canonicalize_qnn(const Graph& g);

// image.resize1d/2d/3d of float data as takes of the reference plan's samples and their
// weighted sum in its float32 order (resize_as_takes.cpp), bit for bit the reference.
Graph resize_as_takes(const Graph& g);

// simplify_inference, canonicalize_qnn, resize_as_takes, one_d_as_two_d, slice_split_fields,
// fold_constants, eliminate_common_subexpressions, eliminate_dead_code.
Graph optimize(const Graph& g);

}  // namespace relay::compiler
