#include "lang/syntax/alpha_equiv.h"

#include <cmath>
#include <unordered_map>
#include <vector>

#include "lang/syntax/printer.h"

namespace relay {

namespace {

const Expr* strip(const Expr* e) {
  while (e && e->kind == ExprKind::Block && static_cast<const BlockExpr*>(e)->bindings.empty() &&
         static_cast<const BlockExpr*>(e)->result)
    e = static_cast<const BlockExpr*>(e)->result;
  return e;
}

std::string_view expr_kind_name(ExprKind k) {
  switch (k) {
    case ExprKind::Error: return "error";
    case ExprKind::Constant: return "constant";
    case ExprKind::Tuple: return "tuple";
    case ExprKind::LocalRef: return "local variable";
    case ExprKind::GlobalRef: return "global";
    case ExprKind::Ident: return "identifier";
    case ExprKind::OpRef: return "operator";
    case ExprKind::CtorRef: return "constructor";
    case ExprKind::MetaRef: return "meta reference";
    case ExprKind::Function: return "function";
    case ExprKind::Call: return "call";
    case ExprKind::Block: return "block";
    case ExprKind::If: return "if";
    case ExprKind::Match: return "match";
    case ExprKind::TupleGetItem: return "projection";
    case ExprKind::RefCreate: return "ref";
    case ExprKind::RefRead: return "ref_read";
    case ExprKind::RefWrite: return "ref_write";
  }
  return "expression";
}

bool same_float(double a, double b, DataType dt) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (dt.code == DataType::Float && dt.bits == 32)
    return static_cast<float>(a) == static_cast<float>(b);
  return a == b;
}

class Comparer {
 public:
  explicit Comparer(const AlphaEqualOptions& o) : opts_(o) {}

  std::string why;

  bool modules(const Module& a, const Module& b) {
    if (a.imports_prelude != b.imports_prelude) return fail("prelude import differs");
    if ((a.metadata_span.size() > 0) != (b.metadata_span.size() > 0))
      return fail("metadata section present in only one");
    if (a.defs.size() != b.defs.size())
      return fail("number of definitions " + std::to_string(a.defs.size()) + " vs " +
                  std::to_string(b.defs.size()));
    for (size_t i = 0; i < a.defs.size(); ++i) {
      const Definition& x = a.defs[i];
      const Definition& y = b.defs[i];
      if (x.kind != y.kind) return fail("definition " + std::to_string(i) + ": kind differs");
      if (x.kind == Definition::Func) {
        if (!x.func || !y.func) {
          if (x.func != y.func) return fail("definition " + std::to_string(i) + " missing");
          continue;
        }
        Scope s(this, "def @" + std::string(x.func->name));
        if (x.func->name != y.func->name)
          return fail("name @" + std::string(x.func->name) + " vs @" + std::string(y.func->name));
        if (!expr(x.func->fn, y.func->fn)) return false;
      } else {
        if (!x.type || !y.type) {
          if (x.type != y.type) return fail("definition " + std::to_string(i) + " missing");
          continue;
        }
        if (!type_def(*x.type, *y.type)) return false;
      }
    }
    if ((a.expr == nullptr) != (b.expr == nullptr)) return fail("expression present in only one");
    if (a.expr) return expr(a.expr, b.expr);
    return true;
  }

  bool expr(const Expr* a, const Expr* b) {
    a = strip(a);
    b = strip(b);
    if (!a || !b) {
      if (a == b) return true;
      return fail(a ? "missing expression on the right" : "missing expression on the left");
    }
    if (a->kind != b->kind)
      return fail(std::string(expr_kind_name(a->kind)) + " vs " + std::string(expr_kind_name(b->kind)));
    switch (a->kind) {
      case ExprKind::Error: return true;
      case ExprKind::Constant: {
        auto* x = static_cast<const ConstantExpr*>(a);
        auto* y = static_cast<const ConstantExpr*>(b);
        bool eq = x->dtype == y->dtype &&
                  (x->dtype.is_float() ? same_float(x->float_value, y->float_value, x->dtype)
                                       : x->int_value == y->int_value);
        if (!eq) return fail("constant " + format_constant(x) + " vs " + format_constant(y));
        return true;
      }
      case ExprKind::Tuple: {
        auto* x = static_cast<const TupleExpr*>(a);
        auto* y = static_cast<const TupleExpr*>(b);
        if (x->fields.size() != y->fields.size())
          return fail("tuple of " + std::to_string(x->fields.size()) + " vs " +
                      std::to_string(y->fields.size()) + " fields");
        for (size_t i = 0; i < x->fields.size(); ++i) {
          Scope s(this, "field " + std::to_string(i));
          if (!expr(x->fields[i], y->fields[i])) return false;
        }
        return true;
      }
      case ExprKind::LocalRef: {
        auto* x = static_cast<const RefExpr*>(a);
        auto* y = static_cast<const RefExpr*>(b);
        if (x->decl && y->decl) {
          auto ix = fwd_.find(x->decl);
          auto iy = bwd_.find(y->decl);
          if (ix != fwd_.end() || iy != bwd_.end()) {
            if (ix == fwd_.end() || ix->second != y->decl)
              return fail("%" + std::string(x->name) + " and %" + std::string(y->name) +
                          " refer to different binders");
            return true;
          }
        }
        if (x->name != y->name)
          return fail("%" + std::string(x->name) + " vs %" + std::string(y->name));
        return true;
      }
      case ExprKind::GlobalRef:
      case ExprKind::Ident:
      case ExprKind::OpRef:
      case ExprKind::CtorRef: {
        auto* x = static_cast<const RefExpr*>(a);
        auto* y = static_cast<const RefExpr*>(b);
        if (x->name != y->name)
          return fail("`" + std::string(x->name) + "` vs `" + std::string(y->name) + "`");
        return true;
      }
      case ExprKind::MetaRef: {
        auto* x = static_cast<const MetaRefExpr*>(a);
        auto* y = static_cast<const MetaRefExpr*>(b);
        if (x->type_key != y->type_key || x->index != y->index)
          return fail("meta[" + std::string(x->type_key) + "][" + std::to_string(x->index) +
                      "] vs meta[" + std::string(y->type_key) + "][" + std::to_string(y->index) + "]");
        return true;
      }
      case ExprKind::Function: return function(static_cast<const FunctionExpr*>(a),
                                               static_cast<const FunctionExpr*>(b));
      case ExprKind::Call: {
        auto* x = static_cast<const CallExpr*>(a);
        auto* y = static_cast<const CallExpr*>(b);
        if (opts_.compare_call_syntax && x->syntax != y->syntax)
          return fail("call written with different syntax (infix / unary minus / call)");
        {
          Scope s(this, "callee");
          if (!expr(x->callee, y->callee)) return false;
        }
        if (x->args.size() != y->args.size())
          return fail(std::to_string(x->args.size()) + " vs " + std::to_string(y->args.size()) +
                      " arguments");
        for (size_t i = 0; i < x->args.size(); ++i) {
          Scope s(this, "argument " + std::to_string(i));
          if (!expr(x->args[i], y->args[i])) return false;
        }
        if (!attrs(x->attrs, y->attrs)) return false;
        if ((x->attrs_meta == nullptr) != (y->attrs_meta == nullptr))
          return fail("attribute meta reference in only one call");
        if (x->attrs_meta) return expr(x->attrs_meta, y->attrs_meta);
        return true;
      }
      case ExprKind::Block: {
        auto* x = static_cast<const BlockExpr*>(a);
        auto* y = static_cast<const BlockExpr*>(b);
        if (x->bindings.size() != y->bindings.size())
          return fail(std::to_string(x->bindings.size()) + " vs " +
                      std::to_string(y->bindings.size()) + " bindings");
        for (size_t i = 0; i < x->bindings.size(); ++i) {
          Scope s(this, "binding " + std::to_string(i));
          const Binding& p = x->bindings[i];
          const Binding& q = y->bindings[i];
          if (p.kind != q.kind) return fail("binding kind differs");
          if ((p.var == nullptr) != (q.var == nullptr)) return fail("binding variable in only one");
          if (p.var && !bind(p.var, q.var)) return false;
          if ((p.value == nullptr) != (q.value == nullptr)) return fail("binding value in only one");
          if (p.value) {
            Scope v(this, "value");
            if (!expr(p.value, q.value)) return false;
          }
        }
        Scope s(this, "result");
        return expr(x->result, y->result);
      }
      case ExprKind::If: {
        auto* x = static_cast<const IfExpr*>(a);
        auto* y = static_cast<const IfExpr*>(b);
        {
          Scope s(this, "condition");
          if (!expr(x->cond, y->cond)) return false;
        }
        {
          Scope s(this, "then");
          if (!expr(x->then_branch, y->then_branch)) return false;
        }
        Scope s(this, "else");
        return expr(x->else_branch, y->else_branch);
      }
      case ExprKind::Match: {
        auto* x = static_cast<const MatchExpr*>(a);
        auto* y = static_cast<const MatchExpr*>(b);
        if (x->complete != y->complete) return fail("match vs match?");
        {
          Scope s(this, "scrutinee");
          if (!expr(x->scrutinee, y->scrutinee)) return false;
        }
        if (x->clauses.size() != y->clauses.size())
          return fail(std::to_string(x->clauses.size()) + " vs " +
                      std::to_string(y->clauses.size()) + " clauses");
        for (size_t i = 0; i < x->clauses.size(); ++i) {
          Scope s(this, "clause " + std::to_string(i));
          if (!pattern(x->clauses[i].pattern, y->clauses[i].pattern)) return false;
          if (!expr(x->clauses[i].body, y->clauses[i].body)) return false;
        }
        return true;
      }
      case ExprKind::TupleGetItem: {
        auto* x = static_cast<const TupleGetItemExpr*>(a);
        auto* y = static_cast<const TupleGetItemExpr*>(b);
        if (x->index != y->index)
          return fail("projection ." + std::to_string(x->index) + " vs ." + std::to_string(y->index));
        Scope s(this, "projection base");
        return expr(x->tuple, y->tuple);
      }
      case ExprKind::RefCreate:
        return expr(static_cast<const RefCreateExpr*>(a)->value,
                    static_cast<const RefCreateExpr*>(b)->value);
      case ExprKind::RefRead:
        return expr(static_cast<const RefReadExpr*>(a)->ref, static_cast<const RefReadExpr*>(b)->ref);
      case ExprKind::RefWrite: {
        auto* x = static_cast<const RefWriteExpr*>(a);
        auto* y = static_cast<const RefWriteExpr*>(b);
        return expr(x->ref, y->ref) && expr(x->value, y->value);
      }
    }
    return true;
  }

  bool type(const Type* a, const Type* b) {
    if (!a || !b) {
      if (a == b) return true;
      return fail(a ? "type annotation only on the left" : "type annotation only on the right");
    }
    if (a->kind != b->kind) return fail("type " + print_type(a) + " vs " + print_type(b));
    auto mismatch = [&]() { return fail("type " + print_type(a) + " vs " + print_type(b)); };
    switch (a->kind) {
      case TypeKind::Error:
      case TypeKind::Incomplete: return true;
      case TypeKind::Tensor: {
        auto* x = static_cast<const TensorType*>(a);
        auto* y = static_cast<const TensorType*>(b);
        if (!(x->dtype == y->dtype) || x->shape.size() != y->shape.size()) return mismatch();
        for (size_t i = 0; i < x->shape.size(); ++i)
          if (!dim(x->shape[i], y->shape[i])) return mismatch();
        return true;
      }
      case TypeKind::Tuple: {
        auto* x = static_cast<const TupleType*>(a);
        auto* y = static_cast<const TupleType*>(b);
        if (x->fields.size() != y->fields.size()) return mismatch();
        for (size_t i = 0; i < x->fields.size(); ++i)
          if (!type(x->fields[i], y->fields[i])) return false;
        return true;
      }
      case TypeKind::Func: {
        auto* x = static_cast<const FuncType*>(a);
        auto* y = static_cast<const FuncType*>(b);
        if (x->params.size() != y->params.size()) return mismatch();
        if (!type_params(x->type_params, y->type_params)) return false;
        for (size_t i = 0; i < x->params.size(); ++i)
          if (!type(x->params[i], y->params[i])) return false;
        return type(x->ret, y->ret);
      }
      case TypeKind::Named: {
        auto* x = static_cast<const NamedType*>(a);
        auto* y = static_cast<const NamedType*>(b);
        if (x->args.size() != y->args.size()) return mismatch();
        if (x->param && y->param) {
          auto it = tfwd_.find(x->param);
          if (it != tfwd_.end()) {
            if (it->second != y->param) return mismatch();
          } else if (x->name != y->name) {
            return mismatch();
          }
        } else if (x->name != y->name) {
          return mismatch();
        }
        for (size_t i = 0; i < x->args.size(); ++i)
          if (!type(x->args[i], y->args[i])) return false;
        return true;
      }
      case TypeKind::Ref:
        return type(static_cast<const RefType*>(a)->value, static_cast<const RefType*>(b)->value);
    }
    return true;
  }

 private:
  struct Scope {
    Comparer* c;
    Scope(Comparer* cmp, std::string what) : c(cmp) { c->path_.push_back(std::move(what)); }
    ~Scope() { c->path_.pop_back(); }
  };

  bool fail(const std::string& what) {
    if (why.empty()) {
      for (const auto& p : path_) why += p + ": ";
      why += what;
    }
    return false;
  }

  bool dim(const DimExpr* a, const DimExpr* b) {
    if (!a || !b) return a == b;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
      case DimKind::Const: return a->value == b->value && a->dtype == b->dtype;
      case DimKind::Any:
      case DimKind::Error: return true;
      case DimKind::Name: return a->name == b->name;
      case DimKind::Meta: return a->meta_key == b->meta_key && a->meta_index == b->meta_index;
      default: return dim(a->lhs, b->lhs) && dim(a->rhs, b->rhs);
    }
  }

  bool type_params(std::span<TypeParam*> a, std::span<TypeParam*> b) {
    if (a.size() != b.size())
      return fail(std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " type parameters");
    for (size_t i = 0; i < a.size(); ++i) {
      if (opts_.compare_var_names && a[i]->name != b[i]->name)
        return fail("type parameter " + std::string(a[i]->name) + " vs " + std::string(b[i]->name));
      tfwd_[a[i]] = b[i];
    }
    return true;
  }

  bool type_def(const TypeDef& a, const TypeDef& b) {
    Scope s(this, "type " + std::string(a.name));
    if (a.name != b.name) return fail("name " + std::string(a.name) + " vs " + std::string(b.name));
    if (a.is_extern != b.is_extern) return fail("extern differs");
    if (!type_params(a.type_params, b.type_params)) return false;
    if (a.ctors.size() != b.ctors.size())
      return fail(std::to_string(a.ctors.size()) + " vs " + std::to_string(b.ctors.size()) +
                  " constructors");
    for (size_t i = 0; i < a.ctors.size(); ++i) {
      const CtorDef* x = a.ctors[i];
      const CtorDef* y = b.ctors[i];
      Scope c(this, "constructor " + std::string(x->name));
      if (x->name != y->name) return fail("name " + std::string(x->name) + " vs " + std::string(y->name));
      if (x->fields.size() != y->fields.size()) return fail("number of fields differs");
      for (size_t k = 0; k < x->fields.size(); ++k)
        if (!type(x->fields[k], y->fields[k])) return false;
    }
    return true;
  }

  bool bind(const VarDecl* a, const VarDecl* b) {
    if (opts_.compare_var_names && a->name != b->name)
      return fail("binder %" + std::string(a->name) + " vs %" + std::string(b->name));
    if (a->kind != b->kind) return fail("binder %" + std::string(a->name) + ": kind differs");
    {
      Scope s(this, "%" + std::string(a->name));
      if (!type(a->annotation, b->annotation)) return false;
      if (!attrs(a->attrs, b->attrs)) return false;
    }
    fwd_[a] = b;
    bwd_[b] = a;
    return true;
  }

  bool function(const FunctionExpr* a, const FunctionExpr* b) {
    if (!type_params(a->type_params, b->type_params)) return false;
    if (a->params.size() != b->params.size())
      return fail(std::to_string(a->params.size()) + " vs " + std::to_string(b->params.size()) +
                  " parameters");
    for (size_t i = 0; i < a->params.size(); ++i) {
      Scope s(this, "parameter " + std::to_string(i));
      if (!bind(a->params[i], b->params[i])) return false;
    }
    if (!attrs(a->attrs, b->attrs)) return false;
    {
      Scope s(this, "return type");
      if (!type(a->ret_type, b->ret_type)) return false;
    }
    Scope s(this, "body");
    return expr(a->body, b->body);
  }

  bool attrs(std::span<const Attr> a, std::span<const Attr> b) {
    if (a.size() != b.size())
      return fail(std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " attributes");
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].key != b[i].key)
        return fail("attribute " + std::string(a[i].key) + " vs " + std::string(b[i].key));
      Scope s(this, "attribute " + std::string(a[i].key));
      if (!attr_value(a[i].value, b[i].value)) return false;
    }
    return true;
  }
  bool attrs(std::span<Attr> a, std::span<Attr> b) {
    return attrs(std::span<const Attr>(a.data(), a.size()), std::span<const Attr>(b.data(), b.size()));
  }

  bool attr_value(const AttrValue* a, const AttrValue* b) {
    if (!a || !b) return a == b || fail("missing attribute value");
    auto mismatch = [&]() {
      return fail(print_attr_value(a) + " vs " + print_attr_value(b));
    };
    if (a->kind != b->kind) return mismatch();
    switch (a->kind) {
      case AttrValueKind::Int:
        return (a->int_value == b->int_value && a->dtype == b->dtype) || mismatch();
      case AttrValueKind::Float:
        return (a->dtype == b->dtype && same_float(a->float_value, b->float_value, a->dtype)) ||
               mismatch();
      case AttrValueKind::Bool: return (a->int_value != 0) == (b->int_value != 0) || mismatch();
      case AttrValueKind::String: return a->text == b->text || mismatch();
      case AttrValueKind::None: return true;
      case AttrValueKind::Array:
        if (a->items.size() != b->items.size()) return mismatch();
        for (size_t i = 0; i < a->items.size(); ++i)
          if (!attr_value(a->items[i], b->items[i])) return false;
        return true;
      case AttrValueKind::Expr: return expr(a->expr, b->expr);
    }
    return true;
  }

  bool pattern(const Pattern* a, const Pattern* b) {
    if (!a || !b) return a == b || fail("missing pattern");
    auto mismatch = [&]() { return fail("pattern " + print_pattern(a) + " vs " + print_pattern(b)); };
    if (a->kind != b->kind) return mismatch();
    switch (a->kind) {
      case PatternKind::Wildcard:
      case PatternKind::Error: return true;
      case PatternKind::Var: return bind(a->var, b->var);
      case PatternKind::Ctor:
        if (a->ctor_name != b->ctor_name) return mismatch();
        [[fallthrough]];
      case PatternKind::Tuple:
        if (a->fields.size() != b->fields.size()) return mismatch();
        for (size_t i = 0; i < a->fields.size(); ++i)
          if (!pattern(a->fields[i], b->fields[i])) return false;
        return true;
    }
    return true;
  }

  const AlphaEqualOptions& opts_;
  std::vector<std::string> path_;
  std::unordered_map<const VarDecl*, const VarDecl*> fwd_, bwd_;
  std::unordered_map<const TypeParam*, const TypeParam*> tfwd_;
};

}  // namespace

bool alpha_equal(const Module& a, const Module& b, const AlphaEqualOptions& options,
                 std::string* why) {
  Comparer c(options);
  bool ok = c.modules(a, b);
  if (!ok && why) *why = c.why;
  return ok;
}

bool alpha_equal(const Module& a, const Module& b, std::string* why) {
  return alpha_equal(a, b, AlphaEqualOptions{}, why);
}

bool alpha_equal(const Expr* a, const Expr* b, const AlphaEqualOptions& options, std::string* why) {
  Comparer c(options);
  bool ok = c.expr(a, b);
  if (!ok && why) *why = c.why;
  return ok;
}

bool alpha_equal(const Type* a, const Type* b, std::string* why) {
  AlphaEqualOptions o;
  Comparer c(o);
  bool ok = c.type(a, b);
  if (!ok && why) *why = c.why;
  return ok;
}

}  // namespace relay
