// Why an operator that TVM registers stays unsupported here for good: the ones that
// exist only inside TVM's compiler (after memory planning, in its VM, as lowered calls)
// or only with an optional backend. The checker adds the reason to its "not supported"
// diagnostic (E0063), so that a user does not wait for support that will not come.
#pragma once

#include <string_view>

#include "lang/ops/op_registry.h"

namespace relay {

// The reason, or empty for an operator that is merely not supported yet.
std::string_view internal_op_reason(const OpInfo& op);

}  // namespace relay
