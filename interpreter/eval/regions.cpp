#include "interpreter/eval/regions.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
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

// For each variable read in `block`, the index of the last binding that reads it (the
// bindings' count for the result), closures included: one walk serves every region of the
// block. A variable is in scope only for the rest of its block, so nothing else reads it.
using LastUse = std::unordered_map<const VarDecl*, size_t>;
LastUse last_uses(const Node& block, const BlockExpr& expr) {
  LastUse last;
  auto scan = [&](const Expr* e, size_t at) {
    walk_expr(const_cast<Expr*>(e), [&](Expr* x) {
      if (x->kind == ExprKind::LocalRef) last[static_cast<const RefExpr*>(x)->decl] = at;
    });
  };
  for (size_t i = 0; i < block.bindings.size(); ++i) scan(block.bindings[i].binding->value, i);
  scan(expr.result, block.bindings.size());
  return last;
}

// Completes a run [start, end) of `block` into a region, or returns false when it binds
// nothing read afterwards.
bool describe(const Node& block, const LastUse& last, size_t start, size_t end, FoundRegion& out) {
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
  // Outputs: read after the run, in a later binding or the result (closures included).
  for (size_t i = start; i < end; ++i) {
    const Node::Bind& b = block.bindings[i];
    auto it = b.binding->var ? last.find(b.binding->var) : last.end();
    if (b.slot >= 0 && it != last.end() && it->second >= end) {
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
  std::optional<LastUse> last;  // computed for the first candidate run
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
      if (!last) last = last_uses(block, expr);
      FoundRegion r;
      if (describe(block, *last, i, j, r)) out.push_back(std::move(r));
    }
    i = j == i ? i + 1 : j;
  }
  return out;
}

}  // namespace relay::rt
