#include "ide/fixes.h"

#include "lang/types/type.h"

namespace relay::ide {

namespace {

// E0072 at a call of a global without a return annotation (its result type is unknown to
// callers): the callee's body was inferred on its own, so when that gave a complete type
// the fix writes it as the callee's annotation, `def @f(...) -> TYPE { ... }`.
std::optional<Fix> annotate_callee_result(const FileCheck& check, size_t index) {
  const Diagnostic& d = check.diagnostics[index];
  if (d.kind != DiagKind::UnsolvedType) return std::nullopt;
  for (const Label& l : d.labels) {
    if (l.primary || !l.message.ends_with("has no return type annotation")) continue;
    for (const CheckedDefinition& def : check.definitions) {
      Span name{check.file, def.def->name_span.begin + def.chunk_offset, def.def->name_span.end + def.chunk_offset};
      if (name.begin != l.span.begin || l.span.file != check.file || !def.types) continue;
      Ty t = def.types->type;
      if (!t || t->kind != TyKind::Func || !is_ground(t)) return std::nullopt;
      Ty ret = static_cast<const FuncTy*>(t)->ret;
      if (!ret || ret->kind == TyKind::Error || !def.def->fn || !def.def->fn->body) return std::nullopt;
      // Insert before the `{` that opens the body.
      std::string_view text = check.source->text;
      uint32_t at = def.def->fn->body->span.begin + def.chunk_offset;
      if (at >= text.size()) return std::nullopt;
      while (at > 0 && text[at] != '{') --at;
      if (text[at] != '{') return std::nullopt;
      std::string type = type_to_string(ret);
      std::string name_text = "@" + std::string(def.def->name);
      return Fix{index, "annotate the result of `" + name_text + "` with its inferred type `" + type + "`",
                 {FixEdit{at, at, "-> " + type + " "}}, true};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<Fix> quick_fixes(const FileCheck& check, uint32_t begin, uint32_t end) {
  std::vector<Fix> out;
  for (size_t i = 0; i < check.diagnostics.size(); ++i) {
    const Diagnostic& d = check.diagnostics[i];
    if (d.labels.empty()) continue;
    const Span p = d.primary().span;
    if (p.file != check.file || p.end < begin || p.begin > end) continue;
    bool first = true;
    if (auto f = annotate_callee_result(check, i)) {
      out.push_back(std::move(*f));
      first = false;
    }
    for (const Help& h : d.helps) {
      if (h.edits.empty()) continue;
      Fix f{i, h.message, {}, first};
      bool here = true;
      for (const TextEdit& e : h.edits) {
        if (e.span.file != check.file) here = false;
        f.edits.push_back({e.span.begin, e.span.end, e.replacement});
      }
      if (!here) continue;
      out.push_back(std::move(f));
      first = false;
    }
  }
  return out;
}

}  // namespace relay::ide
