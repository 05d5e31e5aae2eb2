#include "debugger/program_map.h"

#include <algorithm>

namespace relay::dbg {

Position position_of(const SourceFile& file, Span span) {
  Position p;
  LineCol b = file.lines.lookup(span.begin), e = file.lines.lookup(span.end);
  p.line = b.line;
  p.column = file.lines.utf16_column(file.text, span.begin) + 1;
  p.end_line = e.line;
  p.end_column = file.lines.utf16_column(file.text, span.end) + 1;
  return p;
}

ProgramMap::ProgramMap(rt::Program& program, const Module& module, const SourceFile& file) {
  for (const Definition& d : module.defs) {
    if (d.kind != Definition::Func || !d.func->fn) continue;
    globals_.push_back(d.func);
    const rt::FunctionCode* code = nullptr;
    try {
      code = &program.function(*d.func);
    } catch (const rt::RuntimeError&) {
      continue;  // did not compile (the checker reported why); nothing to stop at
    }
    index(code->body, d.func, file);
  }
  std::sort(points_.begin(), points_.end(), [](const StopPoint& a, const StopPoint& b) {
    return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
  });
  for (size_t i = 0; i < points_.size(); ++i) by_line_.emplace(points_[i].pos.line, i);
}

void ProgramMap::index(const rt::Node* root, const FuncDef* global, const SourceFile& file) {
  // An explicit stack: printed models nest calls deeply.
  std::vector<const rt::Node*> stack{root};
  while (!stack.empty()) {
    const rt::Node* n = stack.back();
    stack.pop_back();
    if (!n) continue;
    const bool call = n->kind == rt::NodeKind::Call || n->kind == rt::NodeKind::OpCall;
    if ((n->statement || call) && n->expr && n->expr->span.file == file.id)
      points_.push_back({n, global, n->statement, n->expr->span.begin, position_of(file, n->expr->span)});
    for (const rt::Node* k : n->kids) stack.push_back(k);
    for (const auto& b : n->bindings) stack.push_back(b.value);
    stack.push_back(n->result);
    for (const auto& c : n->clauses) stack.push_back(c.body);
    if (n->kind == rt::NodeKind::Lambda && n->function) stack.push_back(n->function->body);
  }
}

std::vector<const StopPoint*> ProgramMap::at_line(uint32_t line) const {
  std::vector<const StopPoint*> out;
  auto [b, e] = by_line_.equal_range(line);
  for (auto it = b; it != e; ++it) out.push_back(&points_[it->second]);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->pos.column < b->pos.column; });
  return out;
}

uint32_t ProgramMap::next_statement_line(uint32_t line) const {
  for (auto it = by_line_.lower_bound(line); it != by_line_.end(); ++it)
    if (points_[it->second].statement) return it->first;
  return 0;
}

std::vector<const StopPoint*> ProgramMap::in_lines(uint32_t line, uint32_t end_line) const {
  std::vector<const StopPoint*> out;
  for (auto it = by_line_.lower_bound(line); it != by_line_.end() && it->first <= end_line; ++it)
    out.push_back(&points_[it->second]);
  return out;
}

const FuncDef* ProgramMap::global_at(uint32_t offset) const {
  for (const FuncDef* g : globals_)
    if (g->span.begin <= offset && offset < g->span.end) return g;
  return nullptr;
}

}  // namespace relay::dbg
