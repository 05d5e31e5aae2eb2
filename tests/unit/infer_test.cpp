// Type inference end to end: small programs through analyze_file + check_module, checked
// against the typing rules of reference §2 (expression forms, polymorphism, recursion,
// ADTs, symbolic and `?` dimensions, operator relations that fix input types, the side
// table), each diagnostic code of the type checker, and match coverage.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"
#include "lang/types/type.h"
#include "tests/support/module_lookup.h"

using namespace relay;

namespace {

struct Checked {
  SourceManager sources;
  DiagnosticBag diags;
  FrontendResult front;
  ModuleTypes types;  // after `front`: it points into the module
  FileId file = 0;

  const SourceFile& src() const { return sources.get(file); }

  // Codes of every diagnostic in order, without unused-variable warnings (W0002).
  std::string codes() const {
    std::string out;
    for (const auto& d : diags.items()) {
      if (d.code() == "W0002") continue;
      if (!out.empty()) out += ',';
      out += std::string(d.code());
    }
    return out;
  }
  std::string rendered() const {
    std::string out;
    for (const auto& d : diags.items()) {
      LineCol lc = src().lines.lookup(d.primary().span.begin);
      out += std::to_string(lc.line) + ":" + std::to_string(lc.column) + " " + std::string(d.code()) +
             " " + d.message + "\n";
      for (const auto& n : d.notes) out += "  note: " + n + "\n";
    }
    return out;
  }

  const FuncDef* def(std::string_view name) const {
    const FuncDef* f = testing::find_def(*front.module, name);
    if (!f) FAIL("no definition @" << std::string(name));
    return f;
  }
  const InferredTypes& inferred(std::string_view name) const {
    const InferredTypes* t = types.find(def(name));
    if (!t) FAIL("@" << std::string(name) << " was not checked");
    return *t;
  }
  // The inferred type of a global, as TVM prints it.
  std::string sig(std::string_view name) const { return type_to_string(inferred(name).type); }

  // The side-table type of the expression written exactly as `snippet` (its `nth`
  // occurrence inside @def).
  std::string type_at(std::string_view name, std::string_view snippet, int nth = 0) const {
    const FuncDef* f = def(name);
    std::string_view text = src().text;
    size_t pos = f->span.begin;
    for (int i = 0;; ++i) {
      pos = text.find(snippet, pos);
      if (pos == std::string_view::npos || pos >= f->span.end) FAIL("`" << std::string(snippet) << "` not in @" << std::string(name));
      if (i == nth) break;
      ++pos;
    }
    Span want{file, static_cast<uint32_t>(pos), static_cast<uint32_t>(pos + snippet.size())};
    std::vector<std::string> found;
    for (const auto& [e, t] : inferred(name).exprs)
      if (e->span == want) found.push_back(type_to_string(t));
    if (found.empty()) FAIL("no expression spans `" << std::string(snippet) << "` in the side table of @" << std::string(name));
    for (const auto& s : found)
      if (s != found[0]) FAIL("expressions at `" << std::string(snippet) << "` disagree: " << found[0] << " vs " << s);
    return found[0];
  }

  // The side-table type of the binder `%var` inside @def (the only one of that name).
  std::string var(std::string_view name, std::string_view var_name) const {
    std::vector<std::string> found;
    for (const auto& [v, t] : inferred(name).vars)
      if (v->name == var_name) found.push_back(type_to_string(t));
    if (found.size() != 1) FAIL(found.size() << " binders named %" << std::string(var_name) << " in @" << std::string(name));
    return found[0];
  }

  const Diagnostic& diag(std::string_view code) const {
    for (const auto& d : diags.items())
      if (d.code() == code) return d;
    FAIL("no diagnostic " << std::string(code) << " among " << codes() << "\n" << rendered());
    return diags.items().front();
  }
  std::string text(Span s) const { return std::string(src().slice(s)); }
  // The secondary label whose text is `message` exists and covers `snippet`.
  bool has_label(const Diagnostic& d, std::string_view snippet, std::string_view message) const {
    for (size_t i = 1; i < d.labels.size(); ++i)
      if (text(d.labels[i].span) == snippet && d.labels[i].message == message) return true;
    return false;
  }
};

std::unique_ptr<Checked> check(const std::string& program) {
  auto c = std::make_unique<Checked>();
  c->file = c->sources.add("test.relay", "#[version = \"0.0.5\"]\n#[import = \"prelude\"]\n" + program);
  c->front = analyze_file(c->sources, c->file, c->diags);
  c->types = check_module(*c->front.module, c->front.prelude.get(), c->diags);
  return c;
}

// `check` and require no diagnostics at all (other than unused-variable warnings).
std::unique_ptr<Checked> check_clean(const std::string& program) {
  auto c = check(program);
  INFO(c->rendered());
  REQUIRE(c->codes() == "");
  return c;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Expression forms (reference §2.2)

TEST_CASE("constants have their literal's dtype", "[types]") {
  auto c = check_clean("def @c() { (1, 4i, 2i64, 3i16, 5i32, 1f, 1.5, 2f32, 2.5f64, 1f16, True, False) }");
  CHECK(c->sig("c") ==
        "fn () -> (int32, int32, int64, int16, int32, float32, float32, float32, float64, float16, bool, bool)");
  CHECK(c->type_at("c", "2i64") == "int64");
  CHECK(c->type_at("c", "1f16") == "float16");
  CHECK(c->type_at("c", "True") == "bool");
}

TEST_CASE("tuples and projections", "[types]") {
  auto c = check_clean(
      "def @t(%x: Tensor[(2, 3), float32]) {\n"
      "  let %p = (%x, (1, %x));\n"
      "  (%p.1.1, %p.0, %p.1, (), (True,))\n"
      "}\n");
  CHECK(c->sig("t") ==
        "fn (Tensor[(2, 3), float32]) -> (Tensor[(2, 3), float32], Tensor[(2, 3), float32], "
        "(int32, Tensor[(2, 3), float32]), (), (bool,))");
  CHECK(c->var("t", "p") == "(Tensor[(2, 3), float32], (int32, Tensor[(2, 3), float32]))");
  // `%p.1` inside `%p.1.1` is the inner projection.
  CHECK(c->type_at("t", "%p.1") == "(int32, Tensor[(2, 3), float32])");
  CHECK(c->type_at("t", "%p.1.1") == "Tensor[(2, 3), float32]");
  CHECK(c->type_at("t", "()") == "()");
}

TEST_CASE("a projection of a tuple not known yet waits for it", "[types]") {
  // %t has no type when `%t.1` is inferred; the call fixes it afterwards.
  auto c = check_clean("def @u() { let %g = fn (%t) { %t.1 }; %g((1, True)) }");
  CHECK(c->sig("u") == "fn () -> bool");
  CHECK(c->var("u", "t") == "(int32, bool)");
  CHECK(c->var("u", "g") == "fn ((int32, bool)) -> bool");
}

TEST_CASE("let with and without an annotation", "[types]") {
  auto c = check_clean(
      "def @l(%x: float32) {\n"
      "  let %a: float32 = %x;\n"
      "  let %b = %a;\n"
      "  let %c: (int32, _) = (1, %b);\n"
      "  %c\n"
      "}\n");
  CHECK(c->sig("l") == "fn (float32) -> (int32, float32)");
  CHECK(c->var("l", "a") == "float32");
  CHECK(c->var("l", "b") == "float32");
  CHECK(c->var("l", "c") == "(int32, float32)");

  SECTION("an annotation that disagrees with the value") {
    auto e = check("def @l(%x: int32) { let %a: float32 = %x; %a }");
    CHECK(e->codes() == "E0070");
    const Diagnostic& d = e->diag("E0070");
    CHECK(d.message == "mismatched types: expected `float32`, found `int32`");
    CHECK(e->text(d.primary().span) == "%x");
    CHECK(e->has_label(d, "float32", "expected because of this annotation"));
    // The annotation is the binder's type: the error does not spread.
    CHECK(e->sig("l") == "fn (int32) -> float32");
  }
}

TEST_CASE("graph bindings", "[types]") {
  auto c = check_clean(
      "def @g(%x: Tensor[(4), float32]) {\n"
      "  %0 = nn.relu(%x);\n"
      "  %1 = (%0, %x);\n"
      "  %2 = %1.0;\n"
      "  add(%2, %0)\n"
      "}\n");
  CHECK(c->sig("g") == "fn (Tensor[(4), float32]) -> Tensor[(4), float32]");
  CHECK(c->var("g", "1") == "(Tensor[(4), float32], Tensor[(4), float32])");
  CHECK(c->var("g", "2") == "Tensor[(4), float32]");
  CHECK(c->type_at("g", "nn.relu(%x)") == "Tensor[(4), float32]");
}

TEST_CASE("if: the condition is a bool scalar, both branches one type", "[types]") {
  auto c = check_clean(
      "def @i(%b: bool, %x: int32) { if (%b) { %x } else { 0 } }\n"
      "def @j(%x: int32) { if (%x == 1) { 1f } else { 2f } }\n"
      "def @k(%c, %x: int32) { if (%c) { %x } else { %x } }\n");
  CHECK(c->sig("i") == "fn (bool, int32) -> int32");
  CHECK(c->sig("j") == "fn (int32) -> float32");
  CHECK(c->type_at("j", "%x == 1") == "bool");
  // An unannotated condition becomes a bool scalar.
  CHECK(c->sig("k") == "fn (bool, int32) -> int32");

  SECTION("an int32 condition") {
    auto e = check("def @i(%x: int32) { if (%x) { 1 } else { 2 } }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `bool`, found `int32`");
    CHECK(e->text(e->diag("E0070").primary().span) == "%x");
  }
  SECTION("a bool tensor of rank 1 is not a condition") {
    auto e = check("def @i(%x: Tensor[(2), bool]) { if (%x) { 1 } else { 2 } }");
    CHECK(e->codes() == "E0079");
    CHECK(e->diag("E0079").message == "mismatched ranks: expected `bool`, found `Tensor[(2), bool]`");
  }
  SECTION("branches of different types") {
    auto e = check("def @i(%b: bool) { if (%b) { 1 } else { 2f } }");
    CHECK(e->codes() == "E0070");
    const Diagnostic& d = e->diag("E0070");
    CHECK(d.message == "mismatched types: expected `int32`, found `float32`");
    CHECK(e->text(d.primary().span) == "2f");
    CHECK(e->has_label(d, "1", "expected because of this branch"));
  }
}

TEST_CASE("functions and closures", "[types]") {
  auto c = check_clean(
      "def @k(%y: float32) { fn (%x: float32) { add(%x, %y) } }\n"
      "def @twice(%y: float32) {\n"
      "  let %f = fn (%x: float32) -> float32 { multiply(%x, %y) };\n"
      "  %f(%f(%y))\n"
      "}\n"
      "def @infer_param() { let %f = fn (%x) { %x }; %f(1i64) }\n"
      "def @ap(%f: fn (int32) -> bool, %x: int32) { %f(%x) }\n"
      "def @unknown_callee(%f, %x: int32) -> bool { %f(%x) }\n"
      "def @nullary() { let %f = fn () { (1, 2f) }; %f() }\n");
  CHECK(c->sig("k") == "fn (float32) -> fn (float32) -> float32");
  CHECK(c->sig("twice") == "fn (float32) -> float32");
  CHECK(c->var("twice", "f") == "fn (float32) -> float32");
  CHECK(c->sig("infer_param") == "fn () -> int64");
  CHECK(c->var("infer_param", "x") == "int64");
  CHECK(c->type_at("infer_param", "fn (%x) { %x }") == "fn (int64) -> int64");
  CHECK(c->sig("ap") == "fn (fn (int32) -> bool, int32) -> bool");
  // An unannotated parameter that is called is a function of the arguments.
  CHECK(c->sig("unknown_callee") == "fn (fn (int32) -> bool, int32) -> bool");
  CHECK(c->sig("nullary") == "fn () -> (int32, float32)");
}

TEST_CASE("calls of globals check each argument against the parameter", "[types]") {
  auto c = check_clean(
      "def @f(%x: Tensor[(3), float32], %n: int32) -> Tensor[(3), float32] { %x }\n"
      "def @g(%a: Tensor[(3), float32]) { @f(%a, 1) }\n");
  CHECK(c->sig("g") == "fn (Tensor[(3), float32]) -> Tensor[(3), float32]");
  CHECK(c->type_at("g", "@f") == "fn (Tensor[(3), float32], int32) -> Tensor[(3), float32]");

  SECTION("a wrong argument names the declaration") {
    auto e = check(
        "def @f(%x: Tensor[(3), float32], %n: int32) -> Tensor[(3), float32] { %x }\n"
        "def @g(%a: Tensor[(3), float32]) { @f(%a, 1f) }\n");
    CHECK(e->codes() == "E0070");
    const Diagnostic& d = e->diag("E0070");
    CHECK(d.message == "mismatched types: expected `int32`, found `float32`");
    CHECK(e->text(d.primary().span) == "1f");
    CHECK(e->has_label(d, "int32", "parameter `%n` is declared here"));
  }
}

TEST_CASE("references: create, read, write", "[types]") {
  auto c = check_clean(
      "def @r() {\n"
      "  let %r = ref(1f);\n"
      "  let %u = ref_write(%r, 2f);\n"
      "  (ref_read(%r), %r, %u)\n"
      "}\n"
      "def @read(%r: ref(int32)) { ref_read(%r) }\n"
      "def @write(%r) { ref_write(%r, 1i64) }\n"
      "def @cell() { ref((1, True)) }\n");
  CHECK(c->sig("r") == "fn () -> (float32, ref(float32), ())");
  CHECK(c->var("r", "r") == "ref(float32)");
  CHECK(c->var("r", "u") == "()");
  CHECK(c->sig("read") == "fn (ref(int32)) -> int32");
  // The unannotated parameter becomes a cell of what is written into it.
  CHECK(c->sig("write") == "fn (ref(int64)) -> ()");
  CHECK(c->sig("cell") == "fn () -> ref((int32, bool))");

  SECTION("reading something that is not a reference") {
    auto e = check("def @r() { ref_read(1) }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `ref(_)`, found `int32`");
  }
  SECTION("writing a value of another type") {
    auto e = check("def @r(%r: ref(int32)) { ref_write(%r, 1f) }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `int32`, found `float32`");
    CHECK(e->text(e->diag("E0070").primary().span) == "1f");
  }
}

TEST_CASE("match: constructor, tuple, variable and wildcard patterns", "[types]") {
  auto c = check_clean(
      "def @opt(%o: Option[int32]) { match (%o) { Some(%v) => %v, None => 0 } }\n"
      "def @tup(%p: (int32, Option[float32])) {\n"
      "  match (%p) {\n"
      "    (%a, Some(%f)) => %f,\n"
      "    (_, None) => 0f,\n"
      "  }\n"
      "}\n"
      "def @var(%x: (int32, bool)) { match (%x) { %y => %y } }\n"
      "def @nested(%l: List[(int32, bool)]) -> int32 {\n"
      "  match (%l) {\n"
      "    Cons((%n, _), _) => %n,\n"
      "    Nil => 0,\n"
      "  }\n"
      "}\n"
      "def @annotated(%o: Option[int32]) { match (%o) { Some(%w: int32) => %w, None => 0 } }\n"
      "def @from_patterns(%o) -> int32 { match (%o) { Some(%z) => %z, None => 0 } }\n");
  CHECK(c->sig("opt") == "fn (Option[int32]) -> int32");
  CHECK(c->var("opt", "v") == "int32");
  CHECK(c->sig("tup") == "fn ((int32, Option[float32])) -> float32");
  CHECK(c->var("tup", "a") == "int32");
  CHECK(c->var("tup", "f") == "float32");
  CHECK(c->sig("var") == "fn ((int32, bool)) -> (int32, bool)");
  CHECK(c->var("var", "y") == "(int32, bool)");
  CHECK(c->var("nested", "n") == "int32");
  CHECK(c->sig("annotated") == "fn (Option[int32]) -> int32");
  // The scrutinee's type comes from the patterns.
  CHECK(c->sig("from_patterns") == "fn (Option[int32]) -> int32");
  CHECK(c->var("from_patterns", "z") == "int32");

  SECTION("clause bodies of different types") {
    auto e = check("def @m(%o: Option[int32]) { match (%o) { Some(%v) => %v, None => 0f } }");
    CHECK(e->codes() == "E0070");
    const Diagnostic& d = e->diag("E0070");
    CHECK(d.message == "mismatched types: expected `int32`, found `float32`");
    CHECK(e->text(d.primary().span) == "0f");
    CHECK(e->has_label(d, "%v", "expected because of the first clause"));
  }
  SECTION("a constructor of another type") {
    auto e = check("def @m(%o: Option[int32]) { match (%o) { Cons(%a, _) => %a, _ => 0 } }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `Option[int32]`, found `List[_]`");
    CHECK(e->text(e->diag("E0070").primary().span) == "Cons(%a, _)");
  }
  SECTION("a tuple pattern of the wrong length") {
    auto e = check("def @m(%p: (int32, int32)) { match (%p) { (%a, %b, %c) => %a } }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `(int32, int32)`, found `(_, _, _)`");
  }
  SECTION("a pattern variable's annotation that disagrees") {
    auto e = check("def @m(%o: Option[int32]) { match (%o) { Some(%v: float32) => %v, None => 0f } }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `float32`, found `int32`");
    CHECK(e->has_label(e->diag("E0070"), "float32", "expected because of this annotation"));
  }
}

// ---------------------------------------------------------------------------------------
// Polymorphism (reference §2.4)

TEST_CASE("prelude functions instantiate afresh at each use", "[types]") {
  auto c = check_clean(
      "def @poly_uses(%xs: List[int32], %ys: List[float32]) {\n"
      "  let %a = @map(fn (%x: int32) { %x == 0 }, %xs);\n"
      "  let %b = @map(fn (%y: float32) { (%y, %y) }, %ys);\n"
      "  let %c = @foldl(fn (%acc: float32, %y: float32) { add(%acc, %y) }, 0f, %ys);\n"
      "  let %d = @foldl(fn (%n: int32, %q: bool) { %n + 1 }, 0, %a);\n"
      "  (%a, %b, %c, %d)\n"
      "}\n");
  CHECK(c->sig("poly_uses") ==
        "fn (List[int32], List[float32]) -> (List[bool], List[(float32, float32)], float32, int32)");
  CHECK(c->var("poly_uses", "a") == "List[bool]");
  CHECK(c->var("poly_uses", "d") == "int32");
  // Each occurrence of @map / @foldl has its own instance in the side table.
  CHECK(c->type_at("poly_uses", "@map", 0) == "fn (fn (int32) -> bool, List[int32]) -> List[bool]");
  CHECK(c->type_at("poly_uses", "@map", 1) ==
        "fn (fn (float32) -> (float32, float32), List[float32]) -> List[(float32, float32)]");
  CHECK(c->type_at("poly_uses", "@foldl", 0) == "fn (fn (float32, float32) -> float32, float32, List[float32]) -> float32");
  CHECK(c->type_at("poly_uses", "@foldl", 1) == "fn (fn (int32, bool) -> int32, int32, List[bool]) -> int32");
}

TEST_CASE("polymorphic values: globals, constructors, operators", "[types]") {
  auto c = check_clean(
      "def @p[A](%x: A) -> A { %x }\n"
      "def @uses() { (@p(1), @p(2f), @p((1, True)), @p(@p)(3i64)) }\n"
      "def @id_map(%xs: List[int32]) { @map(@id, %xs) }\n"
      "def @ctor_value(%xs: List[int32], %ys: List[int32]) { @foldr(Cons, %ys, %xs) }\n"
      "def @op_value(%xs: List[Tensor[(3), float32]]) { @map(sigmoid, %xs) }\n"
      "def @iter(%x: int32) { let %f = @iterate(fn (%y: int32) { %y + 1 }, 3); %f(%x) }\n");
  CHECK(c->sig("p") == "fn [A](A) -> A");
  CHECK(c->sig("uses") == "fn () -> (int32, float32, (int32, bool), int64)");
  CHECK(c->sig("id_map") == "fn (List[int32]) -> List[int32]");
  CHECK(c->sig("ctor_value") == "fn (List[int32], List[int32]) -> List[int32]");
  CHECK(c->type_at("ctor_value", "Cons") == "fn (int32, List[int32]) -> List[int32]");
  CHECK(c->sig("op_value") == "fn (List[Tensor[(3), float32]]) -> List[Tensor[(3), float32]]");
  CHECK(c->sig("iter") == "fn (int32) -> int32");
}

TEST_CASE("explicitly polymorphic local functions", "[types]") {
  auto c = check_clean(
      "def @poly() {\n"
      "  let %f = fn [A](%x: A) -> A { %x };\n"
      "  (%f(1), %f(True), %f((1f, 2i64)))\n"
      "}\n"
      "def @pair() {\n"
      "  let %mk = fn [A, B](%a: A, %b: B) -> (B, A) { (%b, %a) };\n"
      "  %mk(1, %mk(2f, True))\n"
      "}\n");
  CHECK(c->sig("poly") == "fn () -> (int32, bool, (float32, int64))");
  CHECK(c->var("poly", "f") == "fn [A](A) -> A");
  CHECK(c->sig("pair") == "fn () -> ((bool, float32), int32)");

  SECTION("without type parameters a local function is monomorphic (no generalisation)") {
    auto e = check("def @mono() { let %f = fn (%x) { %x }; (%f(1), %f(True)) }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `int32`, found `bool`");
    CHECK(e->text(e->diag("E0070").primary().span) == "True");
  }
  SECTION("a type parameter is rigid inside its function") {
    auto e = check(
        "def @bad[A](%x: A) -> int32 { %x }\n"
        "def @bad2[A, B](%x: A) -> B { %x }\n"
        "def @bad3() { let %f = fn [A](%x: A) -> A { 1 }; %f }\n");
    CHECK(e->codes() == "E0070,E0070,E0070");
    CHECK(e->diags.items()[0].message == "mismatched types: expected `int32`, found `A`");
    CHECK(e->diags.items()[1].message == "mismatched types: expected `B`, found `A`");
    CHECK(e->diags.items()[2].message == "mismatched types: expected `A`, found `int32`");
    CHECK(e->sig("bad") == "fn [A](A) -> int32");
  }
}

// ---------------------------------------------------------------------------------------
// Recursion

TEST_CASE("global recursion and mutual recursion", "[types]") {
  auto c = check_clean(
      "def @even(%n: int32) -> bool { if (%n == 0) { True } else { @odd(%n - 1) } }\n"
      "def @odd(%n: int32) -> bool { if (%n == 0) { False } else { @even(%n - 1) } }\n"
      "def @fact(%n: int32) { if (%n == 0) { 1 } else { %n * @fact(%n - 1) } }\n"
      "def @count[A](%xs: List[A]) { match (%xs) { Cons(_, %r) => 1 + @count(%r), Nil => 0 } }\n"
      "def @keep(%x: Tensor[(n), float32], %k: int32) -> Tensor[(n), float32] {\n"
      "  if (%k == 0) { %x } else { @keep(%x, %k - 1) }\n"
      "}\n");
  CHECK(c->sig("even") == "fn (int32) -> bool");
  CHECK(c->sig("odd") == "fn (int32) -> bool");
  // An unannotated result: the recursive call's result is the body's own.
  CHECK(c->sig("fact") == "fn (int32) -> int32");
  CHECK(c->type_at("fact", "@fact(%n - 1)") == "int32");
  CHECK(c->sig("count") == "fn [A](List[A]) -> int32");
  CHECK(c->sig("keep") == "fn (Tensor[(n), float32], int32) -> Tensor[(n), float32]");
}

TEST_CASE("let-bound recursion", "[types]") {
  auto c = check_clean(
      "def @lr(%n: int32) {\n"
      "  let %loop = fn (%i: int32) -> int32 { if (%i == 0) { 0 } else { %loop(%i - 1) } };\n"
      "  %loop(%n)\n"
      "}\n"
      "def @lr2(%n: int32) {\n"
      "  let %loop = fn (%i: int32, %acc: float32) { if (%i == 0) { %acc } else { %loop(%i - 1, %acc) } };\n"
      "  %loop(%n, 1f)\n"
      "}\n"
      "def @lr3(%xs: List[int32]) {\n"
      "  let %len = fn (%l: List[int32]) { match (%l) { Cons(_, %r) => 1 + %len(%r), Nil => 0 } };\n"
      "  %len(%xs)\n"
      "}\n");
  CHECK(c->sig("lr") == "fn (int32) -> int32");
  CHECK(c->var("lr", "loop") == "fn (int32) -> int32");
  CHECK(c->sig("lr2") == "fn (int32) -> float32");
  CHECK(c->var("lr2", "loop") == "fn (int32, float32) -> float32");
  CHECK(c->sig("lr3") == "fn (List[int32]) -> int32");
}

// ---------------------------------------------------------------------------------------
// ADTs

TEST_CASE("prelude and user ADTs", "[types]") {
  auto c = check_clean(
      "type Either[L, R] { Left(L), Right(R) }\n"
      "type Pair[A, B] { MkPair(A, B) }\n"
      "type Color { Red, Green, Blue }\n"
      "def @lst() { Cons(1, Cons(2, Nil)) }\n"
      "def @none() -> Option[float32] { None }\n"
      "def @some() -> Option[(int32, List[bool])] { Some((1, Nil)) }\n"
      "def @e(%x: Either[int32, float32]) {\n"
      "  match (%x) { Left(%l) => cast(%l, dtype=\"float32\"), Right(%r) => %r }\n"
      "}\n"
      "def @mk() -> (Either[int32, bool], Pair[int32, bool]) { (Left(1), MkPair(1, True)) }\n"
      "def @swap[A, B](%p: Pair[A, B]) -> Pair[B, A] { match (%p) { MkPair(%a, %b) => MkPair(%b, %a) } }\n"
      "def @sw() { @swap(MkPair(1, 2f)) }\n"
      "def @color(%c: Color) -> int32 { match (%c) { Red => 0, Green => 1, Blue => 2 } }\n"
      "def @tree() { Rose(1, Cons(Rose(2, Nil), Nil)) }\n");
  CHECK(c->sig("lst") == "fn () -> List[int32]");
  CHECK(c->type_at("lst", "Cons(2, Nil)") == "List[int32]");
  CHECK(c->type_at("lst", "Nil") == "List[int32]");
  CHECK(c->sig("none") == "fn () -> Option[float32]");
  CHECK(c->sig("e") == "fn (Either[int32, float32]) -> float32");
  CHECK(c->var("e", "l") == "int32");
  CHECK(c->var("e", "r") == "float32");
  CHECK(c->sig("mk") == "fn () -> (Either[int32, bool], Pair[int32, bool])");
  CHECK(c->type_at("mk", "Left(1)") == "Either[int32, bool]");
  CHECK(c->sig("swap") == "fn [A, B](Pair[A, B]) -> Pair[B, A]");
  CHECK(c->sig("sw") == "fn () -> Pair[float32, int32]");
  CHECK(c->sig("color") == "fn (Color[]) -> int32");
  CHECK(c->sig("tree") == "fn () -> Tree[int32]");
}

TEST_CASE("ADT errors", "[types]") {
  SECTION("a constructor argument of the wrong type") {
    auto e = check("def @l() { Cons(1, Cons(2f, Nil)) }");
    CHECK(e->codes() == "E0070");
    CHECK(e->diag("E0070").message == "mismatched types: expected `int32`, found `float32`");
  }
  SECTION("an ADT argument nothing determines") {
    auto e = check("type Either[L, R] { Left(L), Right(R) }\ndef @mk() { Left(1) }");
    CHECK(e->codes() == "E0072");
    CHECK(e->sig("mk") == "fn () -> Either[int32, _]");
  }
  SECTION("too many constructor arguments") {
    auto e = check("def @s() { Some(1, 2) }");
    CHECK(e->codes() == "E0074");
    CHECK(e->diag("E0074").message == "this function takes 1 argument(s) but 2 were given");
  }
}

// ---------------------------------------------------------------------------------------
// Dimensions: symbolic names and `?`

TEST_CASE("symbolic dimensions flow through operators", "[types]") {
  auto c = check_clean(
      "def @dense(%x: Tensor[(n, 784), float32], %w: Tensor[(10, 784), float32]) {\n"
      "  nn.dense(%x, %w, units=None)\n"
      "}\n"
      "def @t(%x: Tensor[(n, m), float32]) { transpose(%x, axes=None) }\n"
      "def @cat(%x: Tensor[(n, 3), float32]) -> Tensor[(n + n, 3), float32] { concatenate((%x, %x), axis=0) }\n"
      "def @same(%x: Tensor[(n, 3), float32], %y: Tensor[(n, 3), float32]) { add(%x, %y) }\n");
  CHECK(c->sig("dense") == "fn (Tensor[(n, 784), float32], Tensor[(10, 784), float32]) -> Tensor[(n, 10), float32]");
  CHECK(c->type_at("dense", "nn.dense(%x, %w, units=None)") == "Tensor[(n, 10), float32]");
  CHECK(c->sig("t") == "fn (Tensor[(n, m), float32]) -> Tensor[(m, n), float32]");
  CHECK(c->sig("same") == "fn (Tensor[(n, 3), float32], Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32]");
}

TEST_CASE("dimension names are instantiated at each call", "[types]") {
  auto c = check_clean(
      "def @f(%x: Tensor[(n, 784), float32], %w: Tensor[(10, 784), float32]) -> Tensor[(n, 10), float32] {\n"
      "  nn.dense(%x, %w, units=None)\n"
      "}\n"
      "def @g(%a: Tensor[(3, 784), float32], %b: Tensor[(5, 784), float32], %w: Tensor[(10, 784), float32]) {\n"
      "  (@f(%a, %w), @f(%b, %w))\n"
      "}\n"
      "def @h(%a: Tensor[(k, 784), float32], %w: Tensor[(10, 784), float32]) { @f(%a, %w) }\n");
  CHECK(c->sig("g") ==
        "fn (Tensor[(3, 784), float32], Tensor[(5, 784), float32], Tensor[(10, 784), float32]) -> "
        "(Tensor[(3, 10), float32], Tensor[(5, 10), float32])");
  CHECK(c->type_at("g", "@f(%a, %w)") == "Tensor[(3, 10), float32]");
  CHECK(c->type_at("g", "@f(%b, %w)") == "Tensor[(5, 10), float32]");
  // The callee's `n` becomes the caller's `k`.
  CHECK(c->sig("h") == "fn (Tensor[(k, 784), float32], Tensor[(10, 784), float32]) -> Tensor[(k, 10), float32]");
}

TEST_CASE("different dimension names do not unify", "[types]") {
  SECTION("against a return annotation") {
    auto e = check(
        "def @k(%x: Tensor[(n, 4), float32], %y: Tensor[(m, 4), float32]) -> Tensor[(n, 4), float32] { %y }");
    CHECK(e->codes() == "E0078");
    const Diagnostic& d = e->diag("E0078");
    CHECK(d.message == "mismatched shapes: expected `Tensor[(n, 4), float32]`, found `Tensor[(m, 4), float32]`");
    CHECK(d.primary().message == "dimension 0 differs: `n` vs `m`");
    CHECK(e->text(d.primary().span) == "%y");
    CHECK(std::find(d.notes.begin(), d.notes.end(),
                    "dimension names are fixed within a function: `n` and `m` are not known to be equal") !=
          d.notes.end());
  }
  SECTION("in an operator") {
    auto e = check("def @h(%x: Tensor[(n, 4), float32], %y: Tensor[(m, 4), float32]) { add(%x, %y) }");
    CHECK(e->codes() == "E0071");
    const std::string& msg = e->diag("E0071").message;
    CHECK((msg.find("`n`") != std::string::npos || msg.find(" n ") != std::string::npos));
    CHECK((msg.find("`m`") != std::string::npos || msg.find(" m ") != std::string::npos));
  }
  SECTION("a local annotation introduces no new name") {
    auto e = check("def @a(%x: Tensor[(n, 3), float32]) { let %y: Tensor[(k, 3), float32] = %x; %y }");
    CHECK(e->diags.has_errors());
  }
  SECTION("one name, two sizes at a call") {
    auto e = check(
        "def @same(%x: Tensor[(n, 3), float32], %y: Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32] { add(%x, %y) }\n"
        "def @bad(%x: Tensor[(2, 3), float32], %y: Tensor[(4, 3), float32]) { @same(%x, %y) }\n");
    CHECK(e->codes() == "E0078");
    const Diagnostic& d = e->diag("E0078");
    CHECK(d.message == "mismatched shapes: expected `Tensor[(2, 3), float32]`, found `Tensor[(4, 3), float32]`");
    CHECK(d.primary().message == "dimension 0 differs: `2` vs `4`");
    CHECK(e->text(d.primary().span) == "%y");
  }
}

TEST_CASE("`?` dimensions are compatible with any dimension", "[types]") {
  auto c = check_clean(
      "def @a1(%x: Tensor[(?, 3), float32]) -> Tensor[(5, 3), float32] { %x }\n"
      "def @a2(%x: Tensor[(5, 3), float32]) -> Tensor[(?, 3), float32] { %x }\n"
      "def @a3(%x: Tensor[(?, 3), float32], %y: Tensor[(?, 3), float32]) { add(%x, %y) }\n"
      "def @a4(%x: Tensor[(?, 3), float32], %w: Tensor[(4, 3), float32]) { nn.dense(%x, %w, units=None) }\n"
      "def @a5(%x: Tensor[(n, 3), float32]) -> Tensor[(?, 3), float32] { %x }\n"
      "def @callee(%x: Tensor[(?), float32]) -> Tensor[(?), float32] { %x }\n"
      "def @a6(%y: Tensor[(10), float32]) { @callee(%y) }\n");
  CHECK(c->sig("a3") == "fn (Tensor[(?, 3), float32], Tensor[(?, 3), float32]) -> Tensor[(?, 3), float32]");
  CHECK(c->sig("a4") == "fn (Tensor[(?, 3), float32], Tensor[(4, 3), float32]) -> Tensor[(?, 4), float32]");
  CHECK(c->sig("a6") == "fn (Tensor[(10), float32]) -> Tensor[(?), float32]");

  SECTION("but the other dimensions still count") {
    auto e = check("def @a(%x: Tensor[(?, 3), float32]) -> Tensor[(?, 4), float32] { %x }");
    CHECK(e->codes() == "E0078");
    CHECK(e->diag("E0078").primary().message == "dimension 1 differs: `4` vs `3`");
  }
  SECTION("and so does the rank") {
    auto e = check("def @a(%x: Tensor[(?, 3), float32]) -> Tensor[(?), float32] { %x }");
    CHECK(e->codes() == "E0079");
    CHECK(e->diag("E0079").primary().message == "rank 1 vs rank 2");
  }
}

// ---------------------------------------------------------------------------------------
// Operator relations fix the types of their inputs

TEST_CASE("operator relations give unannotated parameters their types", "[types]") {
  auto c = check_clean(
      "def @conv(%x: Tensor[(1, 3, 32, 32), float32], %w) {\n"
      "  nn.conv2d(%x, %w, channels=16, kernel_size=[3, 3])\n"
      "}\n"
      "def @conv_bias(%x: Tensor[(1, 3, 32, 32), float32], %w, %b) {\n"
      "  %0 = nn.conv2d(%x, %w, channels=16, kernel_size=[3, 3], padding=[1, 1, 1, 1]);\n"
      "  nn.bias_add(%0, %b)\n"
      "}\n"
      "def @bn(%x: Tensor[(1, 8, 4, 4), float32], %g, %b, %m, %v) { nn.batch_norm(%x, %g, %b, %m, %v) }\n"
      "def @dense(%x: Tensor[(2, 5), float32], %w) { nn.dense(%x, %w, units=7) }\n");
  CHECK(c->sig("conv") ==
        "fn (Tensor[(1, 3, 32, 32), float32], Tensor[(16, 3, 3, 3), float32]) -> Tensor[(1, 16, 30, 30), float32]");
  CHECK(c->var("conv", "w") == "Tensor[(16, 3, 3, 3), float32]");
  CHECK(c->type_at("conv", "%w", 1) == "Tensor[(16, 3, 3, 3), float32]");
  CHECK(c->var("conv_bias", "b") == "Tensor[(16), float32]");
  CHECK(c->var("conv_bias", "0") == "Tensor[(1, 16, 32, 32), float32]");
  CHECK(c->sig("bn") ==
        "fn (Tensor[(1, 8, 4, 4), float32], Tensor[(8), float32], Tensor[(8), float32], Tensor[(8), float32], "
        "Tensor[(8), float32]) -> (Tensor[(1, 8, 4, 4), float32], Tensor[(8), float32], Tensor[(8), float32])");
  CHECK(c->var("dense", "w") == "Tensor[(7, 5), float32]");
  CHECK(c->sig("dense") == "fn (Tensor[(2, 5), float32], Tensor[(7, 5), float32]) -> Tensor[(2, 7), float32]");

  SECTION("without channels the weight stays unknown") {
    auto e = check("def @c(%x: Tensor[(1, 3, 8, 8), float32], %w) { nn.conv2d(%x, %w, kernel_size=[3, 3]) }");
    CHECK(e->codes() == "E0072");
    const Diagnostic& d = e->diag("E0072");
    CHECK(d.message == "cannot infer the type of this `nn.conv2d` call");
    CHECK(std::find(d.notes.begin(), d.notes.end(), "`weight` has the unknown type `_`") != d.notes.end());
  }
}

// ---------------------------------------------------------------------------------------
// One diagnostic code per kind of error

TEST_CASE("diagnostic codes of the type checker", "[types]") {
  SECTION("E0070 mismatched types") {
    auto e = check("def @a(%x: int32) -> float32 { %x }");
    CHECK(e->codes() == "E0070");
    const Diagnostic& d = e->diag("E0070");
    CHECK(d.message == "mismatched types: expected `float32`, found `int32`");
    CHECK(e->has_label(d, "float32", "expected because of this return type"));
  }
  SECTION("E0071 an operator's rule is violated") {
    auto e = check("def @a(%x: Tensor[(3), float32], %y: Tensor[(4), float32]) { add(%x, %y) }");
    CHECK(e->codes() == "E0071");
    CHECK(e->diag("E0071").primary().message == "in this call to `add`");
    CHECK(e->text(e->diag("E0071").primary().span) == "add(%x, %y)");
    CHECK(e->sig("a") == "fn (Tensor[(3), float32], Tensor[(4), float32]) -> <error>");
  }
  SECTION("E0071 dtypes of an elementwise operator differ") {
    auto e = check("def @a(%x: float32, %y: int32) { add(%x, %y) }");
    CHECK(e->codes() == "E0071");
  }
  SECTION("E0072 an unannotated, unused parameter") {
    auto e = check("def @a(%x) { %x }");
    CHECK(e->codes() == "E0072");
    CHECK(e->diag("E0072").message == "cannot infer the type of parameter `%x`");
    CHECK(e->sig("a") == "fn (_) -> _");
  }
  SECTION("E0072 the result of another global without a return annotation") {
    // Reference §2.4: a call sees only the callee's annotations.
    auto e = check(
        "def @f(%x: int32) { %x }\n"
        "def @g(%y: int32) { @f(%y) }\n");
    CHECK(e->codes() == "E0072");
    CHECK(e->sig("f") == "fn (int32) -> int32");
  }
  SECTION("E0073 calling a non-function") {
    auto e = check("def @a(%x: int32) { %x(1) }\ndef @b(%t: (int32, bool)) { %t.1(2) }");
    CHECK(e->codes() == "E0073,E0073");
    CHECK(e->diags.items()[0].message == "expected a function, found `int32`");
    CHECK(e->diags.items()[1].message == "expected a function, found `bool`");
    CHECK(e->text(e->diags.items()[1].primary().span) == "%t.1");
  }
  SECTION("E0074 wrong number of arguments") {
    auto e = check("def @a(%f: fn (int32) -> int32) { %f(1, 2) }");
    CHECK(e->codes() == "E0074");
    CHECK(e->diag("E0074").message == "this function takes 1 argument(s) but 2 were given");
    // The result type is still the function's.
    CHECK(e->sig("a") == "fn (fn (int32) -> int32) -> int32");
  }
  SECTION("E0074 a global called with too few arguments") {
    auto e = check("def @a(%x: int32) { @foldl(%x) }");
    CHECK(e->codes() == "E0074");
    CHECK(e->diag("E0074").message == "this function takes 3 argument(s) but 1 were given");
  }
  SECTION("E0075 non-exhaustive match") {
    auto e = check("def @a(%o: Option[int32]) -> int32 { match (%o) { Some(%v) => %v } }");
    CHECK(e->codes() == "E0075");
    CHECK(e->diag("E0075").message == "non-exhaustive patterns: `None` not covered");
    CHECK(e->text(e->diag("E0075").primary().span) == "%o");
  }
  SECTION("E0076 tuple index out of range") {
    auto e = check("def @a(%t: (int32, int32)) { %t.2 }");
    CHECK(e->codes() == "E0076");
    CHECK(e->diag("E0076").message == "index 2 is out of range for a tuple of 2 field(s)");
    CHECK(e->text(e->diag("E0076").primary().span) == "2");
  }
  SECTION("E0076 also when the tuple's type is found later") {
    auto e = check("def @a() { let %g = fn (%t) { %t.2 }; %g((1, True)) }");
    CHECK(e->codes() == "E0076");
    CHECK(e->diag("E0076").message == "index 2 is out of range for a tuple of 2 field(s)");
  }
  SECTION("E0077 projection of a non-tuple") {
    auto e = check("def @a(%t: int32) { %t.0 }");
    CHECK(e->codes() == "E0077");
    CHECK(e->diag("E0077").message == "expected a tuple, found `int32`");
  }
  SECTION("E0077 also when the value's type is found later") {
    auto e = check("def @a() { let %g = fn (%t) { %t.0 }; %g(1) }");
    CHECK(e->codes() == "E0077");
    CHECK(e->diag("E0077").message == "expected a tuple, found `int32`");
  }
  SECTION("E0078 a dimension differs") {
    auto e = check("def @a(%x: Tensor[(3, 4), float32]) -> Tensor[(3, 5), float32] { %x }");
    CHECK(e->codes() == "E0078");
    CHECK(e->diag("E0078").primary().message == "dimension 1 differs: `5` vs `4`");
  }
  SECTION("E0079 the rank differs") {
    auto e = check("def @a(%x: Tensor[(3, 4), float32]) -> Tensor[(3), float32] { %x }");
    CHECK(e->codes() == "E0079");
    CHECK(e->diag("E0079").message ==
          "mismatched ranks: expected `Tensor[(3), float32]`, found `Tensor[(3, 4), float32]`");
  }
  SECTION("W0005 unreachable clause") {
    auto e = check(
        "def @a(%o: Option[int32]) -> int32 { match (%o) { _ => 1, None => 0 } }\n"
        "def @b(%x: int32) -> int32 { match (%x) { %y => %y, _ => 0 } }\n"
        "def @c(%l: List[int32]) -> int32 { match? (%l) { Cons(_, _) => 1, Nil => 0, Cons(%x, Nil) => %x } }\n");
    CHECK(e->codes() == "W0005,W0005,W0005");
    CHECK(e->text(e->diags.items()[0].primary().span) == "None");
    CHECK(e->text(e->diags.items()[1].primary().span) == "_");
    CHECK(e->text(e->diags.items()[2].primary().span) == "Cons(%x, Nil)");
    CHECK(e->diags.items()[0].severity == Severity::Warning);
  }
}

TEST_CASE("one mistake gives one diagnostic", "[types]") {
  auto e = check(
      "def @a(%x: Tensor[(3), float32], %y: Tensor[(4), float32]) {\n"
      "  let %z = add(%x, %y);\n"
      "  let %w = add(%z, %z);\n"
      "  (multiply(%w, 2f), %z.0, %w(1))\n"
      "}\n");
  CHECK(e->codes() == "E0071");
}

// ---------------------------------------------------------------------------------------
// Match coverage (reference §2.5)

namespace {
std::string missing_message(const std::string& program) {
  auto e = check(program);
  INFO(e->rendered());
  if (e->codes() != "E0075") return "codes: " + e->codes();
  return e->diag("E0075").message;
}
}  // namespace

TEST_CASE("match coverage lists the missing cases exactly", "[types]") {
  CHECK(missing_message("def @a(%l: List[int32]) -> int32 { match (%l) { Cons(_, Cons(_, _)) => 1, Nil => 0 } }") ==
        "non-exhaustive patterns: `Cons(_, Nil)` not covered");
  CHECK(missing_message("def @a(%l: List[int32]) -> int32 { match (%l) { Cons(_, Nil) => 1 } }") ==
        "non-exhaustive patterns: `Nil` and `Cons(_, Cons(_, _))` not covered");
  CHECK(missing_message("def @a(%l: List[int32]) -> int32 { match (%l) { Nil => 1 } }") ==
        "non-exhaustive patterns: `Cons(_, _)` not covered");
  CHECK(missing_message(
            "def @a(%p: (Option[int32], Option[int32])) -> int32 {\n"
            "  match (%p) { (Some(_), Some(_)) => 1, (None, None) => 0 }\n"
            "}") == "non-exhaustive patterns: `(Some(_), None)` and `(None, Some(_))` not covered");
  CHECK(missing_message("def @a(%b: (Option[int32], bool)) -> int32 { match (%b) { (Some(_), _) => 1 } }") ==
        "non-exhaustive patterns: `(None, _)` not covered");
  CHECK(missing_message("def @a(%o: Option[Option[int32]]) -> int32 { match (%o) { Some(Some(%x)) => %x, None => 0 } }") ==
        "non-exhaustive patterns: `Some(None)` not covered");
  CHECK(missing_message("type T { A, B, C, D, E, F, G }\ndef @a(%t: T) -> int32 { match (%t) { A => 1 } }") ==
        "non-exhaustive patterns: `B`, `C`, `D`, `E`, `F` and more not covered");
  CHECK(missing_message("type T { A, B, C }\ndef @a(%t: T) -> int32 { match (%t) { B => 1 } }") ==
        "non-exhaustive patterns: `A` and `C` not covered");
}

TEST_CASE("complete matches and match? are not reported", "[types]") {
  check_clean(
      "def @a(%l: List[int32]) -> int32 { match (%l) { Cons(_, Cons(_, _)) => 2, Cons(_, Nil) => 1, Nil => 0 } }\n"
      "def @b(%p: (Option[int32], Option[int32])) -> int32 {\n"
      "  match (%p) { (Some(_), _) => 1, (None, Some(_)) => 2, (None, None) => 3 }\n"
      "}\n"
      "def @c(%x: (int32, bool)) -> int32 { match (%x) { (%i, _) => %i } }\n"
      "def @d(%o: Option[int32]) -> int32 { match? (%o) { Some(%v) => %v } }\n"
      "def @e(%l: List[int32]) -> int32 { match? (%l) { Cons(%x, Nil) => %x } }\n"
      "def @f(%o: Option[int32]) -> int32 { match (%o) { _ => 0 } }\n");
}

TEST_CASE("the fix for a non-exhaustive match adds one well-formed clause per missing case", "[types]") {
  for (const char* last : {"Cons(_, Nil) => 1", "Cons(_, Nil) => 1,"}) {
    std::string program = std::string("def @a(%l: List[int32]) -> int32 {\n  match (%l) {\n    ") + last + "\n  }\n}\n";
    auto e = check(program);
    REQUIRE(e->codes() == "E0075");
    const Diagnostic& d = e->diag("E0075");
    REQUIRE(d.helps.size() == 1);
    REQUIRE(d.helps[0].edits.size() == 1);
    const TextEdit& edit = d.helps[0].edits[0];
    std::string fixed = e->src().text;
    fixed.replace(edit.span.begin, edit.span.size(), edit.replacement);
    INFO("fixed program:\n" << fixed);
    // Re-check the fixed text (without the header `check` adds again).
    SourceManager sources;
    DiagnosticBag diags;
    FileId f = sources.add("fixed.relay", fixed);
    FrontendResult front = analyze_file(sources, f, diags);
    // No syntax error between the clauses: the match now has three clauses, the new ones
    // for exactly the missing cases, in order.
    for (const auto& dd : diags.items()) {
      INFO(std::string(dd.code()) << " " << dd.message);
      CHECK(dd.code() != "E0020");
    }
    const FuncDef* a = testing::find_def(*front.module, "a");
    REQUIRE(a);
    const MatchExpr* m = as<MatchExpr>(a->fn->body);
    REQUIRE(m);
    REQUIRE(m->clauses.size() == 3);
    CHECK(sources.get(f).slice(m->clauses[1].pattern->span) == "Nil");
    CHECK(sources.get(f).slice(m->clauses[2].pattern->span) == "Cons(_, Cons(_, _))");
  }
}

TEST_CASE("the fix for a non-exhaustive match parses cleanly", "[types]") {
  // The new clauses' bodies must be expressions (an empty `{ }` block is not one).
  auto e = check("def @a(%o: Option[int32]) -> int32 { match (%o) { Some(%v) => %v } }");
  REQUIRE(e->codes() == "E0075");
  const TextEdit& edit = e->diag("E0075").helps.at(0).edits.at(0);
  std::string fixed = e->src().text;
  fixed.replace(edit.span.begin, edit.span.size(), edit.replacement);
  SourceManager sources;
  DiagnosticBag diags;
  FileId f = sources.add("fixed.relay", fixed);
  analyze_file(sources, f, diags);
  std::string codes = testing::diagnostic_codes(diags);
  INFO("fixed program:\n" << fixed);
  CHECK(codes == "");
}

// ---------------------------------------------------------------------------------------
// Dimension equations at calls (the callee's names become unknowns of the caller)

TEST_CASE("a dimension equation is solved for the callee's name", "[types]") {
  auto c = check_clean(
      "def @half(%x: Tensor[(2 * n), float32]) -> Tensor[(n), float32] { split(%x, indices_or_sections=2).0 }\n"
      "def @g(%a: Tensor[(6), float32]) { @half(%a) }\n"
      "def @inc(%x: Tensor[(n + 1), float32]) -> Tensor[(n), float32] { split(%x, indices_or_sections=[1]).1 }\n"
      "def @h(%a: Tensor[(6), float32]) { @inc(%a) }\n");
  CHECK(c->sig("g") == "fn (Tensor[(6), float32]) -> Tensor[(3), float32]");
  CHECK(c->type_at("h", "@inc") == "fn (Tensor[(6), float32]) -> Tensor[(5), float32]");
}

TEST_CASE("a dimension equation without an integer solution is an error", "[types]") {
  // 2 * n = 7 has no solution: before, the call was accepted and its result became `?`.
  auto e = check(
      "def @half(%x: Tensor[(2 * n), float32]) -> Tensor[(n), float32] { split(%x, indices_or_sections=2).0 }\n"
      "def @g(%a: Tensor[(7), float32]) { @half(%a) }\n");
  CHECK(e->codes() == "E0078");
  CHECK(e->text(e->diag("E0078").primary().span) == "%a");
}

TEST_CASE("a product of dimension names is checked once its factors are known", "[types]") {
  // n * m = 6 cannot be solved when it is met; n = 2 and m = 4 come later and make it
  // 8. The first equation is checked again at the end of @bad.
  auto e = check(
      "def @f(%x: Tensor[(n * m), float32], %y: Tensor[(n), float32], %z: Tensor[(m), float32]) -> Tensor[(n * m), float32] { %x }\n"
      "def @ok(%a: Tensor[(8), float32], %b: Tensor[(2), float32], %c: Tensor[(4), float32]) { @f(%a, %b, %c) }\n"
      "def @bad(%a: Tensor[(6), float32], %b: Tensor[(2), float32], %c: Tensor[(4), float32]) { @f(%a, %b, %c) }\n");
  CHECK(e->sig("ok") == "fn (Tensor[(8), float32], Tensor[(2), float32], Tensor[(4), float32]) -> Tensor[(8), float32]");
  CHECK(e->codes() == "E0078");
}

TEST_CASE("a deferred dimension equation solved at the end fixes its unknown", "[types]") {
  // `n * m = 8` waits; with n = 2 from %b it says m = 4, which gives the unannotated %c
  // (and the result) its shape.
  auto c = check_clean(
      "def @f(%x: Tensor[(n * m), float32], %y: Tensor[(n), float32], %z: Tensor[(m), float32]) -> Tensor[(m), float32] { %z }\n"
      "def @g(%a: Tensor[(8), float32], %b: Tensor[(2), float32], %c) { @f(%a, %b, %c) }\n");
  CHECK(c->sig("g") == "fn (Tensor[(8), float32], Tensor[(2), float32], Tensor[(4), float32]) -> Tensor[(4), float32]");
}

TEST_CASE("a deferred dimension equation that turns out false names both sides", "[types]") {
  auto e = check(
      "def @f(%x: Tensor[(n * m), float32], %y: Tensor[(n), float32], %z: Tensor[(m), float32]) -> Tensor[(n * m), float32] { %x }\n"
      "def @bad(%a: Tensor[(6), float32], %b: Tensor[(2), float32], %c: Tensor[(4), float32]) { @f(%a, %b, %c) }\n");
  INFO(e->rendered());
  REQUIRE(e->codes() == "E0078");
  const Diagnostic& d = e->diag("E0078");
  // Reported where the equation was met (the first argument), not where its unknowns
  // were fixed, with the expression as declared and the value it has here.
  CHECK(e->text(d.primary().span) == "%a");
  CHECK(d.message == "mismatched shapes: expected `Tensor[(8), float32]`, found `Tensor[(6), float32]`");
  CHECK(d.primary().message == "dimension 0 differs: `8` vs `6`");
  CHECK(e->has_label(d, "Tensor[(n * m), float32]", "parameter `%x` is declared here"));
  CHECK(std::find(d.notes.begin(), d.notes.end(), "`m * n` is `8` here, with `m` = 4 and `n` = 2") != d.notes.end());
}

TEST_CASE("a dimension equation that stays undecided is accepted", "[types]") {
  // Nothing fixes n or m: TVM would check `n * m = 6` at run time. Where the result is
  // exactly `n * m` it is 6; a lone `n` is not known (`?`).
  auto c = check_clean(
      "def @f(%x: Tensor[(n * m), float32]) -> Tensor[(n * m), float32] { %x }\n"
      "def @g(%a: Tensor[(6), float32]) { @f(%a) }\n"
      "def @h(%x: Tensor[(n * m), float32], %y: Tensor[(n), float32]) -> Tensor[(n), float32] { %y }\n"
      "def @k(%a: Tensor[(6), float32], %b) { @h(%a, %b) }\n");
  CHECK(c->sig("g") == "fn (Tensor[(6), float32]) -> Tensor[(6), float32]");
  CHECK(c->sig("k") == "fn (Tensor[(6), float32], Tensor[(?), float32]) -> Tensor[(?), float32]");
}

TEST_CASE("a dimension without an integer solution names the callee's dimension", "[types]") {
  // `2 * n = 7` fails at once; the unknown `n` is shown by its name, not as `?`.
  auto e = check(
      "def @half(%x: Tensor[(2 * n), float32]) -> Tensor[(n), float32] { split(%x, indices_or_sections=2).0 }\n"
      "def @g(%a: Tensor[(7), float32]) { @half(%a) }\n");
  INFO(e->rendered());
  REQUIRE(e->codes() == "E0078");
  const Diagnostic& d = e->diag("E0078");
  CHECK(d.message == "mismatched shapes: expected `Tensor[(2 * n), float32]`, found `Tensor[(7), float32]`");
  CHECK(d.primary().message == "dimension 0 differs: `2 * n` vs `7`");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "no size `n` makes `2 * n` equal to `7`") != d.notes.end());
}

TEST_CASE("the solver's dimension unknowns never show in messages", "[types]") {
  // A call renames the callee's `n` to an unknown; a message must not print it as `'0`.
  auto e = check(
      "def @h(%x: Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32] { %x }\n"
      "def @g(%a: Tensor[(5), float32]) { @h(%a) }\n"
      "def @half(%x: Tensor[(2 * n), float32]) -> Tensor[(n), float32] { split(%x, indices_or_sections=2).0 }\n"
      "def @g2(%a: Tensor[(7), float32]) { @half(%a) }\n");
  CHECK(e->codes() == "E0079,E0078");
  for (const auto& d : e->diags.items()) {
    INFO(d.message);
    CHECK(d.message.find('\'') == std::string::npos);
    for (const auto& l : d.labels) CHECK(l.message.find('\'') == std::string::npos);
    for (const auto& n : d.notes) CHECK(n.find('\'') == std::string::npos);
  }
}

TEST_CASE("an operator bound to a variable is polymorphic at each call", "[types]") {
  // Reference §2.2/§2.4: an operator used as a value has its polymorphic type with its
  // relation; each call instantiates it (TVM accepts this program).
  auto e = check("def @a() { let %f = add; (%f(1, 2), %f(1f, 2f)) }");
  CHECK(e->codes() == "");
  CHECK(e->sig("a") == "fn () -> (int32, float32)");
}

TEST_CASE("one operator variable is used at two different shapes", "[types]") {
  auto c = check_clean(
      "def @a(%x: Tensor[(2, 3), float32], %y: Tensor[(4), int32]) {\n"
      "  let %f = add;\n"
      "  (%f(%x, %x), %f(%y, %y))\n"
      "}\n");
  CHECK(c->sig("a") ==
        "fn (Tensor[(2, 3), float32], Tensor[(4), int32]) -> (Tensor[(2, 3), float32], Tensor[(4), int32])");
  CHECK(c->type_at("a", "%f(%x, %x)") == "Tensor[(2, 3), float32]");
  CHECK(c->type_at("a", "%f(%y, %y)") == "Tensor[(4), int32]");
  // The variable itself has the operator's polymorphic type (reference §2.4).
  CHECK(c->var("a", "f") == "fn [in0, in1, out](in0, in1) -> out");
}

TEST_CASE("an operator variable's call uses the call's attributes", "[types]") {
  auto c = check_clean("def @a(%x: Tensor[(2, 3), float32]) { let %s = sum; (%s(%x, axis=[1]), %s(%x)) }");
  CHECK(c->sig("a") == "fn (Tensor[(2, 3), float32]) -> (Tensor[(2), float32], float32)");
}

TEST_CASE("a shape error through an operator variable is the relation's error", "[types]") {
  auto e = check(
      "def @a(%x: Tensor[(3), float32], %y: Tensor[(4), float32]) {\n"
      "  let %f = add;\n"
      "  %f(%x, %y)\n"
      "}\n");
  INFO(e->rendered());
  REQUIRE(e->codes() == "E0071");
  const Diagnostic& d = e->diag("E0071");
  CHECK(d.message.rfind("incompatible broadcast", 0) == 0);
  CHECK(e->text(d.primary().span) == "%f(%x, %y)");
  CHECK(e->has_label(d, "%x", "has shape (3)"));
  CHECK(e->has_label(d, "%y", "has shape (4)"));
  CHECK(std::find_if(d.notes.begin(), d.notes.end(), [](const std::string& n) {
          return n.rfind("rule: add(lhs, rhs)", 0) == 0;
        }) != d.notes.end());
}

TEST_CASE("an operator passed as a function value gets a relation for that use", "[types]") {
  const std::string apply =
      "def @apply(%f: fn (Tensor[(3), float32], Tensor[(3), float32]) -> Tensor[(3), float32], %x: Tensor[(3), float32])"
      " -> Tensor[(3), float32] { %f(%x, %x) }\n";
  auto c = check_clean(apply + "def @b(%x: Tensor[(3), float32]) { (@apply(add, %x), @apply(multiply, %x)) }\n");
  CHECK(c->sig("b") == "fn (Tensor[(3), float32]) -> (Tensor[(3), float32], Tensor[(3), float32])");

  // `less` yields bool, not the float32 that @apply's parameter promises.
  auto e = check(apply + "def @b(%x: Tensor[(3), float32]) { @apply(less, %x) }\n");
  INFO(e->rendered());
  REQUIRE(e->codes() == "E0071");
  CHECK(e->text(e->diag("E0071").primary().span) == "less");
}

TEST_CASE("calling an operator variable with the wrong arity names the operator", "[types]") {
  auto e = check("def @a(%x: Tensor[(3), float32]) { let %f = nn.relu; %f(%x, %x) }");
  INFO(e->rendered());
  REQUIRE(e->codes() == "E0074");
  const Diagnostic& d = e->diag("E0074");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "this is the operator `nn.relu`, whose inputs are (data)") !=
        d.notes.end());
}
