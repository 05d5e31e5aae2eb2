#include "compiler/graph/rewrite_util.h"

#include "lang/ops/op_schema.h"

namespace relay::compiler {

int64_t rank_of(const GraphBuilder& b, NodeId id) { return static_cast<int64_t>(ty_as<TensorTy>(b.type_of(id))->rank()); }

DataType dtype_of(const GraphBuilder& b, NodeId id) { return ty_as<TensorTy>(b.type_of(id))->dtype; }

int64_t normalized_axis(int64_t axis, int64_t ndim) { return axis < 0 ? axis + ndim : axis; }

NodeId expand_to_axis(GraphBuilder& b, NodeId v, int64_t axis, int64_t ndim, Span span) {
  const int64_t pad = ndim - axis - 1;
  if (pad <= 0) return v;
  return b.call("expand_dims", {{"axis", attr_int(1)}, {"num_newaxis", attr_int(pad)}}, {v}, span);
}

NodeId scalar_of(GraphBuilder& b, DataType dtype, double value, Span span) {
  return b.constant(rt::NDArray::scalar(value, dtype), span);
}

NodeId scalar_like(GraphBuilder& b, NodeId like, double value, Span span) {
  return scalar_of(b, dtype_of(b, like), value, span);
}

NodeId cast_to(GraphBuilder& b, NodeId x, DataType t, Span span) {
  if (dtype_of(b, x) == t) return x;
  return b.call("cast", {{"dtype", attr_string(dtype_name(t))}}, {x}, span);
}

CallAttrs with_attr(const CallAttrs& attrs, std::string_view name, AttrVal value) {
  std::vector<std::pair<std::string, AttrVal>> values{{std::string(name), std::move(value)}};
  if (const AttrSchema* schema = attrs.schema())
    for (const AttrField& f : schema->fields)
      if (const AttrVal* v = attrs.get(f.name); v && f.name != name) values.emplace_back(std::string(f.name), *v);
  return CallAttrs::from_values(attrs.schema(), std::move(values));
}

}  // namespace relay::compiler
