// Tensor constants of the `#[metadata]` section (`meta[relay.Constant][i]`): TVM's
// NDArray::Save blob, base64-encoded in `b64ndarrays`.
#pragma once

#include "interpreter/value.h"
#include "lang/syntax/ast.h"
#include "lang/syntax/metadata.h"

namespace relay::rt {

// The tensor; RuntimeError when the entry is missing, not a constant or its blob is
// malformed.
Value metadata_constant(const Metadata* metadata, const MetaRefExpr& ref);

}  // namespace relay::rt
