// The layout pass between kernel-library calls (issue 14: one layout through the network).
// oneDNN's fast convolutions want their activations in a layout of their own (NHWC,
// `acdb`, for ResNet-18's), so a value that goes from one library call to the next was
// reordered out of that layout and straight back in. Here a value that a library call
// writes and only library calls read (as their data, or as the residual a fused epilogue
// adds) stays in the library's layout when every reader wants exactly that layout
// (LibraryKernel::can_hand_over). A value any other kernel reads, and the function's
// result, stay plain: native kernels and the interpreter only ever see plain tensors.
#pragma once

#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/pipeline/executable.h"

namespace relay::compiler {

// Applies the pass to `choices` (one per group of `plan`, in order); returns how many
// values stay in the library's layout.
size_t keep_library_layouts(const Graph& g, const FusionPlan& plan, std::vector<StepChoice>& choices);

}  // namespace relay::compiler
