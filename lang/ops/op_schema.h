// Operator schemas: attribute structs (lang/ops/attr_schemas.def) and operator signatures
// (lang/ops/op_signatures.def), as read-only tables built once.
//
// An attribute schema is TVM's attrs struct: its fields in declaration order (= print
// order), each with a type tag and its default as Relay attribute-value text. A signature
// gives an operator's positional inputs, the attrs struct it uses and a one-line
// documentation string with its type rule. Both are data transcribed from reference §3;
// nothing here checks a call.
#pragma once

#include <span>
#include <string_view>
#include <vector>

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

struct OpSignature {
  std::string_view op;
  std::span<const std::string_view> args;  // positional inputs, in call order
  const AttrSchema* attrs;                 // nullptr for NoAttrs
  // False when the reference marks the attrs "not registered": the op registers no attrs
  // type and `attrs` is the struct its builder creates.
  bool attrs_registered;
  std::string_view doc;  // one line: the shape / dtype rule
};

// By struct name ("TopKAttrs") or type key ("relay.attrs.TopkAttrs"); nullptr if unknown.
const AttrSchema* find_attr_schema(std::string_view struct_name_or_type_key);
// nullptr when the operator has no signature (every name of all_ops() has one).
const OpSignature* find_op_signature(std::string_view op);

// In attr_schemas.def order.
const std::vector<AttrSchema>& all_attr_schemas();
// In op_signatures.def order (the order of op_table.def).
const std::vector<OpSignature>& all_op_signatures();

}  // namespace relay
