// Symbolic dimensions: normal forms compare equal, print canonically, absorb `?`,
// evaluate and substitute, survive overflow, and come from parsed shapes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_set>

#include "lang/base/dim.h"
#include "lang/base/source.h"
#include "lang/syntax/dim_from_syntax.h"
#include "lang/syntax/parser.h"
#include "tests/support/module_lookup.h"

using namespace relay;

// Failing checks show the canonical text instead of `{?}`.
template <>
struct Catch::StringMaker<Dim> {
  static std::string convert(const Dim& d) { return d.to_string(); }
};

namespace {

const Dim n = Dim::symbol("n");
const Dim m = Dim::symbol("m");
const Dim k = Dim::symbol("k");

Dim fdiv(const Dim& e, int64_t c) {
  std::optional<Dim> r = floordiv(e, c);
  REQUIRE(r);
  return *r;
}

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

}  // namespace

TEST_CASE("equal polynomials have one normal form", "[dim]") {
  CHECK(n + n == 2 * n);
  CHECK((n + 1) * 2 == 2 * n + 2);
  CHECK(n * m == m * n);
  CHECK(n - n == 0);
  CHECK((n - n).is_constant());
  CHECK((n + m) * (n - m) == n * n - m * m);          // distributivity
  CHECK((n + 1) * (n + 1) == n * n + 2 * n + 1);
  CHECK(n * (m * k) == (n * m) * k);
  CHECK(n + (m + k) == (k + n) + m);
  CHECK(3 * n - 2 * n - n == Dim::constant(0));
  CHECK(Dim() == 0);
  CHECK(Dim::constant(2) * 3 + 1 == 7);
  CHECK(n != m);
  CHECK(n + 1 != n);
  CHECK(n * n != 2 * n);
}

TEST_CASE("floordiv normalisation", "[dim]") {
  CHECK(fdiv(Dim::constant(7), 2) == 3);
  CHECK(fdiv(Dim::constant(-7), 2) == -4);    // rounds down, like TVM's floordiv
  CHECK(fdiv(n, 1) == n);
  CHECK(fdiv(4 * n + 6, 2) == 2 * n + 3);     // exact division folds completely
  CHECK(fdiv(2 * n + 1, 2) == n);             // a remainder in [0, c) vanishes
  CHECK(fdiv(n + 5, 2) == fdiv(n + 1, 2) + 2);
  CHECK(fdiv(3 * n, 2) == n + fdiv(n, 2));
  CHECK(fdiv(2 * n, 4) == fdiv(n, 2));         // common factor cancels
  CHECK(fdiv(fdiv(n, 2), 3) == fdiv(n, 6));    // nesting merges
  CHECK(fdiv(fdiv(3 * n, 4), 3) == fdiv(n, 4)); // merge, then cancel
  CHECK(fdiv(n, 2) * 2 != n);                  // floor division does not invert
  CHECK(fdiv(n, 2) != fdiv(n, 3));
  CHECK_FALSE(floordiv(n, 0));
  CHECK_FALSE(floordiv(n, -2));
  CHECK_FALSE(floordiv(Dim::any(), 0));
}

TEST_CASE("canonical printing", "[dim]") {
  CHECK((2 * n + 1).to_string() == "2 * n + 1");
  CHECK((m * n).to_string() == "m * n");
  CHECK((n - 1).to_string() == "n - 1");
  CHECK((1 + n).to_string() == "n + 1");                 // constant last
  CHECK((n + m * n + 3 + n * n).to_string() == "m * n + n * n + n + 3");  // degree first
  CHECK((m + n).to_string() == "m + n");
  CHECK((n * -2 + m).to_string() == "m - 2 * n");
  CHECK((1 - n).to_string() == "-n + 1");
  CHECK(fdiv(n, 2).to_string() == "n / 2");
  CHECK(fdiv(n + 1, 2).to_string() == "(n + 1) / 2");
  CHECK(fdiv(n * m, 2).to_string() == "m * n / 2");
  CHECK((3 * fdiv(n, 2)).to_string() == "3 * (n / 2)");
  CHECK((m * fdiv(n, 2) + 1).to_string() == "m * (n / 2) + 1");
  CHECK(fdiv(n - 1, 2).to_string() == "(n + 1) / 2 - 1");
  CHECK(Dim::constant(0).to_string() == "0");
  CHECK(Dim::constant(-5).to_string() == "-5");
  CHECK(Dim::constant(kMin).to_string() == "-9223372036854775808");
  CHECK(Dim::any().to_string() == "?");
}

TEST_CASE("Any absorbs every operation", "[dim]") {
  Dim any = Dim::any();
  CHECK((any + n).is_any());
  CHECK((n - any).is_any());
  CHECK((any * 0).is_any());
  CHECK((-any).is_any());
  CHECK(fdiv(any, 4).is_any());
  CHECK(any == Dim::any());
  CHECK(any != n);
  CHECK_FALSE(any.is_constant());
  CHECK_FALSE(any.constant_value());
  CHECK(any.symbols().empty());
  CHECK(any.substitute("n", Dim::constant(1)).is_any());
  CHECK_FALSE(any.evaluate({}));
}

TEST_CASE("evaluate, substitute and symbols", "[dim]") {
  Dim e = 2 * n * m + fdiv(n + 1, 2) - 3;
  CHECK(e.evaluate({{"n", 4}, {"m", 5}}) == 2 * 4 * 5 + 2 - 3);
  CHECK(fdiv(n, 2).evaluate({{"n", -3}}) == -2);
  CHECK_FALSE(e.evaluate({{"n", 4}}));  // m unbound
  CHECK(e.symbols() == std::vector<std::string>{"m", "n"});
  CHECK(fdiv(k + 1, 3).symbols() == std::vector<std::string>{"k"});
  CHECK(Dim::constant(3).symbols().empty());

  CHECK(e.substitute("m", Dim::constant(0)) == fdiv(n + 1, 2) - 3);
  CHECK((n * n).substitute("n", m + 1) == m * m + 2 * m + 1);
  CHECK(fdiv(n, 2).substitute("n", 2 * k) == k);           // floordiv re-normalised
  CHECK(fdiv(n, 2).substitute("n", Dim::any()).is_any());
  CHECK((n + m).substitute({{"n", m}, {"m", n}}) == n + m);  // simultaneous
}

TEST_CASE("overflow gives Any, never undefined behaviour", "[dim]") {
  CHECK((Dim::constant(kMax) + 1).is_any());
  CHECK((Dim::constant(kMin) - 1).is_any());
  CHECK((-Dim::constant(kMin)).is_any());
  CHECK((Dim::constant(kMax) * 2).is_any());
  CHECK((kMax * n + n).is_any());
  CHECK((kMax * n * n * 2).is_any());
  CHECK(fdiv(Dim::constant(kMin), 2) == kMin / 2);
  CHECK_FALSE(fdiv(kMin * n, 3).is_any());  // -INT64_MIN never computed
  CHECK((kMax * n).evaluate({{"n", 2}}) == std::nullopt);
  CHECK((Dim::constant(kMax) + n - n) == kMax);
  // floordiv(floordiv(n, a), b) with a*b overflowing stays nested.
  Dim nested = fdiv(fdiv(n, kMax / 2), 4);
  CHECK(nested.to_string() == "n / " + std::to_string(kMax / 2) + " / 4");
  Dim p = n;
  for (int i = 0; i < 7; ++i) p = p * p;  // n^128 exceeds kMaxExponent
  CHECK(p.is_any());
}

TEST_CASE("total order and hash", "[dim]") {
  std::map<Dim, int> byorder{{n + 1, 1}, {1 + n, 2}, {Dim::any(), 3}, {m, 4}};
  CHECK(byorder.size() == 3);
  CHECK(byorder.at(n + 1) == 1);  // 1 + n was the same key
  std::unordered_set<Dim> set{n * m, m * n, 2 * n, n + n, Dim::any()};
  CHECK(set.size() == 3);
  CHECK(Dim::any() < n);
  CHECK_FALSE(n < n);
  CHECK(((n < m) != (m < n)));
}

TEST_CASE("dim_from_syntax converts parsed shapes", "[dim]") {
  SourceManager sources;
  DiagnosticBag diags;
  FileId file = sources.add("dim.relay",
                            "#[version = \"0.0.5\"]\n"
                            "def @f(%x: Tensor[(n + 1, 2 * (m - 1), ?, n / 2, 784, (n + 3) / 2), "
                            "float32], %y: Tensor[(n / m, n / 0), float32]) { %x }");
  auto module = parse_module(sources.get(file), diags);
  REQUIRE(testing::diagnostic_codes(diags).empty());
  FuncDef* f = testing::find_def(*module, "f");
  REQUIRE(f);
  auto shape = [&](size_t i) {
    Type* t = f->fn->params[i]->annotation;
    REQUIRE(t);
    REQUIRE(t->kind == TypeKind::Tensor);
    return static_cast<TensorType*>(t)->shape;
  };
  auto x = shape(0);
  REQUIRE(x.size() == 6);
  CHECK(dim_from_syntax(*x[0]) == n + 1);
  CHECK(dim_from_syntax(*x[1]) == 2 * m - 2);
  CHECK(dim_from_syntax(*x[1])->to_string() == "2 * m - 2");
  CHECK(dim_from_syntax(*x[2])->is_any());
  CHECK(dim_from_syntax(*x[3]) == fdiv(n, 2));
  CHECK(dim_from_syntax(*x[4]) == 784);
  CHECK(dim_from_syntax(*x[5]) == fdiv(n + 1, 2) + 1);
  auto y = shape(1);
  REQUIRE(y.size() == 2);
  CHECK_FALSE(dim_from_syntax(*y[0]));  // divisor not a constant
  CHECK_FALSE(dim_from_syntax(*y[1]));  // divisor not positive
}
