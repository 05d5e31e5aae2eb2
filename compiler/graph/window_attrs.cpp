// TVM's 2-D window attributes (window_attrs.h).
#include "compiler/graph/window_attrs.h"

#include <vector>

namespace relay::compiler {

namespace {

// One value for both axes, two for each; none keeps `out`'s default.
bool pair(const CallAttrs& a, const char* attr, std::array<int64_t, 2>& out) {
  std::vector<int64_t> v = a.is_none(attr) ? std::vector<int64_t>{} : a.get_ints(attr);
  if (v.empty()) return true;  // out keeps its default
  if (v.size() == 1) v.push_back(v[0]);
  if (v.size() != 2) return false;
  out = {v[0], v[1]};
  return true;
}

}  // namespace

std::optional<WindowAttrs> window_attrs_2d(const CallAttrs& a) {
  WindowAttrs w;
  if (!pair(a, "strides", w.strides) || !pair(a, "dilation", w.dilation)) return std::nullopt;
  const std::vector<int64_t> p = a.is_none("padding") ? std::vector<int64_t>{} : a.get_ints("padding");
  if (p.size() == 1) w.pad_before = w.pad_after = {p[0], p[0]};
  else if (p.size() == 2) w.pad_before = w.pad_after = {p[0], p[1]};
  else if (p.size() == 4) w.pad_before = {p[0], p[1]}, w.pad_after = {p[2], p[3]};
  else if (!p.empty()) return std::nullopt;
  return w;
}

}  // namespace relay::compiler
