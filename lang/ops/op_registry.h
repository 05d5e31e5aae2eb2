// The operator registry: one entry per Relay operator (TVM 0.14's names).
//
// At this stage an entry carries the name, its group and whether the toolchain supports
// it; attribute schemas, type relations, documentation and kernels attach to the same
// entry in later stages (docs/architecture.md).
#pragma once

#include <string_view>
#include <vector>

namespace relay {

enum class OpGroup : unsigned char {
  Elementwise,   // reference §3.2
  Broadcast,     // §3.3
  Reduction,     // §3.4
  Transform,     // §3.5
  Sorting,       // §3.6
  NN,            // §3.7
  ImageVisionRandom,  // §3.8
  Dynamic,       // §3.9 dyn.*
  Internal,      // §3.9 annotation / memory / internal
  Quantized,     // §3.10 qnn.* and contrib.ethosu.*
};

struct OpInfo {
  std::string_view name;
  OpGroup group;
  // False for operators of §3.8–§3.10 that are registered by name only: using one is
  // "not supported yet" rather than "unknown operator".
  bool supported;
};

// nullptr when no operator has this name.
const OpInfo* find_op(std::string_view name);
const std::vector<OpInfo>& all_ops();

}  // namespace relay
