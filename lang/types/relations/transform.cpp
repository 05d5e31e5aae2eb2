// Relations of §3.5 (tensor transforms): casts and constructors, reshaping, joining and
// splitting, slicing, repetition and broadcasting, indexing, sparse helpers and the rest of
// that table. Each relation states the rule of the reference it implements; where TVM only
// has an internal check (an abort), the relation reports an error instead.
//
// Symbolic dims (an extension, docs/types.md) are computed with Dim arithmetic where TVM
// would compute with its own expressions (reshape's products, split's quotients, tile's
// multiples); `?` propagates as the reference says.
//
// One file per family (transform_create, _reshape, _join, _slice, _broadcast, _index,
// _misc), sharing the helpers of transform_util.h; this file registers them all.
#include "lang/types/relation.h"

namespace relay {

void register_transform_create_relations(RelationTable& t);
void register_transform_reshape_relations(RelationTable& t);
void register_transform_join_relations(RelationTable& t);
void register_transform_slice_relations(RelationTable& t);
void register_transform_broadcast_relations(RelationTable& t);
void register_transform_index_relations(RelationTable& t);
void register_transform_misc_relations(RelationTable& t);

void register_transform_relations(RelationTable& t) {
  register_transform_create_relations(t);
  register_transform_reshape_relations(t);
  register_transform_join_relations(t);
  register_transform_slice_relations(t);
  register_transform_broadcast_relations(t);
  register_transform_index_relations(t);
  register_transform_misc_relations(t);
}

}  // namespace relay
