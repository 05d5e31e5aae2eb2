// Attribute schemas: TVM's attrs structs (lang/ops/attr_schemas.def) as a read-only table
// built once.
//
// An attribute schema is TVM's attrs struct: its fields in declaration order (= print
// order), each with a type tag and its default as Relay attribute-value text. Operators
// point at their schema (OpInfo::attrs, lang/ops/op_registry.h). This is data transcribed
// from reference §3.1; checking a call's attributes against it is lang/types/call_attrs.h.
#pragma once

#include <span>
#include <string_view>
#include <vector>

// Operators and their signatures (OpInfo, OpSignature) come with this header because the
// code that checks a call reads both.
#include "lang/ops/op_registry.h"

namespace relay {

// The value kinds an attribute field accepts (attr_schemas.def says which C++ type each
// one stands for).
enum class AttrType : unsigned char {
  Int,              // int, int64, uint64
  Bool,             // bool, tvm::Bool
  Double,           // double
  String,           // String / std::string
  DType,            // DataType, written as a quoted dtype string ("" = void / unset)
  IndexExpr,        // one integer expression (may be `?`); nullable
  Integer,          // boxed nullable integer (Integer, Optional<Integer>)
  IndexArray,       // Array<IndexExpr>
  IntegerArray,     // Array<Integer>, Optional<Array<Integer>>
  IndexArrayArray,  // Array<Array<IndexExpr>> (also PadAttrs' Array<Array<Integer>>)
  DoubleArray,      // Array<FloatImm>
  StringArray,      // Array<String>
  Expr,             // an Expr-typed field (arange's start/stop/step)
  Object,           // anything else: VirtualDevice, EnvFunc, Map, IndexMap, Constant, ...
};

std::string_view attr_type_name(AttrType t);

struct AttrField {
  std::string_view name;
  AttrType type;
  // The declared default as Relay attribute-value text (`1`, `True`, `1e-05`, `"NCHW"`,
  // `[1, 1]`, `None`); empty when `required` or `opaque_default`.
  std::string_view default_text;
  // Declared without a default: must be given when the attrs object is built, and is
  // always printed.
  bool required;
  // Declared with a default that has no attribute-value text (an empty Map, an
  // unconstrained VirtualDevice); TVM prints such values only via meta[...].
  bool opaque_default = false;
};

struct AttrSchema {
  std::string_view name;      // C++ struct name, e.g. "Conv2DAttrs"
  std::string_view type_key;  // e.g. "relay.attrs.Conv2DAttrs" ("relay.attrs.TopkAttrs")
  std::span<const AttrField> fields;  // declaration order
  // False for the structs the reference names without listing all their fields (qnn,
  // Ethos-U, DensePackAttrs, DictAttrs): unknown keys must not be rejected on their
  // strength.
  bool complete = true;

  const AttrField* find_field(std::string_view field) const;
};

// By struct name ("TopKAttrs") or type key ("relay.attrs.TopkAttrs"); nullptr if unknown.
const AttrSchema* find_attr_schema(std::string_view struct_name_or_type_key);

// In attr_schemas.def order.
const std::vector<AttrSchema>& all_attr_schemas();

}  // namespace relay
