// The Relay pretty printer: module-level entry points, module and definitions (see
// printer.h; the design is described in printer_internal.h).
#include "lang/syntax/printer.h"

#include <limits>
#include <string>

#include "lang/syntax/printer_internal.h"

namespace relay::printer_internal {

// Restricts comments to those inside [begin, end).
void Printer::limit_comments(uint32_t begin, uint32_t end) {
  if (!comments_) return;
  const auto& cs = *comments_;
  ci_ = std::lower_bound(cs.begin(), cs.end(), begin,
                         [](const Comment& c, uint32_t p) { return c.span.begin < p; }) -
        cs.begin();
  cend_ = std::lower_bound(cs.begin(), cs.end(), end,
                           [](const Comment& c, uint32_t p) { return c.span.begin < p; }) -
          cs.begin();
}

void Printer::module(const Module& m) {
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

// ---------------------------------------------------------------------------------------
// Definitions

void Printer::doc_lines(std::string_view doc) {
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

void Printer::func_def(const FuncDef& d) {
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

void Printer::type_params(std::span<TypeParam*> ps) {
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

void Printer::type_def(const TypeDef& d) {
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

uint32_t Printer::skip_commas(uint32_t pos) const {
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

}  // namespace relay::printer_internal

namespace relay {

using printer_internal::Printer;

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

std::string print_body(const Expr* body, const PrintOptions& options) {
  Printer p(options, nullptr, nullptr);
  p.top_body(body);
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

// A fragment printed on its own, without source text or comments (hover, messages).
template <class F>
static std::string print_fragment(F print) {
  PrintOptions o;
  o.comments = false;
  Printer p(o, nullptr, nullptr);
  print(p);
  return finish(p);
}

std::string print_type(const Type* type) {
  return print_fragment([&](Printer& p) { p.top_type(type); });
}

std::string print_dim(const DimExpr* dim) {
  return print_fragment([&](Printer& p) { p.top_dim(dim); });
}

std::string print_pattern(const Pattern* pattern) {
  return print_fragment([&](Printer& p) { p.top_pattern(pattern); });
}

std::string print_attr_value(const AttrValue* value) {
  return print_fragment([&](Printer& p) { p.top_attr_value(value); });
}

}  // namespace relay
