#include "lang/ops/op_schema.h"

#include <cstddef>
#include <unordered_map>

namespace relay {

namespace {

// The third FIELD argument: a string literal, or one of these bare tokens.
struct RequiredTag {};
struct OpaqueTag {};
#define REQUIRED RequiredTag{}
#define OPAQUE_DEFAULT OpaqueTag{}

constexpr AttrField make_field(std::string_view name, AttrType type, std::string_view dflt) {
  return AttrField{name, type, dflt, false, false};
}
constexpr AttrField make_field(std::string_view name, AttrType type, RequiredTag) {
  return AttrField{name, type, {}, true, false};
}
constexpr AttrField make_field(std::string_view name, AttrType type, OpaqueTag) {
  return AttrField{name, type, {}, false, true};
}

// Every field of every struct, struct after struct.
constexpr AttrField kFields[] = {
#define ATTRS(Name, key)
#define ATTRS_PARTIAL(Name, key)
#define FIELD(name, type, dflt) make_field(#name, AttrType::type, dflt),
#define END_ATTRS()
#include "lang/ops/attr_schemas.def"
#undef ATTRS
#undef ATTRS_PARTIAL
#undef FIELD
#undef END_ATTRS
};

struct SchemaHead {
  std::string_view name;
  std::string_view type_key;
  bool complete;
  size_t field_count;
};

constexpr SchemaHead kSchemaHeads[] = {
#define ATTRS(Name, key) {#Name, key, true, 0
#define ATTRS_PARTIAL(Name, key) {#Name, key, false, 0
#define FIELD(name, type, dflt) +1
#define END_ATTRS() },
#include "lang/ops/attr_schemas.def"
#undef ATTRS
#undef ATTRS_PARTIAL
#undef FIELD
#undef END_ATTRS
};

#undef REQUIRED
#undef OPAQUE_DEFAULT

// One enumerator per struct, in table order, so that a signature naming a struct that
// does not exist fails to compile.
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

static_assert(static_cast<size_t>(AttrsId::NoAttrs) == std::size(kSchemaHeads));

// Every input name of every signature, signature after signature (plus a sentinel so the
// array is never empty).
constexpr std::string_view kArgNames[] = {
#define ARGS(...) __VA_ARGS__ __VA_OPT__(, )
#define SIG(op, args, attrs, doc) args
#define SIG_UNREGISTERED_ATTRS(op, args, attrs, doc) args
#include "lang/ops/op_signatures.def"
#undef ARGS
#undef SIG
#undef SIG_UNREGISTERED_ATTRS
    ""};

template <typename... T>
constexpr size_t count_args(const T&...) {
  return sizeof...(T);
}

struct SigHead {
  std::string_view op;
  size_t arg_count;
  AttrsId attrs;
  bool registered;
  std::string_view doc;
};

constexpr SigHead kSigHeads[] = {
#define ARGS(...) count_args(__VA_ARGS__)
#define SIG(op, args, attrs, doc) {op, args, AttrsId::attrs, true, doc},
#define SIG_UNREGISTERED_ATTRS(op, args, attrs, doc) {op, args, AttrsId::attrs, false, doc},
#include "lang/ops/op_signatures.def"
#undef ARGS
#undef SIG
#undef SIG_UNREGISTERED_ATTRS
};

struct Tables {
  std::vector<AttrSchema> schemas;
  std::vector<OpSignature> signatures;
  std::unordered_map<std::string_view, const AttrSchema*> schema_by_name;  // names and keys
  std::unordered_map<std::string_view, const OpSignature*> signature_by_op;

  Tables() {
    schemas.reserve(std::size(kSchemaHeads));
    size_t next_field = 0;
    for (const SchemaHead& h : kSchemaHeads) {
      AttrSchema s;
      s.name = h.name;
      s.type_key = h.type_key;
      s.fields = std::span<const AttrField>(kFields + next_field, h.field_count);
      s.complete = h.complete;
      next_field += h.field_count;
      schemas.push_back(s);
    }
    for (const AttrSchema& s : schemas) {
      schema_by_name.emplace(s.name, &s);
      schema_by_name.emplace(s.type_key, &s);
    }

    signatures.reserve(std::size(kSigHeads));
    size_t next_arg = 0;
    for (const SigHead& h : kSigHeads) {
      OpSignature sig;
      sig.op = h.op;
      sig.args = std::span<const std::string_view>(kArgNames + next_arg, h.arg_count);
      next_arg += h.arg_count;
      sig.attrs = h.attrs == AttrsId::NoAttrs ? nullptr : &schemas[static_cast<size_t>(h.attrs)];
      sig.attrs_registered = h.registered;
      sig.doc = h.doc;
      signatures.push_back(sig);
    }
    // First entry wins on a duplicate; the unit tests reject duplicates.
    for (const OpSignature& sig : signatures) signature_by_op.emplace(sig.op, &sig);
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

std::string_view attr_type_name(AttrType t) {
  switch (t) {
    case AttrType::Int: return "Int";
    case AttrType::Bool: return "Bool";
    case AttrType::Double: return "Double";
    case AttrType::String: return "String";
    case AttrType::DType: return "DType";
    case AttrType::IndexExpr: return "IndexExpr";
    case AttrType::Integer: return "Integer";
    case AttrType::IndexArray: return "IndexArray";
    case AttrType::IntegerArray: return "IntegerArray";
    case AttrType::IndexArrayArray: return "IndexArrayArray";
    case AttrType::DoubleArray: return "DoubleArray";
    case AttrType::StringArray: return "StringArray";
    case AttrType::Expr: return "Expr";
    case AttrType::Object: return "Object";
  }
  return "?";
}

const AttrField* AttrSchema::find_field(std::string_view field) const {
  for (const AttrField& f : fields)
    if (f.name == field) return &f;
  return nullptr;
}

const AttrSchema* find_attr_schema(std::string_view struct_name_or_type_key) {
  const auto& m = tables().schema_by_name;
  auto it = m.find(struct_name_or_type_key);
  return it == m.end() ? nullptr : it->second;
}

const OpSignature* find_op_signature(std::string_view op) {
  const auto& m = tables().signature_by_op;
  auto it = m.find(op);
  return it == m.end() ? nullptr : it->second;
}

const std::vector<AttrSchema>& all_attr_schemas() { return tables().schemas; }

const std::vector<OpSignature>& all_op_signatures() { return tables().signatures; }

}  // namespace relay
