#include "ide/semantic_tokens.h"

#include <algorithm>
#include <set>

#include "lang/base/dtype.h"
#include "lang/ops/op_registry.h"
#include "lang/syntax/lexer.h"
#include "lang/syntax/walk.h"
#include "lang/types/database_chunks.h"

namespace relay::ide {

namespace {

constexpr std::string_view kTypes[] = {"parameter", "variable", "function", "operator", "enumMember", "type",
                                       "property",  "number",   "string",   "comment",  "keyword",    "macro"};
constexpr std::string_view kModifiers[] = {"declaration", "defaultLibrary", "deprecated"};

struct Collector {
  uint32_t offset;  // the chunk's position in the real file
  std::vector<SemanticToken>& out;
  void add(Span s, TokenType t, uint32_t mods = 0) {
    if (s.end > s.begin) out.push_back({s.begin + offset, s.end + offset, t, mods});
  }
  void attrs(std::span<Attr> as) {
    for (const Attr& a : as) add(a.key_span, TokenType::Property);
  }
  void decl(const VarDecl* v, TokenType t) {
    if (!v) return;
    add(v->span, t, kModDeclaration);
    attrs(v->attrs);
  }
  void pattern(const Pattern* p) {
    if (!p) return;
    if (p->kind == PatternKind::Var) decl(p->var, TokenType::Variable);
    if (p->kind == PatternKind::Ctor)
      add(Span{p->span.file, p->span.begin, p->span.begin + static_cast<uint32_t>(p->ctor_name.size())},
          TokenType::EnumMember);
    for (const Pattern* f : p->fields) pattern(f);
  }
  void expr(Expr* e) {
    switch (e->kind) {
      case ExprKind::LocalRef: {
        auto* r = static_cast<RefExpr*>(e);
        add(e->span, r->decl && r->decl->kind == VarKind::Param ? TokenType::Parameter : TokenType::Variable);
        break;
      }
      case ExprKind::GlobalRef: add(e->span, TokenType::Function); break;
      case ExprKind::OpRef: {
        auto* r = static_cast<RefExpr*>(e);
        add(e->span, TokenType::Operator, kModDefaultLibrary | (r->op && !r->op->supported ? uint32_t{kModDeprecated} : 0u));
        break;
      }
      case ExprKind::CtorRef: add(e->span, TokenType::EnumMember); break;
      case ExprKind::MetaRef: add(e->span, TokenType::Macro); break;
      case ExprKind::Function: {
        auto* f = static_cast<FunctionExpr*>(e);
        for (const VarDecl* p : f->params) decl(p, TokenType::Parameter);
        attrs(f->attrs);
        break;
      }
      case ExprKind::Call: attrs(static_cast<CallExpr*>(e)->attrs); break;
      case ExprKind::Block:
        for (const Binding& b : static_cast<BlockExpr*>(e)->bindings)
          decl(b.var, b.var && b.var->kind == VarKind::Param ? TokenType::Parameter : TokenType::Variable);
        break;
      case ExprKind::Match:
        for (const Clause& c : static_cast<MatchExpr*>(e)->clauses) pattern(c.pattern);
        break;
      default: break;
    }
  }
};

std::optional<TokenType> lexical(Tok k) {
  switch (k) {
    case Tok::Integer:
    case Tok::Float: return TokenType::Number;
    case Tok::String: return TokenType::String;
    case Tok::FileAttr:
    case Tok::Meta: return TokenType::Macro;
    case Tok::KwDef: case Tok::KwFn: case Tok::KwLet: case Tok::KwIf: case Tok::KwElse: case Tok::KwType:
    case Tok::KwMatch: case Tok::KwMatchQ: case Tok::KwExtern: case Tok::KwFreeVar: case Tok::KwRef:
    case Tok::KwRefRead: case Tok::KwRefWrite:
      return TokenType::Keyword;
    default: return std::nullopt;
  }
}

}  // namespace

std::span<const std::string_view> token_type_names() { return kTypes; }
std::span<const std::string_view> token_modifier_names() { return kModifiers; }

std::vector<SemanticToken> semantic_tokens(const FileCheck& check) {
  const SourceFile& file = *check.source;
  const std::string_view text = file.text;
  std::vector<SemanticToken> ir;
  std::set<std::string_view> type_names;  // ADTs and type parameters, for names in types
  for (const CheckedDefinition& d : check.definitions) {
    Collector c{d.chunk_offset, ir};
    c.add(d.def->name_span, TokenType::Function, kModDeclaration);
    walk_expr(d.def->fn, [&](Expr* e) {
      if (auto* f = as<FunctionExpr>(e))
        for (const TypeParam* p : f->type_params) type_names.insert(p->name);
      c.expr(e);
    });
  }
  for (const auto& chunk : check.chunks) {
    if (!chunk->module) continue;
    Collector c{chunk->offset, ir};
    for (const Definition& def : chunk->module->defs) {
      if (def.kind != Definition::Type || !def.type) continue;
      type_names.insert(def.type->name);
      c.add(def.type->name_span, TokenType::Type, kModDeclaration);
      for (const TypeParam* p : def.type->type_params) type_names.insert(p->name), c.add(p->span, TokenType::Type);
      for (const CtorDef* k : def.type->ctors) c.add(k->name_span, TokenType::EnumMember, kModDeclaration);
    }
  }
  std::vector<bool> covered(text.size() + 1, false);
  std::vector<SemanticToken> all;
  for (const SemanticToken& t : ir) {
    if (t.end > text.size()) continue;
    bool overlap = false;
    for (uint32_t i = t.begin; i < t.end && !overlap; ++i) overlap = covered[i];
    if (overlap) continue;
    for (uint32_t i = t.begin; i < t.end; ++i) covered[i] = true;
    all.push_back(t);
  }
  // The lexer supplies literals, keywords, comments and names inside types.
  DiagnosticBag diags;
  Lexer lexer(file, diags);
  for (Token t = lexer.next(); t.kind != Tok::Eof; t = lexer.next()) {
    if (t.end > text.size() || covered[t.begin]) continue;
    std::optional<TokenType> type = lexical(t.kind);
    if (!type && t.kind == Tok::Ident) {
      std::string_view w = text.substr(t.begin, t.end - t.begin);
      if (w == "True" || w == "False") type = TokenType::Keyword;
      else if (w == "Tensor" || parse_dtype(w) || type_names.count(w)) type = TokenType::Type;
    }
    if (type) all.push_back({t.begin, t.end, *type, 0});
  }
  for (const Comment& cm : lexer.comments()) all.push_back({cm.span.begin, cm.span.end, TokenType::Comment, 0});
  std::sort(all.begin(), all.end(), [](const SemanticToken& a, const SemanticToken& b) { return a.begin < b.begin; });
  // One token per line: clients without multiline-token support need that.
  std::vector<SemanticToken> out;
  out.reserve(all.size());
  for (const SemanticToken& t : all) {
    uint32_t b = t.begin;
    while (b < t.end) {
      uint32_t e = b;
      while (e < t.end && text[e] != '\n' && text[e] != '\r') ++e;
      if (e > b) out.push_back({b, e, t.type, t.modifiers});
      b = e + 1;
    }
  }
  return out;
}

}  // namespace relay::ide
