// Parser entry points, the token stream, recovery, and top-level definitions.
#include <algorithm>

#include "lang/syntax/metadata.h"
#include "lang/syntax/parser_impl.h"

namespace relay {

std::unique_ptr<Module> parse_module(const SourceFile& file, DiagnosticBag& diags,
                                     const ParseOptions& options) {
  auto module = std::make_unique<Module>();
  module->file = file.id;
  detail::Parser p(file, diags, *module);
  p.parse_module(options);
  return module;
}

std::unique_ptr<Module> parse_expression(const SourceFile& file, DiagnosticBag& diags) {
  auto module = std::make_unique<Module>();
  module->file = file.id;
  detail::Parser p(file, diags, *module);
  module->expr = p.parse_lone_expression();
  return module;
}

namespace detail {

Parser::Parser(const SourceFile& file, DiagnosticBag& diags, Module& module)
    : file_(file), text_(file.text), diags_(diags), module_(module), lexer_(file, diags) {}

const Token& Parser::peek(int k) {
  while (ring_size_ <= k) {
    ring_[(ring_start_ + ring_size_) % kLookahead] = lexer_.next();
    ++ring_size_;
  }
  return ring_[(ring_start_ + k) % kLookahead];
}

Token Parser::bump() {
  Token t = peek();
  switch (t.kind) {
    case Tok::LParen: ++open_[0]; break;
    case Tok::LBracket: ++open_[1]; break;
    case Tok::LBrace: ++open_[2]; break;
    case Tok::RParen: open_[0] = open_[0] > 0 ? open_[0] - 1 : 0; break;
    case Tok::RBracket: open_[1] = open_[1] > 0 ? open_[1] - 1 : 0; break;
    case Tok::RBrace: open_[2] = open_[2] > 0 ? open_[2] - 1 : 0; break;
    default: break;
  }
  if (t.kind != Tok::Eof) {
    ring_start_ = (ring_start_ + 1) % kLookahead;
    --ring_size_;
    prev_end_ = t.end;
  }
  return t;
}

Diagnostic* Parser::error(DiagKind kind, Span at, std::vector<std::string> args) {
  uint32_t here = peek().begin;
  // One diagnostic per token, and none at a token the lexer already reported.
  if (here == last_error_at_ || peek().kind == Tok::Error || unwinding_too_deep_) return nullptr;
  if (peek().after_unterminated) {
    last_error_at_ = here;  // the lexer's report explains this token too
    return nullptr;
  }
  last_error_at_ = here;
  return &diags_.emit(kind, at, std::move(args));
}

std::string Parser::found_description() {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::Ident: case Tok::Local: case Tok::Graph: case Tok::Global:
    case Tok::Integer: case Tok::Float: {
      std::string_view s = token_text(t);
      if (s.size() > 40) return std::string(token_description(t.kind));
      return "`" + std::string(s) + "`";
    }
    default: return std::string(token_description(t.kind));
  }
}

bool Parser::expect(Tok k, std::string_view what) {
  if (eat(k)) return true;
  std::string expected = what.empty() ? std::string(token_description(k)) : std::string(what);
  // Point just after the previous token when the expected token is a terminator: that
  // is where it is missing (rustc does the same for `;`).
  const Token& t = peek();
  Span at = tok_span(t);
  bool terminator = k == Tok::Semi || k == Tok::Comma || k == Tok::RParen ||
                    k == Tok::RBracket || k == Tok::RBrace;
  if (terminator && prev_end_ > 0 && t.space_before) at = span(prev_end_, prev_end_);
  if (auto* d = error(DiagKind::ExpectedToken, at, {expected, found_description()})) {
    if (k == Tok::Semi && at.size() == 0) d->help("add `;` here", {TextEdit{at, ";"}});
  }
  return false;
}

bool Parser::expect_close(Tok close, const Token& open) {
  if (eat(close)) return true;
  // Count the bracket as closed here, so a later stray closer is still recognised.
  int slot = close == Tok::RParen ? 0 : close == Tok::RBracket ? 1 : 2;
  if (open_[slot] > 0) --open_[slot];
  std::string open_text(token_text(open));
  const Token& t = peek();
  Diagnostic* d;
  if (t.kind == Tok::Eof) {
    d = error(DiagKind::UnclosedDelimiter, tok_span(open), {open_text});
    if (d) d->label(span(t.begin, t.end), "the file ends here");
  } else {
    d = error(DiagKind::ExpectedToken, tok_span(t),
              {std::string(token_description(close)), found_description()});
    if (d) d->label(tok_span(open), "unclosed delimiter");
  }
  return false;
}

bool Parser::at_definition_start() {
  Tok k = peek().kind;
  return k == Tok::KwDef || k == Tok::KwType || k == Tok::KwExtern || k == Tok::Metadata;
}

bool Parser::at_expression_start() {
  switch (peek().kind) {
    case Tok::Ident: return !at_attr_start();
    case Tok::Local: case Tok::Graph: case Tok::Global: case Tok::Integer: case Tok::Float:
    case Tok::Meta: case Tok::KwFn: case Tok::KwIf: case Tok::KwMatch: case Tok::KwMatchQ:
    case Tok::KwRef: case Tok::KwRefRead: case Tok::KwRefWrite: case Tok::LParen: case Tok::Minus:
      return true;
    default: return false;
  }
}

bool Parser::skip_stray_closers() {
  bool any = false;
  for (;;) {
    Tok k = peek().kind;
    int slot = k == Tok::RParen ? 0 : k == Tok::RBracket ? 1 : k == Tok::RBrace ? 2 : -1;
    if (slot < 0 || open_[slot] > 0) return any;
    if (auto* d = error(DiagKind::UnexpectedClosingDelimiter, tok_span(peek()), {std::string(token_text(peek()))}))
      d->help("remove it", {TextEdit{tok_span(peek()), ""}});
    bump();
    any = true;
  }
}

void Parser::skip_group() {
  int depth = 0;
  do {
    Tok t = peek().kind;
    if (t == Tok::LParen || t == Tok::LBracket || t == Tok::LBrace) ++depth;
    if (t == Tok::RParen || t == Tok::RBracket || t == Tok::RBrace) --depth;
    bump();
  } while (depth > 0 && !at(Tok::Eof));
}

bool Parser::at_closing() {
  Tok k = peek().kind;
  return k == Tok::RParen || k == Tok::RBrace || k == Tok::RBracket || k == Tok::Eof;
}

void Parser::skip_until(std::initializer_list<Tok> stops) {
  int depth = 0;
  for (;;) {
    Tok k = peek().kind;
    if (k == Tok::Eof) return;
    if (depth == 0) {
      if (std::find(stops.begin(), stops.end(), k) != stops.end()) return;
      if (k == Tok::RParen || k == Tok::RBrace || k == Tok::RBracket) return;
      if (at_definition_start()) return;
    }
    if (k == Tok::LParen || k == Tok::LBrace || k == Tok::LBracket) {
      ++depth;
    } else if (k == Tok::RParen || k == Tok::RBrace || k == Tok::RBracket) {
      --depth;
    } else if (depth > 0 && at_definition_start()) {
      return;  // a missing `}`: the next definition starts here
    }
    bump();
  }
}

Expr* Parser::error_expr(Span s) { return make<ErrorExpr>(s); }

Expr* Parser::too_deep(bool skip) {
  uint32_t begin = peek().begin;
  if (!reported_too_deep_) {
    reported_too_deep_ = true;
    if (auto* d = error(DiagKind::NestingTooDeep, tok_span(peek()), {std::to_string(kMaxNestingDepth)}))
      d->note("deeply nested expressions are usually generated; bind intermediate results with `let` or graph bindings instead");
  }
  unwinding_too_deep_ = true;
  if (!skip) return error_expr(span(begin, begin));
  // Skip the construct that is too deep, iteratively (no recursion). A bracketed group
  // is skipped up to its own closing bracket; anything else up to the next `,`, `;` or
  // closing bracket of the enclosing construct, which the caller consumes.
  Tok k = peek().kind;
  if (k == Tok::LParen || k == Tok::LBracket || k == Tok::LBrace) {
    skip_group();
  } else {
    skip_until({Tok::Comma, Tok::Semi});
  }
  return error_expr(from(begin));
}

// ---------------------------------------------------------------------------------------
// Module level

void Parser::parse_module(const ParseOptions& options) {
  // A malformed header (`#[version = "0.0.5"` without `]`) was reported by the lexer;
  // do not also say that the header is missing.
  if (at(Tok::Error) && token_text(peek()).starts_with("#[version")) module_.has_version = true;
  bool at_start = true;
  uint32_t first_def = 0;
  bool seen_def = false;
  for (;;) {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Eof:
        goto done;
      case Tok::FileAttr: {
        Token a = bump();
        parse_file_attribute(a, at_start);
        continue;
      }
      case Tok::Metadata: {
        Token m = bump();
        parse_metadata_section(m);
        goto done;
      }
      case Tok::KwDef: {
        if (!seen_def) first_def = t.begin;
        seen_def = true;
        at_start = false;
        if (FuncDef* f = parse_def()) module_.defs.push_back(Definition{Definition::Func, f, nullptr});
        continue;
      }
      case Tok::KwType:
      case Tok::KwExtern: {
        if (!seen_def) first_def = t.begin;
        seen_def = true;
        at_start = false;
        uint32_t begin = t.begin;
        bool is_extern = false;
        if (t.kind == Tok::KwExtern) {
          bump();
          is_extern = true;
          if (!at(Tok::KwType)) {
            expect(Tok::KwType, "`type` after `extern`");
            skip_until({});
            continue;
          }
        }
        bump();  // `type`
        if (TypeDef* d = parse_typedef(is_extern, begin))
          module_.defs.push_back(Definition{Definition::Type, nullptr, d});
        continue;
      }
      default: {
        at_start = false;
        if (t.kind == Tok::RBrace || t.kind == Tok::RParen || t.kind == Tok::RBracket) {
          if (auto* d = error(DiagKind::UnexpectedClosingDelimiter, tok_span(t), {std::string(token_text(t))}))
            d->help("remove it, or check the brackets of the definition above");
        } else {
          error(DiagKind::ExpectedDefinition, tok_span(t), {found_description()});
        }
        // Skip at least one token, then to the next definition.
        if (t.kind == Tok::RBrace || t.kind == Tok::RParen || t.kind == Tok::RBracket) {
          bump();
        } else {
          bump();
          skip_until({});
          while (at(Tok::RBrace) || at(Tok::RParen) || at(Tok::RBracket)) bump();
        }
        continue;
      }
    }
  }
done:
  if (!module_.has_version && options.require_version) {
    uint32_t at = seen_def ? first_def : 0;
    diags_.emit(DiagKind::MissingVersionHeader, span(at, at))
        .note("TVM's parser rejects a module without it")
        .help("add the header at the top of the file",
              {TextEdit{span(0, 0), "#[version = \"0.0.5\"]\n"}});
  }
  module_.comments = lexer_.take_comments();
  attach_doc_comments();
}

Expr* Parser::parse_lone_expression() {
  while (at(Tok::FileAttr)) {
    Token a = bump();
    parse_file_attribute(a, true);
  }
  Expr* e = parse_block();
  if (!at(Tok::Eof) && !at(Tok::Metadata)) {
    // One report for whatever trails the expression.
    error(DiagKind::ExpectedToken, tok_span(peek()), {"end of input", found_description()});
    while (!at(Tok::Eof) && !at(Tok::Metadata)) bump();
  }
  if (at(Tok::Metadata)) {
    Token m = bump();
    parse_metadata_section(m);
  }
  module_.comments = lexer_.take_comments();
  return e;
}

void Parser::parse_file_attribute(const Token& t, bool at_start) {
  // #[ key = value ]: version and import are known; anything else is an error.
  std::string_view inner = token_text(t).substr(2);
  inner.remove_suffix(1);
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  inner = trim(inner);
  std::string_view key = inner, value;
  if (auto eq = inner.find('='); eq != std::string_view::npos) {
    key = trim(inner.substr(0, eq));
    value = trim(inner.substr(eq + 1));
  }
  Span s = tok_span(t);
  if (key == "version") {
    if (!at_start) {
      diags_.emit(DiagKind::MisplacedFileAttribute, s, {"version"})
          .help("move it to the first line of the file");
      module_.has_version = true;  // it is there, just late: no W0001 on top
      return;
    }
    if (value != "\"0.0.5\"") {
      diags_.emit(DiagKind::UnsupportedVersion, s, {std::string(value.empty() ? "(none)" : value)})
          .help("this toolchain reads the text format TVM 0.14 prints",
                {TextEdit{s, "#[version = \"0.0.5\"]"}});
    }
    module_.has_version = true;
    module_.version_span = s;
    return;
  }
  if (key == "import") {
    if (!at_start) {
      diags_.emit(DiagKind::MisplacedFileAttribute, s, {"import"})
          .help("move it up, right after the version header");
      // Still honour it, so the names it brings do not cascade into errors.
    }
    module_.imports.push_back(s);
    if (value == "\"prelude\"") {
      module_.imports_prelude = true;
    } else {
      diags_.emit(DiagKind::UnknownImport, s, {std::string(value)})
          .note("the standard library available for import is `#[import = \"prelude\"]`");
    }
    return;
  }
  auto& d = diags_.emit(DiagKind::UnknownFileAttribute, s, {std::string(inner.substr(0, 40))});
  d.note("known file attributes are `#[version = \"0.0.5\"]`, `#[import = \"prelude\"]` and `#[metadata]`");
}

void Parser::parse_metadata_section(const Token& t) {
  // The token spans `#[metadata]` up to the end of the file.
  uint32_t json_begin = t.begin;
  while (json_begin < t.end && text_[json_begin] != ']') ++json_begin;
  ++json_begin;
  module_.metadata_span = span(t.begin, t.end);
  std::string_view json = text_.substr(json_begin, t.end - json_begin);
  std::string why;
  size_t offset = 0;
  auto md = parse_metadata(json, &why, &offset);
  if (!md) {
    uint32_t at = json_begin + static_cast<uint32_t>(std::min(offset, json.size()));
    // Put the caret on a visible character.
    while (at > json_begin && at < t.end && (text_[at] == '\n' || text_[at] == ' ')) --at;
    diags_.emit(DiagKind::InvalidMetadata, span(at, std::min<uint32_t>(at + 1, t.end)), {why});
    return;
  }
  module_.metadata = std::make_shared<Metadata>(std::move(*md));
}

void Parser::attach_doc_comments() {
  // A run of `///` comments directly before a definition (only whitespace between)
  // documents it; any other doc comment is dangling (W0003).
  size_t ci = 0;
  auto& comments = module_.comments;
  std::vector<bool> used(comments.size(), false);
  for (const auto& def : module_.defs) {
    uint32_t start = def.kind == Definition::Func ? def.func->span.begin : def.type->span.begin;
    while (ci < comments.size() && comments[ci].span.end <= start) ++ci;
    // Walk back over the doc comments that end right before `start`.
    size_t j = ci;
    uint32_t limit = start;
    std::string doc;
    std::vector<std::string_view> lines;
    while (j > 0) {
      const Comment& c = comments[j - 1];
      if (c.kind != CommentKind::Doc) break;
      std::string_view between = text_.substr(c.span.end, limit - c.span.end);
      if (between.find_first_not_of(" \t\r\n") != std::string_view::npos) break;
      if (std::count(between.begin(), between.end(), '\n') > 1) break;  // a blank line separates
      std::string_view line = text_.substr(c.span.begin + 3, c.span.size() - 3);
      if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
      lines.push_back(line);
      used[j - 1] = true;
      limit = c.span.begin;
      --j;
    }
    if (lines.empty()) continue;
    std::reverse(lines.begin(), lines.end());
    for (size_t k = 0; k < lines.size(); ++k) {
      if (k) doc += '\n';
      doc += lines[k];
    }
    std::string_view stored = module_.arena.copy_string(doc);
    if (def.kind == Definition::Func) def.func->doc = stored;
    else def.type->doc = stored;
  }
  for (size_t i = 0; i < comments.size(); ++i) {
    if (comments[i].kind == CommentKind::Doc && !used[i]) {
      diags_.emit(DiagKind::DanglingDocComment, comments[i].span)
          .help("use `//` for an ordinary comment, or place it directly above a `def` or `type`");
    }
  }
}

FuncDef* Parser::parse_def() {
  Token def = bump();
  auto* f = module_.arena.make<FuncDef>();
  if (at(Tok::Global)) {
    Token name = bump();
    f->name = token_text(name).substr(1);
    f->name_span = tok_span(name);
  } else {
    error(DiagKind::ExpectedToken, tok_span(peek()), {"a global name like `@main`", found_description()});
    if (!at(Tok::LParen) && !at(Tok::LBracket)) {
      skip_until({});
      while (at(Tok::RBrace)) bump();
      return nullptr;
    }
    f->name_span = span(prev_end_, prev_end_);
  }
  f->fn = parse_function_rest(def.begin);
  f->span = from(def.begin);
  return f;
}

std::span<TypeParam*> Parser::parse_type_params() {
  Token open = bump();  // [
  std::vector<TypeParam*> params;
  while (!at(Tok::RBracket) && !at(Tok::Eof)) {
    if (at(Tok::Ident)) {
      Token t = bump();
      params.push_back(module_.arena.make<TypeParam>(TypeParam{token_text(t), tok_span(t)}));
    } else {
      error(DiagKind::ExpectedToken, tok_span(peek()), {"a type parameter name", found_description()});
      skip_until({Tok::Comma, Tok::RBracket});
    }
    if (!eat(Tok::Comma)) break;
  }
  expect_close(Tok::RBracket, open);
  return module_.arena.copy(params);
}

FunctionExpr* Parser::parse_function_rest(uint32_t begin) {
  auto* fn = make<FunctionExpr>(span(begin, begin));
  if (at(Tok::LBracket)) fn->type_params = parse_type_params();
  std::vector<VarDecl*> params;
  std::vector<Attr> attrs;
  if (at(Tok::LParen)) {
    Token open = bump();
    while (!at(Tok::RParen) && !at(Tok::Eof) && !at_definition_start()) {
      if (at_attr_start()) {
        parse_attr(attrs);
      } else if (at(Tok::Local) || at(Tok::Graph)) {
        if (!attrs.empty()) error(DiagKind::PositionalAfterAttribute, tok_span(peek()));
        Token name = bump();
        VarDecl* v = make_var(name, VarKind::Param);
        if (at(Tok::LBrace)) {
          Token lb = bump();
          std::vector<Attr> vattrs;
          while (!at(Tok::RBrace) && !at(Tok::Eof)) {
            if (!at_attr_start()) {
              error(DiagKind::ExpectedToken, tok_span(peek()), {"an attribute `key=value`", found_description()});
              skip_until({Tok::Comma});
            } else {
              parse_attr(vattrs);
            }
            if (!eat(Tok::Comma) && !at_attr_start()) break;
          }
          expect_close(Tok::RBrace, lb);
          v->attrs = module_.arena.copy(vattrs);
        }
        if (eat(Tok::Colon)) v->annotation = parse_type();
        params.push_back(v);
      } else {
        error(DiagKind::ExpectedToken, tok_span(peek()), {"a parameter like `%x: float32`", found_description()});
        skip_until({Tok::Comma});
      }
      if (eat(Tok::Comma)) continue;
      // TVM accepts a missing comma between attributes.
      if (!attrs.empty() && at_attr_start()) continue;
      break;
    }
    expect_close(Tok::RParen, open);
  } else {
    expect(Tok::LParen, "`(` to start the parameter list");
  }
  fn->params = module_.arena.copy(params);
  fn->attrs = module_.arena.copy(attrs);
  if (at(Tok::Arrow) || (at(Tok::Minus) && peek(1).kind == Tok::Gt)) {
    if (!eat(Tok::Arrow)) {
      bump();
      bump();
    }
    fn->ret_type = parse_type();
  }
  if (at(Tok::LBrace)) {
    Token open = bump();
    fn->body = parse_block();
    expect_close(Tok::RBrace, open);
  } else {
    expect(Tok::LBrace, "`{` to start the function body");
    fn->body = error_expr(span(prev_end_, prev_end_));
    skip_until({});
    if (at(Tok::RBrace)) bump();
  }
  fn->span = from(begin);
  return fn;
}

TypeDef* Parser::parse_typedef(bool is_extern, uint32_t begin) {
  auto* td = module_.arena.make<TypeDef>();
  td->is_extern = is_extern;
  if (at(Tok::Ident)) {
    Token name = bump();
    td->name = token_text(name);
    td->name_span = tok_span(name);
  } else {
    error(DiagKind::ExpectedToken, tok_span(peek()), {"a type name", found_description()});
    skip_until({});
    while (at(Tok::RBrace)) bump();
    return nullptr;
  }
  if (at(Tok::LBracket)) td->type_params = parse_type_params();
  std::vector<CtorDef*> ctors;
  if (at(Tok::LBrace)) {
    Token open = bump();
    td->has_braces = true;
    uint32_t tag = 0;
    while (!at(Tok::RBrace) && !at(Tok::Eof) && !at_definition_start()) {
      if (!at(Tok::Ident)) {
        error(DiagKind::ExpectedToken, tok_span(peek()), {"a constructor name", found_description()});
        skip_until({Tok::Comma});
        if (!eat(Tok::Comma)) break;
        continue;
      }
      Token name = bump();
      auto* c = module_.arena.make<CtorDef>();
      c->name = token_text(name);
      c->name_span = tok_span(name);
      c->owner = td;
      c->tag = tag++;
      if (at(Tok::LParen)) {
        Token lp = bump();
        c->has_parens = true;
        std::vector<Type*> fields;
        while (!at(Tok::RParen) && !at(Tok::Eof)) {
          fields.push_back(parse_type());
          if (!eat(Tok::Comma)) break;
        }
        expect_close(Tok::RParen, lp);
        c->fields = module_.arena.copy(fields);
      }
      c->span = from(name.begin);
      ctors.push_back(c);
      if (!eat(Tok::Comma)) break;
    }
    expect_close(Tok::RBrace, open);
  }
  td->ctors = module_.arena.copy(ctors);
  td->span = from(begin);
  if (is_extern && !ctors.empty()) {
    diags_.emit(DiagKind::ExternTypeWithConstructors, Span::cover(ctors.front()->span, ctors.back()->span))
        .label(td->name_span, "declared `extern` here")
        .help("remove `extern` to define an algebraic data type, or remove the constructors");
  }
  return td;
}

VarDecl* Parser::make_var(const Token& name_tok, VarKind kind) {
  auto* v = module_.arena.make<VarDecl>();
  v->name = token_text(name_tok).substr(1);
  v->span = tok_span(name_tok);
  v->kind = kind;
  return v;
}

}  // namespace detail
}  // namespace relay
