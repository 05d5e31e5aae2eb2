// A canonical text of a call's attributes (every schema field, defaults included), so
// two calls compare equal exactly when their operators would see the same values.
#pragma once

#include <string>

#include "lang/types/call_attrs.h"

namespace relay::compiler {

// `field=value, ...` for every field that has a value; `only_given` keeps the fields
// written in the call (for printing).
std::string attrs_text(const CallAttrs& attrs, bool only_given = false);

}  // namespace relay::compiler
