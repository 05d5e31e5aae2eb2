#include "lang/autodiff/rules_util.h"

#include <algorithm>

namespace relay::autodiff {

Term unbroadcast(const GradientCall& c, const Term& g, size_t i) {
  if (type_equal(c.input_types.at(i), c.output_type)) return g;
  return call("collapse_sum_like", {g, c.inputs.at(i)});
}

Term along_axis(const Term& channels, int64_t axis, size_t rank) {
  int64_t trailing = static_cast<int64_t>(rank) - 1 - axis;
  if (trailing <= 0) return channels;
  return call("expand_dims", {channels}, "axis=1, num_newaxis=" + std::to_string(trailing));
}

Term sum_per_channel(const Term& t, int64_t axis) {
  return call("sum", {t}, "axis=[" + std::to_string(axis) + "], exclude=True");
}

std::string int_list(const std::vector<int64_t>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(values[i]);
  }
  return s + "]";
}

std::optional<std::vector<int64_t>> static_shape(const TensorTy& t) {
  std::vector<int64_t> dims;
  for (const Dim& d : t.shape) {
    std::optional<int64_t> v = d.constant_value();
    if (!v) return std::nullopt;
    dims.push_back(*v);
  }
  return dims;
}

std::vector<int64_t> reduced_axes(const CallAttrs& attrs, size_t rank) {
  std::vector<bool> selected(rank, attrs.is_none("axis"));
  for (int64_t a : attrs.get_ints("axis")) {
    if (a < 0) a += static_cast<int64_t>(rank);
    if (a >= 0 && a < static_cast<int64_t>(rank)) selected[a] = true;
  }
  bool exclude = attrs.get_bool("exclude");
  std::vector<int64_t> axes;
  for (size_t i = 0; i < rank; ++i)
    if (selected[i] != exclude) axes.push_back(static_cast<int64_t>(i));
  return axes;
}

std::optional<Term> unreduce(const GradientCall& c, const Term& g, const std::vector<int64_t>& axes) {
  std::optional<std::vector<int64_t>> shape = static_shape(c.input_tensor(0));
  if (!shape) return std::nullopt;
  Term kept = g;
  if (!c.attrs.get_bool("keepdims")) {
    std::vector<int64_t> with_ones = *shape;
    for (int64_t a : axes) with_ones[a] = 1;
    kept = call("reshape", {g}, "newshape=" + int_list(with_ones));
  }
  return call("broadcast_to_like", {kept, c.inputs[0]});
}

}  // namespace relay::autodiff
