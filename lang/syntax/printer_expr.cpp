// The Relay pretty printer: functions, blocks and expressions.

#include "lang/syntax/printer_internal.h"

namespace relay::printer_internal {

namespace {

// ---------------------------------------------------------------------------------------
// Precedences

int infix_prec(std::string_view op) {
  if (op == "multiply" || op == "divide") return 12;
  if (op == "add" || op == "subtract") return 10;
  if (op == "less" || op == "less_equal" || op == "greater" || op == "greater_equal") return 8;
  if (op == "equal" || op == "not_equal") return 7;
  return 0;
}

std::string_view infix_token(std::string_view op) {
  if (op == "multiply") return "*";
  if (op == "divide") return "/";
  if (op == "add") return "+";
  if (op == "subtract") return "-";
  if (op == "less") return "<";
  if (op == "less_equal") return "<=";
  if (op == "greater") return ">";
  if (op == "greater_equal") return ">=";
  if (op == "equal") return "==";
  if (op == "not_equal") return "!=";
  return "";
}

// The operator name of an infix call, or "" when the call cannot be printed infix.
std::string_view infix_op(const Expr* e) {
  const CallExpr* c = as<CallExpr>(e);
  if (!c || c->syntax != CallSyntax::Infix || c->args.size() != 2 || !c->attrs.empty() ||
      c->attrs_meta)
    return {};
  // The parser makes the callee an identifier; resolution may turn it into an operator
  // (or a constructor of that name, which the same text resolves to again).
  const RefExpr* r = as_ref(c->callee);
  if (!r || (r->kind != ExprKind::OpRef && r->kind != ExprKind::Ident &&
             r->kind != ExprKind::CtorRef))
    return {};
  if (infix_prec(r->name) == 0) return {};
  return r->name;
}

bool is_unary_minus(const Expr* e) {
  const CallExpr* c = as<CallExpr>(e);
  if (!c || c->syntax != CallSyntax::UnaryMinus || c->args.size() != 1 || !c->attrs.empty() ||
      c->attrs_meta)
    return false;
  const RefExpr* r = as_ref(c->callee);
  return r &&
         (r->kind == ExprKind::OpRef || r->kind == ExprKind::Ident || r->kind == ExprKind::CtorRef) &&
         r->name == "negative";
}

bool is_block(const Expr* e) {
  const BlockExpr* b = as<BlockExpr>(e);
  return b && !b->bindings.empty();
}

// A Block with no bindings is just its result.
const Expr* strip_empty_block(const Expr* e) {
  while (e && e->kind == ExprKind::Block && as<BlockExpr>(e)->bindings.empty() &&
         as<BlockExpr>(e)->result)
    e = as<BlockExpr>(e)->result;
  return e;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Functions

void Printer::param(const VarDecl* v) { var_decl(v); }

void Printer::attr(const Attr& a) {
  leading(a.key_span.begin);
  out_.put(a.key);
  out_.put("=");
  attr_value(a.value);
}

void Printer::header_items(const FunctionExpr* f, bool broken) {
  size_t n = f->params.size() + f->attrs.size();
  size_t k = 0;
  auto next = [&]() {
    if (broken) out_.nl();
  };
  auto after = [&](uint32_t item_end) {
    ++k;
    if (k < n) {
      sep(item_end, ",");
      if (!broken) out_.space();
    }
    out_.end_stmt();
  };
  for (const VarDecl* p : f->params) {
    next();
    param(p);
    after(var_end(p));
  }
  for (const Attr& a : f->attrs) {
    next();
    attr(a);
    after(end_of(a.value));
  }
}

// The header after `fn` / `def @name`.
void Printer::header(const FunctionExpr* f, const std::string& prefix, bool broken) {
  if (prefix == "fn") out_.space();
  type_params(f->type_params);
  out_.put("(");
  uint32_t last = 0;
  if (!f->attrs.empty()) last = end_of(f->attrs.back().value);
  else if (!f->params.empty()) last = var_end(f->params.back());
  if (broken) {
    out_.indent += 2;
    out_.reindent_pending();
    header_items(f, true);
    flush_before(last, ')');
    out_.end_stmt();
    out_.indent -= 2;
    out_.nl();
    out_.put(")");
  } else {
    header_items(f, false);
    close(last, ")");
  }
  if (f->ret_type) {
    out_.space();
    out_.put("->");
    out_.space();
    type(f->ret_type);
  }
  out_.space();
  out_.put("{");
}

void Printer::function(const FunctionExpr* f, const std::string& prefix, uint32_t name_end) {
  out_.put(prefix);
  if (name_end) trailing(name_end, false);
  Out::State st = out_.save();
  size_t ci = ci_;
  size_t start = out_.buf.size();
  header(f, prefix, false);
  size_t line_start = out_.buf.rfind('\n', start);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  bool has_items = !f->params.empty() || !f->attrs.empty();
  bool too_long = out_.buf.find('\n', start) != std::string::npos ||
                  out_.buf.size() - line_start > static_cast<size_t>(options_.max_width);
  if (too_long && has_items) {
    out_.restore(st);
    ci_ = ci;
    header(f, prefix, true);
  }
  out_.indent += 2;
  out_.reindent_pending();
  out_.end_stmt();
  out_.nl();
  body(f->body);
  if (f->body) leading(close_pos(f->body->span.end, '}'));
  out_.end_stmt();
  out_.indent -= 2;
  out_.nl();
  out_.put("}");
}

// ---------------------------------------------------------------------------------------
// Blocks

void Printer::type_comment(const Expr* e) {
  if (!options_.type_comment || !e) return;
  std::string text = options_.type_comment(e);
  if (text.empty()) return;
  out_.space();
  out_.put("/* ty=" + text + " */");
}

void Printer::binding(const Binding& b) {
  blank_and_leading(b.kind == BindingKind::Sequence && b.value ? open_paren_pos(b.value)
                                                               : b.span.begin);
  switch (b.kind) {
    case BindingKind::Let:
      out_.put("let");
      out_.space();
      var_decl(b.var);
      out_.space();
      out_.put("=");
      out_.space();
      expr(b.value, Ctx::Rhs);
      type_comment(b.value);
      break;
    case BindingKind::Graph:
      var_decl(b.var);
      out_.space();
      out_.put("=");
      out_.space();
      expr(b.value, Ctx::Rhs);
      type_comment(b.value);
      break;
    case BindingKind::Sequence:
      expr(b.value, Ctx::Item);
      break;
    case BindingKind::FreeVar:
      out_.put("free_var");
      out_.space();
      var_decl(b.var);
      break;
  }
  trailing(b.value ? b.value->span.end : b.var ? b.var->span.end : b.span.end, false);
  sep(b.value ? b.value->span.end : var_end(b.var), ";");
  trailing(b.span.end, false);
  out_.end_stmt();
  out_.nl();
}

// The lines of a block (bindings, then the result) at the current indentation.
void Printer::block_lines(const Expr* e) {
  e = strip_empty_block(e);
  if (!e) return;
  if (const BlockExpr* b = as<BlockExpr>(e)) {
    leading(b->span.begin);
    for (const Binding& bd : b->bindings) binding(bd);
    if (b->result) {
      blank_and_leading(open_paren_pos(b->result));
      expr(b->result, Ctx::Item);
      type_comment(b->result);
      out_.end_stmt();
    }
    return;
  }
  expr(e, Ctx::Item);
  type_comment(e);
  out_.end_stmt();
}

void Printer::body(const Expr* e) { block_lines(e); }

// A multi-line block in expression position, wrapped in `open` ... `close`.
void Printer::wrapped_block(const BlockExpr* b, std::string_view open, std::string_view close) {
  out_.put(open);
  out_.indent += 2;
  out_.reindent_pending();
  out_.end_stmt();
  out_.nl();
  block_lines(b);
  // Comments before the block's closing bracket in the source stay inside.
  if (comments_on()) {
    uint32_t end = b->span.end;
    if (b->braced() && end > 0 && text_[end - 1] == '}') {
      end -= 1;
    } else if (b->parenthesized()) {
      uint32_t p = next_token_pos_no_paren(end);
      if (p < text_.size() && text_[p] == ')') end = p;
    }
    while (ci_ < cend_ && (*comments_)[ci_].span.begin < end) emit_leading((*comments_)[ci_++], true);
  }
  out_.end_stmt();
  out_.indent -= 2;
  out_.nl();
  out_.put(close);
}

// ---------------------------------------------------------------------------------------
// Expressions

bool Printer::callee_ok(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Call: return !infix_op(e).size() && !is_unary_minus(e);
    case ExprKind::LocalRef:
    case ExprKind::GlobalRef:
    case ExprKind::Ident:
    case ExprKind::OpRef:
    case ExprKind::CtorRef:
    case ExprKind::MetaRef:
    case ExprKind::Tuple:
    case ExprKind::Function:
    case ExprKind::If:
    case ExprKind::TupleGetItem:
    case ExprKind::RefCreate:
    case ExprKind::RefRead:
    case ExprKind::RefWrite:
    case ExprKind::Error: return true;
    default: return false;
  }
}

bool Printer::atom_ok(const Expr* e) {
  switch (e->kind) {
    case ExprKind::LocalRef:
    case ExprKind::GlobalRef:
    case ExprKind::Ident:
    case ExprKind::OpRef:
    case ExprKind::CtorRef:
    case ExprKind::MetaRef:
    case ExprKind::Tuple:
    case ExprKind::Function:
    case ExprKind::If:
    case ExprKind::RefCreate:
    case ExprKind::RefRead:
    case ExprKind::RefWrite:
    case ExprKind::Error: return true;
    default: return false;
  }
}

bool Printer::needs_parens(const Expr* e, Ctx ctx) const {
  switch (ctx) {
    case Ctx::Body:
    case Ctx::Item:
    case Ctx::Open: return false;
    case Ctx::Rhs:
    case Ctx::Operand: return e->kind == ExprKind::Match || is_block(e);
    case Ctx::Callee: return !callee_ok(e);
    case Ctx::Atom: return !atom_ok(e);
    case Ctx::Attr: return !atom_ok(e) && e->kind != ExprKind::TupleGetItem;
    case Ctx::Unary:
      if (e->kind == ExprKind::Call) return infix_op(e).size() || is_unary_minus(e);
      return !callee_ok(e) && e->kind != ExprKind::TupleGetItem;
  }
  return false;
}

void Printer::expr(const Expr* e, Ctx ctx) {
  if (!e) {
    out_.put("<missing>");
    return;
  }
  e = strip_empty_block(e);
  if (is_block(e)) {
    const BlockExpr* b = as<BlockExpr>(e);
    leading(block_open_pos(b));
    if (ctx == Ctx::Body) {
      block_lines(b);
      return;
    }
    bool braces = b->braced() && (ctx == Ctx::Item || ctx == Ctx::Open);
    if (braces) {
      wrapped_block(b, "{", "}");
    } else {
      wrapped_block(b, "(", ")");
    }
    trailing(e->span.end, e->parenthesized());
    return;
  }
  leading(e->span.begin);
  bool paren = needs_parens(e, ctx);
  if (paren) out_.put("(");
  expr_inner(e);
  if (paren) out_.sep(")");
  trailing(e->span.end, e->parenthesized());
}

// Where a block printed inside brackets opens in the source: its `{`, or the `(` in
// front of it (a parenthesised node's span excludes the parenthesis). Comments after
// that go inside the printed brackets.
uint32_t Printer::block_open_pos(const BlockExpr* b) const {
  uint32_t pos = b->span.begin;
  if (!comments_on() || (b->braced() && pos < text_.size() && text_[pos] == '{')) return pos;
  return open_paren_pos(b);
}

// The `(` of a parenthesised node (its span excludes it), else its start.
uint32_t Printer::open_paren_pos(const Expr* e) const {
  uint32_t pos = e->span.begin;
  if (!comments_on() || !e->parenthesized()) return pos;
  uint32_t p = pos;
  while (p > 0) {
    char c = text_[p - 1];
    if (is_ws(c)) {
      --p;
      continue;
    }
    long k = comment_ending_at(p);
    if (k >= 0) {
      p = (*comments_)[k].span.begin;
      continue;
    }
    if (c == '(') return p - 1;
    break;
  }
  return pos;
}

long Printer::comment_ending_at(uint32_t pos) const {
  const auto& cs = *comments_;
  auto it = std::lower_bound(cs.begin(), cs.end(), pos,
                             [](const Comment& c, uint32_t p) { return c.span.end < p; });
  if (it != cs.end() && it->span.end == pos) return it - cs.begin();
  return -1;
}

void Printer::operand(const Expr* e, int prec, bool left) {
  e = strip_empty_block(e);
  bool paren = false;
  std::string_view op = infix_op(e);
  if (op.size()) {
    int q = infix_prec(op);
    paren = left ? q < prec : q <= prec;
    if (e->parenthesized()) paren = true;
  } else if (is_unary_minus(e)) {
    paren = e->parenthesized();
  } else if (e->kind == ExprKind::Match || is_block(e)) {
    paren = true;
  }
  if (!paren) {
    expr(e, Ctx::Operand);
    return;
  }
  if (is_block(e)) {
    leading(block_open_pos(as<BlockExpr>(e)));
    wrapped_block(as<BlockExpr>(e), "(", ")");
    trailing(e->span.end, e->parenthesized());
    return;
  }
  leading(e->span.begin);
  out_.put("(");
  if (is_block(e)) {
    // `(` newline bindings result newline `)`
    out_.indent += 2;
    out_.reindent_pending();
    out_.end_stmt();
    out_.nl();
    block_lines(e);
    out_.end_stmt();
    out_.indent -= 2;
    out_.nl();
  } else {
    expr_inner(e);
  }
  out_.put(")");
  trailing(e->span.end, e->parenthesized());
}

void Printer::args(const CallExpr* c) {
  size_t n = c->args.size() + c->attrs.size() + (c->attrs_meta ? 1 : 0);
  size_t k = 0;
  auto after = [&](uint32_t item_end) {
    if (++k < n) {
      sep(item_end, ",");
      out_.space();
    }
  };
  for (const Expr* a : c->args) {
    expr(a, Ctx::Open);
    after(end_of(a));
  }
  for (const Attr& a : c->attrs) {
    attr(a);
    after(end_of(a.value));
  }
  if (c->attrs_meta) {
    expr(c->attrs_meta, Ctx::Open);
    after(end_of(c->attrs_meta));
  }
}

void Printer::expr_inner(const Expr* e) {
  switch (e->kind) {
    case ExprKind::Error:
      out_.put("<error>");
      return;
    case ExprKind::Constant:
      out_.put(format_constant(as<ConstantExpr>(e)));
      return;
    case ExprKind::Tuple: {
      const TupleExpr* t = as<TupleExpr>(e);
      out_.put("(");
      for (size_t i = 0; i < t->fields.size(); ++i) {
        expr(t->fields[i], Ctx::Open);
        if (i + 1 < t->fields.size() || t->fields.size() == 1) sep(end_of(t->fields[i]), ",");
        if (i + 1 < t->fields.size()) out_.space();
      }
      close(t->fields.empty() ? 0 : end_of(t->fields.back()), ")");
      return;
    }
    case ExprKind::LocalRef:
      out_.put("%" + std::string(as_ref(e)->name));
      return;
    case ExprKind::GlobalRef:
      out_.put("@" + std::string(as_ref(e)->name));
      return;
    case ExprKind::Ident:
    case ExprKind::OpRef:
    case ExprKind::CtorRef:
      out_.put(as_ref(e)->name);
      return;
    case ExprKind::MetaRef: {
      const MetaRefExpr* m = static_cast<const MetaRefExpr*>(e);
      out_.put("meta[" + std::string(m->type_key) + "][" + std::to_string(m->index) + "]");
      return;
    }
    case ExprKind::Function:
      function(as<FunctionExpr>(e), "fn");
      return;
    case ExprKind::Call: {
      const CallExpr* c = as<CallExpr>(e);
      std::string_view op = infix_op(e);
      if (op.size()) {
        int prec = infix_prec(op);
        operand(c->args[0], prec, true);
        out_.space();
        out_.put(infix_token(op));
        out_.space();
        operand(c->args[1], prec, false);
        return;
      }
      if (is_unary_minus(e)) {
        out_.put("-");
        expr(c->args[0], Ctx::Unary);
        return;
      }
      expr(c->callee, Ctx::Callee);
      out_.put("(");
      args(c);
      close(last_arg_end(c), ")");
      return;
    }
    case ExprKind::Block: {  // only reached for blocks without bindings
      const BlockExpr* b = as<BlockExpr>(e);
      expr(b->result, Ctx::Item);
      return;
    }
    case ExprKind::If: {
      const IfExpr* i = as<IfExpr>(e);
      out_.put("if");
      out_.space();
      out_.put("(");
      expr(i->cond, Ctx::Open);
      close(end_of(i->cond), ")");
      out_.space();
      branch(i->then_branch, i->then_branch ? close_pos(i->then_branch->span.end, '}') : 0);
      out_.space();
      out_.put("else");
      out_.space();
      branch(i->else_branch, i->else_branch ? close_pos(i->else_branch->span.end, '}') : 0);
      return;
    }
    case ExprKind::Match:
      match(as<MatchExpr>(e));
      return;
    case ExprKind::TupleGetItem: {
      const TupleGetItemExpr* g = as<TupleGetItemExpr>(e);
      expr(g->tuple, Ctx::Atom);
      out_.put(".");
      out_.put(std::to_string(g->index));
      return;
    }
    case ExprKind::RefCreate:
      out_.put("ref(");
      expr(as<RefCreateExpr>(e)->value, Ctx::Open);
      close(end_of(as<RefCreateExpr>(e)->value), ")");
      return;
    case ExprKind::RefRead:
      out_.put("ref_read(");
      expr(as<RefReadExpr>(e)->ref, Ctx::Open);
      close(end_of(as<RefReadExpr>(e)->ref), ")");
      return;
    case ExprKind::RefWrite: {
      const RefWriteExpr* w = as<RefWriteExpr>(e);
      out_.put("ref_write(");
      expr(w->ref, Ctx::Open);
      sep(end_of(w->ref), ",");
      out_.space();
      expr(w->value, Ctx::Open);
      close(end_of(w->value), ")");
      return;
    }
  }
}

// `{` newline body newline `}`; comments before `close` go inside the braces.
void Printer::branch(const Expr* e, uint32_t close) {
  out_.put("{");
  out_.indent += 2;
  out_.reindent_pending();
  out_.end_stmt();
  out_.nl();
  body(e);
  leading(close);
  out_.end_stmt();
  out_.indent -= 2;
  out_.nl();
  out_.put("}");
}

bool Printer::multiline(const Expr* e) {
  if (!e) return false;
  switch (e->kind) {
    case ExprKind::Block:
      return !as<BlockExpr>(e)->bindings.empty() || multiline(as<BlockExpr>(e)->result);
    case ExprKind::If:
    case ExprKind::Match:
    case ExprKind::Function: return true;
    case ExprKind::Tuple:
      for (const Expr* f : as<TupleExpr>(e)->fields)
        if (multiline(f)) return true;
      return false;
    case ExprKind::Call: {
      const CallExpr* c = as<CallExpr>(e);
      if (multiline(c->callee)) return true;
      for (const Expr* a : c->args)
        if (multiline(a)) return true;
      for (const Attr& a : c->attrs)
        if (attr_multiline(a.value)) return true;
      return false;
    }
    case ExprKind::TupleGetItem: return multiline(as<TupleGetItemExpr>(e)->tuple);
    case ExprKind::RefCreate: return multiline(as<RefCreateExpr>(e)->value);
    case ExprKind::RefRead: return multiline(as<RefReadExpr>(e)->ref);
    case ExprKind::RefWrite:
      return multiline(as<RefWriteExpr>(e)->ref) || multiline(as<RefWriteExpr>(e)->value);
    default: return false;
  }
}

bool Printer::attr_multiline(const AttrValue* v) {
  if (!v) return false;
  if (v->kind == AttrValueKind::Expr) return multiline(v->expr);
  if (v->kind == AttrValueKind::Array)
    for (const AttrValue* i : v->items)
      if (attr_multiline(i)) return true;
  return false;
}

void Printer::match(const MatchExpr* m) {
  out_.put(m->complete ? "match" : "match?");
  out_.space();
  const Expr* s = strip_empty_block(m->scrutinee);
  if (s && s->kind == ExprKind::Tuple) {
    expr(s, Ctx::Open);
  } else {
    out_.put("(");
    expr(s, Ctx::Open);
    close(end_of(s), ")");
  }
  out_.space();
  out_.put("{");
  out_.indent += 2;
  out_.reindent_pending();
  uint32_t last = m->scrutinee ? m->scrutinee->span.end : m->span.begin;
  for (const Clause& c : m->clauses) {
    out_.end_stmt();
    out_.nl();
    leading(std::min(c.span.begin, c.pattern ? c.pattern->span.begin : c.span.begin));
    const Expr* b = strip_empty_block(c.body);
    uint32_t pend = c.pattern ? c.pattern->span.end : c.span.begin;
    // A body on lines of its own when it spans lines or a comment in the clause (up to
    // the `,` or `}` after it) ends a line.
    uint32_t pbegin = c.pattern ? c.pattern->span.begin : c.span.begin;
    bool multi = multiline(b) ||
                 has_breaking_comment_in(pbegin, next_token_pos(std::max(c.span.end, pend)));
    pattern(c.pattern);
    out_.space();
    out_.put("=>");
    out_.space();
    if (multi) {
      uint32_t close = c.body->span.end;
      if (c.body->braced() && close > 0) close -= 1;
      branch(c.body, close);
    } else {
      expr(c.body, Ctx::Open);
    }
    trailing(c.span.end, false);
    sep(c.span.end, ",");
    out_.end_stmt();
    last = std::max(c.span.end, c.body ? c.body->span.end : c.span.end);
  }
  leading(close_pos(skip_commas(last), '}'));
  out_.end_stmt();
  out_.indent -= 2;
  out_.nl();
  out_.put("}");
}

}  // namespace relay::printer_internal
