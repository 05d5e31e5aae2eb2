// Relations of the supported operators of reference §3.8 (image.*, vision.*, random.*) and
// §3.9 (dyn.*, annotation.*, device_copy, on_device, debug, ...).
//
// lang/ops/ops.def marks every operator of §3.8–§3.10 unsupported (registered by name
// only), so none of them has a relation yet: a call to one is reported as "not supported
// yet" by the checker instead of being typed. Relations for them belong here once they are
// marked supported.
#include "lang/types/relations/relation_util.h"

namespace relay {

void register_misc_relations(RelationTable&) {}

}  // namespace relay
