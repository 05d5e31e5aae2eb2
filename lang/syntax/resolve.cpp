#include "lang/syntax/resolve.h"

#include <algorithm>
#include <unordered_map>

#include "lang/ops/op_registry.h"
#include "lang/syntax/metadata.h"

namespace relay {

namespace {

// Data types usable as scalar type shorthands, offered as "did you mean" candidates.
const std::vector<std::string_view> kScalarTypeNames = {
    "float16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool", "bfloat16"};

class Resolver {
 public:
  Resolver(Module& m, DiagnosticBag& diags, const ResolveOptions& opts)
      : m_(m), diags_(diags), opts_(opts), index_(opts.index) {
    if (!index_) {  // no shared index: one over the imports (the prelude), for this module
      for (const Module* imp : opts.imports) own_index_.add(*imp);
      index_ = &own_index_;
    }
  }

  void run() {
    collect_definitions();
    for (const auto& d : m_.defs) {
      if (d.kind == Definition::Type) resolve_typedef(*d.type);
    }
    for (const auto& d : m_.defs) {
      if (d.kind == Definition::Func && d.func->fn) resolve_function(d.func->fn);
    }
    if (m_.expr) resolve_expr(m_.expr);
  }

 private:
  // ---- top-level tables ---------------------------------------------------------------
  void collect_definitions() {
    for (const auto& d : m_.defs) {
      if (d.kind == Definition::Func) {
        FuncDef* f = d.func;
        if (f->name.empty()) continue;
        auto [it, fresh] = globals_.emplace(f->name, f);
        if (!fresh) {
          diags_.emit(DiagKind::DuplicateGlobal, f->name_span, {"@" + std::string(f->name)})
              .label(it->second->name_span, "first defined here")
              .help("rename one of them; TVM would silently keep only the last definition");
        }
      } else {
        TypeDef* t = d.type;
        auto [it, fresh] = types_.emplace(t->name, t);
        if (!fresh) {
          diags_.emit(DiagKind::DuplicateType, t->name_span, {std::string(t->name)})
              .label(it->second->name_span, "first defined here");
        }
        for (CtorDef* c : t->ctors) {
          auto [ct, cfresh] = ctors_.emplace(c->name, c);
          if (!cfresh) {
            diags_.emit(DiagKind::DuplicateConstructor, c->name_span, {std::string(c->name)})
                .label(ct->second->name_span, "first defined here")
                .note("constructor names are global: two types cannot share one");
          }
        }
      }
    }
  }

  // Names are this module's own first, then the imports'.
  template <class Own, class Imported>
  static auto lookup(const Own& own, const Imported& imported, std::string_view name) ->
      typename Imported::mapped_type {
    if (auto it = own.find(name); it != own.end()) return it->second;
    auto it = imported.find(name);
    return it == imported.end() ? nullptr : it->second;
  }
  FuncDef* find_global(std::string_view name) { return lookup(globals_, index_->globals, name); }
  TypeDef* find_type(std::string_view name) { return lookup(types_, index_->types, name); }
  CtorDef* find_ctor(std::string_view name) { return lookup(ctors_, index_->ctors, name); }
  // Every imported definition (for did-you-mean suggestions, after a lookup failed).
  template <class F>
  void for_each_import_def(F f) {
    for (const Module* imp : opts_.imports)
      for (const auto& d : imp->defs) f(d);
  }

  // ---- local scopes --------------------------------------------------------------------
  // name -> stack of visible binders; `undo_` records what each scope pushed.
  void push_scope() { marks_.push_back(undo_.size()); }
  // `warn` is false for scopes cut short by a syntax error, where "unused" would be a
  // consequence of that error rather than news.
  void pop_scope(bool warn = true) {
    size_t mark = marks_.back();
    marks_.pop_back();
    while (undo_.size() > mark) {
      VarDecl* v = undo_.back();
      undo_.pop_back();
      locals_[v->name].pop_back();
      if (warn) warn_if_unused(v);
    }
  }
  void declare(VarDecl* v) {
    locals_[v->name].push_back(v);
    undo_.push_back(v);
  }
  VarDecl* lookup_local(std::string_view name) {
    auto it = locals_.find(name);
    if (it != locals_.end() && !it->second.empty()) return it->second.back();
    if (auto f = free_vars_.find(name); f != free_vars_.end()) return f->second;
    return nullptr;
  }
  void warn_if_unused(VarDecl* v) {
    if (!opts_.warn_unused || v->use_count > 0 || v->kind != VarKind::Let) return;
    if (v->name.empty() || v->name[0] == '_') return;
    diags_.emit(DiagKind::UnusedVariable, v->span, {"%" + std::string(v->name)})
        .tag(kTagUnnecessary)
        .help("if this is intentional, prefix the name with an underscore",
              {TextEdit{v->span, "%_" + std::string(v->name)}});
  }

  // ---- did-you-mean ----------------------------------------------------------------------
  static void suggest(Diagnostic& d, Span at, std::string_view name,
                      const std::vector<std::string_view>& candidates, std::string_view sigil,
                      std::string_view what) {
    std::string best = closest_match(name, candidates);
    if (best.empty()) return;
    std::string shown = std::string(sigil) + best;
    d.help(std::string(what) + " with a similar name exists: `" + shown + "`",
           {TextEdit{at, shown}});
  }
  std::vector<std::string_view> visible_locals() {
    std::vector<std::string_view> out;
    for (const auto& [name, stack] : locals_)
      if (!stack.empty()) out.push_back(name);
    for (const auto& [name, v] : free_vars_) out.push_back(name);
    return out;
  }

  // ---- types -----------------------------------------------------------------------------
  void resolve_typedef(TypeDef& t) {
    check_type_params(t.type_params);
    type_scopes_.push_back(t.type_params);
    for (CtorDef* c : t.ctors)
      for (Type* f : c->fields) resolve_type(f);
    type_scopes_.pop_back();
  }

  void check_type_params(std::span<TypeParam*> params) {
    for (size_t i = 0; i < params.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (params[i]->name == params[j]->name) {
          diags_.emit(DiagKind::DuplicateTypeParameter, params[i]->span, {std::string(params[i]->name)})
              .label(params[j]->span, "first declared here");
          break;
        }
  }

  TypeParam* find_type_param(std::string_view name) {
    for (auto s = type_scopes_.rbegin(); s != type_scopes_.rend(); ++s)
      for (TypeParam* p : *s)
        if (p->name == name) return p;
    return nullptr;
  }

  void resolve_type(Type* t) {
    if (!t) return;
    switch (t->kind) {
      case TypeKind::Tuple:
        for (Type* f : static_cast<TupleType*>(t)->fields) resolve_type(f);
        break;
      case TypeKind::Func: {
        auto* ft = static_cast<FuncType*>(t);
        check_type_params(ft->type_params);
        type_scopes_.push_back(ft->type_params);
        for (Type* p : ft->params) resolve_type(p);
        resolve_type(ft->ret);
        type_scopes_.pop_back();
        break;
      }
      case TypeKind::Ref:
        resolve_type(static_cast<RefType*>(t)->value);
        break;
      case TypeKind::Named:
        resolve_named_type(static_cast<NamedType*>(t));
        break;
      default:
        break;
    }
  }

  void resolve_named_type(NamedType* nt) {
    for (Type* a : nt->args) resolve_type(a);
    Span name_span{nt->span.file, nt->span.begin, static_cast<uint32_t>(nt->span.begin + nt->name.size())};
    if (TypeParam* p = find_type_param(nt->name)) {
      nt->param = p;
      if (!nt->args.empty()) {
        diags_.emit(DiagKind::TypeArity, nt->span, {std::string(nt->name), "0", std::to_string(nt->args.size())})
            .label(p->span, "a type parameter, declared here")
            .note("type parameters stand for types of kind `Type` and take no arguments");
      }
      return;
    }
    if (TypeDef* adt = find_type(nt->name)) {
      nt->adt = adt;
      if (adt->type_params.size() != nt->args.size()) {
        auto& d = diags_.emit(DiagKind::TypeArity, nt->span,
                              {std::string(nt->name), std::to_string(adt->type_params.size()),
                               std::to_string(nt->args.size())});
        if (adt->span.file == m_.file) d.label(adt->name_span, "defined here");
      }
      return;
    }
    auto& d = diags_.emit(DiagKind::UndefinedType, name_span, {std::string(nt->name)});
    std::vector<std::string_view> candidates = kScalarTypeNames;
    for (const auto& s : type_scopes_)
      for (TypeParam* p : s) candidates.push_back(p->name);
    for (const auto& [name, t] : types_) candidates.push_back(name);
    for_each_import_def([&](const Definition& def) {
      if (def.kind == Definition::Type) candidates.push_back(def.type->name);
    });
    suggest(d, name_span, nt->name, candidates, "", "a type");
    hint_prelude_import(d, nt->name);
    if (nt->name == "Tensor") d.note("a tensor type is written `Tensor[(d0, d1, ...), dtype]`");
  }

  // ---- expressions -----------------------------------------------------------------------
  void resolve_function(FunctionExpr* fn) {
    check_type_params(fn->type_params);
    type_scopes_.push_back(fn->type_params);
    push_scope();
    for (size_t i = 0; i < fn->params.size(); ++i) {
      VarDecl* p = fn->params[i];
      resolve_type(p->annotation);
      for (const Attr& a : p->attrs) resolve_attr_value(a.value);
      for (size_t j = 0; j < i; ++j) {
        if (fn->params[j]->name == p->name) {
          diags_.emit(DiagKind::DuplicateParameter, p->span, {"%" + std::string(p->name)})
              .label(fn->params[j]->span, "first bound here");
          break;
        }
      }
      declare(p);
    }
    for (const Attr& a : fn->attrs) resolve_attr_value(a.value);
    resolve_type(fn->ret_type);
    resolve_expr(fn->body);
    pop_scope();
    type_scopes_.pop_back();
  }

  void resolve_attr_value(AttrValue* v) {
    if (!v) return;
    if (v->kind == AttrValueKind::Expr) resolve_expr(v->expr);
    for (AttrValue* item : v->items) resolve_attr_value(item);
  }

  void resolve_ref(RefExpr* r) {
    switch (r->kind) {
      case ExprKind::LocalRef: {
        if (VarDecl* v = lookup_local(r->name)) {
          r->decl = v;
          ++v->use_count;
          if (v == defining_value_var_) {
            auto& d = diags_.emit(DiagKind::SelfReferentialLet, r->span, {"%" + std::string(r->name)});
            d.label(v->span, "defined here");
            d.note("a `let` variable is in scope in its own value so that functions can recurse; "
                   "only a function literal can use that");
            d.help("to use an outer `%" + std::string(r->name) + "`, give the new variable another name");
          }
          return;
        }
        std::string shown = "%" + std::string(r->name);
        if (r->is_graph) {
          auto& d = diags_.emit(DiagKind::UndefinedGraphVar, r->span, {shown});
          d.note("a graph binding `%N = ...;` is visible only after it, in the same block");
          return;
        }
        auto& d = diags_.emit(DiagKind::UndefinedLocal, r->span, {shown});
        suggest(d, r->span, r->name, visible_locals(), "%", "a local variable");
        if (find_global(r->name)) {
          d.help("a global function named `@" + std::string(r->name) + "` exists",
                 {TextEdit{r->span, "@" + std::string(r->name)}});
        }
        return;
      }
      case ExprKind::GlobalRef: {
        if (FuncDef* f = find_global(r->name)) {
          r->global = f;
          return;
        }
        auto& d = diags_.emit(DiagKind::UndefinedGlobal, r->span, {"@" + std::string(r->name)});
        std::vector<std::string_view> candidates;
        for (const auto& [name, f] : globals_) candidates.push_back(name);
        for_each_import_def([&](const Definition& def) {
          if (def.kind == Definition::Func) candidates.push_back(def.func->name);
        });
        suggest(d, r->span, r->name, candidates, "@", "a global function");
        if (is_prelude_function(r->name)) hint_prelude_import(d, "@" + std::string(r->name));
        return;
      }
      case ExprKind::Ident: {
        if (CtorDef* c = find_ctor(r->name)) {
          r->kind = ExprKind::CtorRef;
          r->ctor = c;
          return;
        }
        if (const OpInfo* op = find_op(r->name)) {
          r->kind = ExprKind::OpRef;
          r->op = op;
          return;
        }
        auto& d = diags_.emit(DiagKind::UnknownOperator, r->span, {std::string(r->name)});
        std::vector<std::string_view> candidates;
        for (const auto& op : all_ops()) candidates.push_back(op.name);
        for (const auto& [name, c] : ctors_) candidates.push_back(name);
        for_each_import_def([&](const Definition& def) {
          if (def.kind == Definition::Type)
            for (CtorDef* c : def.type->ctors) candidates.push_back(c->name);
        });
        std::string best = closest_match(r->name, candidates);
        suggest(d, r->span, r->name, candidates, "", find_op(best) ? "an operator" : "a constructor");
        hint_prelude_import(d, r->name);
        if (!r->name.empty() && r->name[0] >= 'A' && r->name[0] <= 'Z') {
          d.note("an identifier in expression position names a constructor or an operator; no constructor `" +
                 std::string(r->name) + "` is defined");
        }
        return;
      }
      default:
        return;
    }
  }

  // Names the prelude defines: say how to import it when a file uses one without.
  void hint_prelude_import(Diagnostic& d, std::string_view name) {
    static const std::vector<std::string_view> prelude_names = {
        "List", "Cons", "Nil", "Option", "Some", "None", "Tree", "Rose"};
    bool known = name.starts_with("@") ||
                 std::find(prelude_names.begin(), prelude_names.end(), name) != prelude_names.end();
    if (!known || m_.imports_prelude) return;
    d.help("`" + std::string(name) + "` is defined in the prelude: import it with `#[import = \"prelude\"]`",
           {TextEdit{Span{m_.file, import_insert_at(), import_insert_at()}, "#[import = \"prelude\"]\n"}});
  }

  uint32_t import_insert_at() const {
    // After the version header's line, or at the top.
    if (!m_.has_version) return 0;
    return m_.version_span.end + 1;
  }
  static bool is_prelude_function(std::string_view name) {
    static const std::vector<std::string_view> names = {
        "id", "compose", "flip", "hd", "tl", "nth", "length", "update", "map", "foldl", "foldr",
        "foldr1", "sum", "concat", "filter", "zip", "rev", "map_accumr", "map_accuml", "unfoldr",
        "unfoldl", "tmap", "size", "iterate"};
    return std::find(names.begin(), names.end(), name) != names.end();
  }

  void resolve_meta(MetaRefExpr* r) {
    // A metadata section that failed to parse was reported already (E0014).
    if (!m_.metadata && m_.metadata_span.size() > 0) return;
    if (m_.metadata) {
      if (const MetaEntry* e = m_.metadata->find(r->type_key, r->index)) {
        r->entry = e;
        return;
      }
    }
    auto& d = diags_.emit(DiagKind::UndefinedMeta, r->span, {std::string(r->type_key), std::to_string(r->index)});
    if (!m_.metadata) {
      d.note("this file has no `#[metadata]` section; TVM writes one when printing with show_meta_data=True");
    } else {
      uint32_t n = m_.metadata->count(r->type_key);
      d.note("the metadata section lists " + std::to_string(n) + " entr" + (n == 1 ? "y" : "ies") +
             " under `" + std::string(r->type_key) + "`");
    }
  }

  void resolve_pattern(Pattern* p) {
    switch (p->kind) {
      case PatternKind::Var:
        resolve_type(p->var->annotation);
        declare(p->var);
        break;
      case PatternKind::Tuple:
        for (Pattern* f : p->fields) resolve_pattern(f);
        break;
      case PatternKind::Ctor: {
        for (Pattern* f : p->fields) resolve_pattern(f);
        Span name_span{p->span.file, p->span.begin, static_cast<uint32_t>(p->span.begin + p->ctor_name.size())};
        CtorDef* c = find_ctor(p->ctor_name);
        if (!c) {
          auto& d = diags_.emit(DiagKind::UndefinedConstructor, name_span, {std::string(p->ctor_name)});
          std::vector<std::string_view> candidates;
          for (const auto& [name, ct] : ctors_) candidates.push_back(name);
          for_each_import_def([&](const Definition& def) {
            if (def.kind == Definition::Type)
              for (CtorDef* ct : def.type->ctors) candidates.push_back(ct->name);
          });
          suggest(d, name_span, p->ctor_name, candidates, "", "a constructor");
          hint_prelude_import(d, p->ctor_name);
          d.help("to bind the value to a variable instead, write `%" + std::string(p->ctor_name) + "`",
                 {TextEdit{name_span, "%" + std::string(p->ctor_name)}});
          break;
        }
        p->ctor = c;
        if (c->fields.size() != p->fields.size()) {
          auto& d = diags_.emit(DiagKind::ConstructorPatternArity, p->span,
                                {std::string(c->name), std::to_string(c->fields.size()),
                                 std::to_string(p->fields.size())});
          if (c->span.file == m_.file) d.label(c->span, "constructor defined here");
        }
        break;
      }
      default:
        break;
    }
  }

  void resolve_expr(Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::Error:
      case ExprKind::Constant:
        return;
      case ExprKind::LocalRef:
      case ExprKind::GlobalRef:
      case ExprKind::Ident:
      case ExprKind::OpRef:
      case ExprKind::CtorRef:
        resolve_ref(static_cast<RefExpr*>(e));
        return;
      case ExprKind::MetaRef:
        resolve_meta(static_cast<MetaRefExpr*>(e));
        return;
      case ExprKind::Tuple:
        for (Expr* f : static_cast<TupleExpr*>(e)->fields) resolve_expr(f);
        return;
      case ExprKind::Function: {
        VarDecl* saved = defining_value_var_;
        defining_value_var_ = nullptr;  // inside a function, recursion is legitimate
        resolve_function(static_cast<FunctionExpr*>(e));
        defining_value_var_ = saved;
        return;
      }
      case ExprKind::Call: {
        auto* c = static_cast<CallExpr*>(e);
        resolve_expr(c->callee);
        for (Expr* a : c->args) resolve_expr(a);
        for (const Attr& a : c->attrs) resolve_attr_value(a.value);
        if (c->attrs_meta) resolve_meta(c->attrs_meta);
        return;
      }
      case ExprKind::Block: {
        auto* b = static_cast<BlockExpr*>(e);
        push_scope();
        for (Binding& bind : b->bindings) {
          switch (bind.kind) {
            case BindingKind::Let: {
              resolve_type(bind.var->annotation);
              declare(bind.var);  // visible in its own value: how local recursion is written
              // Outside a function literal, a self reference is almost surely meant to
              // reach an outer variable of the same name (W0004).
              VarDecl* saved = defining_value_var_;
              defining_value_var_ = bind.value && bind.value->kind == ExprKind::Function ? nullptr : bind.var;
              resolve_expr(bind.value);
              defining_value_var_ = saved;
              break;
            }
            case BindingKind::Graph:
              resolve_expr(bind.value);
              declare(bind.var);
              break;
            case BindingKind::Sequence:
              resolve_expr(bind.value);
              break;
            case BindingKind::FreeVar:
              resolve_type(bind.var->annotation);
              free_vars_[bind.var->name] = bind.var;
              break;
          }
        }
        resolve_expr(b->result);
        pop_scope(!b->result || b->result->kind != ExprKind::Error);
        return;
      }
      case ExprKind::If: {
        auto* i = static_cast<IfExpr*>(e);
        resolve_expr(i->cond);
        push_scope();
        resolve_expr(i->then_branch);
        pop_scope();
        push_scope();
        resolve_expr(i->else_branch);
        pop_scope();
        return;
      }
      case ExprKind::Match: {
        auto* m = static_cast<MatchExpr*>(e);
        resolve_expr(m->scrutinee);
        for (Clause& c : m->clauses) {
          push_scope();
          resolve_pattern(c.pattern);
          resolve_expr(c.body);
          pop_scope();
        }
        return;
      }
      case ExprKind::TupleGetItem:
        resolve_expr(static_cast<TupleGetItemExpr*>(e)->tuple);
        return;
      case ExprKind::RefCreate:
        resolve_expr(static_cast<RefCreateExpr*>(e)->value);
        return;
      case ExprKind::RefRead:
        resolve_expr(static_cast<RefReadExpr*>(e)->ref);
        return;
      case ExprKind::RefWrite:
        resolve_expr(static_cast<RefWriteExpr*>(e)->ref);
        resolve_expr(static_cast<RefWriteExpr*>(e)->value);
        return;
    }
  }

  Module& m_;
  DiagnosticBag& diags_;
  const ResolveOptions& opts_;
  const ImportIndex* index_;  // opts_.index, or own_index_
  ImportIndex own_index_;
  std::unordered_map<std::string_view, FuncDef*> globals_;
  std::unordered_map<std::string_view, TypeDef*> types_;
  std::unordered_map<std::string_view, CtorDef*> ctors_;
  std::unordered_map<std::string_view, std::vector<VarDecl*>> locals_;
  std::unordered_map<std::string_view, VarDecl*> free_vars_;
  std::vector<VarDecl*> undo_;
  std::vector<size_t> marks_;
  std::vector<std::span<TypeParam*>> type_scopes_;
  VarDecl* defining_value_var_ = nullptr;  // the `let` whose (non-function) value is being resolved
};

}  // namespace

void resolve_names(Module& module, DiagnosticBag& diags, const ResolveOptions& options) {
  Resolver(module, diags, options).run();
}

void ImportIndex::add(const Module& m) {
  for (const auto& d : m.defs) {
    if (d.kind == Definition::Func) {
      if (!d.func->name.empty()) globals.emplace(d.func->name, d.func);
      continue;
    }
    types.emplace(d.type->name, d.type);
    for (CtorDef* c : d.type->ctors) ctors.emplace(c->name, c);
  }
}

}  // namespace relay
