// Import-time evaluation of the integer shape arithmetic exporters emit around Reshape,
// Expand and Slice (Shape -> Gather -> Unsqueeze -> Concat, element-wise Add/Mul/Div on
// shape vectors). Only small integer constants fold; everything else is emitted and runs
// in the program, so folding never changes a numeric result.
#pragma once

#include "importer/onnx/convert.h"

namespace relay::importer::onnx {

// The largest constant folded (elements).
constexpr int64_t kMaxFoldedElements = 4096;

// Whether input i is a small integer constant (or bool).
bool foldable(NodeContext& c, size_t i);

// Folds a binary Relay operator (`add`, `equal`, ...) over two foldable inputs with
// numpy broadcasting; false (nothing done) when the inputs are not both foldable.
bool fold_binary(NodeContext& c, const char* relay_op);

// numpy's broadcast of two shapes; ImportError when incompatible.
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

}  // namespace relay::importer::onnx
