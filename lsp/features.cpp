#include "lsp/features.h"

#include "lang/ops/op_registry.h"
#include "lang/ops/op_schema.h"
#include "lang/syntax/parser.h"
#include "lang/syntax/printer.h"
#include "lang/syntax/walk.h"
#include "lang/types/call_attrs.h"
#include "lang/types/type.h"

namespace relay::lsp {

using json = nlohmann::json;

namespace {

// LSP DiagnosticTag values.
constexpr int kLspUnnecessary = 1;
constexpr int kLspDeprecated = 2;

std::string full_message(const Diagnostic& d) {
  std::string m = d.message;
  for (const std::string& n : d.notes) m += "\nnote: " + n;
  for (const Help& h : d.helps) m += "\nhelp: " + h.message;
  return m;
}

}  // namespace

json diagnostics_json(const FileCheck& check, const Document& doc, PositionEncoding enc) {
  const SourceFile& file = *check.source;
  json out = json::array();
  for (const Diagnostic& d : check.diagnostics) {
    if (d.labels.empty()) continue;
    json item;
    const Span p = d.primary().span;
    // Spans of the prelude (another file) cannot be shown in this document.
    const bool here = p.file == check.file;
    item["range"] = here ? range_of(file.text, file.lines, p.begin, p.end, enc)
                         : range_of(file.text, file.lines, 0, 0, enc);
    item["severity"] = d.severity == Severity::Error ? 1 : d.severity == Severity::Warning ? 2 : 3;
    item["code"] = std::string(d.code());
    item["codeDescription"] = {{"href", "https://relay.invalid/errors/" + std::string(d.code())}};
    item["source"] = "relay";
    item["message"] = full_message(d);
    json related = json::array();
    for (size_t i = 1; i < d.labels.size(); ++i) {
      const Label& l = d.labels[i];
      if (l.span.file != check.file) continue;
      related.push_back({{"location", {{"uri", doc.uri}, {"range", range_of(file.text, file.lines, l.span.begin,
                                                                            l.span.end, enc)}}},
                         {"message", l.message}});
    }
    if (!d.labels[0].message.empty()) {
      // json::object: a braced list of two pairs would otherwise insert two arrays.
      json primary = json::object({{"location", {{"uri", doc.uri}, {"range", item["range"]}}},
                                   {"message", d.labels[0].message}});
      related.insert(related.begin(), std::move(primary));
    }
    if (!related.empty()) item["relatedInformation"] = std::move(related);
    json tags = json::array();
    if (d.tags & kTagUnnecessary) tags.push_back(kLspUnnecessary);
    if (d.tags & kTagDeprecated) tags.push_back(kLspDeprecated);
    if (!tags.empty()) item["tags"] = std::move(tags);
    out.push_back(std::move(item));
  }
  return out;
}

namespace {

std::string code_block(const std::string& text) { return "```relay\n" + text + "\n```"; }

std::string op_hover(const OpInfo& op) {
  std::string sig = std::string(op.name) + "(";
  for (size_t i = 0; i < op.args.size(); ++i) sig += (i ? ", " : "") + std::string(op.args[i]);
  sig += ")";
  std::string out = code_block(sig) + "\n\n" + std::string(op.doc);
  if (op.attrs) out += "\n\n" + code_block(describe_attr_schema(*op.attrs));
  if (!op.supported) out += "\n\n*Not supported yet by this toolchain.*";
  return out;
}

}  // namespace

json hover_json(const FileCheck& check, const Document& doc, const LineIndex& lines, uint32_t offset,
                PositionEncoding enc) {
  for (const CheckedDefinition& d : check.definitions) {
    if (offset < d.chunk_offset) continue;
    const uint32_t rel = offset - d.chunk_offset;
    if (rel < d.def->span.begin || rel > d.def->span.end) continue;
    // The innermost expression whose span holds the cursor (children come after their
    // parents in the walk, so the last hit is the innermost).
    const Expr* best = nullptr;
    walk_expr(d.def->fn, [&](Expr* e) {
      if (e->span.begin <= rel && rel < e->span.end && (!best || e->span.size() <= best->span.size())) best = e;
    });
    // A binder under the cursor (a parameter, let or pattern variable) wins over the
    // expression around it.
    const VarDecl* binder = nullptr;
    for (const auto& [decl, ty] : d.types->vars)
      if (decl->span.begin <= rel && rel < decl->span.end) binder = decl;
    std::string text;
    Span span{};
    if (binder) {
      text = code_block("%" + std::string(binder->name) + ": " + type_to_string(d.types->type_of(binder)));
      span = binder->span;
    } else if (best) {
      span = best->span;
      auto* ref = best->kind == ExprKind::OpRef || best->kind == ExprKind::GlobalRef || best->kind == ExprKind::LocalRef ||
                          best->kind == ExprKind::CtorRef
                      ? static_cast<const RefExpr*>(best)
                      : nullptr;
      if (ref && ref->kind == ExprKind::OpRef && ref->op) {
        text = op_hover(*ref->op);
      } else if (ref && ref->kind == ExprKind::GlobalRef && ref->global) {
        Ty t = d.types->type_of(best);
        text = code_block("@" + std::string(ref->name) + ": " + (t ? type_to_string(t) : "?"));
        if (!ref->global->doc.empty()) text += "\n\n" + std::string(ref->global->doc);
      } else if (ref && ref->kind == ExprKind::CtorRef && ref->ctor && ref->ctor->owner) {
        Ty t = d.types->type_of(best);
        text = code_block(std::string(ref->name) + ": " + (t ? type_to_string(t) : "?")) + "\n\nconstructor of `" +
               std::string(ref->ctor->owner->name) + "`";
        if (!ref->ctor->owner->doc.empty()) text += "\n\n" + std::string(ref->ctor->owner->doc);
      } else if (Ty t = d.types->type_of(best)) {
        text = code_block(type_to_string(t));
      }
    }
    if (text.empty()) return nullptr;
    const uint32_t b = span.begin + d.chunk_offset, e = span.end + d.chunk_offset;
    return {{"contents", {{"kind", "markdown"}, {"value", text}}}, {"range", range_of(doc.text, lines, b, e, enc)}};
  }
  return nullptr;
}

json formatting_json(const Document& doc, PositionEncoding enc) {
  SourceManager sources;
  FileId id = sources.add(doc.path, doc.text);
  const SourceFile& file = sources.get(id);
  DiagnosticBag diags;
  ParseOptions po;
  po.require_version = false;
  auto module = parse_module(file, diags, po);
  if (diags.has_errors()) return json::array();
  std::string formatted = print_module(*module, file);
  if (formatted == doc.text) return json::array();
  return json::array({{{"range", range_of(doc.text, file.lines, 0, static_cast<uint32_t>(doc.text.size()), enc)},
                       {"newText", formatted}}});
}

}  // namespace relay::lsp
