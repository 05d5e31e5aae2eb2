// The operator -> relation table (an OpTable indexed by OpId), filled once from every
// family file.
#include <string_view>

#include "lang/ops/op_table.h"
#include "lang/types/relation.h"

namespace relay {

struct RelationTable {
  OpTable<RelationFn> by_op;
};

void register_relation(RelationTable& table, std::string_view op, RelationFn fn) {
  table.by_op[required_op(op)] = fn;
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
    register_qnn_relations(r);
    register_random_relations(r);
    register_dyn_relations(r);
    register_annotation_relations(r);
    register_image_relations(r);
    register_vision_relations(r);
    return r;
  }();
  return t;
}
}  // namespace

RelationFn find_relation(const OpInfo& op) { return table().by_op[op]; }

RelationFn find_relation(std::string_view op) {
  const OpInfo* info = find_op(op);
  return info ? find_relation(*info) : nullptr;
}

}  // namespace relay
