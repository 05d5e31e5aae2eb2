// Children and paging: what a value contains, addressed by position so that a page
// of a huge tensor or tuple costs only that page.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "interpreter/inspect/inspect.h"
#include "interpreter/inspect/inspect_internal.h"

namespace relay::rt {

namespace {

using namespace inspect_detail;

// A tensor's statistics as named leaves, in this order. An empty tensor has only the
// first two: there are no elements to take statistics of.
constexpr std::array<const char*, 7> kStatNames = {"shape", "dtype", "min", "max", "mean", "nan", "inf"};
constexpr int64_t kEmptyTensorStats = 2;

void tensor_stats_children(const NDArray& a, Window r, std::vector<Child>& out) {
  std::optional<TensorStats> stats;  // read the elements only if a statistic is asked for
  for (int64_t i = r.lo; i < r.hi; ++i) {
    Child c;
    c.name = kStatNames[static_cast<size_t>(i)];
    if (i == 0) c.text = relay_shape_text(a.shape());  // as in the type next to it
    else if (i == 1) c.text = dtype_name(a.dtype());
    else {
      if (!stats) stats = tensor_stats(a);
      const bool finite = has_finite(*stats, a);
      switch (i) {
        case 2: c.text = finite ? scalar_text(stats->min, a.dtype()) : "(no finite elements)"; break;
        case 3: c.text = finite ? scalar_text(stats->max, a.dtype()) : "(no finite elements)"; break;
        case 4: c.text = finite ? mean_text(stats->mean, a.dtype()) : "(no finite elements)"; break;
        case 5: c.text = std::to_string(stats->nan); break;
        default: c.text = std::to_string(stats->inf); break;
      }
    }
    out.push_back(std::move(c));
  }
}

// Rows along axis 0 as tensors of their own (copies: the runtime has no views), so a
// row of a matrix is a vector and an element of a vector a scalar.
void tensor_rows(const NDArray& a, Window r, std::vector<Child>& out) {
  const Shape row_shape(a.shape().begin() + 1, a.shape().end());
  const size_t row_bytes = static_cast<size_t>(shape_size(row_shape)) * dtype_bytes(a.dtype());
  const auto* base = static_cast<const unsigned char*>(a.raw());
  for (int64_t i = r.lo; i < r.hi; ++i) {
    NDArray row = NDArray::empty(row_shape, a.dtype(), a.device());
    if (row_bytes) std::memcpy(row.raw(), base + static_cast<size_t>(i) * row_bytes, row_bytes);
    out.push_back({std::to_string(i), Value(row), {}});
  }
}

// `%n`: the captured variable's binder, when the compiled code names it.
std::string capture_name(const ClosureObj& c, size_t i) {
  const FunctionCode* code = c.code;
  if (code && i < code->capture_slots.size()) {
    const uint32_t slot = code->capture_slots[i];
    if (slot < code->slot_vars.size() && code->slot_vars[slot]) return "%" + std::string(code->slot_vars[slot]->name);
  }
  return "captured " + std::to_string(i);
}

void named_children(const Value& v, Window r, std::vector<Child>& out) {
  switch (v.kind()) {
    case ObjectKind::Tensor: tensor_stats_children(v.tensor(), r, out); return;
    case ObjectKind::Closure:
      for (int64_t i = r.lo; i < r.hi; ++i) {
        const size_t k = static_cast<size_t>(i);
        out.push_back({capture_name(v.closure(), k), v.closure().captured[k], {}});
      }
      return;
    case ObjectKind::Ref:
      if (r.lo < r.hi) out.push_back({"value", v.ref().value, {}});
      return;
    default: return;
  }
}

void indexed_children(const Value& v, Window r, std::vector<Child>& out) {
  const std::vector<Value>* fields = nullptr;
  switch (v.kind()) {
    case ObjectKind::Tensor: tensor_rows(v.tensor(), r, out); return;
    case ObjectKind::Tuple: fields = &v.tuple().fields; break;
    case ObjectKind::Ctor: fields = &v.ctor().fields; break;
    default: return;
  }
  for (int64_t i = r.lo; i < r.hi; ++i) out.push_back({std::to_string(i), (*fields)[static_cast<size_t>(i)], {}});
}

}  // namespace

Window clip_window(int64_t total, int64_t start, int64_t count) {
  const int64_t lo = std::clamp<int64_t>(start, 0, total);
  return {lo, lo + std::clamp<int64_t>(count, 0, total - lo)};
}

ChildCounts child_counts(const Value& v) {
  if (!v.defined()) return {};
  switch (v.kind()) {
    case ObjectKind::Tensor: {
      const NDArray a = v.tensor();
      if (a.ndim() == 0) return {};
      return {a.size() == 0 ? kEmptyTensorStats : static_cast<int64_t>(kStatNames.size()), a.dim(0)};
    }
    case ObjectKind::Tuple: return {0, static_cast<int64_t>(v.tuple().fields.size())};
    case ObjectKind::Ctor: return {0, static_cast<int64_t>(v.ctor().fields.size())};
    case ObjectKind::Closure:
      if (v.closure().kind != ClosureObj::Kind::Function) return {};
      return {static_cast<int64_t>(v.closure().captured.size()), 0};
    case ObjectKind::Ref: return {1, 0};
  }
  return {};
}

std::vector<Child> children(const Value& v, ChildFilter filter, int64_t start, int64_t count) {
  const ChildCounts n = child_counts(v);
  std::vector<Child> out;
  if (n.named + n.indexed == 0) return out;
  if (filter == ChildFilter::Named) {
    const Window r = clip_window(n.named, start, count);
    out.reserve(static_cast<size_t>(r.hi - r.lo));
    named_children(v, r, out);
  } else if (filter == ChildFilter::Indexed) {
    const Window r = clip_window(n.indexed, start, count);
    out.reserve(static_cast<size_t>(r.hi - r.lo));
    indexed_children(v, r, out);
  } else {
    // One sequence: the named children, then the indexed ones.
    const Window r = clip_window(n.named + n.indexed, start, count);
    out.reserve(static_cast<size_t>(r.hi - r.lo));
    named_children(v, {std::min(r.lo, n.named), std::min(r.hi, n.named)}, out);
    indexed_children(v, {std::max(r.lo, n.named) - n.named, std::max(r.hi, n.named) - n.named}, out);
  }
  return out;
}

ValueInfo inspect(const Value& v, std::string_view static_type, const InspectOptions& options) {
  const ChildCounts n = child_counts(v);
  return {value_summary(v, options), static_type.empty() ? value_type(v) : std::string(static_type), n.named,
          n.indexed};
}

ValueInfo inspect(const Child& c, const InspectOptions& options) {
  if (c.is_leaf()) return {c.text, {}, 0, 0};
  return inspect(c.value, {}, options);
}

std::optional<std::span<const std::byte>> raw_bytes(const Value& v) {
  if (!v.is_tensor()) return std::nullopt;
  const NDArray a = v.tensor();
  return std::span<const std::byte>(static_cast<const std::byte*>(a.raw()), a.nbytes());
}

}  // namespace relay::rt
