#include "lang/types/solver.h"

namespace relay {

struct Solver::Relation {
  std::string_view op;
  RelationFn fn;
  std::vector<Ty> types;  // inputs..., output
  CallAttrs attrs;
  ErrorSink on_error;
  RelStatus status = RelStatus::Pending;
  bool queued = false;
};

class Solver::Context final : public RelationContext {
 public:
  Context(Solver& s, Relation& r) : s_(s), r_(r) {}
  std::string_view op_name() const override { return r_.op; }
  size_t num_inputs() const override { return r_.types.size() - 1; }
  Ty input(size_t i) override { return s_.resolve(r_.types.at(i)); }
  Ty output() override { return s_.resolve(r_.types.back()); }
  const CallAttrs& attrs() const override { return r_.attrs; }
  TypeArena& arena() override { return s_.arena_; }
  Ty fresh() override { return s_.fresh(); }
  void report(RelError e) override {
    if (!reported_) first_ = std::move(e);
    reported_ = true;
  }
  bool assign_input(size_t i, Ty t) override {
    Ty before = s_.resolve(r_.types.at(i));
    if (s_.unify(r_.types.at(i), t)) return true;
    report(RelError{"`" + std::string(r_.op) + "` requires input " + std::to_string(i) +
                        " to have type `" + type_to_string(s_.resolve(t)) + "`, found `" +
                        type_to_string(before) + "`",
                    {{i, "has type `" + type_to_string(before) + "`"}}, {}, {}, {}});
    return false;
  }
  bool assign_output(Ty t) override {
    Ty before = s_.resolve(r_.types.back());
    if (s_.unify(r_.types.back(), t)) return true;
    report(RelError{"`" + std::string(r_.op) + "` produces `" + type_to_string(s_.resolve(t)) +
                        "` here, but `" + type_to_string(before) + "` is expected",
                    {}, {}, {}, {}});
    return false;
  }

  bool reported_ = false;
  RelError first_;

 private:
  Solver& s_;
  Relation& r_;
};

Solver::Solver(TypeArena& arena) : arena_(arena) {}
Solver::~Solver() = default;

Ty Solver::fresh() {
  uint32_t id = static_cast<uint32_t>(bindings_.size());
  bindings_.push_back(nullptr);
  hole_watchers_.emplace_back();
  return arena_.hole(id);
}

Ty Solver::shallow(Ty t) const {
  while (t && t->kind == TyKind::Hole) {
    uint32_t id = static_cast<const HoleTy*>(t)->id;
    if (id >= bindings_.size() || !bindings_[id]) return t;
    t = bindings_[id];
  }
  return t;
}

Ty Solver::resolve(Ty t, bool finalize) {
  return map_type(t, arena_, [&](Ty x) -> Ty {
    Ty s = shallow(x);
    if (s != x) return resolve(s, finalize);  // a bound hole stands for its binding
    auto* tt = ty_as<TensorTy>(s);
    if (!tt) return s->kind == TyKind::Hole ? s : nullptr;
    bool has_unknown = false;
    for (const Dim& d : tt->shape)
      if (!d.is_any() && !d.is_constant() && dim_has_hole(d)) has_unknown = true;
    if (!has_unknown) return tt;
    std::vector<Dim> dims;
    for (const Dim& d : tt->shape) dims.push_back(resolve_dim(d, finalize));
    return arena_.tensor(std::span<const Dim>(dims.data(), dims.size()), tt->dtype);
  });
}

bool Solver::occurs(uint32_t hole, Ty t) const {
  t = shallow(t);
  switch (t->kind) {
    case TyKind::Hole: return static_cast<const HoleTy*>(t)->id == hole;
    case TyKind::Tuple:
      for (Ty f : static_cast<const TupleTy*>(t)->fields)
        if (occurs(hole, f)) return true;
      return false;
    case TyKind::Func: {
      auto* ft = static_cast<const FuncTy*>(t);
      for (Ty p : ft->params)
        if (occurs(hole, p)) return true;
      return occurs(hole, ft->ret);
    }
    case TyKind::Adt:
      for (Ty a : static_cast<const AdtTy*>(t)->args)
        if (occurs(hole, a)) return true;
      return false;
    case TyKind::Ref: return occurs(hole, static_cast<const RefTy*>(t)->value);
    default: return false;
  }
}

void Solver::bind(uint32_t hole, Ty t) {
  bindings_[hole] = t;
  for (size_t r : hole_watchers_[hole]) queue_.push_back(r);
  hole_watchers_[hole].clear();
}

void Solver::bind_dim(uint32_t index, const Dim& d) {
  dim_bindings_[index] = d;
  for (size_t r : dim_watchers_[index]) queue_.push_back(r);
  dim_watchers_[index].clear();
}

bool Solver::unify(Ty expected, Ty found, UnifyFailure* why) {
  Ty a = shallow(expected), b = shallow(found);
  if (a == b) return true;
  auto fail = [&](UnifyFailure::Reason r) {
    if (why) {
      // Dimension unknowns print as the names they stand for, never as `'k`.
      why->reason = r;
      why->expected = show(a);
      why->found = show(b);
    }
    return false;
  };
  if (a->kind == TyKind::Hole) {
    uint32_t id = static_cast<const HoleTy*>(a)->id;
    if (occurs(id, b)) return fail(UnifyFailure::Reason::Infinite);
    bind(id, b);
    return true;
  }
  if (b->kind == TyKind::Hole) {
    uint32_t id = static_cast<const HoleTy*>(b)->id;
    if (occurs(id, a)) return fail(UnifyFailure::Reason::Infinite);
    bind(id, a);
    return true;
  }
  // An error type absorbs anything (after the holes: an unknown unified with an error
  // becomes an error, so it is not reported again as "cannot infer").
  if (a->kind == TyKind::Error || b->kind == TyKind::Error) return true;
  if (a->kind != b->kind) return fail(UnifyFailure::Reason::Kind);
  switch (a->kind) {
    case TyKind::Tensor: {
      auto* x = static_cast<const TensorTy*>(a);
      auto* y = static_cast<const TensorTy*>(b);
      if (x->rank() != y->rank()) return fail(UnifyFailure::Reason::Rank);
      for (size_t i = 0; i < x->rank(); ++i) {
        switch (unify_dims(x->shape[i], y->shape[i])) {
          case DimEq::Equal: break;
          case DimEq::Deferred:
            dim_equations_.push_back({x->shape[i], y->shape[i], a, b, i, running_, DimEquation::State::Pending});
            break;
          case DimEq::Clash:
            if (why) {
              why->dim = i;
              why->unknown_names.clear();
              why->expected_dim = show_dim(x->shape[i], &why->unknown_names);
              why->found_dim = show_dim(y->shape[i], &why->unknown_names);
            }
            return fail(UnifyFailure::Reason::Dim);
        }
      }
      if (x->dtype != y->dtype) return fail(UnifyFailure::Reason::DType);
      return true;
    }
    case TyKind::Tuple: {
      auto* x = static_cast<const TupleTy*>(a);
      auto* y = static_cast<const TupleTy*>(b);
      if (x->fields.size() != y->fields.size()) return fail(UnifyFailure::Reason::Arity);
      for (size_t i = 0; i < x->fields.size(); ++i)
        if (!unify(x->fields[i], y->fields[i], why)) return false;
      return true;
    }
    case TyKind::Func: {
      auto* x = static_cast<const FuncTy*>(a);
      auto* y = static_cast<const FuncTy*>(b);
      // A polymorphic side is instantiated (reference §2.3, func vs func).
      if (!x->type_params.empty() && y->type_params.empty())
        x = static_cast<const FuncTy*>(instantiate(x));
      else if (x->type_params.empty() && !y->type_params.empty())
        y = static_cast<const FuncTy*>(instantiate(y));
      else if (!x->type_params.empty()) {
        if (x->type_params.size() != y->type_params.size()) return fail(UnifyFailure::Reason::Arity);
        std::vector<Ty> shared;
        for (const TyParamDecl* p : x->type_params) shared.push_back(arena_.param(p));
        y = static_cast<const FuncTy*>(instantiate(y, shared));
        x = static_cast<const FuncTy*>(instantiate(x, shared));
      }
      if (x->params.size() != y->params.size()) return fail(UnifyFailure::Reason::Arity);
      for (size_t i = 0; i < x->params.size(); ++i)
        if (!unify(x->params[i], y->params[i], why)) return false;
      return unify(x->ret, y->ret, why);
    }
    case TyKind::Param:
      return static_cast<const ParamTy*>(a)->decl == static_cast<const ParamTy*>(b)->decl
                 ? true
                 : fail(UnifyFailure::Reason::Param);
    case TyKind::Adt: {
      auto* x = static_cast<const AdtTy*>(a);
      auto* y = static_cast<const AdtTy*>(b);
      if (x->adt != y->adt || x->args.size() != y->args.size()) return fail(UnifyFailure::Reason::Adt);
      for (size_t i = 0; i < x->args.size(); ++i)
        if (!unify(x->args[i], y->args[i], why)) return false;
      return true;
    }
    case TyKind::Ref:
      return unify(static_cast<const RefTy*>(a)->value, static_cast<const RefTy*>(b)->value, why);
    default:
      return true;
  }
}

Ty Solver::substitute_params(Ty t, const std::vector<std::pair<const TyParamDecl*, Ty>>& map) {
  return map_type(t, arena_, [&](Ty x) -> Ty {
    auto* p = ty_as<ParamTy>(x);
    if (!p) return nullptr;
    for (const auto& [decl, ty] : map)
      if (decl == p->decl) return ty;
    return x;
  });
}

Ty Solver::instantiate(const FuncTy* fn, std::span<const Ty> args) {
  if (fn->type_params.empty()) return fn;
  std::vector<std::pair<const TyParamDecl*, Ty>> map;
  for (size_t i = 0; i < fn->type_params.size(); ++i)
    map.emplace_back(fn->type_params[i], i < args.size() ? args[i] : fresh());
  std::vector<Ty> params;
  for (Ty p : fn->params) params.push_back(substitute_params(p, map));
  Ty ret = substitute_params(fn->ret, map);
  // With `args` this is a renaming onto another polymorphic type (func vs func), not a
  // use: the operator's relation waits for the instantiation of the result.
  if (fn->op && op_instantiation_ && args.empty()) {
    std::vector<Ty> types = params;
    types.push_back(ret);
    op_instantiation_(fn, std::move(types));
  }
  // The instance is an ordinary function: its relation has just been added.
  return arena_.func({}, std::span<const Ty>(params.data(), params.size()), ret);
}

void Solver::add_relation(std::string_view op, RelationFn fn, std::vector<Ty> types,
                          CallAttrs attrs, ErrorSink on_error) {
  auto r = std::make_unique<Relation>();
  r->op = op;
  r->fn = fn;
  r->types = std::move(types);
  r->attrs = std::move(attrs);
  r->on_error = std::move(on_error);
  relations_.push_back(std::move(r));
  queue_.push_back(relations_.size() - 1);
  solve();
}

void Solver::watch(size_t rel) {
  // Every hole and dimension unknown still inside the relation's types.
  std::function<void(Ty)> walk = [&](Ty t) {
    t = shallow(t);
    switch (t->kind) {
      case TyKind::Hole: {
        auto& w = hole_watchers_[static_cast<const HoleTy*>(t)->id];
        if (w.empty() || w.back() != rel) w.push_back(rel);
        return;
      }
      case TyKind::Tensor:
        for (const Dim& d : static_cast<const TensorTy*>(t)->shape) {
          if (d.is_any() || d.is_constant()) continue;
          for (const auto& s : resolve_dim(d).symbols())
            if (auto i = dim_hole_index(s)) {
              auto& w = dim_watchers_[*i];
              if (w.empty() || w.back() != rel) w.push_back(rel);
            }
        }
        return;
      case TyKind::Tuple:
        for (Ty f : static_cast<const TupleTy*>(t)->fields) walk(f);
        return;
      case TyKind::Func: {
        auto* ft = static_cast<const FuncTy*>(t);
        for (Ty p : ft->params) walk(p);
        walk(ft->ret);
        return;
      }
      case TyKind::Adt:
        for (Ty a : static_cast<const AdtTy*>(t)->args) walk(a);
        return;
      case TyKind::Ref: walk(static_cast<const RefTy*>(t)->value); return;
      default: return;
    }
  };
  for (Ty t : relations_[rel]->types) walk(t);
}

void Solver::run(size_t index) {
  Relation& r = *relations_[index];
  if (r.status != RelStatus::Pending) return;
  Context ctx(*this, r);
  ++relations_run_;
  // Dimension equations deferred while it runs come from its assignments.
  std::optional<size_t> outer = running_;
  running_ = index;
  RelStatus s = r.fn(ctx);
  running_ = outer;
  if (s == RelStatus::Pending && !ctx.reported_) {
    watch(index);
    return;
  }
  r.status = ctx.reported_ ? RelStatus::Failed : s;
  if (r.status == RelStatus::Failed) {
    // The output becomes an error type so that one bad call gives one diagnostic.
    unify(r.types.back(), arena_.error());
    // Failing without a report means an input already had an error type.
    if (r.on_error && ctx.reported_) r.on_error(std::move(ctx.first_));
  }
}

void Solver::solve() {
  if (solving_) return;
  solving_ = true;
  while (!queue_.empty()) {
    size_t r = queue_.back();
    queue_.pop_back();
    run(r);
  }
  solving_ = false;
}

std::vector<Solver::PendingRelation> Solver::pending() const {
  std::vector<PendingRelation> out;
  for (size_t i = 0; i < relations_.size(); ++i)
    if (relations_[i]->status == RelStatus::Pending) out.push_back({relations_[i]->op, relations_[i]->types, i});
  return out;
}

}  // namespace relay
