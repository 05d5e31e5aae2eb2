// Small builders the rewriting passes share (simplify_inference, canonicalize_qnn): the
// casts, constants and axis reshapes a decomposition into ordinary operators needs.
#pragma once

#include "compiler/graph/graph.h"

namespace relay::compiler {

// The rank of tensor node `id`.
int64_t rank_of(const GraphBuilder& b, NodeId id);
// The dtype of tensor node `id`.
DataType dtype_of(const GraphBuilder& b, NodeId id);

// `axis` counted from the front when negative (-1 is ndim - 1); not range-checked.
int64_t normalized_axis(int64_t axis, int64_t ndim);

// `v` (shape (C)) reshaped to broadcast along `axis` of a rank-`ndim` tensor: (C, 1, ...).
NodeId expand_to_axis(GraphBuilder& b, NodeId v, int64_t axis, int64_t ndim, Span span);

// A scalar constant of `like`'s dtype, or of `dtype`.
NodeId scalar_like(GraphBuilder& b, NodeId like, double value, Span span);
NodeId scalar_of(GraphBuilder& b, DataType dtype, double value, Span span);

// `x` cast to `t` (x itself when it already is).
NodeId cast_to(GraphBuilder& b, NodeId x, DataType t, Span span);

// `attrs` with field `name` set to `value`, the others as written or defaulted.
CallAttrs with_attr(const CallAttrs& attrs, std::string_view name, AttrVal value);

}  // namespace relay::compiler
