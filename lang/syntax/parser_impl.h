// Internal to the parser: the Parser class shared by parser*.cpp. Not a public header.
//
// Recovery strategy: every parse function returns a node (an Error node when nothing
// sensible was found) and reports at most one diagnostic for a given token. Callers
// resynchronise at the boundaries that matter: `;` and binding keywords inside
// blocks, `,` and the closing bracket inside lists, `def`/`type`/`extern` at the top
// level. `skip_until` skips balanced brackets so a bad sub-expression never derails
// the enclosing construct.
#pragma once

#include <string>
#include <vector>

#include "lang/syntax/lexer.h"
#include "lang/syntax/parser.h"

namespace relay::detail {

class Parser {
 public:
  Parser(const SourceFile& file, DiagnosticBag& diags, Module& module);

  void parse_module(const ParseOptions& options);
  Expr* parse_lone_expression();

 private:
  // ---- token stream -------------------------------------------------------------------
  const Token& peek(int k = 0);
  Token bump();
  bool at(Tok k) { return peek().kind == k; }
  bool at_ident(std::string_view text) { return at(Tok::Ident) && token_text(peek()) == text; }
  bool eat(Tok k) {
    if (!at(k)) return false;
    bump();
    return true;
  }
  std::string_view token_text(const Token& t) const { return text_.substr(t.begin, t.end - t.begin); }
  Span span(uint32_t b, uint32_t e) const { return Span{file_.id, b, e}; }
  Span tok_span(const Token& t) const { return span(t.begin, t.end); }
  Span from(uint32_t begin) const { return span(begin, prev_end_ < begin ? begin : prev_end_); }

  // ---- diagnostics and recovery --------------------------------------------------------
  // Reports unless an error was already reported at this token (avoids cascades).
  Diagnostic* error(DiagKind kind, Span at, std::vector<std::string> args = {});
  // "expected X, found Y" at the current token; returns false.
  bool expect(Tok k, std::string_view what = {});
  // Like expect for a closing bracket, with a label on the opening one.
  bool expect_close(Tok close, const Token& open);
  std::string found_description();
  // Skips tokens (balancing brackets) until one of `stops` at depth 0, an unmatched
  // closing bracket, a definition keyword, or end of file. Nothing is consumed at the
  // stop token.
  void skip_until(std::initializer_list<Tok> stops);
  bool at_definition_start();
  bool at_expression_start();
  // Reports and consumes closing brackets that close nothing; true if any.
  bool skip_stray_closers();
  // Consumes one balanced bracket group starting at the current opening bracket.
  void skip_group();
  bool at_closing();

  // ---- definitions ----------------------------------------------------------------------
  void parse_file_attribute(const Token& t, bool at_start);
  void parse_metadata_section(const Token& t);
  FuncDef* parse_def();
  TypeDef* parse_typedef(bool is_extern, uint32_t begin);
  FunctionExpr* parse_function_rest(uint32_t begin);
  std::span<TypeParam*> parse_type_params();
  void attach_doc_comments();

  // ---- expressions ------------------------------------------------------------------------
  // item (';' item)*, with bindings; `first_item` is an item the caller already parsed.
  Expr* parse_block(Expr* first_item = nullptr);
  Expr* parse_item();             // { block } | match | binop
  Expr* parse_argument();         // an item, or a block when it starts with a binding
  bool bracket_closes_after(uint32_t offset) const;
  Expr* parse_binding_value();    // binop, or match (accepted as TVM prints it)
  Expr* parse_binop(int min_prec);
  Expr* parse_unary();
  Expr* parse_postfix();
  Expr* parse_atomic();
  Expr* parse_literal(bool negative, uint32_t begin);
  Expr* parse_paren();
  Expr* parse_if();
  Expr* parse_match();
  Expr* parse_ref_op();
  Expr* parse_call_args(Expr* callee);
  Expr* parse_ident_path();
  Expr* error_expr(Span s);

  // ---- attributes -------------------------------------------------------------------------
  bool at_attr_start();
  void parse_attr(std::vector<Attr>& out);
  AttrValue* parse_attr_value();

  // ---- types and patterns -----------------------------------------------------------------
  Type* parse_type();
  Type* parse_tensor_type(uint32_t begin);
  DimExpr* parse_dim(int min_prec);
  DimExpr* parse_dim_primary();
  Pattern* parse_pattern();
  VarDecl* make_var(const Token& name_tok, VarKind kind);

  template <class T, class... A>
  T* make(A&&... args) {
    return module_.arena.make<T>(std::forward<A>(args)...);
  }
  // Names for nodes: a source slice when contiguous, else an arena copy.
  std::string_view intern(std::string_view s) { return s; }

  struct DepthGuard {
    Parser& p;
    bool ok;
    explicit DepthGuard(Parser& parser) : p(parser), ok(++parser.depth_ <= kMaxNestingDepth) {}
    ~DepthGuard() {
      // Errors in the constructs just above the cut are consequences of the cut.
      if (--p.depth_ < kMaxNestingDepth - 16) p.unwinding_too_deep_ = p.reported_too_deep_ = false;
    }
  };
  // Reports E0027 once per nesting excursion and skips the offending construct.
  Expr* too_deep(bool skip = true);

  const SourceFile& file_;
  std::string_view text_;
  DiagnosticBag& diags_;
  Module& module_;
  Lexer lexer_;
  static constexpr int kLookahead = 8;
  Token ring_[kLookahead];
  int ring_start_ = 0;
  int ring_size_ = 0;
  uint32_t prev_end_ = 0;          // end offset of the last consumed token
  uint32_t last_error_at_ = ~0u;   // token offset of the last reported error
  int depth_ = 0;
  bool reported_too_deep_ = false;
  // Open brackets of each kind ((, [, {) among the tokens consumed so far; a closing
  // bracket with none open is stray (E0026).
  int open_[3] = {0, 0, 0};
  bool unwinding_too_deep_ = false;  // suppress cascades while unwinding from E0027
};

}  // namespace relay::detail
