// The solver's dimension unknowns: binding them, the equations that cannot be decided
// when met (kept and re-examined at the end), and how they read in messages.
#include <algorithm>
#include <map>

#include "lang/types/solver.h"

namespace relay {

Dim Solver::fresh_dim(std::string name) {
  uint32_t id = static_cast<uint32_t>(dim_bindings_.size());
  dim_bindings_.emplace_back();
  dim_watchers_.emplace_back();
  dim_names_.push_back(std::move(name));
  return Dim::symbol(dim_hole_name(id));
}

Ty Solver::rename_dims(Ty t, const std::vector<std::string>& names) {
  if (names.empty()) return t;
  std::map<std::string, Dim> subst;
  for (const auto& n : names) subst.emplace(n, fresh_dim(n));
  std::function<Ty(Ty)> rename = [&](Ty x) -> Ty {
    Ty s = shallow(x);
    if (s != x) return map_type(s, arena_, rename);  // a bound hole stands for its binding
    auto* tt = ty_as<TensorTy>(s);
    if (!tt) return s->kind == TyKind::Hole ? s : nullptr;
    std::vector<Dim> dims;
    for (const Dim& d : tt->shape) dims.push_back(d.is_constant() || d.is_any() ? d : d.substitute(subst));
    return arena_.tensor(std::span<const Dim>(dims.data(), dims.size()), tt->dtype);
  };
  return map_type(t, arena_, rename);
}

Dim Solver::resolve_dim(const Dim& d, bool finalize) const {
  if (d.is_any() || d.is_constant()) return d;
  std::map<std::string, Dim> subst;
  bool unbound = false;
  for (const std::string& s : d.symbols()) {
    auto idx = dim_hole_index(s);
    if (!idx || *idx >= dim_bindings_.size()) continue;
    if (dim_bindings_[*idx]) subst.emplace(s, resolve_dim(*dim_bindings_[*idx], finalize));
    else unbound = true;
  }
  if (unbound && finalize) {
    // Bound unknowns were finalised above, so a dimension that still has an unknown is
    // exactly `d` with the bindings that exist: look for it in the pending equations.
    Dim partial = resolve_dim(d);
    return settled_by_equation(partial).value_or(Dim::any());
  }
  return subst.empty() ? d : d.substitute(subst);
}

// `n * m` whose equation `n * m = 6` stayed undecided is 6 wherever the program runs
// (TVM checks it there), so the result type shows 6 rather than `?`.
std::optional<Dim> Solver::settled_by_equation(const Dim& resolved) const {
  for (const DimEquation& e : dim_equations_) {
    if (e.state != DimEquation::State::Pending) continue;
    Dim x = resolve_dim(e.expected), y = resolve_dim(e.found);
    if (x == resolved && !dim_has_hole(y)) return y;
    if (y == resolved && !dim_has_hole(x)) return x;
  }
  return std::nullopt;
}

Dim Solver::show_dim(const Dim& d, std::vector<std::string>* unknown_names) const {
  Dim r = resolve_dim(d);
  if (r.is_any() || r.is_constant()) return r;
  std::map<std::string, Dim> names;
  for (const std::string& s : r.symbols()) {
    auto idx = dim_hole_index(s);
    if (!idx) continue;
    const std::string& name = *idx < dim_names_.size() ? dim_names_[*idx] : std::string();
    if (name.empty()) return Dim::any();  // nothing to call it: say "not known"
    names.emplace(s, Dim::symbol(name));
    if (unknown_names &&
        std::find(unknown_names->begin(), unknown_names->end(), name) == unknown_names->end())
      unknown_names->push_back(name);
  }
  return names.empty() ? r : r.substitute(names);
}

Dim Solver::named_dim(const Dim& d) const {
  if (d.is_any() || d.is_constant()) return d;
  std::map<std::string, Dim> names;
  for (const std::string& s : d.symbols())
    if (auto idx = dim_hole_index(s); idx && *idx < dim_names_.size() && !dim_names_[*idx].empty())
      names.emplace(s, Dim::symbol(dim_names_[*idx]));
  return names.empty() ? d : d.substitute(names);
}

std::vector<std::pair<std::string, Dim>> Solver::named_bindings(const Dim& d) const {
  std::vector<std::pair<std::string, Dim>> out;
  if (d.is_any() || d.is_constant()) return out;
  for (const std::string& s : d.symbols())
    if (auto idx = dim_hole_index(s); idx && *idx < dim_bindings_.size() && dim_bindings_[*idx])
      out.emplace_back(dim_names_[*idx], show_dim(*dim_bindings_[*idx]));
  // By name, the order in which Dim prints them (`m * n`).
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return out;
}

Ty Solver::show(Ty t) {
  return map_type(resolve(t), arena_, [&](Ty x) -> Ty {
    auto* tt = ty_as<TensorTy>(x);
    if (!tt) return nullptr;
    bool unknown = false;
    for (const Dim& d : tt->shape) unknown = unknown || dim_has_hole(d);
    if (!unknown) return tt;
    std::vector<Dim> dims;
    for (const Dim& d : tt->shape) dims.push_back(show_dim(d));
    return arena_.tensor(std::span<const Dim>(dims.data(), dims.size()), tt->dtype);
  });
}

Solver::DimEq Solver::unify_dims(const Dim& a0, const Dim& b0) {
  Dim a = resolve_dim(a0), b = resolve_dim(b0);
  if (a.is_any() || b.is_any() || a == b) return DimEq::Equal;
  auto as_hole = [](const Dim& d) -> std::optional<uint32_t> {
    if (d.is_any() || d.is_constant()) return std::nullopt;
    auto syms = d.symbols();
    if (syms.size() != 1) return std::nullopt;
    auto idx = dim_hole_index(syms[0]);
    if (!idx || !(d == Dim::symbol(syms[0]))) return std::nullopt;
    return idx;
  };
  auto mentions = [](const Dim& d, uint32_t h) {
    for (const auto& s : d.symbols())
      if (s == dim_hole_name(h)) return true;
    return false;
  };
  // `h = f(h)` is left to the general case below (`h = h + 1` is a clash).
  if (auto h = as_hole(a); h && !mentions(b, *h)) {
    bind_dim(*h, b);
    return DimEq::Equal;
  }
  if (auto h = as_hole(b); h && !mentions(a, *h)) {
    bind_dim(*h, a);
    return DimEq::Equal;
  }
  if (!dim_has_hole(a) && !dim_has_hole(b)) return DimEq::Clash;
  Dim diff = a - b;
  if (diff.is_any()) return DimEq::Deferred;  // overflowed: nothing to conclude
  std::vector<std::string> holes;
  for (const auto& s : diff.symbols())
    if (dim_hole_index(s)) holes.push_back(s);
  // The unknowns cancel (`h + 1` vs `h + 2`, `h + n` vs `h + m`): what is left differs.
  if (holes.empty()) return DimEq::Clash;
  // One unknown occurring linearly: a - b = c*h + r  =>  h = -r / c when exact.
  if (holes.size() == 1) {
    Dim r = diff.substitute(holes[0], Dim::constant(0));
    Dim c = diff.substitute(holes[0], Dim::constant(1)) - r;
    auto cv = c.constant_value();
    if (cv && *cv != 0 && diff == c * Dim::symbol(holes[0]) + r) {
      Dim neg_r = -r;
      if (*cv == 1 || *cv == -1) {
        bind_dim(*dim_hole_index(holes[0]), *cv == 1 ? neg_r : r);
        return DimEq::Equal;
      }
      if (auto rv = neg_r.constant_value()) {
        // c * h = rv: h is that quotient, or there is no integer h at all (`2 * n` vs 7).
        if (*rv % *cv != 0) return DimEq::Clash;
        bind_dim(*dim_hole_index(holes[0]), Dim::constant(*rv / *cv));
        return DimEq::Equal;
      }
    }
  }
  // Several unknowns (`n * m = 6`), or one that is not linear: undecidable now.
  return DimEq::Deferred;
}

void Solver::solve_deferred() {
  // Each pass settles at least one equation or stops, so this ends.
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < dim_equations_.size(); ++i) {
      if (dim_equations_[i].state != DimEquation::State::Pending) continue;
      DimEq r = unify_dims(dim_equations_[i].expected, dim_equations_[i].found);
      if (r == DimEq::Deferred) continue;
      dim_equations_[i].state = r == DimEq::Equal ? DimEquation::State::Solved : DimEquation::State::Clash;
      progress = true;
      // A binding it made may wake relations, which may meet new equations (appended,
      // and seen by this loop); `dim_equations_[i]` may move, so it is not kept.
      solve();
    }
  }
}

}  // namespace relay
