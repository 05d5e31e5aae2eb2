// A field of `split` read on its own becomes a `strided_slice` of the split's input: the
// slice is injective and fuses into the group that reads the field (one index-mapping
// kernel reads the input directly), where a projection of the split's tuple kept that
// group on reference kernels and the split itself copied every field. An LSTM's gates are
// the case: split(x, 4) read by the cell's element-wise groups. The sections follow the
// reference kernel's (interpreter/kernels/transform_shape.cpp): equal parts for a count,
// else the points clamped to the axis and never before the previous one.
#include <algorithm>

#include "compiler/graph/passes.h"
#include "compiler/graph/rebuild.h"

namespace relay::compiler {

namespace {

// [lo, hi) of field `index` of a split of an axis of `dim` elements, or false when the
// attributes do not say (the split's relation already checked a section count).
bool field_range(const CallAttrs& attrs, int64_t dim, uint32_t index, int64_t& lo, int64_t& hi) {
  std::vector<int64_t> points;
  const AttrVal* ios = attrs.get("indices_or_sections");
  if (!ios) return false;
  if (ios->kind == AttrVal::Kind::Int) {
    const int64_t n = ios->int_value;
    if (n <= 0 || dim % n != 0) return false;
    for (int64_t k = 1; k < n; ++k) points.push_back(k * (dim / n));
  } else {
    points = attrs.get_ints("indices_or_sections");
  }
  if (index > points.size()) return false;
  lo = 0;
  for (size_t k = 0; k <= index; ++k) {
    hi = k < points.size() ? std::clamp<int64_t>(points[k], 0, dim) : dim;
    hi = std::max(hi, lo);
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
    if (axis < 0 || axis >= rank || !field_range(t.attrs, (*shape)[static_cast<size_t>(axis)], n.index, lo, hi))
      return b.copy(n, std::move(in));
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
