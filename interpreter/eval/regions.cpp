#include "interpreter/eval/regions.h"

#include <algorithm>
#include <unordered_set>

#include "lang/syntax/walk.h"

namespace relay::rt {

namespace {

// Whether `n` is pure dataflow a graph can hold; counts its operator calls.
bool pure(const Node& n, int& op_calls) {
  switch (n.kind) {
    case NodeKind::Const: return n.error.empty();
    case NodeKind::Local: return true;
    case NodeKind::OpCall:
      // An operator without a kernel or not supported fails when interpreted: leave it to
      // the interpreter, which reports it.
      if (!n.op || !n.op->supported || !n.kernel) return false;
      ++op_calls;
      [[fallthrough]];
    case NodeKind::Tuple:
    case NodeKind::GetItem:
      for (const Node* k : n.kids)
        if (!pure(*k, op_calls)) return false;
      return true;
    default: return false;
  }
}

// The variables `n` reads, with their slots, in evaluation order.
void reads(const Node& n, std::vector<std::pair<const VarDecl*, uint32_t>>& out) {
  if (n.kind == NodeKind::Local) {
    out.push_back({static_cast<const RefExpr*>(n.expr)->decl, n.slot});
    return;
  }
  for (const Node* k : n.kids) reads(*k, out);
}

// Completes a run [start, end) of `block` into a region, or returns false when it binds
// nothing read afterwards.
bool describe(const Node& block, const BlockExpr& expr, size_t start, size_t end, FoundRegion& out) {
  std::unordered_set<const VarDecl*> bound;
  RegionCode& r = out.code;
  out.start = start;
  r.end = static_cast<uint32_t>(end);
  for (size_t i = start; i < end; ++i) {
    const Node::Bind& b = block.bindings[i];
    std::vector<std::pair<const VarDecl*, uint32_t>> vars;
    reads(*b.value, vars);
    for (const auto& [decl, slot] : vars) {
      if (!decl || bound.count(decl)) continue;
      if (std::find(r.info.inputs.begin(), r.info.inputs.end(), decl) != r.info.inputs.end()) continue;
      r.info.inputs.push_back(decl);
      r.input_slots.push_back(slot);
    }
    r.info.bindings.push_back(b.binding);
    if (b.binding->var) bound.insert(b.binding->var);
  }
  // Read after the run: anywhere in the later bindings or the result, closures included
  // (a variable is in scope only for the rest of its block, so nothing else can read it).
  std::unordered_set<const VarDecl*> used;
  auto scan = [&](const Expr* e) {
    walk_expr(const_cast<Expr*>(e), [&](Expr* x) {
      if (x->kind == ExprKind::LocalRef) {
        const VarDecl* d = static_cast<const RefExpr*>(x)->decl;
        if (bound.count(d)) used.insert(d);
      }
    });
  };
  for (size_t i = end; i < block.bindings.size(); ++i) scan(block.bindings[i].binding->value);
  scan(expr.result);
  for (size_t i = start; i < end; ++i) {
    const Node::Bind& b = block.bindings[i];
    if (b.binding->var && b.slot >= 0 && used.count(b.binding->var)) {
      r.info.outputs.push_back(b.binding->var);
      r.output_slots.push_back(static_cast<uint32_t>(b.slot));
    }
  }
  if (r.info.outputs.empty()) return false;
  r.info.span = Span::cover(block.bindings[start].binding->span, block.bindings[end - 1].binding->span);
  return true;
}

}  // namespace

std::vector<FoundRegion> find_regions(const Node& block, const BlockExpr& expr) {
  std::vector<FoundRegion> out;
  const size_t n = block.bindings.size();
  size_t i = 0;
  while (i < n) {
    int ops = 0;
    size_t j = i;
    for (; j < n; ++j) {
      int k = 0;  // counted only when the whole value is pure
      if (!pure(*block.bindings[j].value, k)) break;
      ops += k;
    }
    if (j > i && ops >= kMinRegionOps) {
      FoundRegion r;
      if (describe(block, expr, i, j, r)) out.push_back(std::move(r));
    }
    i = j == i ? i + 1 : j;
  }
  return out;
}

}  // namespace relay::rt
