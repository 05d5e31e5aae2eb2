// Visits every expression of a definition or module in pre-order. Nesting is bounded by
// the parser (kMaxNestingDepth), and blocks are flat, so recursion depth stays small.
#pragma once

#include "lang/syntax/ast.h"

namespace relay {

// Calls `f` on each direct sub-expression of `e` (never null), in source order.
template <class F>
void for_each_child(Expr* e, F&& f) {
  auto each = [&](Expr* c) {
    if (c) f(c);
  };
  switch (e->kind) {
    case ExprKind::Tuple:
      for (Expr* x : static_cast<TupleExpr*>(e)->fields) each(x);
      return;
    case ExprKind::Function:
      each(static_cast<FunctionExpr*>(e)->body);
      return;
    case ExprKind::Call: {
      auto* c = static_cast<CallExpr*>(e);
      each(c->callee);
      for (Expr* a : c->args) each(a);
      for (const Attr& a : c->attrs)
        if (a.value && a.value->kind == AttrValueKind::Expr) each(a.value->expr);
      return;
    }
    case ExprKind::Block: {
      auto* b = static_cast<BlockExpr*>(e);
      for (const Binding& bind : b->bindings) each(bind.value);
      each(b->result);
      return;
    }
    case ExprKind::If: {
      auto* i = static_cast<IfExpr*>(e);
      each(i->cond);
      each(i->then_branch);
      each(i->else_branch);
      return;
    }
    case ExprKind::Match: {
      auto* m = static_cast<MatchExpr*>(e);
      each(m->scrutinee);
      for (const Clause& c : m->clauses) each(c.body);
      return;
    }
    case ExprKind::TupleGetItem:
      each(static_cast<TupleGetItemExpr*>(e)->tuple);
      return;
    case ExprKind::RefCreate:
      each(static_cast<RefCreateExpr*>(e)->value);
      return;
    case ExprKind::RefRead:
      each(static_cast<RefReadExpr*>(e)->ref);
      return;
    case ExprKind::RefWrite:
      each(static_cast<RefWriteExpr*>(e)->ref);
      each(static_cast<RefWriteExpr*>(e)->value);
      return;
    default:
      return;
  }
}

template <class F>
void walk_expr(Expr* e, F&& visit) {
  if (!e) return;
  visit(e);
  for_each_child(e, [&](Expr* c) { walk_expr(c, visit); });
}

}  // namespace relay
