// The operator-name -> relation table, filled once from every family file.
#include <string_view>
#include <unordered_map>

#include "lang/types/relation.h"

namespace relay {

struct RelationTable {
  std::unordered_map<std::string_view, RelationFn> by_op;
};

void register_relation(RelationTable& table, std::string_view op, RelationFn fn) {
  table.by_op[op] = fn;
}

namespace {
const RelationTable& table() {
  static const RelationTable t = [] {
    RelationTable r;
    register_elementwise_relations(r);
    register_reduction_relations(r);
    register_transform_relations(r);
    register_sorting_relations(r);
    register_nn_relations(r);
    register_conv_pool_relations(r);
    register_misc_relations(r);
    return r;
  }();
  return t;
}
}  // namespace

RelationFn find_relation(std::string_view op) {
  const auto& m = table().by_op;
  auto it = m.find(op);
  return it == m.end() ? nullptr : it->second;
}

}  // namespace relay
