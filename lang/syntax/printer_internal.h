// Internal to the Relay pretty printer (printer*.cpp); not a public header.
//
// The Relay pretty printer (see printer.h).
//
// Output goes through `Out`, a small layout engine with lazy indentation and spaces,
// line breaks forced by line comments, and a queue of comments waiting for the end of
// the current line. Tokens are of two sorts: the first token of a node (announced by
// `leading`) ends any pending line, while fixed tokens between nodes (`=`, `->`, `(`,
// infix operators) and separators / closing brackets stay on it.
//
// The `Printer` walks the tree and places each source comment relative to the nodes
// around it:
//
//   leading(pos)   before a node: the comments that start before `pos`. A comment alone
//                  on its source line gets a line of its own; a line comment after code
//                  ends the output line; any other block comment stays inline before
//                  the code that follows it.
//   trailing(end)  after a node: the comments that follow it on the same source line.
//                  A block comment separated from the node by whitespace only goes right
//                  after it (`%x /* ty=... */,`); line comments, and comments after a
//                  `,` / `;` that end the line, go at the end of the output line, after
//                  the separator.
//   sep / close    comments between the last item and the separator or closing bracket
//                  in the source go before it in the output.
//
// Every decision depends only on a comment's position relative to nodes, separators
// and line breaks, and the output keeps each comment in the same position class, so a
// second pass decides the same way (idempotence). The cursor over the comments only
// moves forward, so every comment is printed exactly once, in source order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lang/syntax/lexer.h"
#include "lang/syntax/printer.h"

namespace relay::printer_internal {

// ---------------------------------------------------------------------------------------
// Layout engine

class Out {
 public:
  std::string buf;
  int indent = 0;

  // A comment waiting for the end of the current line.
  struct Pending {
    std::string_view text;
    bool own_line;  // goes on a line of its own (after the current one)
    int indent = 0;  // when it goes on a line of its own
  };

  struct State {
    size_t size;
    int indent, next_extra;
    bool at_line_start, need_nl, space_pending, mid_stmt, comment_line, flush_next, after_opener;
    std::vector<Pending> eol;
  };
  State save() const {
    return State{buf.size(),    indent,    next_extra_,   at_line_start_, need_nl_,
                 space_pending_, mid_stmt_, comment_line_, flush_next_,    after_opener_,
                 eol_};
  }
  void restore(const State& s) {
    buf.resize(s.size);
    indent = s.indent;
    next_extra_ = s.next_extra;
    at_line_start_ = s.at_line_start;
    need_nl_ = s.need_nl;
    space_pending_ = s.space_pending;
    mid_stmt_ = s.mid_stmt;
    comment_line_ = s.comment_line;
    flush_next_ = s.flush_next;
    after_opener_ = s.after_opener;
    eol_ = s.eol;
  }

  // The next token starts a node: pending end-of-line comments go before it (they end
  // their line). Fixed tokens between nodes (`->`, `=`, `(`, infix operators, ...) stay
  // on the line of the code before them, and the comments follow them.
  void node_start() { flush_next_ = true; }

  // A token of code.
  void put(std::string_view s) {
    if (flush_next_) {
      flush_eol();
      flush_next_ = false;
    }
    prepare();
    buf += s;
    mid_stmt_ = true;
    after_opener_ = !s.empty() && (s.back() == '{' || s.back() == '(' || s.back() == '[');
  }
  // A separator (`,` `;`) or closing bracket: attaches to the previous token.
  void sep(std::string_view s) {
    if (need_nl_) break_line();
    if (at_line_start_) write_indent();
    space_pending_ = false;
    buf += s;
    mid_stmt_ = true;
    after_opener_ = false;
  }
  void space() { space_pending_ = true; }
  // A structural line break (a no-op at the start of a line).
  void nl() {
    flush_eol();
    if (!at_line_start_) raw_nl();
    need_nl_ = false;
    next_extra_ = 0;
    mid_stmt_ = false;
    flush_next_ = false;
  }
  void blank_line() {
    nl();
    if (!buf.empty() && !(buf.size() >= 2 && buf[buf.size() - 1] == '\n' &&
                          buf[buf.size() - 2] == '\n'))
      buf += '\n';
  }
  // The current statement is complete: a comment line that follows is not a continuation.
  void end_stmt() { mid_stmt_ = false; }

  // ---- comments ----
  // Alone on its line.
  void comment_own_line(std::string_view c) {
    flush_eol();
    if (!at_line_start_) break_line();
    if (need_nl_) raw_nl();
    next_extra_ = 0;  // at the indentation of the enclosing block, never a continuation
    prepare();
    buf += c;
    need_nl_ = true;
    comment_line_ = c.starts_with("/*");
  }
  // A line comment after code: it ends the line.
  void comment_inline_line(std::string_view c) {
    if (continue_comment_line(c)) return;
    if (at_line_start_ && !need_nl_ && eol_.empty() && buf.size() >= 2 && buf.back() == '\n') {
      // Right after an opening bracket and its line break: keep it on the bracket's line.
      char prev = buf[buf.size() - 2];
      if (prev == '{' || prev == '(' || prev == '[') {
        buf.pop_back();
        at_line_start_ = false;
      }
    }
    eol_.push_back(Pending{c, false, indent});
  }
  // A comment alone on its line, found after code that is already printed: it goes on
  // a line of its own after the current line (fixed tokens that follow stay on this one).
  void comment_own_line_after(std::string_view c) { eol_.push_back(Pending{c, true, indent}); }
  // After an opening bracket that starts an indented block: pending comments that go on
  // lines of their own belong to the block.
  void reindent_pending() {
    for (Pending& p : eol_) p.indent = indent;
  }
  // A block comment before code on the same line.
  void comment_inline_block(std::string_view c) {
    if (continue_comment_line(c)) return;
    flush_eol();
    space_pending_ = !after_open();
    prepare();
    buf += c;
    space_pending_ = true;
  }
  // A block comment right after code.
  void comment_trailing_block(std::string_view c) {
    if (!eol_.empty()) {  // the line already ends in a comment
      eol_.push_back(Pending{c, true, indent});
      return;
    }
    space_pending_ = true;
    prepare();
    buf += c;
  }
  // The next comment does not continue the current line of comments.
  void end_comment_line() { comment_line_ = false; }
  // A comment for the end of the current line.
  void comment_eol(std::string_view c) { eol_.push_back(Pending{c, false, indent}); }

  // The current line is finished (a line comment was written or is pending).
  bool line_ended() const { return need_nl_ || !eol_.empty(); }
  // A blank line may go here: not at the top of the output or right after an opening
  // bracket, and not after inline comments waiting for their code on the same line.
  bool can_blank() const {
    if (!at_line_start_ && !need_nl_) return false;
    return buf.find_first_not_of(" \n") != std::string::npos && !after_opener_;
  }

 private:
  // More comments on a line that holds only comments (after a comment that stood alone
  // on its source line): they stay on that line, and code still starts a new one.
  bool continue_comment_line(std::string_view c) {
    if (!comment_line_ || !need_nl_ || !eol_.empty()) return false;
    buf += ' ';
    buf += c;
    if (!c.starts_with("/*")) comment_line_ = false;  // a line comment ends the line
    return true;
  }
  bool after_open() const {
    if (at_line_start_ || need_nl_ || buf.empty()) return true;
    char c = buf.back();
    return c == '(' || c == '[' || c == '{' || c == ' ';
  }
  void write_indent() {
    buf.append(static_cast<size_t>(std::max(0, indent + next_extra_)), ' ');
    at_line_start_ = false;
  }
  void prepare() {
    if (need_nl_) break_line();
    if (at_line_start_) {
      write_indent();
    } else if (space_pending_ && !buf.empty() && buf.back() != ' ') {
      buf += ' ';
    }
    space_pending_ = false;
  }
  // A line break forced by a comment. The next line starts at the block's indentation
  // even inside a statement: whether only comments or also code follow on it is not
  // known yet, and a second formatting pass must indent it the same way.
  void break_line() {
    raw_nl();
    need_nl_ = false;
    next_extra_ = 0;
  }
  void raw_nl() {
    comment_line_ = false;
    while (!buf.empty() && buf.back() == ' ') buf.pop_back();
    buf += '\n';
    at_line_start_ = true;
    space_pending_ = false;
  }
  void flush_eol() {
    if (eol_.empty()) return;
    bool ended = need_nl_;  // the current line cannot take more
    for (const Pending& p : eol_) {
      if (p.own_line || ended) {
        if (!at_line_start_) raw_nl();
        buf.append(static_cast<size_t>(std::max(0, p.indent)), ' ');
        at_line_start_ = false;
      } else if (at_line_start_) {
        write_indent();
      } else if (buf.back() != ' ') {
        buf += ' ';
      }
      buf += p.text;
      ended = p.own_line || !p.text.starts_with("/*");
    }
    eol_.clear();
    space_pending_ = false;
    need_nl_ = true;
  }

  int next_extra_ = 0;
  bool at_line_start_ = true;
  bool need_nl_ = false;
  bool space_pending_ = false;
  bool mid_stmt_ = false;
  bool comment_line_ = false;
  bool flush_next_ = false;
  bool after_opener_ = false;  // the last code token opened a bracket
  std::vector<Pending> eol_;
};

// Where an expression is printed; decides the parentheses it needs.
enum class Ctx {
  Body,     // function body, `if` branch, clause body: bindings become lines
  Item,     // block result or sequence value: braced blocks keep their braces
  Open,     // call argument, tuple field, condition: any expression
  Rhs,      // let / graph binding right-hand side: TVM parses a `binop` here
  Operand,  // infix operand (the infix printer adds precedence parentheses)
  Callee,   // call-level: `atomic` or a call
  Atom,     // `atomic` without a projection: projection bases
  Attr,     // attribute values: `atomic`
  Unary,    // operand of unary minus
};

// ---------------------------------------------------------------------------------------
// The printer (members are defined in printer.cpp, printer_comments.cpp, printer_expr.cpp
// and printer_types.cpp, by section)

class Printer {
 public:
  Printer(const PrintOptions& options, const SourceFile* file,
          const std::vector<Comment>* comments)
      : options_(options), file_(file) {
    if (options.comments && file && comments) {
      text_ = file->text;
      comments_ = comments;
      cend_ = comments->size();
    }
  }

  void limit_comments(uint32_t begin, uint32_t end);

  std::string take() {
    out_.nl();
    return std::move(out_.buf);
  }

  void module(const Module& m);

  void top_expr(const Expr* e) {
    expr(e, Ctx::Item);
    leading(std::numeric_limits<uint32_t>::max());
    out_.end_stmt();
  }

  void top_body(const Expr* e) {
    body(e);
    out_.end_stmt();
  }

  void top_type(const Type* t) { type(t); }
  void top_dim(const DimExpr* d) { dim(d); }
  void top_pattern(const Pattern* p) { pattern(p); }
  void top_attr_value(const AttrValue* v) { attr_value(v); }

 private:
  // -------------------------------------------------------------------------------------
  // Comments (printer_comments.cpp)

  bool comments_on() const { return comments_ != nullptr; }

  static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  long comment_at(uint32_t pos) const;
  bool starts_line(uint32_t pos) const;
  bool rest_is_trivia(uint32_t pos) const;
  std::string_view comment_text(const Comment& c) const;
  mutable std::deque<std::string> normalized_comments_;  // comment_text's copies
  void emit_leading(const Comment& c, bool after_code = false);
  size_t leading(uint32_t pos);
  bool blank_before(uint32_t pos) const;
  void blank_and_leading(uint32_t pos);
  void maybe_blank(uint32_t pos);
  void trailing(uint32_t end, bool parenthesized);
  uint32_t close_pos(uint32_t pos, char ch) const;
  void sep(uint32_t item_end, std::string_view s);
  uint32_t closer_pos(uint32_t last_end, char ch) const;
  void flush_before(uint32_t last_end, char ch);
  void close(uint32_t last_end, std::string_view tok);
  static uint32_t last_arg_end(const CallExpr* c);

  template <class T>
  static uint32_t end_of(const T* node) {
    return node ? node->span.end : 0;
  }
  static uint32_t var_end(const VarDecl* v);
  bool has_breaking_comment_in(uint32_t begin, uint32_t end) const;
  uint32_t next_token_pos_no_paren(uint32_t pos) const;
  uint32_t next_token_pos(uint32_t pos) const;

  // -------------------------------------------------------------------------------------
  // Definitions (printer.cpp)

  void doc_lines(std::string_view doc);
  void func_def(const FuncDef& d);
  void type_params(std::span<TypeParam*> ps);
  void type_def(const TypeDef& d);
  uint32_t skip_commas(uint32_t pos) const;

  // -------------------------------------------------------------------------------------
  // Functions (printer_expr.cpp)

  void param(const VarDecl* v);
  void attr(const Attr& a);
  void header_items(const FunctionExpr* f, bool broken);
  void header(const FunctionExpr* f, const std::string& prefix, bool broken);
  void function(const FunctionExpr* f, const std::string& prefix, uint32_t name_end = 0);

  // -------------------------------------------------------------------------------------
  // Blocks (printer_expr.cpp)

  void type_comment(const Expr* e);  // PrintOptions::type_comment
  void binding(const Binding& b);
  void block_lines(const Expr* e);
  void body(const Expr* e);
  void wrapped_block(const BlockExpr* b, std::string_view open, std::string_view close);

  // -------------------------------------------------------------------------------------
  // Expressions (printer_expr.cpp)

  static bool callee_ok(const Expr* e);
  static bool atom_ok(const Expr* e);
  bool needs_parens(const Expr* e, Ctx ctx) const;
  void expr(const Expr* e, Ctx ctx);
  uint32_t block_open_pos(const BlockExpr* b) const;
  uint32_t open_paren_pos(const Expr* e) const;
  long comment_ending_at(uint32_t pos) const;
  void operand(const Expr* e, int prec, bool left);
  void args(const CallExpr* c);
  void expr_inner(const Expr* e);
  void branch(const Expr* e, uint32_t close);
  static bool multiline(const Expr* e);
  static bool attr_multiline(const AttrValue* v);
  void match(const MatchExpr* m);

  // -------------------------------------------------------------------------------------
  // Variables, patterns, attributes (printer_types.cpp)

  void var_decl(const VarDecl* v);
  void pattern(const Pattern* p);
  void attr_value(const AttrValue* v);

  // -------------------------------------------------------------------------------------
  // Types (printer_types.cpp)

  void type(const Type* t);
  void dim(const DimExpr* d, int ctx_prec = 0, bool right = false);

  const PrintOptions& options_;
  const SourceFile* file_ = nullptr;
  std::string_view text_;
  const std::vector<Comment>* comments_ = nullptr;
  size_t ci_ = 0;
  size_t cend_ = 0;
  Out out_;
};

}  // namespace relay::printer_internal
