// The constraint solver of one definition's inference (reference §2.3).
//
// Unknown types are Holes bound through a substitution (`bind`), unknown dimensions are
// symbols named `'k` (kDimHolePrefix) bound the same way. Unification records bindings;
// relations (operator rules) are queued and re-run whenever a hole they depend on is
// bound, to a fixpoint. Nothing here reports diagnostics: failures come back as data
// (UnifyFailure, RelError, DimEquation) and the inference layer decides where to point.
//
// Dimension equations that cannot be decided when met (`n * m = 6` with both unknown)
// are kept and re-examined by `solve_deferred` once everything else is solved
// (solver_dims.cpp).
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
  // Reason::Dim: the clashing dimensions, a dimension unknown still unbound written as
  // the name it stands for (`2 * n` of the callee's `Tensor[(2 * n)]`).
  Dim expected_dim, found_dim;
  std::vector<std::string> unknown_names;  // such names in expected_dim/found_dim
};

// An equation between two dimensions (axis `axis` of two tensor types) that could not
// be decided when unification met it, e.g. `n * m = 6` with both names unknown.
struct DimEquation {
  enum class State : uint8_t { Pending, Solved, Clash };
  Dim expected, found;         // as met (unknowns in them may be bound later)
  Ty expected_ty = nullptr;    // the tensor types they are dimensions of
  Ty found_ty = nullptr;
  size_t axis = 0;
  // The relation that was running when it was met (it assigned a type), if any; the
  // caller knows the provenance of the others (they come from its own unify calls).
  std::optional<size_t> relation;
  State state = State::Pending;
};

class Solver {
 public:
  explicit Solver(TypeArena& arena);
  ~Solver();

  TypeArena& arena() { return arena_; }
  Ty fresh();
  // A dimension unknown standing for the dimension name `name` (used in messages).
  Dim fresh_dim(std::string name);

  // Follows hole bindings at the top level only.
  Ty shallow(Ty t) const;
  // Substitutes every bound hole and dimension unknown, recursively. Unbound holes stay
  // holes; with `finalize`, a dimension with an unbound unknown becomes `?`, or the other
  // side of a pending equation it is exactly (`n * m` is `6` while `n * m = 6` pends).
  Ty resolve(Ty t, bool finalize = false);
  Dim resolve_dim(const Dim& d, bool finalize = false) const;
  // For messages: resolved, with each unbound unknown written as the dimension name it
  // was made for; those names are appended to `unknown_names` (if given).
  Dim show_dim(const Dim& d, std::vector<std::string>* unknown_names = nullptr) const;
  Ty show(Ty t);
  // `d` as written where it was met: every unknown as its name, bound or not (`n * m`).
  Dim named_dim(const Dim& d) const;
  // The bound unknowns of `d`, as (name, value shown), by name.
  std::vector<std::pair<std::string, Dim>> named_bindings(const Dim& d) const;

  // Makes `expected` and `found` equal, binding unknowns on either side. `?` is
  // compatible with any dimension (TVM's rule). On failure nothing useful is bound for
  // the clashing part and `why` says what clashed.
  bool unify(Ty expected, Ty found, UnifyFailure* why = nullptr);

  // Replaces type parameters by fresh holes (or by `args` where given, in order). For an
  // operator's type (FuncTy::op) the instantiation hook is told about the new instance,
  // which is what gives each use of an operator value its own relation (reference §2.4).
  Ty instantiate(const FuncTy* fn, std::span<const Ty> args = {});
  // `generic` = the operator's type, `types` = the instance's params..., result.
  using OpInstantiation = std::function<void(const FuncTy* generic, std::vector<Ty> types)>;
  void set_op_instantiation(OpInstantiation hook) { op_instantiation_ = std::move(hook); }
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

  // Every dimension equation deferred so far, in the order met.
  const std::vector<DimEquation>& dim_equations() const { return dim_equations_; }
  // Re-examines the pending equations under the current bindings: one that now has a
  // single unknown occurring linearly binds it (re-running relations), one without
  // unknowns is Solved or a Clash; to a fixpoint. The rest stay Pending (they are
  // accepted: TVM would check them at run time). Call after solve().
  void solve_deferred();

 private:
  struct Relation;
  class Context;
  enum class DimEq : uint8_t { Equal, Clash, Deferred };
  DimEq unify_dims(const Dim& a, const Dim& b);
  std::optional<Dim> settled_by_equation(const Dim& resolved) const;
  bool occurs(uint32_t hole, Ty t) const;
  void bind(uint32_t hole, Ty t);
  void bind_dim(uint32_t index, const Dim& d);
  void run(size_t rel);
  void watch(size_t rel);
  Ty substitute_params(Ty t, const std::vector<std::pair<const TyParamDecl*, Ty>>& map);

  TypeArena& arena_;
  std::vector<Ty> bindings_;                  // hole id -> bound type or nullptr
  std::vector<std::optional<Dim>> dim_bindings_;
  std::vector<std::string> dim_names_;        // dimension unknown -> the name it stands for
  std::vector<DimEquation> dim_equations_;
  std::optional<size_t> running_;             // the relation being run
  std::vector<std::vector<size_t>> hole_watchers_;
  std::vector<std::vector<size_t>> dim_watchers_;
  std::vector<std::unique_ptr<Relation>> relations_;
  std::vector<size_t> queue_;
  size_t relations_run_ = 0;
  bool solving_ = false;
  OpInstantiation op_instantiation_;
};

}  // namespace relay
