// The loop IR's verifier: type rules, scoping, affine indices, bounds of constant
// indices, and the kernel's structure. Every lowering's output is verified before a backend
// sees it, so the backends can assume well-formed input.
#pragma once

#include <string>
#include <vector>

#include "compiler/loops/ir.h"

namespace relay::loops {

// Empty when the kernel is well formed; otherwise one message per problem found.
//  - every Var is defined before use (loop index, or a Let earlier in an enclosing block);
//    ids are defined once
//  - operands of Unary/Binary/Compare/Call have equal dtypes, none of them float16 or
//    bfloat16 (storage types: cast to float32 first); Not/And/Or/Xor/Shl/Shr are integer
//    or bool (shifts integer only); math functions take float32/float64
//  - Select's condition is bool and its branches agree; For extents and Load/Store indices
//    are int64 and affine (sums of constants, variables and products by constants, also
//    / and % by a positive constant and min/max of such, for index-mapping kernels; an
//    extent may also be the min of two such);
//    a Store's value has the buffer's dtype
//  - a local buffer is used only after its Alloc; at most one Parallel loop, and it is the
//    body's only top-level statement
//  - Threads loops share one extent (the team: a multiple of 32 up to 1024) and stand,
//    like LaneReduce, in the parallel loop's body or in serial loops there, not in an If
//    or a Threads loop; a thread-local buffer is indexed `thread * slot + j` inside a
//    Threads loop and only read (j) elsewhere; a shared buffer needs a team; LaneReduce
//    combines a float32/int32 thread-local buffer by add, max or min in a warp's team
//    (ir.h)
//  - Warps loops (extent team / 32) stand where Threads loops may and hold no stores; Mma
//    and FragmentStore stand in them, on a fragment of a float32 thread-local buffer and
//    shared float16/bfloat16 (Mma) or float32 (FragmentStore) tiles, with affine offsets
//    and strides of 8 (4 for float32) elements
std::vector<std::string> verify(const Kernel& k);

}  // namespace relay::loops
