#include "lang/ops/op_registry.h"

#include <algorithm>

namespace relay {

const std::vector<OpInfo>& all_ops() {
  static const std::vector<OpInfo> ops = {
#define OP(name, group, supported) {name, OpGroup::group, supported},
#include "lang/ops/op_table.def"
#undef OP
  };
  return ops;
}

namespace {

// Pointers into all_ops(), sorted by name, built once (thread-safe static init).
const std::vector<const OpInfo*>& sorted_ops() {
  static const std::vector<const OpInfo*> sorted = [] {
    std::vector<const OpInfo*> v;
    v.reserve(all_ops().size());
    for (const OpInfo& op : all_ops()) v.push_back(&op);
    std::sort(v.begin(), v.end(),
              [](const OpInfo* a, const OpInfo* b) { return a->name < b->name; });
    return v;
  }();
  return sorted;
}

}  // namespace

const OpInfo* find_op(std::string_view name) {
  const auto& v = sorted_ops();
  auto it = std::lower_bound(v.begin(), v.end(), name,
                             [](const OpInfo* op, std::string_view n) { return op->name < n; });
  if (it == v.end() || (*it)->name != name) return nullptr;
  return *it;
}

}  // namespace relay
