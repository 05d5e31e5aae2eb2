// Relations of the markers that only annotate (reference §3.9): annotation.bitpack_start/
// bitpack_end/checkpoint/stop_fusion/cast_hint/compiler_begin/compiler_end, on_device and
// device_copy. TVM types each as its input's type (IdentityRel, OnDeviceRel,
// DeviceCopyRel); on_device's body may be of any type, not only a tensor.
#include "lang/types/relations/relation_util.h"

namespace relay {
namespace {

RelStatus identity_rel(RelationContext& ctx) {
  Ty in = ctx.input(0);
  if (in->kind == TyKind::Hole) return RelStatus::Pending;
  if (in->kind == TyKind::Error) return RelStatus::Failed;
  return rel::assign_result(ctx, in);
}

}  // namespace

void register_annotation_relations(RelationTable& t) {
  for (const char* op : {"annotation.bitpack_start", "annotation.bitpack_end", "annotation.checkpoint",
                         "annotation.stop_fusion", "annotation.cast_hint", "annotation.compiler_begin",
                         "annotation.compiler_end", "on_device", "device_copy"})
    register_relation(t, op, identity_rel);
}

}  // namespace relay
