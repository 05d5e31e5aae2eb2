// The operator registry: one entry per Relay operator (TVM 0.14's names), built once from
// the single declaration table lang/ops/ops.def.
//
// An entry carries everything the toolchain knows about an operator: its name, group and
// whether it is supported, TVM's fusion pattern, its positional inputs, its attrs schema
// and a one-line documentation string with its shape rule. Type relations are kept by
// operator name in lang/types/relations/ (find_relation in lang/types/relation.h), so the
// type checker stays out of this layer; kernels and lowerings will do the same.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace relay {

struct AttrSchema;  // lang/ops/op_schema.h

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
// "elementwise", "broadcast", "reduction", "transform", "sorting", "nn",
// "image-vision-random", "dynamic", "internal", "quantized".
std::string_view op_group_name(OpGroup g);

// Fusion pattern kinds (TVM's TOpPattern), used by the compiler's fusion pass.
enum class FusionPattern : uint8_t {
  Elementwise,            // kElemWise
  Broadcast,              // kBroadcast
  Injective,              // kInjective
  Reduction,              // kCommReduce
  OutElementwiseFusable,  // kOutEWiseFusable
  Tuple,                  // kTuple (tuple nodes only; no operator has it)
  Opaque,                 // kOpaque
};
// "elementwise", "broadcast", "injective", "reduction", "out-elementwise-fusable",
// "tuple", "opaque".
std::string_view fusion_pattern_name(FusionPattern p);

struct OpInfo {
  std::string_view name;
  OpGroup group;
  // False for operators of §3.8–§3.10 that are registered by name only: using one is
  // "not supported yet" rather than "unknown operator".
  bool supported;
  FusionPattern pattern;  // TVM's TOpPattern (Opaque where TVM registers none)
  std::span<const std::string_view> args;  // positional inputs, in call order
  const AttrSchema* attrs;                 // nullptr for an operator without attributes
  // False when the reference marks the attrs "not registered": the op registers no attrs
  // type and `attrs` is the struct its builder creates.
  bool attrs_registered;
  std::string_view doc;  // one line: the shape / dtype rule
};

// nullptr when no operator has this name.
const OpInfo* find_op(std::string_view name);
// In ops.def order (the reference's).
const std::vector<OpInfo>& all_ops();

// Signatures used to be a table of their own; these names remain for the code that reads
// an operator's inputs, attrs and doc through them. They are the same entries.
using OpSignature = OpInfo;
inline const OpSignature* find_op_signature(std::string_view op) { return find_op(op); }
inline const std::vector<OpSignature>& all_op_signatures() { return all_ops(); }

}  // namespace relay
