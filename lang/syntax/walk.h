// Visits every expression of a definition or module in pre-order. Nesting is bounded by
// the parser (kMaxNestingDepth), and blocks are flat, so recursion depth stays small.
#pragma once

#include "lang/syntax/ast.h"

namespace relay {

template <class F>
void walk_expr(Expr* e, F&& visit) {
  if (!e) return;
  visit(e);
  switch (e->kind) {
    case ExprKind::Tuple:
      for (Expr* f : static_cast<TupleExpr*>(e)->fields) walk_expr(f, visit);
      return;
    case ExprKind::Function:
      walk_expr(static_cast<FunctionExpr*>(e)->body, visit);
      return;
    case ExprKind::Call: {
      auto* c = static_cast<CallExpr*>(e);
      walk_expr(c->callee, visit);
      for (Expr* a : c->args) walk_expr(a, visit);
      for (const Attr& a : c->attrs)
        if (a.value && a.value->kind == AttrValueKind::Expr) walk_expr(a.value->expr, visit);
      return;
    }
    case ExprKind::Block: {
      auto* b = static_cast<BlockExpr*>(e);
      for (const Binding& bind : b->bindings) walk_expr(bind.value, visit);
      walk_expr(b->result, visit);
      return;
    }
    case ExprKind::If: {
      auto* i = static_cast<IfExpr*>(e);
      walk_expr(i->cond, visit);
      walk_expr(i->then_branch, visit);
      walk_expr(i->else_branch, visit);
      return;
    }
    case ExprKind::Match: {
      auto* m = static_cast<MatchExpr*>(e);
      walk_expr(m->scrutinee, visit);
      for (const Clause& c : m->clauses) walk_expr(c.body, visit);
      return;
    }
    case ExprKind::TupleGetItem:
      walk_expr(static_cast<TupleGetItemExpr*>(e)->tuple, visit);
      return;
    case ExprKind::RefCreate:
      walk_expr(static_cast<RefCreateExpr*>(e)->value, visit);
      return;
    case ExprKind::RefRead:
      walk_expr(static_cast<RefReadExpr*>(e)->ref, visit);
      return;
    case ExprKind::RefWrite:
      walk_expr(static_cast<RefWriteExpr*>(e)->ref, visit);
      walk_expr(static_cast<RefWriteExpr*>(e)->value, visit);
      return;
    default:
      return;
  }
}

}  // namespace relay
