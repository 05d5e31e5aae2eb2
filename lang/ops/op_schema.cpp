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

struct Tables {
  std::vector<AttrSchema> schemas;
  std::unordered_map<std::string_view, const AttrSchema*> schema_by_name;  // names and keys

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

const std::vector<AttrSchema>& all_attr_schemas() { return tables().schemas; }

}  // namespace relay
