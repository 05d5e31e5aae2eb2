#include "lang/types/call_attrs.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <sstream>
#include <unordered_map>

namespace relay {

namespace {

// A tiny reader for schema default text; the schema table is ours, so it is well formed.
struct DefaultReader {
  std::string_view s;
  size_t i = 0;

  void skip() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  AttrVal value() {
    skip();
    AttrVal v;
    if (i >= s.size()) return v;
    char c = s[i];
    if (c == '[' || c == '(') {
      char close = c == '[' ? ']' : ')';
      ++i;
      v.kind = AttrVal::Kind::Array;
      skip();
      while (i < s.size() && s[i] != close) {
        v.items.push_back(value());
        skip();
        if (i < s.size() && s[i] == ',') ++i;
        skip();
      }
      ++i;
      return v;
    }
    if (c == '"') {
      size_t end = s.find('"', i + 1);
      if (end == std::string_view::npos) end = s.size();
      v.kind = AttrVal::Kind::String;
      v.text = std::string(s.substr(i + 1, end - i - 1));
      i = end + 1;
      return v;
    }
    if (c == '?') {
      ++i;
      v.kind = AttrVal::Kind::Any;
      return v;
    }
    size_t start = i;
    while (i < s.size() && s[i] != ',' && s[i] != ']' && s[i] != ')' &&
           !std::isspace(static_cast<unsigned char>(s[i])))
      ++i;
    std::string tok(s.substr(start, i - start));
    if (tok == "None") return v;
    if (tok == "True" || tok == "False") {
      v.kind = AttrVal::Kind::Bool;
      v.int_value = tok == "True";
      return v;
    }
    // integer suffixes (`0i64`) carry only the width
    if (size_t suffix = tok.find_first_of("iu"); suffix != std::string::npos && suffix > 0 &&
        tok.find("inf") == std::string::npos)
      tok.resize(suffix);
    bool is_float = tok.find_first_of(".eE") != std::string::npos || tok == "inf" || tok == "-inf" ||
                    tok == "nan";
    if (is_float) {
      v.kind = AttrVal::Kind::Float;
      v.float_value = std::strtod(tok.c_str(), nullptr);
    } else {
      v.kind = AttrVal::Kind::Int;
      v.int_value = std::strtoll(tok.c_str(), nullptr, 10);
    }
    return v;
  }
};

std::string kind_description(AttrType t) {
  switch (t) {
    case AttrType::Int: return "an integer";
    case AttrType::Bool: return "a boolean";
    case AttrType::Double: return "a number";
    case AttrType::String: return "a string";
    case AttrType::DType: return "a data type string";
    case AttrType::IndexExpr: return "an integer or `?`";
    case AttrType::Integer: return "an integer or None";
    case AttrType::IndexArray: return "an array of integers";
    case AttrType::IntegerArray: return "an array of integers or None";
    case AttrType::IndexArrayArray: return "an array of integer arrays";
    case AttrType::DoubleArray: return "an array of numbers";
    case AttrType::StringArray: return "an array of strings";
    case AttrType::Expr: return "an expression";
    case AttrType::Object: return "a value";
  }
  return "a value";
}

std::string value_description(const AttrVal& v) {
  switch (v.kind) {
    case AttrVal::Kind::None: return "None";
    case AttrVal::Kind::Int: return "the integer " + std::to_string(v.int_value);
    case AttrVal::Kind::Float: return "the number " + attr_to_string(v);
    case AttrVal::Kind::Bool: return v.int_value ? "True" : "False";
    case AttrVal::Kind::String: return "the string \"" + v.text + "\"";
    case AttrVal::Kind::Array: return "the array " + attr_to_string(v);
    case AttrVal::Kind::Any: return "`?`";
    case AttrVal::Kind::Opaque: return "an expression";
  }
  return "a value";
}

bool is_int_or_any(const AttrVal& v) {
  return v.kind == AttrVal::Kind::Int || v.kind == AttrVal::Kind::Any || v.kind == AttrVal::Kind::Opaque;
}

bool all_items(const AttrVal& v, bool (*pred)(const AttrVal&)) {
  if (v.kind != AttrVal::Kind::Array) return false;
  for (const AttrVal& x : v.items)
    if (!pred(x)) return false;
  return true;
}

// Whether `v` is acceptable for a field of type `t`. Lenient where TVM's own parser is:
// integers for doubles and booleans (0/1), a bare integer for an integer array.
bool accepts(AttrType t, const AttrVal& v) {
  using K = AttrVal::Kind;
  if (v.kind == K::Opaque) return true;  // meta[...] and other expressions: unchecked
  switch (t) {
    case AttrType::Int: return v.kind == K::Int || v.kind == K::Bool;
    case AttrType::Bool: return v.kind == K::Bool || (v.kind == K::Int && (v.int_value == 0 || v.int_value == 1));
    case AttrType::Double: return v.kind == K::Float || v.kind == K::Int;
    case AttrType::String: return v.kind == K::String;
    case AttrType::DType: return v.kind == K::None || (v.kind == K::String && (v.text.empty() || parse_dtype(v.text)));
    case AttrType::IndexExpr: return v.kind == K::Int || v.kind == K::Any || v.kind == K::None;
    case AttrType::Integer: return v.kind == K::Int || v.kind == K::None || v.kind == K::Bool;
    case AttrType::IndexArray:
    case AttrType::IntegerArray:
      return v.kind == K::None || v.kind == K::Int || all_items(v, is_int_or_any);
    case AttrType::IndexArrayArray:
      return v.kind == K::None ||
             all_items(v, [](const AttrVal& x) { return all_items(x, is_int_or_any); });
    case AttrType::DoubleArray:
      return v.kind == K::None || all_items(v, [](const AttrVal& x) {
               return x.kind == K::Float || x.kind == K::Int;
             });
    case AttrType::StringArray:
      return v.kind == K::None ||
             all_items(v, [](const AttrVal& x) { return x.kind == K::String; });
    case AttrType::Expr:
    case AttrType::Object: return true;
  }
  return true;
}

}  // namespace

AttrVal parse_default_attr(std::string_view text) {
  DefaultReader r{text};
  return r.value();
}

AttrVal attr_from_syntax(const AttrValue& v) {
  AttrVal out;
  out.span = v.span;
  switch (v.kind) {
    case AttrValueKind::Int: out.kind = AttrVal::Kind::Int; out.int_value = v.int_value; break;
    case AttrValueKind::Float: out.kind = AttrVal::Kind::Float; out.float_value = v.float_value; break;
    case AttrValueKind::Bool: out.kind = AttrVal::Kind::Bool; out.int_value = v.int_value != 0; break;
    case AttrValueKind::String: out.kind = AttrVal::Kind::String; out.text = std::string(v.text); break;
    case AttrValueKind::None: out.kind = AttrVal::Kind::None; break;
    case AttrValueKind::Array:
      out.kind = AttrVal::Kind::Array;
      for (const AttrValue* item : v.items) out.items.push_back(attr_from_syntax(*item));
      break;
    case AttrValueKind::Expr: out.kind = AttrVal::Kind::Opaque; break;
  }
  return out;
}

std::string attr_to_string(const AttrVal& v) {
  switch (v.kind) {
    case AttrVal::Kind::None: return "None";
    case AttrVal::Kind::Int: return std::to_string(v.int_value);
    case AttrVal::Kind::Float: {
      std::ostringstream os;
      os << v.float_value;
      std::string s = os.str();
      if (s.find_first_of(".einf") == std::string::npos) s += ".0";
      return s;
    }
    case AttrVal::Kind::Bool: return v.int_value ? "True" : "False";
    case AttrVal::Kind::String: return "\"" + v.text + "\"";
    case AttrVal::Kind::Array: {
      std::string s = "[";
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) s += ", ";
        s += attr_to_string(v.items[i]);
      }
      return s + "]";
    }
    case AttrVal::Kind::Any: return "?";
    case AttrVal::Kind::Opaque: return "<expr>";
  }
  return "";
}

const AttrVal* CallAttrs::get(std::string_view name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return &v;
  if (!schema_) return nullptr;
  const AttrField* f = schema_->find_field(name);
  if (!f || f->required || f->opaque_default) return nullptr;
  // Defaults are parsed once per field and kept for the life of the process (relations
  // read them on every call, so this is a hot path).
  static thread_local std::unordered_map<const AttrField*, AttrVal> cache;
  auto it = cache.find(f);
  if (it == cache.end()) it = cache.emplace(f, parse_default_attr(f->default_text)).first;
  return &it->second;
}

bool CallAttrs::given(std::string_view name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return true;
  return false;
}

Span CallAttrs::span_of(std::string_view name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return v.span;
  return call_span_;
}

int64_t CallAttrs::get_int(std::string_view name, int64_t fallback) const {
  const AttrVal* v = get(name);
  if (v && (v->kind == AttrVal::Kind::Int || v->kind == AttrVal::Kind::Bool)) return v->int_value;
  if (v && v->kind == AttrVal::Kind::Float) return static_cast<int64_t>(v->float_value);
  return fallback;
}

std::optional<int64_t> CallAttrs::get_opt_int(std::string_view name) const {
  const AttrVal* v = get(name);
  if (v && (v->kind == AttrVal::Kind::Int || v->kind == AttrVal::Kind::Bool)) return v->int_value;
  return std::nullopt;
}

bool CallAttrs::get_bool(std::string_view name, bool fallback) const {
  const AttrVal* v = get(name);
  if (v && (v->kind == AttrVal::Kind::Int || v->kind == AttrVal::Kind::Bool)) return v->int_value != 0;
  return fallback;
}

double CallAttrs::get_double(std::string_view name, double fallback) const {
  const AttrVal* v = get(name);
  if (v && v->kind == AttrVal::Kind::Float) return v->float_value;
  if (v && v->kind == AttrVal::Kind::Int) return static_cast<double>(v->int_value);
  return fallback;
}

std::string CallAttrs::get_string(std::string_view name) const {
  const AttrVal* v = get(name);
  return v && v->kind == AttrVal::Kind::String ? v->text : std::string();
}

std::optional<DataType> CallAttrs::get_dtype(std::string_view name) const {
  std::string s = get_string(name);
  if (s.empty()) return std::nullopt;
  auto d = parse_dtype(s);
  if (!d || d->is_void()) return std::nullopt;
  return d;
}

bool CallAttrs::is_none(std::string_view name) const {
  const AttrVal* v = get(name);
  return !v || v->kind == AttrVal::Kind::None;
}

std::vector<int64_t> CallAttrs::get_ints(std::string_view name) const {
  std::vector<int64_t> out;
  const AttrVal* v = get(name);
  if (!v) return out;
  if (v->kind == AttrVal::Kind::Int) return {v->int_value};
  for (const AttrVal& x : v->items) out.push_back(x.int_value);
  return out;
}

std::vector<Dim> CallAttrs::get_dims(std::string_view name) const {
  std::vector<Dim> out;
  const AttrVal* v = get(name);
  if (!v) return out;
  if (v->kind == AttrVal::Kind::Int) return {Dim::constant(v->int_value)};
  for (const AttrVal& x : v->items)
    out.push_back(x.kind == AttrVal::Kind::Int ? Dim::constant(x.int_value) : Dim::any());
  return out;
}

std::vector<std::vector<int64_t>> CallAttrs::get_int_matrix(std::string_view name) const {
  std::vector<std::vector<int64_t>> out;
  const AttrVal* v = get(name);
  if (!v) return out;
  for (const AttrVal& row : v->items) {
    std::vector<int64_t> r;
    for (const AttrVal& x : row.items) r.push_back(x.int_value);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<double> CallAttrs::get_doubles(std::string_view name) const {
  std::vector<double> out;
  const AttrVal* v = get(name);
  if (!v) return out;
  for (const AttrVal& x : v->items)
    out.push_back(x.kind == AttrVal::Kind::Float ? x.float_value : static_cast<double>(x.int_value));
  return out;
}

std::vector<std::string> CallAttrs::get_strings(std::string_view name) const {
  std::vector<std::string> out;
  const AttrVal* v = get(name);
  if (!v) return out;
  for (const AttrVal& x : v->items) out.push_back(x.text);
  return out;
}

CallAttrs CallAttrs::from_values(const AttrSchema* schema,
                                 std::vector<std::pair<std::string, AttrVal>> values,
                                 Span call_span) {
  CallAttrs a;
  a.schema_ = schema;
  a.values_ = std::move(values);
  a.call_span_ = call_span;
  return a;
}

std::string describe_attr_schema(const AttrSchema& schema) {
  std::string s = std::string(schema.name) + " {";
  if (schema.fields.empty()) return s + "}";
  for (const AttrField& f : schema.fields) {
    s += "\n    " + std::string(f.name) + ": " + std::string(attr_type_name(f.type));
    if (f.required) s += " (required)";
    else if (f.opaque_default) s += " = <default>";
    else s += " = " + std::string(f.default_text);
  }
  if (!schema.complete) s += "\n    ...";
  return s + "\n  }";
}

bool check_call_attrs(const OpSignature& sig, const CallExpr& call, CallAttrs& out,
                      DiagnosticBag& diags) {
  out.schema_ = sig.attrs;
  out.call_span_ = call.span;
  out.values_.clear();
  bool ok = true;
  std::string op(sig.name);
  auto schema_note = [&](Diagnostic& d) {
    if (sig.attrs) d.note("`" + op + "` takes " + describe_attr_schema(*sig.attrs));
    else d.note("`" + op + "` takes no attributes");
  };
  const bool free_form = call.attrs_meta != nullptr || (sig.attrs && !sig.attrs->complete);
  for (const Attr& a : call.attrs) {
    AttrVal v = attr_from_syntax(*a.value);
    if (a.key == "attrs_type_key") continue;  // names the struct of an unregistered-attrs op
    const AttrField* f = sig.attrs ? sig.attrs->find_field(a.key) : nullptr;
    if (!f) {
      if (free_form) {
        out.values_.emplace_back(std::string(a.key), std::move(v));
        continue;
      }
      Diagnostic& d = diags.emit(DiagKind::UnknownAttribute, a.key_span, {op, std::string(a.key)});
      if (sig.attrs) {
        std::vector<std::string_view> names;
        for (const AttrField& fld : sig.attrs->fields) names.push_back(fld.name);
        std::string guess = closest_match(a.key, names);
        if (!guess.empty())
          d.help("did you mean `" + guess + "`?", {TextEdit{a.key_span, guess}});
      }
      schema_note(d);
      ok = false;
      continue;
    }
    // ScanopAttrs.exclusive is a tvm::Bool object, not a C++ bool: Python's cumsum/cumprod
    // pass their `exclusive=None` default through, TVM prints it as `exclusive=None`, and
    // TOPI's scan reads the null as False. Other bool fields are plain C++ bools in TVM,
    // where None does not parse, so they keep rejecting it.
    if (f->type == AttrType::Bool && v.kind == AttrVal::Kind::None && sig.attrs &&
        sig.attrs->name == "ScanopAttrs" && a.key == "exclusive") {
      v.kind = AttrVal::Kind::Bool;
      v.int_value = 0;
    }
    if (!accepts(f->type, v)) {
      Diagnostic& d = diags.emit(DiagKind::IllTypedAttribute, a.value->span,
                                 {std::string(a.key), op, kind_description(f->type),
                                  value_description(v)});
      schema_note(d);
      ok = false;
      continue;
    }
    // TVM prints an unset DataType as `None` as well as `""` (cumsum's `dtype=None`): both
    // mean void, so kernels and relations see one spelling.
    if (f->type == AttrType::DType && v.kind == AttrVal::Kind::None) {
      v.kind = AttrVal::Kind::String;
      v.text.clear();
    }
    out.values_.emplace_back(std::string(a.key), std::move(v));
  }
  if (sig.attrs && !call.attrs_meta) {
    for (const AttrField& f : sig.attrs->fields) {
      if (!f.required || out.given(f.name)) continue;
      Span at = call.callee ? call.callee->span : call.span;
      Diagnostic& d = diags.emit(DiagKind::MissingAttribute, at, {op, std::string(f.name)});
      schema_note(d);
      ok = false;
    }
  }
  return ok;
}

}  // namespace relay
