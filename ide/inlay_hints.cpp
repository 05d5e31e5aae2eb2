#include "ide/inlay_hints.h"

#include <algorithm>

#include "lang/syntax/walk.h"
#include "lang/types/type.h"

namespace relay::ide {

std::vector<InlayHint> inlay_hints(const FileCheck& check, uint32_t begin, uint32_t end) {
  std::vector<InlayHint> out;
  for (const CheckedDefinition& d : check.definitions) {
    if (!d.types || !d.def->fn) continue;
    const uint32_t o = d.chunk_offset;
    if (d.def->span.end + o < begin || d.def->span.begin + o > end) continue;
    auto hint = [&](const VarDecl* v) {
      if (!v || v->annotation) return;
      const uint32_t at = v->span.end + o;
      if (at < begin || at > end) return;
      Ty t = d.types->type_of(v);
      if (!t) return;
      out.push_back({at, ": " + type_to_string(t)});
    };
    walk_expr(d.def->fn, [&](Expr* e) {
      if (auto* f = as<FunctionExpr>(e))
        for (const VarDecl* p : f->params) hint(p);
      else if (auto* b = as<BlockExpr>(e))
        for (const Binding& bind : b->bindings)
          if (bind.kind == BindingKind::Let || bind.kind == BindingKind::Graph) hint(bind.var);
    });
  }
  std::stable_sort(out.begin(), out.end(), [](const InlayHint& a, const InlayHint& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace relay::ide
