// value_type: a value's Relay type read off the value itself. Tensors and tuples say
// everything; a constructor value's ADT arguments are read from its fields by matching
// each declared field type (`a`, `List[a]`, `(a, b)`, `ref(a)`) against the field's value;
// a function's come from its annotations. What nothing tells prints as `_`, the spelling
// of "unknown" in type_to_string (lang/types/type.h), whose layout this follows.
#include <cctype>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpreter/inspect/inspect.h"
#include "interpreter/inspect/inspect_internal.h"
#include "lang/syntax/ast.h"
#include "lang/syntax/printer.h"

namespace relay::rt {

namespace inspect_detail {

std::string relay_shape_text(const Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + ")";
}

std::string tensor_type_text(const NDArray& a) {
  if (a.ndim() == 0) return dtype_name(a.dtype());
  return "Tensor[" + relay_shape_text(a.shape()) + ", " + dtype_name(a.dtype()) + "]";
}

}  // namespace inspect_detail

namespace {

using inspect_detail::tensor_type_text;

constexpr size_t kMaxText = 2000;   // a tuple stops adding fields past this many characters
constexpr int kMaxDepth = 48;       // nesting shown; a reference that holds itself ends here
constexpr int kMaxVisits = 4096;    // values looked at in all: ADT arguments may search subtrees
constexpr const char* kCut = "\u2026";

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The number of unknowns (`_` on its own, not inside a name like `My_Type`) in a type
// text: fewer is better when two fields disagree.
size_t unknowns(const std::string& t) {
  size_t n = 0;
  for (size_t i = 0; i < t.size(); ++i)
    n += t[i] == '_' && (i == 0 || !identifier_char(t[i - 1])) && (i + 1 == t.size() || !identifier_char(t[i + 1]));
  return n;
}

class TypeReader {
 public:
  std::string of(const Value& v, int depth) {
    if (!v.defined()) return "_";
    if (depth > kMaxDepth || --visits_left_ < 0) return kCut;
    switch (v.kind()) {
      case ObjectKind::Tensor: return tensor_type_text(v.tensor());
      case ObjectKind::Tuple: {
        const std::vector<Value>& fields = v.tuple().fields;
        std::string out = "(";
        for (size_t i = 0; i < fields.size(); ++i) {
          if (i) out += ", ";
          if (out.size() > kMaxText || visits_left_ <= 0) {
            out += kCut;
            break;
          }
          out += of(fields[i], depth + 1);
        }
        if (fields.size() == 1) out += ",";  // TVM's one-field tuple type: `(int32,)`
        return out + ")";
      }
      case ObjectKind::Ref: return "ref(" + of(v.ref().value, depth + 1) + ")";
      case ObjectKind::Closure: return function_type(v.closure());
      case ObjectKind::Ctor: {
        const CtorDef* def = v.ctor().ctor;
        if (!def || !def->owner) return "_";
        return std::string(def->owner->name) + "[" + join(adt_args(v.ctor(), depth)) + "]";
      }
    }
    return "_";
  }

 private:
  // The ADT's type arguments as the fields of `c` show them, `_` where they do not.
  std::vector<std::string> adt_args(const CtorObj& c, int depth) {
    // Shared subvalues (`Node(t, t)`) are read once.
    if (auto it = seen_.find(&c); it != seen_.end()) return it->second;
    const CtorDef* def = c.ctor;
    std::vector<std::string> args(def->owner->type_params.size());
    // Counted too: a tree whose leaves say nothing would otherwise be searched whole.
    if (--visits_left_ >= 0 && def->fields.size() == c.fields.size())
      for (size_t i = 0; i < c.fields.size(); ++i) bind(def->fields[i], c.fields[i], *def->owner, args, depth + 1);
    for (std::string& a : args)
      if (a.empty()) a = "_";
    seen_.emplace(&c, args);
    return args;
  }

  // Matches a declared field type against the field's value, binding the owner's
  // type parameters it mentions.
  void bind(const Type* t, const Value& v, const TypeDef& owner, std::vector<std::string>& args, int depth) {
    if (!t || !v.defined() || depth > kMaxDepth || visits_left_ <= 0 || settled(args)) return;
    switch (t->kind) {
      case TypeKind::Named: {
        const auto* named = static_cast<const NamedType*>(t);
        if (const int p = param_index(owner, named); p >= 0) {
          offer(args[static_cast<size_t>(p)], of(v, depth));
          return;
        }
        // A field of an ADT over our parameters (`List[a]` in Cons): that value's own
        // arguments give ours.
        if (!named->adt || !v.is_ctor() || !v.ctor().ctor || v.ctor().ctor->owner != named->adt) return;
        const std::vector<std::string> inner = adt_args(v.ctor(), depth);
        for (size_t i = 0; i < named->args.size() && i < inner.size(); ++i) {
          const Type* a = named->args[i];
          if (a && a->kind == TypeKind::Named)
            if (const int p = param_index(owner, static_cast<const NamedType*>(a)); p >= 0)
              offer(args[static_cast<size_t>(p)], inner[i]);
        }
        return;
      }
      case TypeKind::Tuple: {
        const auto* tuple = static_cast<const TupleType*>(t);
        if (!v.is_tuple() || v.tuple().fields.size() != tuple->fields.size()) return;
        for (size_t i = 0; i < tuple->fields.size(); ++i)
          bind(tuple->fields[i], v.tuple().fields[i], owner, args, depth + 1);
        return;
      }
      case TypeKind::Ref:
        if (v.is_ref()) bind(static_cast<const RefType*>(t)->value, v.ref().value, owner, args, depth + 1);
        return;
      default: return;
    }
  }

  static int param_index(const TypeDef& owner, const NamedType* t) {
    if (!t->param) return -1;
    for (size_t i = 0; i < owner.type_params.size(); ++i)
      if (owner.type_params[i] == t->param) return static_cast<int>(i);
    return -1;
  }

  static void offer(std::string& slot, const std::string& candidate) {
    if (candidate == "_" || candidate == kCut) return;
    if (slot.empty() || unknowns(candidate) < unknowns(slot)) slot = candidate;
  }

  // Every argument known without unknowns: nothing more to learn.
  static bool settled(const std::vector<std::string>& args) {
    for (const std::string& a : args)
      if (a.empty() || unknowns(a) > 0) return false;
    return true;
  }

  static std::string function_type(const ClosureObj& c) {
    if (c.kind == ClosureObj::Kind::Function) {
      const FunctionExpr* fn = c.code ? c.code->fn : nullptr;
      if (!fn) return "_";
      std::vector<std::string> type_params, params;
      for (const TypeParam* p : fn->type_params) type_params.emplace_back(p->name);
      for (const VarDecl* p : fn->params) params.push_back(p && p->annotation ? print_type(p->annotation) : "_");
      return signature(type_params, params, fn->ret_type ? print_type(fn->ret_type) : "_");
    }
    if (c.kind == ClosureObj::Kind::Ctor && c.ctor && c.ctor->owner) {
      // `fn [a](a, List[a]) -> List[a]`: the constructor's declared signature.
      std::vector<std::string> type_params, params;
      for (const TypeParam* p : c.ctor->owner->type_params) type_params.emplace_back(p->name);
      for (const Type* f : c.ctor->fields) params.push_back(print_type(f));
      return signature(type_params, params, std::string(c.ctor->owner->name) + "[" + join(type_params) + "]");
    }
    return "_";  // an operator's type depends on its arguments' (its type relation)
  }

  static std::string signature(const std::vector<std::string>& type_params, const std::vector<std::string>& params,
                               const std::string& result) {
    std::string out = "fn ";
    if (!type_params.empty()) out += "[" + join(type_params) + "]";
    return out + "(" + join(params) + ") -> " + result;
  }

  int visits_left_ = kMaxVisits;
  std::unordered_map<const CtorObj*, std::vector<std::string>> seen_;
};

}  // namespace

std::string value_type(const Value& v) {
  std::string t = TypeReader().of(v, 0);
  return t == "_" ? std::string() : t;
}

}  // namespace relay::rt
