// The attributes of one operator call, checked against the operator's attrs schema
// (lang/ops/op_schema.h) and read by its type relation.
//
// `check_call_attrs` validates what was written (unknown key, missing required field,
// value of the wrong kind: each an error that shows the schema) and then gives typed
// access where every field not written reads as its declared default. Relations use the
// typed getters; they never see syntax.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/base/dim.h"
#include "lang/base/dtype.h"
#include "lang/ops/op_schema.h"
#include "lang/syntax/ast.h"

namespace relay {

// A semantic attribute value (syntax-free, so defaults parsed from schema text and values
// written in a call look the same).
struct AttrVal {
  enum class Kind : uint8_t { None, Int, Float, Bool, String, Array, Any, Opaque };
  Kind kind = Kind::None;
  int64_t int_value = 0;
  double float_value = 0;
  std::string text;             // String
  std::vector<AttrVal> items;   // Array
  Span span;                    // where it was written (empty for defaults)
};

// Parses schema default text (`[1, 1]`, `"NCHW"`, `None`, `1e-05`, `True`, `-1`, `?`).
AttrVal parse_default_attr(std::string_view text);
AttrVal attr_from_syntax(const AttrValue& v);
std::string attr_to_string(const AttrVal& v);  // Relay attribute-value text

class CallAttrs {
 public:
  CallAttrs() = default;

  // The schema (nullptr: the op takes no attributes).
  const AttrSchema* schema() const { return schema_; }
  // The value written in the call, else the declared default; nullptr for a field that
  // is neither (an unknown name, or an opaque default).
  const AttrVal* get(std::string_view name) const;
  bool given(std::string_view name) const;
  Span span_of(std::string_view name) const;  // the written value's span, else the call's

  // Typed getters. A field that is None or absent reads as the fallback given.
  int64_t get_int(std::string_view name, int64_t fallback = 0) const;
  std::optional<int64_t> get_opt_int(std::string_view name) const;
  bool get_bool(std::string_view name, bool fallback = false) const;
  double get_double(std::string_view name, double fallback = 0) const;
  std::string get_string(std::string_view name) const;
  // "" (void) or an invalid name gives nullopt.
  std::optional<DataType> get_dtype(std::string_view name) const;
  bool is_none(std::string_view name) const;  // absent, or written/declared None
  std::vector<int64_t> get_ints(std::string_view name) const;  // None -> empty
  // Integer arrays whose elements may be `?` (IndexArray): Any for `?`.
  std::vector<Dim> get_dims(std::string_view name) const;
  std::vector<std::vector<int64_t>> get_int_matrix(std::string_view name) const;
  std::vector<double> get_doubles(std::string_view name) const;
  std::vector<std::string> get_strings(std::string_view name) const;

  // For tests and the interpreter: builds attrs from (name, value) pairs without syntax.
  static CallAttrs from_values(const AttrSchema* schema,
                               std::vector<std::pair<std::string, AttrVal>> values,
                               Span call_span = {});

 private:
  friend bool check_call_attrs(const OpSignature&, const CallExpr&, CallAttrs&, DiagnosticBag&);
  const AttrSchema* schema_ = nullptr;
  std::vector<std::pair<std::string, AttrVal>> values_;  // written ones
  Span call_span_;
};

// Validates the attributes written in `call` against `sig`'s schema and fills `out`.
// Returns false (after reporting) when an attribute is unknown, missing or ill-typed.
// Calls whose attributes come from `meta[...]`, or whose schema is partial, accept any
// key; unregistered-attrs ops accept `attrs_type_key`.
bool check_call_attrs(const OpSignature& sig, const CallExpr& call, CallAttrs& out,
                      DiagnosticBag& diags);

// The schema as text for diagnostics: `Conv2DAttrs { strides: IndexArray = [1, 1], ... }`,
// one field per line.
std::string describe_attr_schema(const AttrSchema& schema);

}  // namespace relay
