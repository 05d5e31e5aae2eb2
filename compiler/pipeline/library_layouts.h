// The layout pass between kernel-library calls (issue 14: one layout through the network).
// oneDNN's fast convolutions want their activations in a layout of their own (NHWC,
// `acdb`, for ResNet-18's), so a value that goes from one library call to the next was
// reordered out of that layout and straight back in. Here a value that a library call
// writes and only library calls read (as their data, or as the residual a fused epilogue
// adds) stays in the library's layout when every reader wants exactly that layout
// (LibraryKernel::can_hand_over).
//
// Then the same layout through the compiler's own kernels. The layout the first library
// call writes (oneDNN's dense NHWC, `acdb`, on AVX-512; its blocked nChw16c or nChw8c
// elsewhere, and for its transposed convolutions) is pinned for the network
// (compiler/graph/activation_layout.h), and a native kernel between two library calls (a
// pool, a batch norm with its ReLU, a concatenation) reads and writes those bytes directly
// through layout nodes in its index program (native_plan.h: plan_native_held). A value is
// kept so when every reader takes it: a library call that wants that layout there, or a
// whole-group native kernel that lowers as an index program, or (NHWC only) a softmax
// alone whose own result is kept so too. The function's result, anything the
// interpreter's reference kernels read, and a blocked tensor whose channels do not fill
// whole blocks stay plain.
#pragma once

#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/pipeline/executable.h"

namespace relay::compiler {

// Applies the pass to `choices` (one per group of `plan`, in order): library kernels are
// told which layouts to keep and take, native plans of groups touching held values are
// replaced (StepChoice::held_layout).
LayoutChoices keep_library_layouts(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices);

}  // namespace relay::compiler
