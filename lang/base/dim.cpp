// Symbolic dimensions: the normal form, its arithmetic and its printing (see dim.h).
#include "lang/base/dim.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace relay {

namespace {

// A symbol when div == 0, else floordiv(num, div) with div > 1 and num not Any.
struct Atom {
  std::string name;
  Dim num;
  int64_t div = 0;
};

struct Factor {
  Atom atom;
  int32_t exp = 1;
};

using Monomial = std::vector<Factor>;  // sorted by cmp_atom, atoms distinct

struct Term {
  Monomial mono;
  int64_t coeff = 0;
};

int cmp_int(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

// Symbols before floordivs, so that a product prints `n * (m / 2)` with names first.
int cmp_atom(const Atom& a, const Atom& b) {
  if ((a.div == 0) != (b.div == 0)) return a.div == 0 ? -1 : 1;
  if (a.div == 0) return a.name.compare(b.name) < 0 ? -1 : a.name == b.name ? 0 : 1;
  if (int c = a.num.compare(b.num)) return c;
  return cmp_int(a.div, b.div);
}

int64_t degree(const Monomial& m) {
  int64_t d = 0;
  for (const Factor& f : m) d += f.exp;
  return d;
}

// The term order: higher degree first, then atom by atom (higher power first); the
// constant (empty monomial, degree 0) is therefore last.
int cmp_mono(const Monomial& a, const Monomial& b) {
  if (int c = cmp_int(degree(b), degree(a))) return c;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (int c = cmp_atom(a[i].atom, b[i].atom)) return c;
    if (int c = cmp_int(b[i].exp, a[i].exp)) return c;
  }
  return cmp_int(static_cast<int64_t>(a.size()), static_cast<int64_t>(b.size()));
}

}  // namespace

struct Dim::Poly {
  std::vector<Term> terms;  // sorted by cmp_mono, monomials distinct, coeffs non-zero
};

struct DimImpl {
  static Dim make(std::vector<Term> terms) {
    auto p = std::make_shared<Dim::Poly>();
    p->terms = std::move(terms);
    return Dim(std::move(p));
  }
  static const std::vector<Term>& terms(const Dim& d) { return d.poly_->terms; }

  // Sorts and combines like terms; Any if a sum of coefficients overflows.
  static Dim normalize(std::vector<Term> in) {
    std::stable_sort(in.begin(), in.end(),
                     [](const Term& a, const Term& b) { return cmp_mono(a.mono, b.mono) < 0; });
    std::vector<Term> out;
    for (Term& t : in) {
      if (!out.empty() && cmp_mono(out.back().mono, t.mono) == 0) {
        if (__builtin_add_overflow(out.back().coeff, t.coeff, &out.back().coeff)) return Dim::any();
      } else {
        out.push_back(std::move(t));
      }
      if (out.back().coeff == 0) out.pop_back();
    }
    return make(std::move(out));
  }

  // Merges two sorted factor lists; false when an exponent passes kMaxExponent.
  static bool mul_mono(const Monomial& a, const Monomial& b, Monomial& out) {
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      int c = i == a.size() ? 1 : j == b.size() ? -1 : cmp_atom(a[i].atom, b[j].atom);
      if (c < 0) out.push_back(a[i++]);
      else if (c > 0) out.push_back(b[j++]);
      else {
        out.push_back(a[i]);
        out.back().exp = a[i++].exp + b[j++].exp;  // both <= kMaxExponent: no overflow
        if (out.back().exp > Dim::kMaxExponent) return false;
      }
    }
    return true;
  }

  static Dim from_atom(Atom a) { return make({Term{Monomial{Factor{std::move(a), 1}}, 1}}); }

  // Rebuilds d with each atom replaced by f(atom); the general form of substitution.
  template <class F>
  static Dim map_atoms(const Dim& d, F&& f) {
    if (d.is_any()) return d;
    Dim sum = Dim::constant(0);
    for (const Term& t : terms(d)) {
      Dim prod = Dim::constant(t.coeff);
      for (const Factor& fac : t.mono)
        for (int32_t k = 0; k < fac.exp; ++k) prod = prod * f(fac.atom);
      sum = sum + prod;
    }
    return sum;
  }

  static std::string print(const Dim& d);
  static std::string print_atom(const Atom& a) {
    if (a.div == 0) return a.name;
    std::string inner = print(a.num);
    // A single-term numerator has a positive coefficient (rule: 0 <= m < c) and its
    // products associate left like `/`, so only a sum needs parentheses.
    if (terms(a.num).size() > 1) inner = "(" + inner + ")";
    return inner + " / " + std::to_string(a.div);
  }
};

// Every default-constructed Dim (the constant 0) shares one immutable polynomial, so
// that arrays of Dims cost no allocation per element.
static const std::shared_ptr<const Dim::Poly>& zero_poly() {
  static const std::shared_ptr<const Dim::Poly> zero = std::make_shared<Dim::Poly>();
  return zero;
}
Dim::Dim() : poly_(zero_poly()) {}

Dim Dim::constant(int64_t value) {
  if (value == 0) return Dim();
  return DimImpl::make({Term{{}, value}});
}

Dim Dim::symbol(std::string name) { return DimImpl::from_atom(Atom{std::move(name), Dim(), 0}); }

Dim Dim::any() { return Dim(std::shared_ptr<const Poly>()); }

bool Dim::is_constant() const {
  return poly_ && (poly_->terms.empty() || (poly_->terms.size() == 1 && poly_->terms[0].mono.empty()));
}

std::optional<int64_t> Dim::constant_value() const {
  if (!is_constant()) return std::nullopt;
  return poly_->terms.empty() ? 0 : poly_->terms[0].coeff;
}

Dim operator+(const Dim& a, const Dim& b) {
  if (a.is_any() || b.is_any()) return Dim::any();
  std::vector<Term> all = DimImpl::terms(a);
  all.insert(all.end(), DimImpl::terms(b).begin(), DimImpl::terms(b).end());
  return DimImpl::normalize(std::move(all));
}

Dim operator-(const Dim& a) { return a * Dim::constant(-1); }

Dim operator-(const Dim& a, const Dim& b) { return a + (-b); }

Dim operator*(const Dim& a, const Dim& b) {
  if (a.is_any() || b.is_any()) return Dim::any();
  std::vector<Term> all;
  for (const Term& x : DimImpl::terms(a))
    for (const Term& y : DimImpl::terms(b)) {
      Term t;
      if (__builtin_mul_overflow(x.coeff, y.coeff, &t.coeff)) return Dim::any();
      if (!DimImpl::mul_mono(x.mono, y.mono, t.mono)) return Dim::any();
      all.push_back(std::move(t));
    }
  return DimImpl::normalize(std::move(all));
}

std::optional<Dim> floordiv(const Dim& e, int64_t c) {
  if (c <= 0) return std::nullopt;
  if (e.is_any() || c == 1) return e;
  // Split each coefficient a = q*c + m, 0 <= m < c (c > 1, so q cannot overflow).
  std::vector<Term> whole, rest;
  for (const Term& t : DimImpl::terms(e)) {
    int64_t q = t.coeff / c, m = t.coeff % c;
    if (m < 0) m += c, q -= 1;
    if (q != 0) whole.push_back(Term{t.mono, q});
    if (m != 0) rest.push_back(Term{t.mono, m});
  }
  Dim x = DimImpl::normalize(std::move(whole));
  // Nothing left, or only a constant in [0, c): floor of it is 0.
  if (rest.empty() || (rest.size() == 1 && rest[0].mono.empty())) return x;
  int64_t g = c;
  for (const Term& t : rest) g = std::gcd(g, t.coeff);
  for (Term& t : rest) t.coeff /= g;
  c /= g;  // still > 1: every m < original c, so g < original c
  if (rest.size() == 1 && rest[0].coeff == 1 && rest[0].mono.size() == 1 &&
      rest[0].mono[0].exp == 1 && rest[0].mono[0].atom.div != 0) {
    const Atom& inner = rest[0].mono[0].atom;
    int64_t ac;
    if (!__builtin_mul_overflow(inner.div, c, &ac)) return x + *floordiv(inner.num, ac);
  }
  Dim r = DimImpl::normalize(std::move(rest));  // already sorted; keeps it canonical
  return x + DimImpl::from_atom(Atom{std::string(), r, c});
}

int Dim::compare(const Dim& other) const {
  if (is_any() || other.is_any()) return cmp_int(!is_any(), !other.is_any());
  const auto &a = poly_->terms, &b = other.poly_->terms;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (int c = cmp_mono(a[i].mono, b[i].mono)) return c;
    if (int c = cmp_int(a[i].coeff, b[i].coeff)) return c;
  }
  return cmp_int(static_cast<int64_t>(a.size()), static_cast<int64_t>(b.size()));
}

size_t Dim::hash() const {
  // The canonical text is unique per normal form; hashing it keeps hash and == in step.
  return std::hash<std::string>()(to_string());
}

std::string DimImpl::print(const Dim& d) {
  if (d.is_any()) return "?";
  const auto& ts = terms(d);
  if (ts.empty()) return "0";
  std::string out;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Term& t = ts[i];
    bool neg = t.coeff < 0;
    // Magnitude in unsigned arithmetic: -INT64_MIN does not fit in int64_t.
    uint64_t mag = neg ? 0 - static_cast<uint64_t>(t.coeff) : static_cast<uint64_t>(t.coeff);
    out += i == 0 ? (neg ? "-" : "") : (neg ? " - " : " + ");
    std::vector<std::string> parts;
    if (mag != 1 || t.mono.empty()) parts.push_back(std::to_string(mag));
    for (const Factor& f : t.mono)
      for (int32_t k = 0; k < f.exp; ++k) {
        std::string s = print_atom(f.atom);
        // `a * n / 2` would parse as `(a * n) / 2`: a floordiv after another factor
        // needs parentheses.
        if (f.atom.div != 0 && !parts.empty()) s = "(" + s + ")";
        parts.push_back(std::move(s));
      }
    for (size_t k = 0; k < parts.size(); ++k) out += (k ? " * " : "") + parts[k];
  }
  return out;
}

std::string Dim::to_string() const { return DimImpl::print(*this); }

std::vector<std::string> Dim::symbols() const {
  std::set<std::string> names;
  std::function<void(const Dim&)> walk = [&](const Dim& d) {
    if (d.is_any()) return;
    for (const Term& t : d.poly_->terms)
      for (const Factor& f : t.mono) f.atom.div == 0 ? void(names.insert(f.atom.name)) : walk(f.atom.num);
  };
  walk(*this);
  return {names.begin(), names.end()};
}

Dim Dim::substitute(const std::map<std::string, Dim>& bindings) const {
  return DimImpl::map_atoms(*this, [&](const Atom& a) -> Dim {
    if (a.div != 0) return *floordiv(a.num.substitute(bindings), a.div);  // div > 1
    auto it = bindings.find(a.name);
    return it == bindings.end() ? Dim::symbol(a.name) : it->second;
  });
}

Dim Dim::substitute(const std::string& name, const Dim& value) const {
  return substitute(std::map<std::string, Dim>{{name, value}});
}

std::optional<int64_t> Dim::evaluate(const std::map<std::string, int64_t>& env) const {
  // Substituting constants for every symbol folds the whole expression, floordivs
  // included, with the same overflow checks; anything left over means "unknown".
  std::map<std::string, Dim> bindings;
  for (const auto& [name, value] : env) bindings.emplace(name, Dim::constant(value));
  return substitute(bindings).constant_value();
}

}  // namespace relay
