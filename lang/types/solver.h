// The constraint solver of one definition's inference (reference §2.3).
//
// Unknown types are Holes bound through a substitution (`bind`), unknown dimensions are
// symbols named `'k` (kDimHolePrefix) bound the same way. Unification records bindings;
// relations (operator rules) are queued and re-run whenever a hole they depend on is
// bound, to a fixpoint. Nothing here reports diagnostics: failures come back as data
// (UnifyFailure, RelError) and the inference layer decides where to point.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lang/types/call_attrs.h"
#include "lang/types/relation.h"
#include "lang/types/type.h"

namespace relay {

// Why two types did not unify: the innermost pair that clashed and how.
struct UnifyFailure {
  enum class Reason : uint8_t { Kind, DType, Rank, Dim, Arity, Infinite, Adt, Param };
  Reason reason = Reason::Kind;
  Ty expected = nullptr;  // the innermost clashing pair (resolved)
  Ty found = nullptr;
  size_t dim = 0;         // Reason::Dim: the axis
  Dim expected_dim, found_dim;
};

class Solver {
 public:
  explicit Solver(TypeArena& arena);
  ~Solver();

  TypeArena& arena() { return arena_; }
  Ty fresh();
  Dim fresh_dim();

  // Follows hole bindings at the top level only.
  Ty shallow(Ty t) const;
  // Substitutes every bound hole and dimension unknown, recursively. Unbound holes stay
  // holes; with `finalize`, unbound dimension unknowns become `?`.
  Ty resolve(Ty t, bool finalize = false);
  Dim resolve_dim(const Dim& d, bool finalize = false) const;

  // Makes `expected` and `found` equal, binding unknowns on either side. `?` is
  // compatible with any dimension (TVM's rule). On failure nothing useful is bound for
  // the clashing part and `why` says what clashed.
  bool unify(Ty expected, Ty found, UnifyFailure* why = nullptr);

  // Replaces type parameters by fresh holes (or by `args` where given, in order).
  Ty instantiate(const FuncTy* fn, std::span<const Ty> args = {});
  // Replaces the given dimension names by fresh dimension unknowns throughout `t`.
  Ty rename_dims(Ty t, const std::vector<std::string>& names);

  // An operator relation over `types` = inputs..., output. Runs at once; if it is not
  // solved yet it waits for the holes it depends on. `on_error` is called (at most once)
  // with the relation's complaint.
  using ErrorSink = std::function<void(RelError)>;
  void add_relation(std::string_view op, RelationFn fn, std::vector<Ty> types, CallAttrs attrs,
                    ErrorSink on_error);
  // Re-runs waiting relations until nothing changes.
  void solve();

  struct PendingRelation {
    std::string_view op;
    std::vector<Ty> types;
    size_t id;
  };
  // Relations still waiting for unknown inputs (after solve()).
  std::vector<PendingRelation> pending() const;

  size_t relations_run() const { return relations_run_; }

 private:
  struct Relation;
  class Context;
  bool unify_dims(const Dim& a, const Dim& b);
  bool occurs(uint32_t hole, Ty t) const;
  void bind(uint32_t hole, Ty t);
  void bind_dim(uint32_t index, const Dim& d);
  void run(size_t rel);
  void watch(size_t rel);
  Ty substitute_params(Ty t, const std::vector<std::pair<const TyParamDecl*, Ty>>& map);

  TypeArena& arena_;
  std::vector<Ty> bindings_;                  // hole id -> bound type or nullptr
  std::vector<std::optional<Dim>> dim_bindings_;
  std::vector<std::vector<size_t>> hole_watchers_;
  std::vector<std::vector<size_t>> dim_watchers_;
  std::vector<std::unique_ptr<Relation>> relations_;
  std::vector<size_t> queue_;
  size_t relations_run_ = 0;
  bool solving_ = false;
};

}  // namespace relay
