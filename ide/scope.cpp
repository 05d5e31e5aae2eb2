#include "ide/scope.h"

#include "lang/syntax/walk.h"

namespace relay::ide {

namespace {

void pattern_vars(const Pattern* p, std::vector<const VarDecl*>& out) {
  if (!p) return;
  if (p->kind == PatternKind::Var && p->var) out.push_back(p->var);
  for (const Pattern* f : p->fields) pattern_vars(f, out);
}

bool holds(Span s, uint32_t rel) { return s.begin <= rel && rel <= s.end; }

void visit(Expr* e, std::string_view text, uint32_t rel, bool open_end, std::vector<const VarDecl*>& out) {
  // Iterative along the chain of enclosing nodes (blocks are flat, nesting is bounded).
  while (e) {
    const bool open = open_end && rel > e->span.end;
    if (!holds(e->span, rel) && !open) return;
    Expr* next = nullptr;
    if (auto* f = as<FunctionExpr>(e)) {
      for (const VarDecl* p : f->params) out.push_back(p);
      next = f->body;
    } else if (auto* b = as<BlockExpr>(e)) {
      const std::span<Binding> binds = b->bindings;
      for (size_t i = 0; i < binds.size(); ++i) {
        const Binding& bind = binds[i];
        // A binding cut short by a syntax error (no `;`) with nothing parsed after it
        // before the cursor is the one being typed.
        const bool finished = bind.span.end > 0 && bind.span.end <= text.size() && text[bind.span.end - 1] == ';';
        const bool last_before = i + 1 == binds.size() || binds[i + 1].span.begin > rel;
        const bool typing = !finished && last_before && rel >= bind.span.end;
        if (bind.span.end <= rel && !typing) {
          if (bind.var) out.push_back(bind.var);
          continue;
        }
        if ((holds(bind.span, rel) || typing) && bind.value) {
          // A `let` is in scope in its own value (how local recursion is written; the
          // resolver warns about a self reference outside a function literal), so offer
          // it only inside a function literal.
          if (bind.kind == BindingKind::Let && bind.var && bind.value->kind == ExprKind::Function)
            out.push_back(bind.var);
          next = bind.value;
        }
        break;
      }
      if (!next) next = b->result;
    } else if (auto* m = as<MatchExpr>(e)) {
      next = m->scrutinee && holds(m->scrutinee->span, rel) ? m->scrutinee : nullptr;
      for (const Clause& c : m->clauses)
        if (holds(c.span, rel) || (open && &c == &m->clauses.back())) {
          pattern_vars(c.pattern, out);
          next = c.body;
        }
    } else {
      std::vector<Expr*> kids;
      for_each_child(e, [&](Expr* k) { kids.push_back(k); });
      for (Expr* k : kids)
        if (holds(k->span, rel)) next = k;
      if (!next && open && !kids.empty()) next = kids.back();
    }
    e = next;
  }
}

}  // namespace

std::vector<const VarDecl*> binders_in_scope(const FuncDef& def, std::string_view chunk_text, uint32_t rel,
                                             bool open_end) {
  std::vector<const VarDecl*> out;
  visit(def.fn, chunk_text, rel, open_end, out);
  return out;
}

}  // namespace relay::ide
