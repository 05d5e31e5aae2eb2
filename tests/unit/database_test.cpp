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

namespace {

// What a user sees of a check: every diagnostic (code, message, labelled byte ranges in
// the real file) and every global's type.
std::string observable(const relay::FileCheck& r) {
  std::string out = r.global_types();
  for (const auto& d : r.diagnostics) {
    out += std::string(d.code()) + " " + d.message;
    for (const auto& l : d.labels)
      out += " [" + std::to_string(l.span.begin) + "," + std::to_string(l.span.end) + ") " + l.message;
    out += "\n";
  }
  return out;
}

}  // namespace

// The database re-cuts only the chunks around an edit. Whatever the edit (one that opens
// a block comment, adds a doc comment, a `def` in the middle of a line, a metadata
// section, or deletes across items), the result must equal a check from scratch.
TEST_CASE("database: incremental re-cutting matches a fresh check under random edits", "[database]") {
  const std::string base = std::string(kProgram) +
                           "type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}\n\n"
                           "/* a block comment with def @fake() { 1 } inside */\n"
                           "def @k(%a: Tensor[(3), int32]) {\n  %1 = add(%a, 1);\n  multiply(%1, %1)\n}\n";
  const char* snippets[] = {"/*", "*/", "\ndef @q() { 1f }\n", "///doc\n", "\n", "#[metadata]\n{}\n",
                            "x",  "%",  "def ",               "\n\n",     "(", ")",
                            "{",  "}",  "type T { A }\n",     "\"",       "// c\n"};
  uint64_t seed = 0x5eed;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>(seed >> 33);
  };
  CheckDatabase db;
  std::string text = base;
  db.set_file("a.relay", text);
  REQUIRE(db.check("a.relay"));
  for (int i = 0; i < 400; ++i) {
    if (i % 60 == 0) text = base;  // start over now and then, so edits stay near valid text
    size_t at = next() % (text.size() + 1);
    if (next() % 3 == 0 && !text.empty()) {
      text.erase(at, std::min<size_t>(1 + next() % 12, text.size() - std::min(at, text.size())));
    } else {
      text.insert(at, snippets[next() % (sizeof snippets / sizeof *snippets)]);
    }
    db.set_file("a.relay", text);
    auto incremental = db.check("a.relay");
    REQUIRE(incremental);
    REQUIRE(incremental->source->text == text);
    CheckDatabase fresh;
    fresh.set_file("a.relay", text);
    auto scratch = fresh.check("a.relay");
    INFO("edit " << i << ", text:\n" << text);
    REQUIRE(observable(*incremental) == observable(*scratch));
  }
}

TEST_CASE("database: an older result keeps the text it was computed on", "[database]") {
  CheckDatabase db;
  db.set_file("a.relay", kProgram);
  auto first = db.check("a.relay");
  db.set_file("a.relay", replace(kProgram, "exp(%z)", "log(%z)"));
  auto second = db.check("a.relay");
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->file == second->file);  // one id per file across revisions
  CHECK(first->source->text == kProgram);
  CHECK(second->source->text.find("log(%z)") != std::string::npos);
  CHECK(&db.sources().get(second->file) == second->source.get());
}
