// Relations for one operator family (see lang/types/relation.h).
#include "lang/types/relations/relation_util.h"

namespace relay {

void register_misc_relations(RelationTable&) {}

}  // namespace relay
