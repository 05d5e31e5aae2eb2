#include "ide/hover.h"

#include "ide/completion.h"
#include "lang/syntax/walk.h"
#include "lang/types/type.h"

namespace relay::ide {

namespace {

std::string code_block(const std::string& text) { return "```relay\n" + text + "\n```"; }

// What a reference names: an operator, a global, a constructor; else its type.
std::string describe(const Expr* e, const InferredTypes& types) {
  const Ty t = types.type_of(e);
  const bool is_ref = e->kind == ExprKind::OpRef || e->kind == ExprKind::GlobalRef ||
                      e->kind == ExprKind::LocalRef || e->kind == ExprKind::CtorRef;
  const auto* ref = is_ref ? static_cast<const RefExpr*>(e) : nullptr;
  if (ref && ref->kind == ExprKind::OpRef && ref->op) return operator_documentation(*ref->op);
  if (ref && ref->kind == ExprKind::GlobalRef && ref->global) return global_documentation(*ref->global, t);
  if (ref && ref->kind == ExprKind::CtorRef && ref->ctor && ref->ctor->owner) {
    std::string text = code_block(std::string(ref->name) + ": " + (t ? type_to_string(t) : "?")) +
                       "\n\nconstructor of `" + std::string(ref->ctor->owner->name) + "`";
    if (!ref->ctor->owner->doc.empty()) text += "\n\n" + std::string(ref->ctor->owner->doc);
    return text;
  }
  // An expression that did not check (an unknown name) has the error type: saying
  // `<error>` tells nothing the diagnostic does not.
  return t && t->kind != TyKind::Error ? code_block(type_to_string(t)) : "";
}

}  // namespace

std::optional<HoverInfo> hover_at(const FileCheck& check, uint32_t offset) {
  for (const CheckedDefinition& d : check.definitions) {
    if (offset < d.chunk_offset) continue;
    const uint32_t rel = offset - d.chunk_offset;  // AST spans are chunk offsets
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
    HoverInfo h;
    Span span{};
    if (binder) {
      h.markdown = code_block("%" + std::string(binder->name) + ": " + type_to_string(d.types->type_of(binder)));
      span = binder->span;
    } else if (best) {
      h.markdown = describe(best, *d.types);
      span = best->span;
    }
    if (h.markdown.empty()) return std::nullopt;
    h.begin = span.begin + d.chunk_offset;
    h.end = span.end + d.chunk_offset;
    return h;
  }
  return std::nullopt;
}

}  // namespace relay::ide
