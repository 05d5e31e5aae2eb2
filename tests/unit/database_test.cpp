#include <catch2/catch.hpp>

#include <string>

#include "lang/types/database.h"

using relay::CheckDatabase;

namespace {

const char* kProgram = R"(#[version = "0.0.5"]
def @f(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {
  nn.relu(%x)
}

/// Calls @f.
def @g(%y: Tensor[(2, 3), float32]) {
  %0 = @f(%y);
  add(%0, %0)
}

def @h(%z: Tensor[(4), float32]) {
  exp(%z)
}
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

size_t inferred(const CheckDatabase& db) { return db.stats().definitions_inferred; }

}  // namespace

TEST_CASE("database: first check infers every definition", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", kProgram);
  auto r = db.check("a.relay");
  REQUIRE(r);
  CHECK(r->error_count() == 0);
  CHECK(inferred(db) == 3);
  CHECK(r->global_types() ==
        "@f: fn (Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]\n"
        "@g: fn (Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]\n"
        "@h: fn (Tensor[(4), float32]) -> Tensor[(4), float32]\n");
  // Checking the same revision again does nothing.
  CHECK(db.check("a.relay") == r);
  CHECK(inferred(db) == 3);
}

TEST_CASE("database: a body edit re-infers that definition only", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", kProgram);
  db.check("a.relay");
  size_t parsed = db.stats().chunks_parsed;
  db.set_file("a.relay", replace(kProgram, "exp(%z)", "log(%z)"));
  auto r = db.check("a.relay");
  CHECK(inferred(db) == 4);
  CHECK(db.stats().chunks_parsed == parsed + 1);
  CHECK(db.stats().full_resolves == 1);
  // @f's body changes but not its signature: @g is not re-inferred.
  db.set_file("a.relay", replace(replace(kProgram, "exp(%z)", "log(%z)"), "nn.relu(%x)", "sigmoid(%x)"));
  r = db.check("a.relay");
  CHECK(inferred(db) == 5);
  CHECK(r->error_count() == 0);
}

TEST_CASE("database: a signature edit re-infers the callers", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", kProgram);
  db.check("a.relay");
  std::string edited = replace(kProgram, "def @f(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]",
                               "def @f(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float16]");
  db.set_file("a.relay", edited);
  auto r = db.check("a.relay");
  CHECK(inferred(db) == 3 + 2);  // @f and its caller @g; not @h
  REQUIRE(r->error_count() >= 1);  // relu gives float32 where float16 is declared
}

TEST_CASE("database: adding a definition re-resolves the file", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", kProgram);
  db.check("a.relay");
  db.set_file("a.relay", std::string(kProgram) + "\ndef @k() { @f(ones(shape=[2, 3], dtype=\"float32\")) }\n");
  auto r = db.check("a.relay");
  CHECK(db.stats().full_resolves == 2);
  CHECK(inferred(db) == 3 + 4);
  CHECK(r->global_types().find("@k: fn () -> Tensor[(2, 3), float32]") != std::string::npos);
}

TEST_CASE("database: diagnostics point into the whole file", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", replace(kProgram, "exp(%z)", "add(%z, %z, %z)"));
  auto r = db.check("a.relay");
  REQUIRE(r->diagnostics.size() == 1);
  const auto& d = r->diagnostics[0];
  CHECK(d.code() == "E0064");
  const auto& file = db.sources().get(r->file);
  CHECK(d.primary().span.file == r->file);
  CHECK(file.slice(d.primary().span) == "add(%z, %z, %z)");
  // Moving the definition down (an edit above it) keeps the span right without re-inferring.
  size_t before = inferred(db);
  db.set_file("a.relay", replace(replace(kProgram, "exp(%z)", "add(%z, %z, %z)"), "/// Calls @f.", "/// Calls @f.\n/// Twice."));
  r = db.check("a.relay");
  CHECK(inferred(db) == before + 1);  // only @g, whose chunk (with its doc) changed
  REQUIRE(r->diagnostics.size() == 1);
  CHECK(db.sources().get(r->file).slice(r->diagnostics[0].primary().span) == "add(%z, %z, %z)");
}

TEST_CASE("database: a newer edit cancels a running check", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", kProgram);
  bool edited = false;
  db.set_progress_hook([&] {
    if (!edited) {
      edited = true;
      db.set_file("a.relay", replace(kProgram, "exp(%z)", "log(%z)"));
    }
  });
  CHECK(db.check("a.relay") == nullptr);
  auto r = db.check("a.relay");
  REQUIRE(r);
  CHECK(r->revision == db.revision());
  CHECK(r->error_count() == 0);
}
