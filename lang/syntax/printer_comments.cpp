// The Relay pretty printer: placing source comments (see printer_internal.h).

#include "lang/syntax/printer_internal.h"

namespace relay::printer_internal {

// ---------------------------------------------------------------------------------------
// Comments

// Index of the comment starting exactly at `pos`, or -1.
long Printer::comment_at(uint32_t pos) const {
  const auto& cs = *comments_;
  auto it = std::lower_bound(cs.begin(), cs.end(), pos,
                             [](const Comment& c, uint32_t p) { return c.span.begin < p; });
  if (it != cs.end() && it->span.begin == pos) return it - cs.begin();
  return -1;
}

// Only whitespace between the start of the line and `pos`.
bool Printer::starts_line(uint32_t pos) const {
  while (pos > 0) {
    char c = text_[pos - 1];
    if (c == '\n') return true;
    if (c != ' ' && c != '\t' && c != '\r') return false;
    --pos;
  }
  return true;
}

// Only whitespace and comments between `pos` and the end of its line.
bool Printer::rest_is_trivia(uint32_t pos) const {
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

std::string_view Printer::comment_text(const Comment& c) const {
  std::string_view t = text_.substr(c.span.begin, c.span.size());
  if (c.kind != CommentKind::Block) {
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
      t.remove_suffix(1);
    return t;
  }
  if (t.find("\r\n") == std::string_view::npos) return t;
  // A block comment's lines end as the printed file's do, with "\n" (a CRLF file's
  // comment would keep its "\r\n"s in an LF file). Kept in a deque: the printer holds
  // views of comments until their line ends.
  std::string& out = normalized_comments_.emplace_back();
  for (size_t i = 0; i < t.size(); ++i)
    if (!(t[i] == '\r' && i + 1 < t.size() && t[i + 1] == '\n')) out += t[i];
  return out;
}

// `after_code`: the comment lies inside a node whose last token is already printed.
void Printer::emit_leading(const Comment& c, bool after_code) {
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
size_t Printer::leading(uint32_t pos) {
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
bool Printer::blank_before(uint32_t pos) const {
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
void Printer::blank_and_leading(uint32_t pos) {
  if (!comments_on()) return;
  uint32_t first = pos;
  if (ci_ < cend_ && (*comments_)[ci_].span.begin < pos) first = (*comments_)[ci_].span.begin;
  maybe_blank(first);
  leading(pos);
  maybe_blank(pos);
}

// Keeps one blank line where the source had at least one.
void Printer::maybe_blank(uint32_t pos) {
  if (comments_on() && blank_before(pos) && out_.can_blank()) out_.blank_line();
}

// Emits the comments that follow a node ending at `end` on the same source line.
void Printer::trailing(uint32_t end, bool parenthesized) {
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
uint32_t Printer::close_pos(uint32_t pos, char ch) const {
  uint32_t p = next_token_pos(pos);
  return p < text_.size() && text_[p] == ch ? p : pos;
}

// A separator after an item ending at `item_end`; comments between the item and the
// separator in the source are placed before it.
void Printer::sep(uint32_t item_end, std::string_view s) {
  if (comments_on()) {
    uint32_t p = close_pos(item_end, s[0]);
    while (ci_ < cend_ && (*comments_)[ci_].span.begin < p) emit_leading((*comments_)[ci_++], true);
  }
  out_.sep(s);
}

// The position of the closing `ch` after the last item of a list, or `last_end` when
// there is none. For `)` it is the last of a run of `)` separated by whitespace only
// (the item itself may be parenthesised).
uint32_t Printer::closer_pos(uint32_t last_end, char ch) const {
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
void Printer::flush_before(uint32_t last_end, char ch) {
  if (!comments_on() || last_end == 0) return;
  uint32_t p = closer_pos(last_end, ch);
  while (ci_ < cend_ && (*comments_)[ci_].span.begin < p) emit_leading((*comments_)[ci_++], true);
}

void Printer::close(uint32_t last_end, std::string_view tok) {
  flush_before(last_end, tok[0]);
  out_.sep(tok);
}

uint32_t Printer::last_arg_end(const CallExpr* c) {
  if (c->attrs_meta) return c->attrs_meta->span.end;
  if (!c->attrs.empty()) return end_of(c->attrs.back().value);
  if (!c->args.empty()) return end_of(c->args.back());
  return 0;
}

uint32_t Printer::var_end(const VarDecl* v) {
  if (!v) return 0;
  if (v->annotation) return v->annotation->span.end;
  if (!v->attrs.empty() && v->attrs.back().value) return v->attrs.back().value->span.end;
  return v->span.end;
}

// A comment in [begin, end) that will end its output line: a line comment, or one
// alone on its source line.
bool Printer::has_breaking_comment_in(uint32_t begin, uint32_t end) const {
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
uint32_t Printer::next_token_pos_no_paren(uint32_t pos) const {
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
uint32_t Printer::next_token_pos(uint32_t pos) const {
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

}  // namespace relay::printer_internal
