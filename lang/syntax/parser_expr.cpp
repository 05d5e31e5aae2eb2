// Expressions: blocks with bindings, infix operators, calls, atoms, attributes.
#include <algorithm>

#include "lang/syntax/parser_impl.h"

namespace relay::detail {

namespace {

struct BinOp {
  int prec;
  std::string_view op;
};

// TVM's infix operators (all left-associative).
BinOp binop_of(Tok k) {
  switch (k) {
    case Tok::Star: return {12, "multiply"};
    case Tok::Slash: return {12, "divide"};
    case Tok::Plus: return {10, "add"};
    case Tok::Minus: return {10, "subtract"};
    case Tok::Lt: return {8, "less"};
    case Tok::Le: return {8, "less_equal"};
    case Tok::Gt: return {8, "greater"};
    case Tok::Ge: return {8, "greater_equal"};
    case Tok::EqEq: return {7, "equal"};
    case Tok::NotEq: return {7, "not_equal"};
    default: return {-1, {}};
  }
}

}  // namespace

// block = item (';' item)* with bindings `let %x = v;`, `%0 = v;`, `free_var %x;`.
Expr* Parser::parse_block(Expr* first_item) {
  // No depth guard here: every construct that recurses into a block (brackets, fn, if,
  // match, ref ops, call arguments) takes one, so a level of nesting counts once.
  uint32_t begin = peek().begin;
  std::vector<Binding> bindings;
  Expr* result = nullptr;
  for (;;) {
    skip_stray_closers();
    const Token& t = peek();
    uint32_t bbegin = t.begin;
    if (t.kind == Tok::Local && peek(1).kind == Tok::Eq) {
      // `%f = ...`: a named binding written like a graph binding.
      if (auto* d = error(DiagKind::ExpectedToken, tok_span(t), {"`let` before a named binding", "`" + std::string(token_text(t)) + " =`"})) {
        d->note("`%N = ...;` binds numbered graph variables only; named variables are bound with `let`");
        d->help("add `let`", {TextEdit{span(t.begin, t.begin), "let "}});
      }
      // Parse it as the `let` it was meant to be.
    }
    if (t.kind == Tok::KwLet || (t.kind == Tok::Graph && peek(1).kind == Tok::Eq) ||
        (t.kind == Tok::Local && peek(1).kind == Tok::Eq) ||
        t.kind == Tok::KwFreeVar) {
      Binding b{};
      if (t.kind == Tok::KwLet || t.kind == Tok::Local) {
        if (t.kind == Tok::KwLet) bump();
        b.kind = BindingKind::Let;
        if (at(Tok::Local) || at(Tok::Graph)) {
          b.var = make_var(bump(), VarKind::Let);
        } else {
          error(DiagKind::ExpectedToken, tok_span(peek()), {"a variable name like `%x`", found_description()});
          skip_until({Tok::Semi, Tok::KwLet});
          eat(Tok::Semi);
          continue;
        }
        if (eat(Tok::Colon)) b.var->annotation = parse_type();
        if (!expect(Tok::Eq, "`=`")) {
          skip_until({Tok::Semi, Tok::KwLet});
          b.value = error_expr(from(bbegin));
        } else {
          b.value = parse_binding_value();
        }
      } else if (t.kind == Tok::Graph) {
        b.kind = BindingKind::Graph;
        b.var = make_var(bump(), VarKind::Graph);
        bump();  // =
        b.value = parse_binding_value();
      } else {
        bump();
        b.kind = BindingKind::FreeVar;
        if (at(Tok::Local)) {
          b.var = make_var(bump(), VarKind::FreeVar);
          if (eat(Tok::Colon)) b.var->annotation = parse_type();
        } else {
          error(DiagKind::ExpectedToken, tok_span(peek()), {"a variable name like `%x`", found_description()});
          skip_until({Tok::Semi, Tok::KwLet});
          eat(Tok::Semi);
          continue;
        }
      }
      skip_stray_closers();
      if (!eat(Tok::Semi)) {
        if (b.value && b.value->kind == ExprKind::Error) {
          // The value was bad; resynchronise at the next binding boundary.
          skip_until({Tok::Semi, Tok::KwLet});
          eat(Tok::Semi);
        } else {
          expect(Tok::Semi, "`;` after the binding");
          // A missing `;` at the end of a line: carry on as if it were there, so the
          // next line (another binding or the block's value) is still parsed.
          bool line_break = text_.substr(prev_end_, peek().begin - prev_end_).find('\n') != std::string_view::npos;
          if (!line_break && !at(Tok::KwLet) && !(at(Tok::Graph) && peek(1).kind == Tok::Eq) && !at_closing()) {
            skip_until({Tok::Semi, Tok::KwLet});
            eat(Tok::Semi);
          }
        }
      }
      b.span = from(bbegin);
      bindings.push_back(b);
      if (at_closing() || at_definition_start() || at(Tok::Comma)) {
        const char* what = b.kind == BindingKind::Let ? "`let`" : b.kind == BindingKind::Graph ? "the graph binding" : "`free_var`";
        if (auto* d = error(DiagKind::MissingBindingBody, b.span, {what})) {
          d->note("a binding scopes over the expression after its `;`; the block's value is that expression");
          if (b.var) d->help("end the block with the bound variable", {TextEdit{span(prev_end_, prev_end_), std::string(" %") + std::string(b.var->name)}});
        }
        result = error_expr(span(prev_end_, prev_end_));
        break;
      }
      continue;
    }
    Expr* item = first_item ? first_item : parse_item();
    first_item = nullptr;
    skip_stray_closers();
    if (item->kind == ExprKind::Error && !at(Tok::Semi) && !at_closing() && !at(Tok::Comma) &&
        !at_definition_start()) {
      skip_until({Tok::Semi, Tok::KwLet, Tok::Comma});
    }
    if (at(Tok::Semi)) {
      Token semi = bump();
      if (at_closing() || at_definition_start() || at(Tok::Comma)) {
        if (auto* d = error(DiagKind::MissingBindingBody, tok_span(semi), {"`;`"})) {
          d->labels[0].message = "nothing follows this `;`";
          d->note("`a; b` evaluates `a`, then `b`; a trailing `;` leaves the block without a value");
          d->help("remove the `;`", {TextEdit{tok_span(semi), ""}});
        }
        result = item;
        break;
      }
      bindings.push_back(Binding{BindingKind::Sequence, from(item->span.begin), nullptr, item});
      continue;
    }
    result = item;
    break;
  }
  if (bindings.empty()) return result;
  auto* block = make<BlockExpr>(from(begin));
  block->bindings = module_.arena.copy(bindings);
  block->result = result;
  return block;
}

Expr* Parser::parse_argument() {
  // TVM's grammar allows a whole block here. A `;` inside brackets, though, is often a
  // missing `)`: see below for how the two are told apart.
  if (at(Tok::KwLet) || at(Tok::KwFreeVar) || (at(Tok::Graph) && peek(1).kind == Tok::Eq))
    return parse_block();
  Expr* first = parse_item();
  if (!at(Tok::Semi)) return first;
  // `a; b` inside brackets is a real sequence (e.g. `(ref_write(%r, 1f); ref_read(%r))`)
  // only if the bracket closes later; if the enclosing `{ }` ends first, the `;` ends
  // a statement of that block and the closing bracket is what is missing.
  if (!bracket_closes_after(peek().end)) return first;
  return parse_block(first);
}

bool Parser::bracket_closes_after(uint32_t offset) const {
  // A raw scan of the text (skipping comments and strings) for the first closing
  // bracket at depth 0. Bounded, so a file full of such `;` stays linear; past the
  // bound the sequence reading (TVM's) wins.
  constexpr uint32_t kScanLimit = 1 << 16;
  const uint32_t n = static_cast<uint32_t>(text_.size());
  const uint32_t stop = n - offset > kScanLimit ? offset + kScanLimit : n;
  int depth = 0;
  for (uint32_t i = offset; i < stop; ++i) {
    char c = text_[i];
    if (c == '/' && i + 1 < n && text_[i + 1] == '/') {
      while (i < n && text_[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text_[i + 1] == '*') {
      int nest = 0;
      for (; i + 1 < n; ++i) {
        if (text_[i] == '/' && text_[i + 1] == '*') { ++nest; ++i; }
        else if (text_[i] == '*' && text_[i + 1] == '/') { ++i; if (--nest == 0) break; }
      }
    } else if (c == '"') {
      for (++i; i < n && text_[i] != '"' && text_[i] != '\n'; ++i)
        if (text_[i] == '\\') ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return c == ')' || c == ']';
      --depth;
    } else if (depth == 0 && c == 'd' && text_.compare(i, 4, "def ") == 0 &&
               (i == 0 || text_[i - 1] == '\n')) {
      return false;  // the next definition: the bracket never closes
    }
  }
  return stop < n;
}

Expr* Parser::parse_item() {
  if (at(Tok::LBrace)) {
    DepthGuard guard(*this);
    if (!guard.ok) return too_deep();
    Token open = bump();
    Expr* inner = parse_block();
    expect_close(Tok::RBrace, open);
    // Wrap so that `{ %x }` keeps its braces when printed.
    if (inner->kind != ExprKind::Block) {
      auto* block = make<BlockExpr>(from(open.begin));
      block->result = inner;
      inner = block;
    }
    inner->flags |= kExprBraced;
    inner->span = from(open.begin);
    return inner;
  }
  if (at(Tok::KwMatch) || at(Tok::KwMatchQ)) return parse_match();
  return parse_binop(0);
}

Expr* Parser::parse_binding_value() {
  // TVM's grammar only allows `binop` here, but its printer writes `let %x = match ...`;
  // accept that, and a `{ ... }` block, which can mean nothing else here.
  if (at(Tok::KwMatch) || at(Tok::KwMatchQ) || at(Tok::LBrace)) return parse_item();
  return parse_binop(0);
}

Expr* Parser::parse_binop(int min_prec) {
  uint32_t begin = peek().begin;
  Expr* lhs = parse_unary();
  int chain = 0;
  for (;;) {
    BinOp op = binop_of(peek().kind);
    if (op.prec < 0 || op.prec < min_prec) break;
    if (depth_ + ++chain > kMaxNestingDepth) return too_deep();
    Token op_tok = bump();
    Expr* rhs = parse_binop(op.prec + 1);
    auto* callee = make<RefExpr>(ExprKind::Ident, tok_span(op_tok));
    callee->kind = ExprKind::Ident;
    callee->name = op.op;
    auto* call = make<CallExpr>(from(begin));
    call->callee = callee;
    Expr* args[2] = {lhs, rhs};
    call->args = module_.arena.copy(args, 2);
    call->syntax = CallSyntax::Infix;
    call->callee_span = tok_span(op_tok);
    lhs = call;
  }
  return lhs;
}

Expr* Parser::parse_unary() {
  if (!at(Tok::Minus)) return parse_postfix();
  DepthGuard guard(*this);
  if (!guard.ok) return too_deep();
  Token minus = bump();
  if (at(Tok::Integer) || at(Tok::Float)) {
    Expr* lit = parse_literal(true, minus.begin);
    // Literals bind tighter than postfix operators only as numbers; allow `-1.0f` etc.
    return lit;
  }
  Expr* operand = parse_unary();
  // `--1` is the literal 1, as in TVM's lexer.
  if (auto* c = as<ConstantExpr>(operand); c && !c->parenthesized() && c->dtype.code != DataType::UInt) {
    c->int_value = static_cast<int64_t>(0 - static_cast<uint64_t>(c->int_value));
    c->float_value = -c->float_value;
    c->span = from(minus.begin);
    return c;
  }
  auto* callee = make<RefExpr>(ExprKind::Ident, tok_span(minus));
  callee->name = "negative";
  auto* call = make<CallExpr>(from(minus.begin));
  call->callee = callee;
  call->args = module_.arena.copy(&operand, 1);
  call->syntax = CallSyntax::UnaryMinus;
  call->callee_span = tok_span(minus);
  return call;
}

Expr* Parser::parse_postfix() {
  uint32_t begin = peek().begin;
  Expr* e = parse_atomic();
  int chain = 0;
  for (;;) {
    if (at(Tok::LParen)) {
      if (depth_ + ++chain > kMaxNestingDepth) return too_deep();
      e = parse_call_args(e);
    } else if (at(Tok::Dot) && (peek(1).kind == Tok::Integer)) {
      if (depth_ + ++chain > kMaxNestingDepth) return too_deep();
      bump();
      Token idx = bump();
      auto* g = make<TupleGetItemExpr>(from(begin));
      g->tuple = e;
      g->index_span = tok_span(idx);
      std::string_view digits = token_text(idx);
      uint64_t v = 0;
      bool ok = !digits.empty() && digits.size() <= 9 &&
                std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (ok) {
        for (char c : digits) v = v * 10 + static_cast<uint64_t>(c - '0');
      } else {
        diags_.emit(DiagKind::InvalidNumber, tok_span(idx), {std::string(digits.substr(0, 40))})
            .note("a tuple projection takes a plain index, like `%t.0`");
      }
      g->index = static_cast<uint32_t>(v);
      e = g;
    } else if (at(Tok::Dot)) {
      Token dot = bump();
      error(DiagKind::ExpectedToken, tok_span(peek()), {"a tuple index after `.`", found_description()});
      (void)dot;
      if (!at_closing()) bump();
      return error_expr(from(begin));
    } else {
      break;
    }
  }
  return e;
}

Expr* Parser::parse_call_args(Expr* callee) {
  DepthGuard guard(*this);
  if (!guard.ok) return too_deep();
  Token open = bump();  // (
  bool seen_comma = false;
  std::vector<Expr*> args;
  std::vector<Attr> attrs;
  MetaRefExpr* attrs_meta = nullptr;
  while (!at(Tok::RParen) && !at(Tok::Eof) && !at_definition_start()) {
    if (at_attr_start()) {
      parse_attr(attrs);
    } else if (at(Tok::Meta) && peek(1).kind == Tok::RParen &&
               token_text(peek()).starts_with("meta[relay.attrs.")) {
      Expr* m = parse_atomic();
      attrs_meta = as<MetaRefExpr>(m);
    } else {
      if (!attrs.empty()) {
        if (auto* d = error(DiagKind::PositionalAfterAttribute, tok_span(peek())))
          d->note("keyword attributes come after every positional argument");
      }
      Expr* a = parse_argument();
      if (a->kind == ExprKind::Error && !at(Tok::Comma) && !at(Tok::RParen)) {
        // A `;` after a broken argument usually ends the binding the call is in (`let %q =
        // add(%z, ;`): stop there, so the missing `)` is reported once and the block's
        // next bindings are still parsed and checked. Only when a `)` closes the call
        // later is the `;` inside it (a sequence argument) and skipped.
        skip_until({Tok::Comma, Tok::Semi});
        if (at(Tok::Semi) && bracket_closes_after(peek().end)) skip_until({Tok::Comma});
      }
      args.push_back(a);
    }
    if (eat(Tok::Comma)) {
      seen_comma = true;
      continue;
    }
    if (!attrs.empty() && at_attr_start()) continue;  // TVM: commas between attributes are optional
    // After an unterminated string the rest of its line is gone: end the call there.
    if ((at_expression_start() || at_attr_start()) && !peek().after_unterminated) {
      // TVM accepts a missing comma after the first one; before it, it is an error,
      // but the next argument is still parsed.
      if (!seen_comma) {
        if (auto* d = error(DiagKind::ExpectedToken, span(prev_end_, prev_end_), {"`,` between arguments", found_description()}))
          d->help("add `,` here", {TextEdit{span(prev_end_, prev_end_), ","}});
        seen_comma = true;
      }
      continue;
    }
    break;
  }
  expect_close(Tok::RParen, open);
  auto* call = make<CallExpr>(from(callee->span.begin));
  call->callee = callee;
  call->args = module_.arena.copy(args);
  call->attrs = module_.arena.copy(attrs);
  call->attrs_meta = attrs_meta;
  return call;
}

Expr* Parser::parse_ident_path() {
  // nn.conv2d is the tokens `nn` `.` `conv2d`: re-join them.
  Token first = bump();
  uint32_t begin = first.begin;
  bool contiguous = true;
  std::string joined(token_text(first));
  while (at(Tok::Dot) && peek(1).kind == Tok::Ident) {
    Token dot = bump();
    Token part = bump();
    if (dot.space_before || part.space_before) contiguous = false;
    joined += '.';
    joined += token_text(part);
  }
  auto* r = make<RefExpr>(ExprKind::Ident, from(begin));
  r->name = contiguous ? text_.substr(begin, prev_end_ - begin) : module_.arena.copy_string(joined);
  return r;
}

Expr* Parser::parse_atomic() {
  const Token& t = peek();
  uint32_t begin = t.begin;
  switch (t.kind) {
    case Tok::Integer:
    case Tok::Float:
      return parse_literal(false, begin);
    case Tok::Ident: {
      std::string_view w = token_text(t);
      if (w == "True" || w == "False") {
        bump();
        auto* c = make<ConstantExpr>(from(begin));
        c->dtype = DataType::bool_();
        c->int_value = w == "True";
        c->has_suffix = true;
        return c;
      }
      if (w == "_") {
        if (auto* d = error(DiagKind::ExpectedExpression, tok_span(t), {"`_`"}))
          d->note("`_` is a wildcard pattern, not a value");
        bump();
        return error_expr(from(begin));
      }
      return parse_ident_path();
    }
    case Tok::Local:
    case Tok::Graph: {
      Token v = bump();
      auto* r = make<RefExpr>(ExprKind::LocalRef, tok_span(v));
      r->name = token_text(v).substr(1);
      r->is_graph = v.kind == Tok::Graph;
      return r;
    }
    case Tok::Global: {
      Token g = bump();
      auto* r = make<RefExpr>(ExprKind::GlobalRef, tok_span(g));
      r->name = token_text(g).substr(1);
      return r;
    }
    case Tok::Meta: {
      Token m = bump();
      auto* r = make<MetaRefExpr>(tok_span(m));
      std::string_view s = token_text(m);  // meta[KEY][N]
      size_t close = s.find(']');
      r->type_key = s.substr(5, close - 5);
      uint32_t idx = 0;
      for (char c : s.substr(close + 2, s.size() - close - 3)) idx = idx * 10 + static_cast<uint32_t>(c - '0');
      r->index = idx;
      return r;
    }
    case Tok::KwFn: {
      DepthGuard guard(*this);
      if (!guard.ok) return too_deep();
      bump();
      return parse_function_rest(begin);
    }
    case Tok::KwIf:
      return parse_if();
    case Tok::KwMatch:
    case Tok::KwMatchQ:
      return parse_match();
    case Tok::KwRef:
    case Tok::KwRefRead:
    case Tok::KwRefWrite:
      return parse_ref_op();
    case Tok::LParen:
      return parse_paren();
    default:
      break;
  }
  if (auto* d = error(DiagKind::ExpectedExpression, tok_span(t), {found_description()})) {
    if (t.kind == Tok::KwLet || t.kind == Tok::LBrace)
      d->help("wrap it in parentheses: TVM's grammar allows bindings and blocks only as whole expressions");
  }
  // Consume the bad token unless it can end the enclosing construct.
  if (!at_closing() && !at(Tok::Semi) && !at(Tok::Comma) && !at_definition_start() && !at(Tok::KwLet))
    bump();
  return error_expr(from(begin));
}

Expr* Parser::parse_paren() {
  DepthGuard guard(*this);
  if (!guard.ok) return too_deep();
  Token open = bump();
  if (eat(Tok::RParen)) return make<TupleExpr>(from(open.begin));
  Expr* first = parse_argument();
  if (at(Tok::Comma)) {
    std::vector<Expr*> fields{first};
    while (eat(Tok::Comma)) {
      if (at(Tok::RParen)) break;
      Expr* f = parse_argument();
      if (f->kind == ExprKind::Error && !at(Tok::Comma) && !at(Tok::RParen)) skip_until({Tok::Comma});
      fields.push_back(f);
    }
    expect_close(Tok::RParen, open);
    auto* tuple = make<TupleExpr>(from(open.begin));
    tuple->fields = module_.arena.copy(fields);
    return tuple;
  }
  if (first->kind == ExprKind::Error && !at(Tok::RParen)) skip_until({});
  expect_close(Tok::RParen, open);
  first->flags |= kExprParenthesized;
  return first;
}

Expr* Parser::parse_if() {
  DepthGuard guard(*this);
  if (!guard.ok) return too_deep();
  Token kw = bump();
  auto* e = make<IfExpr>(tok_span(kw));
  auto braced = [&]() -> Expr* {
    if (!at(Tok::LBrace)) {
      expect(Tok::LBrace, "`{`");
      return error_expr(span(prev_end_, prev_end_));
    }
    Token open = bump();
    Expr* body = parse_block();
    expect_close(Tok::RBrace, open);
    return body;
  };
  if (at(Tok::LParen)) {
    Token open = bump();
    e->cond = parse_argument();
    if (e->cond->kind == ExprKind::Error) skip_until({});
    expect_close(Tok::RParen, open);
  } else {
    expect(Tok::LParen, "`(` around the condition");
    e->cond = parse_binop(0);  // recover: accept `if c { ... }`
  }
  e->then_branch = braced();
  if (eat(Tok::KwElse)) {
    e->else_branch = braced();
  } else {
    if (auto* d = error(DiagKind::ExpectedToken, tok_span(peek()), {"`else`", found_description()}))
      d->note("every `if` needs an `else` branch: both branches give the expression's value");
    e->else_branch = error_expr(span(prev_end_, prev_end_));
  }
  e->span = from(kw.begin);
  return e;
}

Expr* Parser::parse_match() {
  DepthGuard guard(*this);
  if (!guard.ok) return too_deep();
  Token kw = bump();
  auto* m = make<MatchExpr>(tok_span(kw));
  m->complete = kw.kind == Tok::KwMatch;
  m->scrutinee = parse_postfix();
  std::vector<Clause> clauses;
  if (at(Tok::LBrace)) {
    Token open = bump();
    while (!at(Tok::RBrace) && !at(Tok::Eof) && !at_definition_start()) {
      uint32_t cb = peek().begin;
      Clause c;
      c.pattern = parse_pattern();
      if (!expect(Tok::FatArrow, "`=>`")) {
        skip_until({Tok::Comma});
        c.body = error_expr(from(cb));
      } else {
        c.body = parse_block();
        if (c.body->kind == ExprKind::Error && !at(Tok::Comma) && !at(Tok::RBrace)) skip_until({Tok::Comma});
      }
      c.span = from(cb);
      clauses.push_back(c);
      if (!eat(Tok::Comma)) break;
    }
    expect_close(Tok::RBrace, open);
  } else {
    expect(Tok::LBrace, "`{` to start the match clauses");
  }
  m->clauses = module_.arena.copy(clauses);
  m->span = from(kw.begin);
  return m;
}

Expr* Parser::parse_ref_op() {
  DepthGuard guard(*this);
  if (!guard.ok) return too_deep();
  Token kw = bump();
  if (!at(Tok::LParen)) {
    expect(Tok::LParen, "`(`");
    return error_expr(from(kw.begin));
  }
  Token open = bump();
  Expr* first = parse_argument();
  Expr* second = nullptr;
  if (kw.kind == Tok::KwRefWrite) {
    if (expect(Tok::Comma, "`,` and the value to write")) second = parse_argument();
    else second = error_expr(span(prev_end_, prev_end_));
  }
  expect_close(Tok::RParen, open);
  Span s = from(kw.begin);
  switch (kw.kind) {
    case Tok::KwRef: {
      auto* r = make<RefCreateExpr>(s);
      r->value = first;
      return r;
    }
    case Tok::KwRefRead: {
      auto* r = make<RefReadExpr>(s);
      r->ref = first;
      return r;
    }
    default: {
      auto* r = make<RefWriteExpr>(s);
      r->ref = first;
      r->value = second;
      return r;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Attributes

bool Parser::at_attr_start() {
  if (!at(Tok::Ident)) return false;
  int k = 1;
  while (k + 1 < kLookahead - 1 && peek(k).kind == Tok::Dot && peek(k + 1).kind == Tok::Ident) k += 2;
  return peek(k).kind == Tok::Eq;
}

void Parser::parse_attr(std::vector<Attr>& out) {
  Token first = bump();
  uint32_t begin = first.begin;
  bool contiguous = true;
  std::string joined(token_text(first));
  while (at(Tok::Dot)) {
    Token dot = bump();
    Token part = bump();
    if (dot.space_before || part.space_before) contiguous = false;
    joined += '.';
    joined += token_text(part);
  }
  Attr a;
  a.key = contiguous ? text_.substr(begin, prev_end_ - begin) : module_.arena.copy_string(joined);
  a.key_span = from(begin);
  bump();  // =
  a.value = parse_attr_value();
  for (const Attr& other : out) {
    if (other.key == a.key) {
      diags_.emit(DiagKind::DuplicateAttribute, a.key_span, {std::string(a.key)})
          .label(other.key_span, "first given here");
      break;
    }
  }
  out.push_back(a);
}

AttrValue* Parser::parse_attr_value() {
  DepthGuard guard(*this);
  uint32_t begin = peek().begin;
  auto* v = module_.arena.make<AttrValue>();
  if (!guard.ok) {
    too_deep();
    v->kind = AttrValueKind::None;
    v->span = from(begin);
    return v;
  }
  auto from_literal = [&](Expr* e) {
    if (auto* c = as<ConstantExpr>(e)) {
      v->dtype = c->dtype;
      if (c->dtype.is_bool()) {
        v->kind = AttrValueKind::Bool;
        v->int_value = c->int_value;
      } else if (c->dtype.is_float()) {
        v->kind = AttrValueKind::Float;
        v->float_value = c->float_value;
      } else {
        v->kind = AttrValueKind::Int;
        v->int_value = c->int_value;
      }
    } else {
      v->kind = AttrValueKind::Expr;
      v->expr = e;
    }
  };
  const Token& t = peek();
  if (t.kind == Tok::Integer || t.kind == Tok::Float) {
    from_literal(parse_literal(false, begin));
  } else if (t.kind == Tok::Minus && (peek(1).kind == Tok::Integer || peek(1).kind == Tok::Float)) {
    bump();
    from_literal(parse_literal(true, begin));
  } else if (t.kind == Tok::String) {
    Token s = bump();
    v->kind = AttrValueKind::String;
    std::string_view raw = token_text(s);
    raw.remove_prefix(1);
    if (!raw.empty() && raw.back() == '"') raw.remove_suffix(1);
    if (raw.find('\\') == std::string_view::npos) {
      v->text = raw;
    } else {
      v->text = module_.arena.copy_string(unescape_string(raw));
    }
  } else if (t.kind == Tok::Ident && (token_text(t) == "None" || token_text(t) == "nullptr")) {
    bump();
    v->kind = AttrValueKind::None;
  } else if (t.kind == Tok::LBracket || t.kind == Tok::LParen) {
    Token open = bump();
    Tok close = open.kind == Tok::LBracket ? Tok::RBracket : Tok::RParen;
    std::vector<AttrValue*> items;
    bool trailing_comma = false;
    while (!at(close) && !at(Tok::Eof) && !at_definition_start() && !at_attr_start()) {
      uint32_t before = peek().begin;
      AttrValue* item = parse_attr_value();
      if (peek().begin == before) break;  // nothing consumed: let the caller recover
      items.push_back(item);
      trailing_comma = false;
      if (!eat(Tok::Comma)) {
        if (at(close) || at_closing() || at(Tok::Semi)) break;
        // TVM: commas after the first are optional.
        if (items.size() > 1 || item->kind == AttrValueKind::Expr) continue;
        break;
      }
      trailing_comma = true;
    }
    expect_close(close, open);
    if (close == Tok::RParen && items.size() == 1 && !trailing_comma) {
      v = items[0];  // `(value)` is just the value
      v->parenthesized = true;
    } else {
      v->kind = AttrValueKind::Array;
      v->items = module_.arena.copy(items);
    }
  } else {
    Expr* e = parse_postfix();
    from_literal(e);
  }
  v->span = from(begin);
  return v;
}

}  // namespace relay::detail
