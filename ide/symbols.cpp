#include "ide/symbols.h"

#include <algorithm>
#include <unordered_map>

#include "lang/syntax/lexer.h"
#include "lang/syntax/walk.h"
#include "lang/types/database_chunks.h"

namespace relay::ide {

namespace {

class Builder {
 public:
  explicit Builder(const FileCheck& check) {
    if (check.environment && check.environment->prelude) prelude_ = check.environment->prelude.get();
    // Top-level names first: a body may use a global or type defined further down.
    for (const auto& c : check.chunks) {
      if (!c->module) continue;
      enter(*c);
      for (const Definition& d : c->module->defs) {
        if (d.kind == Definition::Func && d.func) {
          define(SymbolKind::Global, d.func->name, d.func, d.func->name_span);
        } else if (d.kind == Definition::Type && d.type) {
          define(SymbolKind::Type, d.type->name, d.type, d.type->name_span);
          for (const CtorDef* ctor : d.type->ctors) define(SymbolKind::Ctor, ctor->name, ctor, ctor->name_span);
        }
      }
    }
    for (const auto& c : check.chunks) {
      if (!c->module) continue;
      enter(*c);
      for (const Definition& d : c->module->defs) {
        if (d.kind == Definition::Func && d.func) {
          owner_ = moved(d.func->span);
          walk_expr(d.func->fn, [&](Expr* e) { visit(e); });
        } else if (d.kind == Definition::Type && d.type) {
          owner_ = moved(d.type->span);
          for (const TypeParam* p : d.type->type_params) define_type_param(p);
          for (const CtorDef* ctor : d.type->ctors)
            for (const Type* t : ctor->fields) walk_type(t);
        }
      }
    }
  }

  SymbolIndex finish() {
    for (Symbol& s : index_.symbols) {
      std::sort(s.refs.begin(), s.refs.end());
      s.refs.erase(std::unique(s.refs.begin(), s.refs.end()), s.refs.end());
    }
    std::sort(index_.occurrences.begin(), index_.occurrences.end(),
              [](const Occurrence& a, const Occurrence& b) { return a.range < b.range; });
    index_.occurrences.erase(std::unique(index_.occurrences.begin(), index_.occurrences.end(),
                                         [](const Occurrence& a, const Occurrence& b) { return a.range == b.range; }),
                             index_.occurrences.end());
    return std::move(index_);
  }

 private:
  void enter(const DbChunk& c) {
    offset_ = c.offset;
    text_ = c.source ? std::string_view(c.source->text) : std::string_view();
  }
  Range moved(Span s) const { return {s.begin + offset_, s.end + offset_}; }

  size_t define(SymbolKind kind, std::string_view name, const void* key, Span at) {
    auto [it, fresh] = by_key_.emplace(key, index_.symbols.size());
    if (!fresh) return it->second;
    Symbol s;
    s.kind = kind;
    s.name = std::string(name);
    s.key = key;
    s.def = moved(at);
    s.owner = owner_;
    index_.symbols.push_back(std::move(s));
    index_.occurrences.push_back({index_.symbols.back().def, it->second, true});
    return it->second;
  }

  void define_var(const VarDecl* v) {
    if (!v) return;
    size_t i = define(SymbolKind::Local, v->name, v, v->span);
    index_.symbols[i].graph = v->kind == VarKind::Graph;
    walk_type(v->annotation);
  }
  void define_type_param(const TypeParam* p) {
    if (p) define(SymbolKind::TypeParam, p->name, p, p->span);
  }

  // A use of `key` at `at` (chunk offsets). A binder not seen in the file is looked up
  // in the prelude.
  void use(const void* key, Span at) {
    if (!key) return;
    auto it = by_key_.find(key);
    if (it == by_key_.end()) {
      if (!define_from_prelude(key)) return;
      it = by_key_.find(key);
    }
    Range r = moved(at);
    index_.symbols[it->second].refs.push_back(r);
    index_.occurrences.push_back({r, it->second, false});
  }

  bool define_from_prelude(const void* key) {
    if (!prelude_) return false;
    auto add = [&](SymbolKind kind, std::string_view name, Span at) {
      Symbol s;
      s.kind = kind;
      s.name = std::string(name);
      s.key = key;
      s.in_prelude = true;
      s.def = {at.begin, at.end};  // prelude coordinates
      by_key_.emplace(key, index_.symbols.size());
      index_.symbols.push_back(std::move(s));
      return true;
    };
    for (const Definition& d : prelude_->defs) {
      if (d.kind == Definition::Func && d.func == key) return add(SymbolKind::Global, d.func->name, d.func->name_span);
      if (d.kind != Definition::Type || !d.type) continue;
      if (d.type == key) return add(SymbolKind::Type, d.type->name, d.type->name_span);
      for (const CtorDef* c : d.type->ctors)
        if (c == key) return add(SymbolKind::Ctor, c->name, c->name_span);
    }
    return false;
  }

  // The name token inside a reference's span: `(%x)` may carry its parentheses.
  Span token_in(Span s, std::string_view sigil, std::string_view name) const {
    const size_t want = sigil.size() + name.size();
    if (s.size() == want || s.end > text_.size()) return s;
    std::string token = std::string(sigil) + std::string(name);
    size_t at = text_.substr(s.begin, s.size()).find(token);
    if (at == std::string_view::npos) return s;
    return Span{s.file, s.begin + static_cast<uint32_t>(at), s.begin + static_cast<uint32_t>(at + want)};
  }

  void visit(Expr* e) {
    switch (e->kind) {
      case ExprKind::LocalRef:
      case ExprKind::GlobalRef:
      case ExprKind::CtorRef: {
        auto* r = static_cast<RefExpr*>(e);
        const bool local = e->kind == ExprKind::LocalRef, global = e->kind == ExprKind::GlobalRef;
        const void* key = local ? static_cast<const void*>(r->decl)
                                : global ? static_cast<const void*>(r->global) : static_cast<const void*>(r->ctor);
        use(key, token_in(r->span, local ? "%" : global ? "@" : "", r->name));
        break;
      }
      case ExprKind::Function: {
        auto* f = static_cast<FunctionExpr*>(e);
        for (const TypeParam* p : f->type_params) define_type_param(p);
        for (const VarDecl* v : f->params) define_var(v);
        walk_type(f->ret_type);
        break;
      }
      case ExprKind::Block:
        for (const Binding& b : static_cast<BlockExpr*>(e)->bindings) define_var(b.var);
        break;
      case ExprKind::Match:
        for (const Clause& c : static_cast<MatchExpr*>(e)->clauses) walk_pattern(c.pattern);
        break;
      default:
        break;
    }
  }

  void walk_pattern(const Pattern* p) {
    if (!p) return;
    if (p->kind == PatternKind::Var) define_var(p->var);
    if (p->kind == PatternKind::Ctor && p->ctor)
      use(p->ctor, Span{p->span.file, p->span.begin, p->span.begin + static_cast<uint32_t>(p->ctor_name.size())});
    for (const Pattern* f : p->fields) walk_pattern(f);
  }

  void walk_type(const Type* t) {
    if (!t) return;
    switch (t->kind) {
      case TypeKind::Tuple:
        for (const Type* f : static_cast<const TupleType*>(t)->fields) walk_type(f);
        break;
      case TypeKind::Func: {
        auto* f = static_cast<const FuncType*>(t);
        for (const TypeParam* p : f->type_params) define_type_param(p);
        for (const Type* a : f->params) walk_type(a);
        walk_type(f->ret);
        break;
      }
      case TypeKind::Named: {
        auto* n = static_cast<const NamedType*>(t);
        Span name{t->span.file, t->span.begin, t->span.begin + static_cast<uint32_t>(n->name.size())};
        if (n->param) use(n->param, name);
        else if (n->adt) use(n->adt, name);
        for (const Type* a : n->args) walk_type(a);
        break;
      }
      case TypeKind::Ref:
        walk_type(static_cast<const RefType*>(t)->value);
        break;
      default:
        break;
    }
  }

  SymbolIndex index_;
  std::unordered_map<const void*, size_t> by_key_;
  const Module* prelude_ = nullptr;
  uint32_t offset_ = 0;
  std::string_view text_;
  Range owner_;
};

}  // namespace

const Occurrence* SymbolIndex::at(uint32_t offset) const {
  // The last occurrence starting at or before `offset`, or the one before it when
  // `offset` is exactly the start of the next token.
  auto it = std::upper_bound(occurrences.begin(), occurrences.end(), offset,
                             [](uint32_t o, const Occurrence& occ) { return o < occ.range.begin; });
  if (it == occurrences.begin()) return nullptr;
  const Occurrence& o = *std::prev(it);
  return offset <= o.range.end ? &o : nullptr;
}

SymbolIndex build_symbol_index(const FileCheck& check) { return Builder(check).finish(); }

bool is_identifier(std::string_view name) {
  return !name.empty() && is_ident_start(name[0]) && std::all_of(name.begin(), name.end(), is_ident_char);
}

}  // namespace relay::ide
