// Symbolic tensor dimensions: `?` or an integer polynomial over named dimensions.
//
// A dimension written `Tensor[(n, 784), float32]` may be a name, and inference combines
// names arithmetically (reshape multiplies, split floor-divides, concatenate adds). Dim
// keeps every such value in a normal form, so that two expressions which are equal as
// polynomials compare equal structurally (`n + n == 2 * n`, `n * m == m * n`).
//
// Normal form: a sum of terms `coeff * monomial`, coeff != 0; a monomial is a sorted
// product of atoms with exponents; an atom is a symbol name or `floordiv(E, c)` with E
// normalised and c > 1. The floordiv rules are listed with `floordiv` below.
//
// Overflow: coefficient (and exponent) arithmetic is checked; an operation whose exact
// result would not fit gives Any. That is sound for checking, since Any is "not known
// statically" and TVM defers such dimensions to run time, and never undefined behaviour.
// Exponents above kMaxExponent are treated the same way (they keep printing bounded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relay {

class Dim {
 public:
  static constexpr int32_t kMaxExponent = 64;

  Dim();  // the constant 0, so Dim can be a map value
  static Dim constant(int64_t value);
  static Dim symbol(std::string name);
  static Dim any();

  bool is_any() const { return !poly_; }
  bool is_constant() const;
  std::optional<int64_t> constant_value() const;  // nullopt unless is_constant()

  // Floor division by a positive constant; nullopt when c <= 0. Rules, in order:
  //   floordiv(?, c) = ?;  floordiv(E, 1) = E;  constants fold (rounding down);
  //   each coefficient a = q*c + m with 0 <= m < c moves q*X out: floordiv(c*X + R, c)
  //     = X + floordiv(R, c), valid for any integer-valued X (so exact division folds
  //     completely, and a remainder that is only a constant in [0, c) vanishes);
  //   common factors cancel: floordiv(g*R, g*c) = floordiv(R, c);
  //   nesting merges: floordiv(floordiv(F, a), b) = floordiv(F, a*b) (if a*b fits).
  friend std::optional<Dim> floordiv(const Dim& e, int64_t c);

  friend Dim operator+(const Dim& a, const Dim& b);
  friend Dim operator-(const Dim& a, const Dim& b);
  friend Dim operator*(const Dim& a, const Dim& b);
  friend Dim operator-(const Dim& a);
  friend Dim operator+(const Dim& a, int64_t b) { return a + constant(b); }
  friend Dim operator+(int64_t a, const Dim& b) { return constant(a) + b; }
  friend Dim operator-(const Dim& a, int64_t b) { return a - constant(b); }
  friend Dim operator-(int64_t a, const Dim& b) { return constant(a) - b; }
  friend Dim operator*(const Dim& a, int64_t b) { return a * constant(b); }
  friend Dim operator*(int64_t a, const Dim& b) { return constant(a) * b; }

  // Structural on the normal form; Any equals only Any (here: same representation,
  // not "compatible" — compatibility with `?` is the type checker's business).
  friend bool operator==(const Dim& a, const Dim& b) { return a.compare(b) == 0; }
  friend bool operator==(const Dim& a, int64_t b) { return a.constant_value() == b; }
  friend bool operator<(const Dim& a, const Dim& b) { return a.compare(b) < 0; }
  int compare(const Dim& other) const;  // a total order: Any first, then by terms
  size_t hash() const;

  // Canonical text: `2 * n + 1`, `n * m`, `(n + 1) / 2`, `n - 1`, `?`. Terms go by
  // degree (highest first), then by atom; the constant comes last. `/` is floor
  // division. A negative leading term prints as `-n` (shape syntax has no unary minus,
  // but real dimensions are non-negative, so this only shows up in intermediate values).
  std::string to_string() const;

  std::vector<std::string> symbols() const;  // sorted, unique, including inside `/`
  Dim substitute(const std::map<std::string, Dim>& bindings) const;
  Dim substitute(const std::string& name, const Dim& value) const;
  // nullopt for Any, an unbound symbol, or an overflowing intermediate value.
  std::optional<int64_t> evaluate(const std::map<std::string, int64_t>& env) const;

  struct Poly;  // the normal form; defined in dim.cpp

 private:
  friend struct DimImpl;
  explicit Dim(std::shared_ptr<const Poly> p) : poly_(std::move(p)) {}
  std::shared_ptr<const Poly> poly_;  // null means Any; immutable and shared, so copies are cheap
};

}  // namespace relay

template <>
struct std::hash<relay::Dim> {
  size_t operator()(const relay::Dim& d) const { return d.hash(); }
};
