// The standard prelude type-checks cleanly and its globals have exactly the signatures of
// TVM's prelude.rly (reference §5.1; return types the file leaves unannotated, such as
// @compose's, are the inferred ones).
#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>

#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"
#include "tests/support/module_lookup.h"

using namespace relay;

namespace {

// `@name: TYPE` lines into a map.
std::map<std::string, std::string> parse_listing(const std::string& listing) {
  std::map<std::string, std::string> out;
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line)) {
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    out[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return out;
}

const char* const kExpected =
    "@id: fn [A](A) -> A\n"
    "@compose: fn [A, B, C](fn (B) -> C, fn (A) -> B) -> fn (A) -> C\n"
    "@flip: fn [A, B, C](fn (A, B) -> C) -> fn (B, A) -> C\n"
    "@hd: fn [A](List[A]) -> A\n"
    "@tl: fn [A](List[A]) -> List[A]\n"
    "@nth: fn [A](List[A], int32) -> A\n"
    "@length: fn [A](List[A]) -> int32\n"
    "@update: fn [A](List[A], int32, A) -> List[A]\n"
    "@map: fn [A, B](fn (A) -> B, List[A]) -> List[B]\n"
    "@foldl: fn [A, B](fn (A, B) -> A, A, List[B]) -> A\n"
    "@foldr: fn [A, B](fn (A, B) -> B, B, List[A]) -> B\n"
    "@foldr1: fn [A](fn (A, A) -> A, List[A]) -> A\n"
    "@sum: fn (List[int32]) -> int32\n"
    "@concat: fn [A](List[A], List[A]) -> List[A]\n"
    "@filter: fn [A](fn (A) -> bool, List[A]) -> List[A]\n"
    "@zip: fn [A, B](List[A], List[B]) -> List[(A, B)]\n"
    "@rev: fn [A](List[A]) -> List[A]\n"
    "@map_accumr: fn [A, B, C](fn (A, B) -> (A, C), A, List[B]) -> (A, List[C])\n"
    "@map_accuml: fn [A, B, C](fn (A, B) -> (A, C), A, List[B]) -> (A, List[C])\n"
    "@unfoldr: fn [A, B](fn (A) -> Option[(A, B)], A) -> List[B]\n"
    "@unfoldl: fn [A, B](fn (A) -> Option[(A, B)], A) -> List[B]\n"
    "@tmap: fn [A, B](fn (A) -> B, Tree[A]) -> Tree[B]\n"
    "@size: fn [A](Tree[A]) -> int32\n"
    "@iterate: fn [A](fn (A) -> A, int32) -> fn (A) -> A\n";

}  // namespace

TEST_CASE("the prelude type-checks with no diagnostics", "[types][prelude]") {
  SourceManager sources;
  std::shared_ptr<const Module> prelude = load_prelude(sources);
  REQUIRE(prelude);
  DiagnosticBag diags;
  ModuleTypes types = check_module(*prelude, nullptr, diags);
  INFO(testing::diagnostic_codes(diags));
  CHECK(diags.size() == 0);
  // Every definition was checked and every expression and binder got a ground type.
  size_t funcs = 0;
  for (const Definition& d : prelude->defs) {
    if (d.kind != Definition::Func) continue;
    ++funcs;
    const InferredTypes* t = types.find(d.func);
    REQUIRE(t);
    CHECK(is_ground(t->type));
    for (const auto& [e, ty] : t->exprs) {
      INFO("@" << std::string(d.func->name) << ": " << type_to_string(ty));
      CHECK(is_ground(ty));
    }
    for (const auto& [v, ty] : t->vars) {
      INFO("@" << std::string(d.func->name) << " %" << std::string(v->name) << ": " << type_to_string(ty));
      CHECK(is_ground(ty));
    }
  }
  CHECK(funcs == 24);
}

TEST_CASE("the prelude's signatures are TVM's", "[types][prelude]") {
  SourceManager sources;
  std::shared_ptr<const Module> prelude = load_prelude(sources);
  REQUIRE(prelude);
  DiagnosticBag diags;
  ModuleTypes types = check_module(*prelude, nullptr, diags);
  std::string listing = format_global_types(types);

  SECTION("a representative subset, one by one") {
    auto got = parse_listing(listing);
    CHECK(got["@map"] == "fn [A, B](fn (A) -> B, List[A]) -> List[B]");
    CHECK(got["@foldl"] == "fn [A, B](fn (A, B) -> A, A, List[B]) -> A");
    CHECK(got["@foldr"] == "fn [A, B](fn (A, B) -> B, B, List[A]) -> B");
    CHECK(got["@zip"] == "fn [A, B](List[A], List[B]) -> List[(A, B)]");
    CHECK(got["@iterate"] == "fn [A](fn (A) -> A, int32) -> fn (A) -> A");
    // Unannotated in the file: the result is inferred.
    CHECK(got["@compose"] == "fn [A, B, C](fn (B) -> C, fn (A) -> B) -> fn (A) -> C");
    CHECK(got["@sum"] == "fn (List[int32]) -> int32");
    CHECK(got["@filter"] == "fn [A](fn (A) -> bool, List[A]) -> List[A]");
    CHECK(got["@map_accuml"] == "fn [A, B, C](fn (A, B) -> (A, C), A, List[B]) -> (A, List[C])");
    CHECK(got["@unfoldr"] == "fn [A, B](fn (A) -> Option[(A, B)], A) -> List[B]");
    CHECK(got["@tmap"] == "fn [A, B](fn (A) -> B, Tree[A]) -> Tree[B]");
  }
  SECTION("the whole listing, in source order") {
    CHECK(listing == kExpected);
  }
}

TEST_CASE("a module importing the prelude sees the same signatures", "[types][prelude]") {
  // Checked through an importing module: the prelude's own definitions are not
  // re-checked, but calls see their signatures.
  SourceManager sources;
  DiagnosticBag diags;
  FileId file = sources.add("user.relay",
                            "#[version = \"0.0.5\"]\n#[import = \"prelude\"]\n"
                            "def @main(%xs: List[float32]) {\n"
                            "  (@length(%xs), @rev(%xs), @zip(%xs, @map(fn (%x: float32) { %x == 0f }, %xs)),\n"
                            "   @hd(%xs), @nth(%xs, 1), @unfoldl(fn (%n: int32) { if (%n == 0) { None } else { Some((%n - 1, %n)) } }, 3))\n"
                            "}\n");
  FrontendResult front = analyze_file(sources, file, diags);
  ModuleTypes types = check_module(*front.module, front.prelude.get(), diags);
  INFO(testing::diagnostic_codes(diags));
  CHECK(diags.size() == 0);
  CHECK(format_global_types(types) ==
        "@main: fn (List[float32]) -> (int32, List[float32], List[(float32, bool)], float32, float32, List[int32])\n");
}
