// The type of a `meta[relay.Constant][i]` reference, read from the metadata section:
// the constant's `_checked_type_` when TVM saved one, else the header of its NDArray
// blob (base64 in `b64ndarrays`: magic, reserved, device, ndim, dtype, shape...).
#pragma once

#include "lang/syntax/ast.h"
#include "lang/syntax/metadata.h"
#include "lang/types/type.h"

namespace relay {

// nullptr when the entry is not a tensor constant or its data cannot be read.
Ty meta_constant_type(const Metadata& metadata, const MetaEntry& entry, TypeArena& arena);

}  // namespace relay
