#include "compiler/tier/definition_key.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "lang/syntax/printer.h"
#include "lang/syntax/walk.h"

namespace relay::jit {

namespace {

// FNV-1a, 64-bit: stable across runs, enough to tell definitions apart in one session
// (a collision needs two different texts of the same function name and signature).
uint64_t fnv1a(std::string_view text, uint64_t h) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

uint64_t definition_key(const FuncDef& def) {
  // Every global reachable from `def`, each printed once, in name order so the key does
  // not depend on the order calls appear in.
  std::vector<const FuncDef*> reached{&def};
  std::unordered_set<const FuncDef*> seen{&def};
  for (size_t i = 0; i < reached.size(); ++i) {
    if (!reached[i]->fn) continue;
    walk_expr(const_cast<FunctionExpr*>(reached[i]->fn), [&](Expr* e) {
      if (e->kind != ExprKind::GlobalRef) return;
      const FuncDef* callee = static_cast<RefExpr*>(e)->global;
      if (callee && seen.insert(callee).second) reached.push_back(callee);
    });
  }
  std::sort(reached.begin() + 1, reached.end(), [](const FuncDef* a, const FuncDef* b) { return a->name < b->name; });
  uint64_t h = 14695981039346656037ull;
  for (const FuncDef* d : reached) {
    h = fnv1a(d->name, h);
    h = fnv1a("=", h);
    if (d->fn) h = fnv1a(print_expr(d->fn), h);
    h = fnv1a("\n", h);
  }
  return h;
}

}  // namespace relay::jit
