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
#include "lang/syntax/printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "lang/syntax/lexer.h"

namespace relay {

// ---------------------------------------------------------------------------------------
// Literals

std::string format_float_literal(double v, DataType dtype) {
  std::string suffix = "f";
  if (dtype.code == DataType::Float && dtype.bits == 16) suffix = "f16";
  if (dtype.code == DataType::Float && dtype.bits == 64) suffix = "f64";
  if (std::isnan(v)) return "nanf";
  if (std::isinf(v)) return v < 0 ? "-inff" : "inff";
  char buf[64];
  std::to_chars_result r;
  if (suffix == "f") {
    float f = static_cast<float>(v);
    if (std::isinf(f)) return f < 0 ? "-inff" : "inff";
    r = std::to_chars(buf, buf + sizeof buf, f);
    // The shortest digits of a float near FLT_MAX read back (as a double) slightly above
    // FLT_MAX, which a reader may reject as out of range: use the exact value instead.
    double back = 0;
    std::from_chars(buf, r.ptr, back);
    if (std::fabs(back) > static_cast<double>(std::numeric_limits<float>::max()))
      r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(f));
  } else {
    r = std::to_chars(buf, buf + sizeof buf, v);
  }
  return std::string(buf, r.ptr) + suffix;
}

std::string format_int_literal(int64_t v, DataType dtype) {
  std::string s = std::to_string(v);
  if (dtype.is_bool()) return v ? "True" : "False";
  if (dtype.code == DataType::Int && dtype.bits == 64) s += "i64";
  if (dtype.code == DataType::Int && dtype.bits == 16) s += "i16";
  return s;
}

std::string format_constant(const ConstantExpr* c) {
  if (c->dtype.is_bool()) return c->int_value ? "True" : "False";
  if (c->dtype.is_float()) return format_float_literal(c->float_value, c->dtype);
  return format_int_literal(c->int_value, c->dtype);
}

namespace {

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

int dim_prec(DimKind k) {
  switch (k) {
    case DimKind::Add:
    case DimKind::Sub: return 10;
    case DimKind::Mul:
    case DimKind::Div: return 12;
    default: return 100;
  }
}

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

// ---------------------------------------------------------------------------------------
// The printer

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

  // Restricts comments to those inside [begin, end).
  void limit_comments(uint32_t begin, uint32_t end) {
    if (!comments_) return;
    const auto& cs = *comments_;
    ci_ = std::lower_bound(cs.begin(), cs.end(), begin,
                           [](const Comment& c, uint32_t p) { return c.span.begin < p; }) -
          cs.begin();
    cend_ = std::lower_bound(cs.begin(), cs.end(), end,
                             [](const Comment& c, uint32_t p) { return c.span.begin < p; }) -
            cs.begin();
  }

  std::string take() {
    out_.nl();
    return std::move(out_.buf);
  }

  void module(const Module& m) {
    if (m.has_version) leading(m.version_span.begin);
    out_.put("#[version = \"0.0.5\"]");
    if (m.has_version) trailing(m.version_span.end, false);
    out_.end_stmt();
    out_.nl();
    if (m.imports_prelude) {
      if (!m.imports.empty()) leading(m.imports.front().begin);
      out_.put("#[import = \"prelude\"]");
      if (!m.imports.empty()) trailing(m.imports.back().end, false);
      out_.end_stmt();
      out_.nl();
    }
    bool first = true;
    for (const Definition& d : m.defs) {
      if (!first) out_.blank_line();
      first = false;
      if (d.kind == Definition::Func && d.func) {
        func_def(*d.func);
      } else if (d.kind == Definition::Type && d.type) {
        type_def(*d.type);
      }
      out_.end_stmt();
      out_.nl();
    }
    if (m.expr) {
      if (!first) out_.blank_line();
      expr(m.expr, Ctx::Item);
      out_.end_stmt();
      out_.nl();
    }
    // Whatever is left (comments after the last definition).
    leading(m.metadata_span.size() > 0 ? m.metadata_span.begin
                                        : std::numeric_limits<uint32_t>::max());
    leading(std::numeric_limits<uint32_t>::max());
    out_.end_stmt();
    out_.nl();
    if (m.metadata_span.size() > 0 && file_) {
      std::string_view meta = file_->slice(m.metadata_span);
      out_.blank_line();
      out_.buf += meta;
      if (!meta.empty() && meta.back() != '\n') out_.buf += '\n';
    }
  }

  void top_expr(const Expr* e) {
    expr(e, Ctx::Item);
    leading(std::numeric_limits<uint32_t>::max());
    out_.end_stmt();
  }

  void top_type(const Type* t) { type(t); }
  void top_dim(const DimExpr* d) { dim(d); }
  void top_pattern(const Pattern* p) { pattern(p); }
  void top_attr_value(const AttrValue* v) { attr_value(v); }

 private:
  // -------------------------------------------------------------------------------------
  // Comments

  bool comments_on() const { return comments_ != nullptr; }

  static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  // Index of the comment starting exactly at `pos`, or -1.
  long comment_at(uint32_t pos) const {
    const auto& cs = *comments_;
    auto it = std::lower_bound(cs.begin(), cs.end(), pos,
                               [](const Comment& c, uint32_t p) { return c.span.begin < p; });
    if (it != cs.end() && it->span.begin == pos) return it - cs.begin();
    return -1;
  }

  // Only whitespace between the start of the line and `pos`.
  bool starts_line(uint32_t pos) const {
    while (pos > 0) {
      char c = text_[pos - 1];
      if (c == '\n') return true;
      if (c != ' ' && c != '\t' && c != '\r') return false;
      --pos;
    }
    return true;
  }

  // Only whitespace and comments between `pos` and the end of its line.
  bool rest_is_trivia(uint32_t pos) const {
    const uint32_t n = static_cast<uint32_t>(text_.size());
    while (pos < n) {
      char c = text_[pos];
      if (c == '\n') return true;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos;
        continue;
      }
      long k = comment_at(pos);
      if (k < 0) return false;
      const Comment& cm = (*comments_)[k];
      if (cm.kind != CommentKind::Block) return true;
      // A block comment spanning lines ends this line's trivia.
      if (text_.substr(cm.span.begin, cm.span.size()).find('\n') != std::string_view::npos)
        return true;
      pos = cm.span.end;
    }
    return true;
  }

  std::string_view comment_text(const Comment& c) const {
    std::string_view t = text_.substr(c.span.begin, c.span.size());
    if (c.kind != CommentKind::Block) {
      while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
        t.remove_suffix(1);
    }
    return t;
  }

  // `after_code`: the comment lies inside a node whose last token is already printed.
  void emit_leading(const Comment& c, bool after_code = false) {
    std::string_view t = comment_text(c);
    // Only a comment on the same source line continues a line of comments.
    size_t idx = static_cast<size_t>(&c - comments_->data());
    if (idx == 0 || text_.substr((*comments_)[idx - 1].span.end,
                                 c.span.begin - (*comments_)[idx - 1].span.end)
                            .find('\n') != std::string_view::npos)
      out_.end_comment_line();
    bool line = c.kind != CommentKind::Block;
    bool starts = starts_line(c.span.begin);
    bool own = starts && (line || rest_is_trivia(c.span.end));
    if (starts && !after_code) maybe_blank(c.span.begin);
    if (own && after_code) {
      out_.comment_own_line_after(t);
    } else if (own) {
      out_.comment_own_line(t);
    } else if (line) {
      out_.comment_inline_line(t);
    } else if (after_code) {
      out_.comment_trailing_block(t);
    } else {
      out_.comment_inline_block(t);
    }
  }

  // Emits the comments that start before `pos`; returns how many.
  size_t leading(uint32_t pos) {
    if (!comments_on()) return 0;
    out_.node_start();
    size_t n = 0;
    while (ci_ < cend_ && (*comments_)[ci_].span.begin < pos) {
      emit_leading((*comments_)[ci_++]);
      ++n;
    }
    return n;
  }

  // The source has a blank line right before `pos`.
  bool blank_before(uint32_t pos) const {
    int lines = 0;
    while (pos > 0) {
      char c = text_[pos - 1];
      if (c == '\n') {
        ++lines;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
      --pos;
    }
    return pos > 0 && lines >= 2;
  }
  // Before a statement at `pos`: a blank line if the source has one before the statement
  // or its leading comments, then the comments.
  void blank_and_leading(uint32_t pos) {
    if (!comments_on()) return;
    uint32_t first = pos;
    if (ci_ < cend_ && (*comments_)[ci_].span.begin < pos) first = (*comments_)[ci_].span.begin;
    maybe_blank(first);
    leading(pos);
    maybe_blank(pos);
  }

  // Keeps one blank line where the source had at least one.
  void maybe_blank(uint32_t pos) {
    if (comments_on() && blank_before(pos) && out_.can_blank()) out_.blank_line();
  }

  // Emits the comments that follow a node ending at `end` on the same source line.
  void trailing(uint32_t end, bool parenthesized) {
    if (!comments_on()) return;
    // Anything inside the node that was not placed yet.
    while (ci_ < cend_ && (*comments_)[ci_].span.begin < end) emit_leading((*comments_)[ci_++], true);
    uint32_t p = end;
    bool after_sep = false, eol_mode = false;
    // After a line comment the output line has ended: nothing can trail on it.
    if (out_.line_ended()) return;
    while (ci_ < cend_) {
      const Comment& c = (*comments_)[ci_];
      if (c.span.begin < p) break;
      bool ok = true;
      // A parenthesised node (the parentheses are not in its span) may be followed by its
      // own `)`, possibly on a later line. Only one: further `)` belong to enclosing nodes.
      uint32_t own_paren = 0;
      if (parenthesized && !after_sep && !eol_mode) {
        for (uint32_t i = p; i < c.span.begin; ++i) {
          if (text_[i] == ')') {
            own_paren = i + 1;
            break;
          }
        }
      }
      for (uint32_t i = p; i < c.span.begin; ++i) {
        char ch = text_[i];
        if (ch == ' ' || ch == '\t' || ch == '\r') continue;
        if (ch == '\n' && i < own_paren) continue;
        if (ch == ')' && i + 1 == own_paren) continue;
        if (ch == ',' || ch == ';') {
          after_sep = true;
          continue;
        }
        ok = false;
        break;
      }
      if (!ok) break;
      if (own_paren) parenthesized = false;  // consumed
      bool line = c.kind != CommentKind::Block;
      if (after_sep || eol_mode) {
        if (!rest_is_trivia(c.span.end)) break;
        out_.comment_eol(comment_text(c));
        eol_mode = true;
      } else if (line) {
        out_.comment_eol(comment_text(c));
        eol_mode = true;
      } else {
        out_.comment_trailing_block(comment_text(c));
      }
      p = c.span.end;
      ++ci_;
    }
  }

  // Position of the closing `ch` that follows `pos` across whitespace, comments and `)`;
  // `pos` itself when something else comes first.
  uint32_t close_pos(uint32_t pos, char ch) const {
    if (!comments_on()) return pos;
    const uint32_t n = static_cast<uint32_t>(text_.size());
    uint32_t p = pos;
    while (p < n) {
      char c = text_[p];
      if (is_ws(c) || c == ')') {
        ++p;
        continue;
      }
      long k = comment_at(p);
      if (k >= 0) {
        p = (*comments_)[k].span.end;
        continue;
      }
      if (c == ch) return p;
      break;
    }
    return pos;
  }

  // A separator after an item ending at `item_end`; comments between the item and the
  // separator in the source are placed before it.
  void sep(uint32_t item_end, std::string_view s) {
    if (comments_on()) {
      uint32_t p = close_pos(item_end, s[0]);
      while (ci_ < cend_ && (*comments_)[ci_].span.begin < p) emit_leading((*comments_)[ci_++], true);
    }
    out_.sep(s);
  }

  // The position of the closing `ch` after the last item of a list, or `last_end` when
  // there is none. For `)` it is the last of a run of `)` separated by whitespace only
  // (the item itself may be parenthesised).
  uint32_t closer_pos(uint32_t last_end, char ch) const {
    const uint32_t n = static_cast<uint32_t>(text_.size());
    uint32_t p = last_end, found = last_end;
    bool any = false;
    while (p < n) {
      char c = text_[p];
      if (is_ws(c)) {
        ++p;
        continue;
      }
      long k = comment_at(p);
      if (k >= 0 && !any) {
        p = (*comments_)[k].span.end;
        continue;
      }
      if (c == ch) {
        found = p;
        any = true;
        ++p;
        if (ch == ')') continue;
      }
      break;
    }
    return found;
  }
  // Comments between the last item of a list and its closing bracket.
  void flush_before(uint32_t last_end, char ch) {
    if (!comments_on() || last_end == 0) return;
    uint32_t p = closer_pos(last_end, ch);
    while (ci_ < cend_ && (*comments_)[ci_].span.begin < p) emit_leading((*comments_)[ci_++], true);
  }
  void close(uint32_t last_end, std::string_view tok) {
    flush_before(last_end, tok[0]);
    out_.sep(tok);
  }
  static uint32_t last_arg_end(const CallExpr* c) {
    if (c->attrs_meta) return c->attrs_meta->span.end;
    if (!c->attrs.empty()) return end_of(c->attrs.back().value);
    if (!c->args.empty()) return end_of(c->args.back());
    return 0;
  }

  template <class T>
  static uint32_t end_of(const T* node) {
    return node ? node->span.end : 0;
  }
  static uint32_t var_end(const VarDecl* v) {
    if (!v) return 0;
    if (v->annotation) return v->annotation->span.end;
    if (!v->attrs.empty() && v->attrs.back().value) return v->attrs.back().value->span.end;
    return v->span.end;
  }

  // A comment in [begin, end) that will end its output line: a line comment, or one
  // alone on its source line.
  bool has_breaking_comment_in(uint32_t begin, uint32_t end) const {
    if (!comments_on()) return false;
    for (size_t i = ci_; i < cend_; ++i) {
      const Comment& c = (*comments_)[i];
      if (c.span.begin >= end) break;
      if (c.span.begin < begin) continue;
      if (c.kind != CommentKind::Block ||
          (starts_line(c.span.begin) && rest_is_trivia(c.span.end)))
        return true;
    }
    return false;
  }

  // The next significant character at or after `pos`, skipping whitespace and comments.
  uint32_t next_token_pos_no_paren(uint32_t pos) const {
    const uint32_t n = static_cast<uint32_t>(text_.size());
    uint32_t p = pos;
    while (p < n) {
      if (is_ws(text_[p])) {
        ++p;
        continue;
      }
      long k = comment_at(p);
      if (k >= 0) {
        p = (*comments_)[k].span.end;
        continue;
      }
      break;
    }
    return p;
  }

  // The next significant character at or after `pos`, skipping whitespace, comments and
  // `)`.
  uint32_t next_token_pos(uint32_t pos) const {
    if (!comments_on()) return pos;
    const uint32_t n = static_cast<uint32_t>(text_.size());
    uint32_t p = pos;
    while (p < n) {
      char c = text_[p];
      if (is_ws(c) || c == ')') {
        ++p;
        continue;
      }
      long k = comment_at(p);
      if (k >= 0) {
        p = (*comments_)[k].span.end;
        continue;
      }
      break;
    }
    return p;
  }

  // -------------------------------------------------------------------------------------
  // Definitions

  void doc_lines(std::string_view doc) {
    if (comments_on() || doc.empty()) return;  // with the source, doc comments are comments
    size_t start = 0;
    while (start <= doc.size()) {
      size_t e = doc.find('\n', start);
      if (e == std::string_view::npos) e = doc.size();
      std::string_view line = doc.substr(start, e - start);
      std::string s = line.empty() ? "///" : "/// " + std::string(line);
      out_.put(s);
      out_.end_stmt();
      out_.nl();
      start = e + 1;
    }
  }

  void func_def(const FuncDef& d) {
    if (leading(d.span.begin)) maybe_blank(d.span.begin);
    doc_lines(d.doc);
    if (!d.fn) return;
    out_.put("def");
    out_.space();
    leading(d.name_span.begin);
    function(d.fn, "@" + std::string(d.name), d.name_span.end);
    trailing(d.fn->span.end, false);
    trailing(d.span.end, false);
  }

  void type_params(std::span<TypeParam*> ps) {
    if (ps.empty()) return;
    out_.put("[");
    for (size_t i = 0; i < ps.size(); ++i) {
      leading(ps[i]->span.begin);
      out_.put(ps[i]->name);
      trailing(ps[i]->span.end, false);
      if (i + 1 < ps.size()) {
        sep(ps[i]->span.end, ",");
        out_.space();
      }
    }
    close(ps.back()->span.end, "]");
  }

  void type_def(const TypeDef& d) {
    if (leading(d.span.begin)) maybe_blank(d.span.begin);
    doc_lines(d.doc);
    out_.put(d.is_extern ? "extern type" : "type");
    out_.space();
    leading(d.name_span.begin);
    out_.put(d.name);
    trailing(d.name_span.end, false);
    type_params(d.type_params);
    if (!d.has_braces && d.ctors.empty()) {
      trailing(d.span.end, false);
      return;
    }
    out_.space();
    out_.put("{");
    uint32_t last = d.name_span.end;
    if (!d.type_params.empty()) last = d.type_params.back()->span.end;
    if (d.ctors.empty()) {
      leading(close_pos(last, '}'));
      out_.put("}");
      trailing(d.span.end, false);
      return;
    }
    out_.indent += 2;
    out_.reindent_pending();
    for (const CtorDef* c : d.ctors) {
      out_.nl();
      leading(c->span.begin);
      out_.put(c->name);
      trailing(c->name_span.end, false);
      if (!c->fields.empty()) {
        out_.put("(");
        for (size_t i = 0; i < c->fields.size(); ++i) {
          type(c->fields[i]);
          if (i + 1 < c->fields.size()) {
            sep(end_of(c->fields[i]), ",");
            out_.space();
          }
        }
        close(end_of(c->fields.back()), ")");
      }
      trailing(c->span.end, false);
      sep(c->span.end, ",");
      out_.end_stmt();
      last = c->span.end;
    }
    leading(close_pos(skip_commas(last), '}'));
    out_.end_stmt();
    out_.indent -= 2;
    out_.nl();
    out_.put("}");
    trailing(d.span.end, false);
  }

  uint32_t skip_commas(uint32_t pos) const {
    if (!comments_on()) return pos;
    const uint32_t n = static_cast<uint32_t>(text_.size());
    uint32_t p = pos;
    while (p < n) {
      char c = text_[p];
      if (is_ws(c)) {
        ++p;
        continue;
      }
      long k = comment_at(p);
      if (k >= 0) {
        p = (*comments_)[k].span.end;
        continue;
      }
      if (c == ',') return p + 1;
      break;
    }
    return pos;
  }

  // -------------------------------------------------------------------------------------
  // Functions

  void param(const VarDecl* v) { var_decl(v); }

  void attr(const Attr& a) {
    leading(a.key_span.begin);
    out_.put(a.key);
    out_.put("=");
    attr_value(a.value);
  }

  void header_items(const FunctionExpr* f, bool broken) {
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
  void header(const FunctionExpr* f, const std::string& prefix, bool broken) {
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

  void function(const FunctionExpr* f, const std::string& prefix, uint32_t name_end = 0) {
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

  // -------------------------------------------------------------------------------------
  // Blocks

  void binding(const Binding& b) {
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
        break;
      case BindingKind::Graph:
        var_decl(b.var);
        out_.space();
        out_.put("=");
        out_.space();
        expr(b.value, Ctx::Rhs);
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
  void block_lines(const Expr* e) {
    e = strip_empty_block(e);
    if (!e) return;
    if (const BlockExpr* b = as<BlockExpr>(e)) {
      leading(b->span.begin);
      for (const Binding& bd : b->bindings) binding(bd);
      if (b->result) {
        blank_and_leading(open_paren_pos(b->result));
        expr(b->result, Ctx::Item);
        out_.end_stmt();
      }
      return;
    }
    expr(e, Ctx::Item);
    out_.end_stmt();
  }

  void body(const Expr* e) { block_lines(e); }

  // A multi-line block in expression position, wrapped in `open` ... `close`.
  void wrapped_block(const BlockExpr* b, std::string_view open, std::string_view close) {
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

  // -------------------------------------------------------------------------------------
  // Expressions

  static bool callee_ok(const Expr* e) {
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
  static bool atom_ok(const Expr* e) {
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

  bool needs_parens(const Expr* e, Ctx ctx) const {
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

  void expr(const Expr* e, Ctx ctx) {
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
  uint32_t block_open_pos(const BlockExpr* b) const {
    uint32_t pos = b->span.begin;
    if (!comments_on() || (b->braced() && pos < text_.size() && text_[pos] == '{')) return pos;
    return open_paren_pos(b);
  }
  // The `(` of a parenthesised node (its span excludes it), else its start.
  uint32_t open_paren_pos(const Expr* e) const {
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
  long comment_ending_at(uint32_t pos) const {
    const auto& cs = *comments_;
    auto it = std::lower_bound(cs.begin(), cs.end(), pos,
                               [](const Comment& c, uint32_t p) { return c.span.end < p; });
    if (it != cs.end() && it->span.end == pos) return it - cs.begin();
    return -1;
  }

  void operand(const Expr* e, int prec, bool left) {
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

  void args(const CallExpr* c) {
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

  void expr_inner(const Expr* e) {
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
  void branch(const Expr* e, uint32_t close) {
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

  static bool multiline(const Expr* e) {
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
  static bool attr_multiline(const AttrValue* v) {
    if (!v) return false;
    if (v->kind == AttrValueKind::Expr) return multiline(v->expr);
    if (v->kind == AttrValueKind::Array)
      for (const AttrValue* i : v->items)
        if (attr_multiline(i)) return true;
    return false;
  }

  void match(const MatchExpr* m) {
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

  // -------------------------------------------------------------------------------------
  // Variables, patterns, attributes

  void var_decl(const VarDecl* v) {
    if (!v) {
      out_.put("<missing>");
      return;
    }
    leading(v->span.begin);
    out_.put("%" + std::string(v->name));
    trailing(v->span.end, false);
    if (!v->attrs.empty()) {
      out_.space();
      out_.put("{");
      for (size_t i = 0; i < v->attrs.size(); ++i) {
        attr(v->attrs[i]);
        if (i + 1 < v->attrs.size()) {
          sep(end_of(v->attrs[i].value), ",");
          out_.space();
        }
      }
      close(end_of(v->attrs.back().value), "}");
    }
    if (v->annotation) {
      out_.put(":");
      out_.space();
      type(v->annotation);
    }
  }

  void pattern(const Pattern* p) {
    if (!p) {
      out_.put("<missing>");
      return;
    }
    leading(p->span.begin);
    switch (p->kind) {
      case PatternKind::Wildcard: out_.put("_"); break;
      case PatternKind::Var: var_decl(p->var); break;
      case PatternKind::Ctor:
        out_.put(p->ctor_name);
        if (!p->fields.empty()) {
          out_.put("(");
          for (size_t i = 0; i < p->fields.size(); ++i) {
            pattern(p->fields[i]);
            if (i + 1 < p->fields.size()) {
              sep(end_of(p->fields[i]), ",");
              out_.space();
            }
          }
          close(end_of(p->fields.back()), ")");
        }
        break;
      case PatternKind::Tuple:
        out_.put("(");
        for (size_t i = 0; i < p->fields.size(); ++i) {
          pattern(p->fields[i]);
          if (i + 1 < p->fields.size() || p->fields.size() == 1) sep(end_of(p->fields[i]), ",");
          if (i + 1 < p->fields.size()) out_.space();
        }
        close(p->fields.empty() ? 0 : end_of(p->fields.back()), ")");
        break;
      case PatternKind::Error: out_.put("<error>"); break;
    }
    trailing(p->span.end, false);
  }

  void attr_value(const AttrValue* v) {
    if (!v) {
      out_.put("<missing>");
      return;
    }
    leading(v->span.begin);
    switch (v->kind) {
      case AttrValueKind::Int: out_.put(format_int_literal(v->int_value, v->dtype)); break;
      case AttrValueKind::Float: out_.put(format_float_literal(v->float_value, v->dtype)); break;
      case AttrValueKind::Bool: out_.put(v->int_value ? "True" : "False"); break;
      case AttrValueKind::String: out_.put("\"" + escape_string(v->text) + "\""); break;
      case AttrValueKind::None: out_.put("None"); break;
      case AttrValueKind::Array:
        out_.put("[");
        for (size_t i = 0; i < v->items.size(); ++i) {
          attr_value(v->items[i]);
          if (i + 1 < v->items.size()) {
            sep(end_of(v->items[i]), ",");
            out_.space();
          }
        }
        close(v->items.empty() ? 0 : end_of(v->items.back()), "]");
        break;
      case AttrValueKind::Expr: expr(v->expr, Ctx::Attr); break;
    }
    trailing(v->span.end, false);  // the span includes the parentheses
  }

  // -------------------------------------------------------------------------------------
  // Types

  void type(const Type* t) {
    if (!t) {
      out_.put("_");
      return;
    }
    leading(t->span.begin);
    switch (t->kind) {
      case TypeKind::Error: out_.put("<error>"); break;
      case TypeKind::Incomplete: out_.put("_"); break;
      case TypeKind::Tensor: {
        const TensorType* tt = static_cast<const TensorType*>(t);
        std::string dt = tt->dtype_text.empty() ? dtype_name(tt->dtype) : std::string(tt->dtype_text);
        auto starts = [&](std::string_view p) { return dt.compare(0, p.size(), p) == 0; };
        if (tt->shape.empty() &&
            (starts("int") || starts("uint") || starts("float") || starts("bool"))) {
          out_.put(dt);
          break;
        }
        out_.put("Tensor[(");
        for (size_t i = 0; i < tt->shape.size(); ++i) {
          dim(tt->shape[i]);
          if (i + 1 < tt->shape.size()) {
            sep(end_of(tt->shape[i]), ",");
            out_.space();
          }
        }
        close(tt->shape.empty() ? 0 : end_of(tt->shape.back()), ")");
        out_.sep(",");
        out_.space();
        out_.put(dt);
        out_.put("]");
        break;
      }
      case TypeKind::Tuple: {
        const TupleType* tt = static_cast<const TupleType*>(t);
        out_.put("(");
        for (size_t i = 0; i < tt->fields.size(); ++i) {
          type(tt->fields[i]);
          if (i + 1 < tt->fields.size() || tt->fields.size() == 1) sep(end_of(tt->fields[i]), ",");
          if (i + 1 < tt->fields.size()) out_.space();
        }
        close(tt->fields.empty() ? 0 : end_of(tt->fields.back()), ")");
        break;
      }
      case TypeKind::Func: {
        const FuncType* ft = static_cast<const FuncType*>(t);
        out_.put("fn");
        out_.space();
        type_params(ft->type_params);
        out_.put("(");
        for (size_t i = 0; i < ft->params.size(); ++i) {
          type(ft->params[i]);
          if (i + 1 < ft->params.size()) {
            sep(end_of(ft->params[i]), ",");
            out_.space();
          }
        }
        close(ft->params.empty() ? 0 : end_of(ft->params.back()), ")");
        out_.space();
        out_.put("->");
        out_.space();
        type(ft->ret);
        break;
      }
      case TypeKind::Named: {
        const NamedType* nt = static_cast<const NamedType*>(t);
        out_.put(nt->name);
        if (!nt->args.empty() || nt->has_brackets) {
          out_.put("[");
          for (size_t i = 0; i < nt->args.size(); ++i) {
            type(nt->args[i]);
            if (i + 1 < nt->args.size()) {
              sep(end_of(nt->args[i]), ",");
              out_.space();
            }
          }
          close(end_of(nt->args.empty() ? nullptr : nt->args.back()), "]");
        }
        break;
      }
      case TypeKind::Ref:
        out_.put("ref(");
        type(static_cast<const RefType*>(t)->value);
        close(end_of(static_cast<const RefType*>(t)->value), ")");
        break;
    }
    trailing(t->span.end, false);
  }

  void dim(const DimExpr* d, int ctx_prec = 0, bool right = false) {
    if (!d) {
      out_.put("?");
      return;
    }
    leading(d->span.begin);
    int p = dim_prec(d->kind);
    bool paren = right ? p <= ctx_prec : p < ctx_prec;
    if (paren) out_.put("(");
    switch (d->kind) {
      case DimKind::Const: out_.put(format_int_literal(d->value, d->dtype)); break;
      case DimKind::Any: out_.put("?"); break;
      case DimKind::Name: out_.put(d->name); break;
      case DimKind::Meta:
        out_.put("meta[" + std::string(d->meta_key) + "][" + std::to_string(d->meta_index) + "]");
        break;
      case DimKind::Add:
      case DimKind::Sub:
      case DimKind::Mul:
      case DimKind::Div: {
        static const char* ops[] = {"+", "-", "*", "/"};
        int k = static_cast<int>(d->kind) - static_cast<int>(DimKind::Add);
        dim(d->lhs, p, false);
        out_.space();
        out_.put(ops[k]);
        out_.space();
        dim(d->rhs, p, true);
        break;
      }
      case DimKind::Error: out_.put("<error>"); break;
    }
    if (paren) out_.sep(")");
    trailing(d->span.end, false);  // the span includes the parentheses
  }

  const PrintOptions& options_;
  const SourceFile* file_ = nullptr;
  std::string_view text_;
  const std::vector<Comment>* comments_ = nullptr;
  size_t ci_ = 0;
  size_t cend_ = 0;
  Out out_;
};

}  // namespace

std::string print_module(const Module& module, const SourceFile& file,
                         const PrintOptions& options) {
  Printer p(options, &file, &module.comments);
  p.module(module);
  return p.take();
}

std::string print_module(const Module& module, const PrintOptions& options) {
  PrintOptions o = options;
  o.comments = false;
  Printer p(o, nullptr, nullptr);
  p.module(module);
  return p.take();
}

std::string print_expr(const Expr* expr, const PrintOptions& options, const SourceFile* file,
                       const std::vector<Comment>* comments) {
  Printer p(options, file, comments);
  if (expr) p.limit_comments(expr->span.begin, expr->span.end);
  p.top_expr(expr);
  std::string s = p.take();
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

namespace {
std::string finish(Printer& p) {
  std::string s = p.take();
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}
}  // namespace

std::string print_type(const Type* type) {
  PrintOptions o;
  o.comments = false;
  Printer p(o, nullptr, nullptr);
  p.top_type(type);
  return finish(p);
}

std::string print_dim(const DimExpr* dim) {
  PrintOptions o;
  o.comments = false;
  Printer p(o, nullptr, nullptr);
  p.top_dim(dim);
  return finish(p);
}

std::string print_pattern(const Pattern* pattern) {
  PrintOptions o;
  o.comments = false;
  Printer p(o, nullptr, nullptr);
  p.top_pattern(pattern);
  return finish(p);
}

std::string print_attr_value(const AttrValue* value) {
  PrintOptions o;
  o.comments = false;
  Printer p(o, nullptr, nullptr);
  p.top_attr_value(value);
  return finish(p);
}

}  // namespace relay
