#include "lang/ops/op_registry.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "lang/ops/op_schema.h"

namespace relay {

namespace {

// One enumerator per attrs struct, in attr_schemas.def order (= all_attr_schemas() order),
// so that an operator naming a struct that does not exist fails to compile.
enum class AttrsId : size_t {
#define ATTRS(Name, key) Name,
#define ATTRS_PARTIAL(Name, key) Name,
#define FIELD(name, type, dflt)
#define END_ATTRS()
#include "lang/ops/attr_schemas.def"
#undef ATTRS
#undef ATTRS_PARTIAL
#undef FIELD
#undef END_ATTRS
  NoAttrs
};

// The values of ops.def's registration column.
enum class Registration : unsigned char { Unregistered, Registered };

// Every input name of every operator, operator after operator (plus a sentinel so the
// array is never empty); each entry's span points into it.
constexpr std::string_view kArgNames[] = {
#define ARGS(...) __VA_ARGS__ __VA_OPT__(, )
#define OP(name, group, supported, pattern, args, attrs, registration, doc) args
#include "lang/ops/ops.def"
#undef ARGS
#undef OP
    ""};

template <typename... T>
constexpr size_t count_args(const T&...) {
  return sizeof...(T);
}

// An entry as written, before its arguments and attrs are resolved to spans and pointers.
struct OpHead {
  std::string_view name;
  OpGroup group;
  bool supported;
  FusionPattern pattern;
  size_t arg_count;
  AttrsId attrs;
  Registration registration;
  std::string_view doc;
};

constexpr OpHead kOpHeads[] = {
#define ARGS(...) count_args(__VA_ARGS__)
#define OP(name, group, supported, pattern, args, attrs, registration, doc)      \
  {name, OpGroup::group, supported, FusionPattern::pattern, args, AttrsId::attrs, \
   Registration::registration, doc},
#include "lang/ops/ops.def"
#undef ARGS
#undef OP
};

std::vector<OpInfo> build_ops() {
  const std::vector<AttrSchema>& schemas = all_attr_schemas();
  // AttrsId and the schema table are both generated from attr_schemas.def.
  assert(static_cast<size_t>(AttrsId::NoAttrs) == schemas.size());
  std::vector<OpInfo> ops;
  ops.reserve(std::size(kOpHeads));
  size_t next_arg = 0;
  for (const OpHead& h : kOpHeads) {
    OpInfo op;
    op.id = static_cast<OpId>(ops.size());
    op.name = h.name;
    op.group = h.group;
    op.supported = h.supported;
    op.pattern = h.pattern;
    op.args = std::span<const std::string_view>(kArgNames + next_arg, h.arg_count);
    next_arg += h.arg_count;
    op.attrs = h.attrs == AttrsId::NoAttrs ? nullptr : &schemas[static_cast<size_t>(h.attrs)];
    op.attrs_registered = h.registration == Registration::Registered;
    op.doc = h.doc;
    ops.push_back(op);
  }
  return ops;
}

// Pointers into all_ops(), sorted by name, built once (thread-safe static init).
const std::vector<const OpInfo*>& sorted_ops() {
  static const std::vector<const OpInfo*> sorted = [] {
    std::vector<const OpInfo*> v;
    v.reserve(all_ops().size());
    for (const OpInfo& op : all_ops()) v.push_back(&op);
    std::sort(v.begin(), v.end(),
              [](const OpInfo* a, const OpInfo* b) { return a->name < b->name; });
    return v;
  }();
  return sorted;
}

}  // namespace

const std::vector<OpInfo>& all_ops() {
  static const std::vector<OpInfo> ops = build_ops();
  return ops;
}

std::string_view op_group_name(OpGroup g) {
  switch (g) {
    case OpGroup::Elementwise: return "elementwise";
    case OpGroup::Broadcast: return "broadcast";
    case OpGroup::Reduction: return "reduction";
    case OpGroup::Transform: return "transform";
    case OpGroup::Sorting: return "sorting";
    case OpGroup::NN: return "nn";
    case OpGroup::ImageVisionRandom: return "image-vision-random";
    case OpGroup::Dynamic: return "dynamic";
    case OpGroup::Internal: return "internal";
    case OpGroup::Quantized: return "quantized";
  }
  return "?";
}

std::string_view fusion_pattern_name(FusionPattern p) {
  switch (p) {
    case FusionPattern::Elementwise: return "elementwise";
    case FusionPattern::Broadcast: return "broadcast";
    case FusionPattern::Injective: return "injective";
    case FusionPattern::Reduction: return "reduction";
    case FusionPattern::OutElementwiseFusable: return "out-elementwise-fusable";
    case FusionPattern::Tuple: return "tuple";
    case FusionPattern::Opaque: return "opaque";
  }
  return "opaque";
}

const OpInfo* find_op(std::string_view name) {
  const auto& v = sorted_ops();
  auto it = std::lower_bound(v.begin(), v.end(), name,
                             [](const OpInfo* op, std::string_view n) { return op->name < n; });
  if (it == v.end() || (*it)->name != name) return nullptr;
  return *it;
}

}  // namespace relay

namespace relay {

const OpInfo& required_op(std::string_view name) {
  if (const OpInfo* op = find_op(name)) return *op;
  std::fprintf(stderr, "relay: internal error: no operator named `%.*s` in lang/ops/ops.def\n",
               static_cast<int>(name.size()), name.data());
  std::abort();
}

}  // namespace relay
