#include "ide/structure.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

#include "lang/syntax/walk.h"
#include "lang/types/database_chunks.h"
#include "lang/types/type.h"

namespace relay::ide {

namespace {

Range moved(Span s, uint32_t offset) { return {s.begin + offset, s.end + offset}; }

std::string written(const DbChunk& c, uint32_t begin, uint32_t end) {
  const std::string& t = c.source->text;
  if (begin > end || end > t.size()) return "";
  return t.substr(begin, end - begin);
}

}  // namespace

std::vector<OutlineSymbol> document_outline(const FileCheck& check) {
  std::unordered_map<const FuncDef*, const InferredTypes*> types;
  for (const CheckedDefinition& d : check.definitions) types[d.def] = d.types.get();
  std::vector<OutlineSymbol> out;
  for (const auto& c : check.chunks) {
    if (!c->module) continue;
    const uint32_t o = c->offset;
    for (const Definition& d : c->module->defs) {
      if (d.kind == Definition::Type && d.type) {
        const TypeDef& t = *d.type;
        OutlineSymbol sym{std::string(t.name), "", OutlineKind::Type, moved(t.span, o), moved(t.name_span, o), {}};
        if (!t.type_params.empty()) {
          sym.detail = "[";
          for (size_t i = 0; i < t.type_params.size(); ++i)
            sym.detail += (i ? ", " : "") + std::string(t.type_params[i]->name);
          sym.detail += "]";
        }
        for (const CtorDef* ctor : t.ctors)
          sym.children.push_back({std::string(ctor->name), written(*c, ctor->name_span.end, ctor->span.end),
                                  OutlineKind::Ctor, moved(ctor->span, o), moved(ctor->name_span, o), {}});
        out.push_back(std::move(sym));
      } else if (d.kind == Definition::Func && d.func) {
        const FuncDef& f = *d.func;
        const InferredTypes* ty = types.count(&f) ? types[&f] : nullptr;
        OutlineSymbol sym{"@" + std::string(f.name), "", OutlineKind::Function, moved(f.span, o),
                          moved(f.name_span, o), {}};
        if (ty && ty->type) sym.detail = type_to_string(ty->type);
        if (f.fn)
          for (const VarDecl* p : f.fn->params) {
            OutlineSymbol param{"%" + std::string(p->name), "", OutlineKind::Param, moved(p->span, o),
                                moved(p->span, o), {}};
            // The parameter with its annotation, when written.
            if (p->annotation) param.range.end = std::max(param.range.end, p->annotation->span.end + o);
            if (Ty t = ty ? ty->type_of(p) : nullptr) param.detail = type_to_string(t);
            sym.children.push_back(std::move(param));
          }
        out.push_back(std::move(sym));
      }
    }
  }
  return out;
}

bool subsequence_match(std::string_view query, std::string_view name) {
  size_t i = 0;
  for (char c : name)
    if (i < query.size() && std::tolower(static_cast<unsigned char>(c)) == std::tolower(static_cast<unsigned char>(query[i])))
      ++i;
  return i == query.size();
}

std::vector<WorkspaceSymbol> workspace_symbols(const FileCheck& check, std::string_view query) {
  std::vector<WorkspaceSymbol> out;
  auto add = [&](const OutlineSymbol& s, const std::string& container) {
    if (subsequence_match(query, s.name)) out.push_back({s.name, s.kind, s.selection, container});
  };
  for (const OutlineSymbol& s : document_outline(check)) {
    add(s, "");
    if (s.kind == OutlineKind::Type)
      for (const OutlineSymbol& c : s.children) add(c, s.name);
  }
  return out;
}

std::vector<Fold> folding_ranges(const FileCheck& check) {
  const SourceFile& file = *check.source;
  const std::string& text = file.text;
  auto line_of = [&](uint32_t off) { return file.lines.lookup(std::min<uint32_t>(off, text.size())).line - 1; };
  std::map<uint32_t, Fold> by_start;  // one fold per start line: the largest
  auto add = [&](Range r, FoldKind kind) {
    if (r.end <= r.begin || r.end > text.size()) return;
    uint32_t last = r.end - 1;
    while (last > r.begin && (text[last] == '\n' || text[last] == '\r' || text[last] == ' ')) --last;
    Fold f{line_of(r.begin), line_of(last), kind};
    if (kind == FoldKind::Region && text[last] == '}') {
      // A `}` alone on its line stays visible.
      uint32_t s = file.lines.line_start(f.end_line + 1);
      bool alone = true;
      for (uint32_t i = s; i < last; ++i) alone &= text[i] == ' ' || text[i] == '\t';
      if (alone) --f.end_line;
    }
    if (f.end_line <= f.start_line) return;
    auto [it, fresh] = by_start.emplace(f.start_line, f);
    if (!fresh && f.end_line > it->second.end_line) it->second = f;
  };
  for (const auto& c : check.chunks) {
    if (!c->module) continue;
    const uint32_t o = c->offset;
    const Module& m = *c->module;
    for (const Definition& d : m.defs) {
      if (d.kind == Definition::Type && d.type) add(moved(d.type->span, o), FoldKind::Region);
      if (d.kind != Definition::Func || !d.func) continue;
      add(moved(d.func->span, o), FoldKind::Region);
      walk_expr(d.func->fn, [&](Expr* e) {
        if (e->kind == ExprKind::Function || e->kind == ExprKind::Match || e->kind == ExprKind::If || e->braced())
          add(moved(e->span, o), FoldKind::Region);
      });
    }
    if (m.metadata_span.size() > 0) add(moved(m.metadata_span, o), FoldKind::Region);
    // Comments: a block comment on its own, `//` and `///` lines in runs of one kind.
    for (size_t i = 0; i < m.comments.size();) {
      const Comment& first = m.comments[i];
      size_t j = i + 1;
      if (first.kind != CommentKind::Block)
        while (j < m.comments.size() && m.comments[j].kind == first.kind &&
               line_of(m.comments[j].span.begin + o) == line_of(m.comments[j - 1].span.begin + o) + 1)
          ++j;
      add({first.span.begin + o, m.comments[j - 1].span.end + o}, FoldKind::Comment);
      i = j;
    }
  }
  std::vector<Fold> out;
  for (const auto& [line, f] : by_start) out.push_back(f);
  return out;
}

std::vector<Range> selection_chain(const FileCheck& check, const SymbolIndex& index, uint32_t offset) {
  std::vector<Range> candidates;
  if (const Occurrence* occ = index.at(offset)) candidates.push_back(occ->range);
  for (const auto& c : check.chunks) {
    if (!c->module) continue;
    const uint32_t o = c->offset;
    if (offset < o || offset > c->end()) continue;
    const uint32_t rel = offset - o;
    auto holds = [&](Span s) { return s.begin <= rel && rel <= s.end; };
    for (const Definition& d : c->module->defs) {
      if (d.kind == Definition::Type && d.type && holds(d.type->span)) {
        for (const CtorDef* ctor : d.type->ctors)
          if (holds(ctor->span)) candidates.push_back(moved(ctor->span, o));
        candidates.push_back(moved(d.type->span, o));
      }
      if (d.kind != Definition::Func || !d.func || !holds(d.func->span)) continue;
      walk_expr(d.func->fn, [&](Expr* e) {
        if (holds(e->span)) candidates.push_back(moved(e->span, o));
        if (auto* f = as<FunctionExpr>(e))
          for (const VarDecl* p : f->params) {
            if (holds(p->span)) candidates.push_back(moved(p->span, o));
            // The parameter with its annotation.
            if (p->annotation && p->span.begin <= rel && rel <= p->annotation->span.end)
              candidates.push_back({p->span.begin + o, p->annotation->span.end + o});
          }
        if (auto* b = as<BlockExpr>(e))
          for (const Binding& bind : b->bindings)
            if (holds(bind.span)) candidates.push_back(moved(bind.span, o));
        if (auto* m = as<MatchExpr>(e))
          for (const Clause& cl : m->clauses)
            if (holds(cl.span)) candidates.push_back(moved(cl.span, o));
      });
      candidates.push_back(moved(d.func->span, o));
    }
  }
  candidates.push_back({0, static_cast<uint32_t>(check.source->text.size())});
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Range& a, const Range& b) { return a.end - a.begin < b.end - b.begin; });
  std::vector<Range> chain;
  for (const Range& r : candidates) {
    if (!chain.empty() && (r == chain.back() || r.begin > chain.back().begin || r.end < chain.back().end)) continue;
    chain.push_back(r);
  }
  return chain;
}

}  // namespace relay::ide
