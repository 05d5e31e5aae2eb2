// Mixed mode, the interpreter's half: finding the tensor regions of a block (tier.h's
// RegionInfo) when a function is compiled to Nodes. Nothing here knows a compiler: a
// region is described in terms of the program as written, and the tier decides whether
// to compile it.
#pragma once

#include <vector>

#include "interpreter/eval/code.h"

namespace relay::rt {

// The fewest operator calls a region must hold: one operator alone gains nothing over its
// reference kernel, while two may fuse into one native kernel.
inline constexpr int kMinRegionOps = 2;

// A region of `block` (a compiled Block node of `expr`), before it is numbered: `start`
// is the index (in block.bindings) of its first binding. `info.enclosing` and `info.id`
// are left for the caller, which knows the definition.
struct FoundRegion {
  size_t start = 0;
  RegionCode code;
};

// The maximal runs of `block`'s bindings whose values are pure dataflow (operator calls
// with a kernel, tuples, projections, constants and variables) holding at least
// kMinRegionOps operator calls and binding at least one variable read after the run (in a
// later binding, the result, or a closure there). Inputs are the variables the run reads
// and does not bind; outputs the variables it binds that are read after it.
std::vector<FoundRegion> find_regions(const Node& block, const BlockExpr& expr);

}  // namespace relay::rt
