#include "ide/completion.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ide/context.h"
#include "ide/scope.h"
#include "lang/ops/op_schema.h"
#include "lang/syntax/printer.h"
#include "lang/types/call_attrs.h"
#include "lang/types/database_chunks.h"
#include "lang/types/type.h"

namespace relay::ide {

namespace {

constexpr std::string_view kDTypes[] = {"float32", "float16", "float64", "bfloat16", "int8",   "int16",  "int32",
                                        "int64",   "uint8",   "uint16",  "uint32",   "uint64", "bool"};
constexpr std::string_view kKeywords[] = {"def",      "fn",  "let",      "if",        "else",   "match", "match?",
                                          "type",     "extern", "free_var", "ref",    "ref_read", "ref_write",
                                          "Tensor",   "True", "False"};

bool usable(Ty t) { return t && t->kind != TyKind::Error && t->kind != TyKind::Hole; }

// The start of the top-level item around `offset`: the last line before it that starts
// with `def`, `type` or `extern` (a scan from there sees the brackets the cursor is in).
uint32_t item_start(std::string_view text, uint32_t offset) {
  uint32_t line = offset;
  while (line > 0) {
    uint32_t b = line;
    while (b > 0 && text[b - 1] != '\n') --b;
    std::string_view l = text.substr(b);
    if (l.starts_with("def ") || l.starts_with("type ") || l.starts_with("extern ")) return b;
    if (b == 0) break;
    line = b - 1;
  }
  return 0;
}

// A binder's type: from this check, else from the same definition's binder of that name
// in the last good check (the current one may be broken while the user types).
Ty binder_ty(const CheckedDefinition& d, const VarDecl* v, const FileCheck* last_good) {
  Ty t = d.types ? d.types->type_of(v) : nullptr;
  if (usable(t)) return t;
  if (last_good)
    for (const CheckedDefinition& g : last_good->definitions) {
      if (g.def->name != d.def->name || !g.types) continue;
      for (const auto& [decl, ty] : g.types->vars)
        if (decl->name == v->name && usable(ty)) return ty;
    }
  return t;
}

std::string binder_type(const CheckedDefinition& d, const VarDecl* v, const FileCheck* last_good) {
  Ty t = binder_ty(d, v, last_good);
  return t ? type_to_string(t) : "";
}

// The binders in scope at `offset` (outer first) and their definition; none outside one.
std::pair<const CheckedDefinition*, std::vector<const VarDecl*>> binders_at(const FileCheck& check, uint32_t offset,
                                                                            std::string_view text) {
  const CheckedDefinition* d = definition_at(check, offset);
  if (!d || !d->def->fn) return {nullptr, {}};
  const uint32_t def_end = d->chunk_offset + d->def->span.end;
  const bool open_end = offset > def_end && def_end > 0 && def_end <= text.size() && text[def_end - 1] != '}';
  return {d, binders_in_scope(*d->def, text.substr(d->chunk_offset), offset - d->chunk_offset, open_end)};
}

std::string ctor_detail(const CtorDef& c) {
  std::string s(c.name);
  if (!c.fields.empty()) {
    s += "(";
    for (size_t i = 0; i < c.fields.size(); ++i) s += (i ? ", " : "") + print_type(c.fields[i]);
    s += ")";
  }
  return s + " : " + std::string(c.owner ? c.owner->name : "");
}

void add_locals(const FileCheck& check, const FileCheck* last_good, uint32_t offset, std::string_view text,
                std::vector<CompletionItem>& out) {
  const auto [d, vars] = binders_at(check, offset, text);
  if (!d) return;
  std::map<std::string_view, const VarDecl*> innermost;
  for (const VarDecl* v : vars) innermost[v->name] = v;  // later (inner) binders win
  for (const VarDecl* v : vars) {
    if (innermost[v->name] != v) continue;
    out.push_back(plain_item("%" + std::string(v->name),
                             v->kind == VarKind::Param ? CompletionKind::Parameter : CompletionKind::Local,
                             binder_type(*d, v, last_good), "0"));
  }
}

// `%t.` (`%t.0.`, ...): the fields of the tuple that local %t (its field 0, ...) holds, by
// index with their types; nothing when that is not a tuple (no name may follow the dot).
// `path`: the word without its sigil, up to the last dot.
void add_fields(const FileCheck& check, const FileCheck* last_good, uint32_t offset, std::string_view text,
                std::string_view path, std::vector<CompletionItem>& out) {
  const std::string_view local = path.substr(0, path.find('.'));
  const auto [d, vars] = binders_at(check, offset, text);
  const VarDecl* binder = nullptr;
  for (const VarDecl* v : vars)
    if (v->name == local) binder = v;  // the innermost
  if (!binder) return;
  Ty t = binder_ty(*d, binder, last_good);
  // down the indices already written
  for (size_t at = path.find('.'); usable(t) && at != std::string_view::npos; at = path.find('.', at + 1)) {
    const std::string_view index = path.substr(at + 1, path.find('.', at + 1) - at - 1);
    if (t->kind != TyKind::Tuple || index.empty() || index.size() > 9 ||
        index.find_first_not_of("0123456789") != std::string_view::npos)
      return;
    const auto& fields = static_cast<const TupleTy&>(*t).fields;
    const size_t i = std::stoul(std::string(index));
    if (i >= fields.size()) return;
    t = fields[i];
  }
  if (!usable(t) || t->kind != TyKind::Tuple) return;
  const auto& fields = static_cast<const TupleTy&>(*t).fields;
  for (size_t i = 0; i < fields.size(); ++i)
    out.push_back(plain_item(std::to_string(i), CompletionKind::Field, type_to_string(fields[i]), "0"));
}

void add_globals(const FileCheck& check, std::vector<CompletionItem>& out) {
  for (const CheckedDefinition& d : check.definitions) {
    CompletionItem it = plain_item("@" + std::string(d.def->name), CompletionKind::Global,
                                   d.types && d.types->type ? type_to_string(d.types->type) : "", "1");
    it.data_kind = "global";
    it.data_name = d.def->name;
    out.push_back(std::move(it));
  }
}

void add_ops(std::string_view ns, std::vector<CompletionItem>& out) {
  for (const OpInfo& op : all_ops()) {
    if (!ns.empty() && !op.name.starts_with(ns)) continue;
    CompletionItem it;
    it.label = op.name;
    it.kind = CompletionKind::Operator;
    it.detail = op.supported ? std::string(op_group_name(op.group)) + " operator"
                             : std::string(op_group_name(op.group)) + " operator (not supported yet)";
    it.insert_text = operator_snippet(op);
    it.snippet = true;
    it.deprecated = !op.supported;
    it.sort_text = (op.supported ? "2_" : "3_") + it.label;
    it.data_kind = "op";
    it.data_name = op.name;
    out.push_back(std::move(it));
  }
}

void add_ctors(const FileCheck& check, std::vector<CompletionItem>& out) {
  for (const auto& chunk : check.chunks) {
    if (!chunk->module) continue;
    for (const Definition& def : chunk->module->defs) {
      if (def.kind != Definition::Type || !def.type) continue;
      for (const CtorDef* c : def.type->ctors)
        out.push_back(plain_item(std::string(c->name), CompletionKind::Constructor, ctor_detail(*c), "2"));
    }
  }
}

void add_dtypes(std::vector<CompletionItem>& out) {
  for (std::string_view t : kDTypes) out.push_back(plain_item(std::string(t), CompletionKind::DType, "dtype", "0"));
}

void add_keywords(std::vector<CompletionItem>& out) {
  for (std::string_view k : kKeywords) out.push_back(plain_item(std::string(k), CompletionKind::Keyword, "", "4"));
}

void add_attributes(const OpInfo& op, const std::vector<std::string>& written, std::vector<CompletionItem>& out) {
  if (!op.attrs) return;
  for (const AttrField& f : op.attrs->fields) {
    if (std::find(written.begin(), written.end(), f.name) != written.end()) continue;
    CompletionItem it;
    it.label = f.name;
    it.kind = CompletionKind::Attribute;
    it.detail = std::string(attr_type_name(f.type)) +
                (f.required ? " (required)" : f.default_text.empty() ? "" : " = " + std::string(f.default_text));
    it.insert_text = std::string(f.name) + "=";
    it.sort_text = "0_" + std::string(f.required ? "0" : "1") + it.label;
    out.push_back(std::move(it));
  }
}

}  // namespace

std::string operator_snippet(const OpInfo& op) {
  std::string s = std::string(op.name) + "(";
  int n = 0;
  for (std::string_view a : op.args) {
    if (n) s += ", ";
    ++n;
    s += "${" + std::to_string(n) + ":" + std::string(a) + "}";
  }
  if (op.attrs)
    for (const AttrField& f : op.attrs->fields)
      if (f.required) {
        if (n) s += ", ";
        ++n;
        s += std::string(f.name) + "=${" + std::to_string(n) + "}";
      }
  return s + ")";
}

std::string operator_documentation(const OpInfo& op) {
  std::string sig = std::string(op.name) + "(";
  for (size_t i = 0; i < op.args.size(); ++i) sig += (i ? ", " : "") + std::string(op.args[i]);
  sig += ")";
  std::string out = "```relay\n" + sig + "\n```\n\n" + std::string(op.doc);
  if (op.attrs) out += "\n\n```relay\n" + describe_attr_schema(*op.attrs) + "\n```";
  if (!op.supported) out += "\n\n*Not supported yet by this toolchain.*";
  return out;
}

CompletionItem plain_item(std::string label, CompletionKind kind, std::string detail, std::string_view rank) {
  CompletionItem it;
  it.insert_text = label;
  if (!rank.empty()) it.sort_text = std::string(rank) + "_" + label;
  it.label = std::move(label);
  it.kind = kind;
  it.detail = std::move(detail);
  return it;
}

std::string completion_documentation(const FileCheck* check, std::string_view kind, std::string_view name) {
  if (kind == "op") {
    const OpInfo* op = find_op(name);
    return op ? operator_documentation(*op) : "";
  }
  if (kind == "global" && check)
    for (const CheckedDefinition& d : check->definitions)
      if (d.def->name == name) return global_documentation(*d.def, d.types ? d.types->type : nullptr);
  return "";
}

std::string global_documentation(const FuncDef& def, Ty type) {
  std::string out = "```relay\n@" + std::string(def.name) + ": " + (type ? type_to_string(type) : "?") + "\n```";
  if (!def.doc.empty()) out += "\n\n" + std::string(def.doc);
  return out;
}

CompletionResult complete(const FileCheck& check, const FileCheck* last_good, std::string_view text,
                          uint32_t offset) {
  CompletionResult r;
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  r.replace_end = offset;
  const CursorScan scan = scan_to(text, item_start(text, offset), offset);
  if (scan.in_comment) return r;
  if (scan.in_string) {
    // `dtype="…`: the dtypes, replacing what is typed after the quote.
    std::string_view before = text.substr(0, scan.string_begin);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    if (before.ends_with("=")) {
      before.remove_suffix(1);
      while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
      if (before.ends_with("dtype") || before.ends_with("out_dtype")) {
        r.replace_begin = scan.string_begin + 1;
        add_dtypes(r.items);
      }
    }
    return r;
  }
  const Word w = word_before(text, offset);
  r.replace_begin = w.begin;
  const OpenBracket& open = scan.open;
  // `Tensor[(1, 64), ` : a dtype comes next.
  if (open.bracket == '[' && open.callee == "Tensor" && !open.commas.empty()) {
    add_dtypes(r.items);
    return r;
  }
  if (w.sigil == '%') {
    // `%t.` or `%t.1`: a tuple's field, replacing only what follows the dot
    if (const size_t dot = w.text.rfind('.'); dot != std::string::npos) {
      r.replace_begin = w.begin + 1 + static_cast<uint32_t>(dot) + 1;
      add_fields(check, last_good, offset, text, std::string_view(w.text).substr(0, dot), r.items);
      return r;
    }
    add_locals(check, last_good, offset, text, r.items);
    return r;
  }
  if (w.sigil == '@') {
    add_globals(check, r.items);
    return r;
  }
  // A dotted prefix (`nn.`, `nn.con`) can only be an operator.
  const size_t dot = w.text.rfind('.');
  if (dot != std::string::npos) {
    add_ops(std::string_view(w.text).substr(0, dot + 1), r.items);
    return r;
  }
  if (open.bracket == '(') {
    if (const OpInfo* op = find_op(open.callee)) {
      const CallArgument arg = call_argument(text, open, offset);
      if (!arg.has_eq) add_attributes(*op, arg.written_keys, r.items);
    }
  }
  add_locals(check, last_good, offset, text, r.items);
  add_globals(check, r.items);
  add_ops("", r.items);
  add_ctors(check, r.items);
  add_keywords(r.items);
  return r;
}

}  // namespace relay::ide
