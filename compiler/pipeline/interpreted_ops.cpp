#include "compiler/pipeline/interpreted_ops.h"

#include <string_view>
#include <unordered_map>

namespace relay::compiler {

namespace {

namespace reason {
#define REASON(id, text) constexpr std::string_view id = text;
#define INTERPRETED(op, why)
#include "compiler/pipeline/interpreted_ops.def"
#undef REASON
#undef INTERPRETED
}  // namespace reason

struct Entry {
  std::string_view op, why;
};
constexpr Entry kEntries[] = {
#define REASON(id, text)
#define INTERPRETED(op, why) {op, reason::why},
#include "compiler/pipeline/interpreted_ops.def"
#undef REASON
#undef INTERPRETED
};

const std::unordered_map<std::string_view, std::string_view>& table() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, std::string_view>();
    for (const Entry& e : kEntries) m->emplace(e.op, e.why);
    return m;
  }();
  return *map;
}

}  // namespace

std::string_view interpreted_reason(std::string_view op) {
  auto it = table().find(op);
  return it == table().end() ? std::string_view{} : it->second;
}

bool is_marker(std::string_view op) {
  return interpreted_reason(op) == reason::marker;
}

std::vector<std::string_view> interpreted_ops() {
  std::vector<std::string_view> out;
  for (const Entry& e : kEntries) out.push_back(e.op);
  return out;
}

}  // namespace relay::compiler
