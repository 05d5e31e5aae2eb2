// A field of `split` read on its own becomes a `strided_slice` of the split's input: the
// slice is injective and fuses into the group that reads the field (one index-mapping
// kernel reads the input directly), where a projection of the split's tuple kept that
// group on reference kernels and the split itself copied every field. An LSTM's gates are
// the case: split(x, 4) read by the cell's element-wise groups. The bounds come from the
// split's inferred tuple type (its relation already worked out every field's extent along
// the axis): field k starts where the fields before it end.
#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"

namespace relay::compiler {

namespace {

// [lo, hi) of field `index` of split node `t` along `axis`, from its tuple type; false when
// the type is not a tuple of concrete tensors.
bool field_range(const Node& t, int64_t axis, uint32_t index, int64_t& lo, int64_t& hi) {
  if (!t.type || t.type->kind != TyKind::Tuple) return false;
  const auto& fields = static_cast<const TupleTy*>(t.type)->fields;
  if (index >= fields.size()) return false;
  lo = 0;
  for (uint32_t k = 0; k <= index; ++k) {
    const auto shape = concrete_shape(fields[k]);
    if (!shape || axis >= static_cast<int64_t>(shape->size())) return false;
    hi = lo + (*shape)[static_cast<size_t>(axis)];
    if (k < index) lo = hi;
  }
  return true;
}

}  // namespace

Graph slice_split_fields(const Graph& g) {
  return rebuild(g, [](GraphBuilder& b, const Node& n, std::vector<NodeId> in) {
    if (n.kind != NodeKind::GetItem) return b.copy(n, std::move(in));
    const Node& t = b.node(in[0]);
    const auto shape =
        t.kind == NodeKind::Call && t.op && t.op->name == "split" ? concrete_shape(b.type_of(t.inputs[0])) : std::nullopt;
    if (!shape) return b.copy(n, std::move(in));
    int64_t axis = t.attrs.get_int("axis", 0);
    const int64_t rank = static_cast<int64_t>(shape->size());
    if (axis < 0) axis += rank;
    int64_t lo = 0, hi = 0;
    if (axis < 0 || axis >= rank || !field_range(t, axis, n.index, lo, hi)) return b.copy(n, std::move(in));
    const int64_t one = 1;
    return b.call("strided_slice",
                  {{"begin", attr_ints(std::span<const int64_t>(&lo, 1))},
                   {"end", attr_ints(std::span<const int64_t>(&hi, 1))},
                   {"strides", attr_ints(std::span<const int64_t>(&one, 1))},
                   {"axes", attr_ints(std::span<const int64_t>(&axis, 1))},
                   {"slice_mode", attr_string("end")}},
                  {t.inputs[0]}, n.span);
  });
}

}  // namespace relay::compiler
