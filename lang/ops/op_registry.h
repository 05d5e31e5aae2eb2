// The operator registry: one entry per Relay operator (TVM 0.14's names), built once from
// the single declaration table lang/ops/ops.def.
//
// An entry carries everything the toolchain knows about an operator: its name, group and
// whether it is supported, TVM's fusion pattern, its positional inputs, its attrs schema
// and a one-line documentation string with its shape rule, plus a dense id: its index in
// all_ops().
//
// Everything else keyed by operator lives in the layer that owns it, in an OpTable (a
// vector indexed by OpId, lang/ops/op_table.h), so a lookup on a hot path is one index:
//   type relations     lang/types/relations/   find_relation(const OpInfo&)
//   reference kernels  interpreter/kernels/    rt::find_kernel(const OpInfo&)
//   lowerings          compiler/pipeline/      compiler::op_lowering(const OpInfo&)
//   gradients          lang/autodiff/          autodiff::find_gradient(const OpInfo&)
// The by-name lookups that remain are thin wrappers (find_op first) for the CLI and tests.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace relay {

// An operator's dense id: its index in all_ops(), 0..all_ops().size()-1. Stable within a
// build (ops.def order), not across builds: never store one in a file.
using OpId = uint32_t;

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
  OpId id;  // all_ops()[id] is this entry
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
// In ops.def order (the reference's); all_ops()[i].id == i.
const std::vector<OpInfo>& all_ops();
// all_ops()[id].
inline const OpInfo& op_by_id(OpId id) { return all_ops()[id]; }
// The operator named `name`; aborts when there is none. For tables filled by name at
// start-up (relations, kernels), where a misspelt name is a bug in this toolchain.
const OpInfo& required_op(std::string_view name);

// Signatures used to be a table of their own; these names remain for the code that reads
// an operator's inputs, attrs and doc through them. They are the same entries.
using OpSignature = OpInfo;
inline const OpSignature* find_op_signature(std::string_view op) { return find_op(op); }
inline const std::vector<OpSignature>& all_op_signatures() { return all_ops(); }

}  // namespace relay
