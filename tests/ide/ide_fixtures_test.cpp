// Runs every fixture under tests/ide/cases/ (README.md): checks its text in process with
// the checking database, asks the IDE features at its markers, and compares the answers
// with the golden `<name>.expected` beside it. RELAY_BLESS=1 rewrites the goldens.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/types/database.h"
#include "tests/ide/fixture.h"
#include "tests/ide/queries.h"

namespace fs = std::filesystem;
using namespace relay;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(RELAY_SOURCE_DIR) / "tests/ide/cases"))
    if (e.path().extension() == ".relay") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("ide fixtures answer as their goldens say") {
  const bool bless = std::getenv("RELAY_BLESS") && *std::getenv("RELAY_BLESS");
  const auto paths = fixtures();
  REQUIRE(!paths.empty());
  for (const fs::path& path : paths) {
    const std::string name = fs::relative(path, RELAY_SOURCE_DIR).generic_string();
    INFO("fixture " << name);
    const ide_test::Fixture fixture = ide_test::parse_fixture(read_file(path));
    REQUIRE(fixture.error.empty());
    CheckDatabase db;
    db.set_file(name, fixture.text);
    const auto check = db.check(name);
    REQUIRE(check);
    const std::string actual = ide_test::run_queries(fixture, *check);
    fs::path golden = path;
    golden.replace_extension(".expected");
    if (bless) {
      std::ofstream(golden, std::ios::binary) << actual;
      continue;
    }
    INFO("RELAY_BLESS=1 rewrites " << golden.generic_string() << "; read every blessed file");
    CHECK(actual == read_file(golden));
  }
}

TEST_CASE("ide fixture markers are removed and located") {
  const auto f = ide_test::parse_fixture("ab<|hover|>cd<|rename:y|>e\n// ide: outline tokens\n");
  REQUIRE(f.error.empty());
  CHECK(f.text == "abcde\n// ide: outline tokens\n");
  REQUIRE(f.markers.size() == 2);
  CHECK(f.markers[0].kind == "hover");
  CHECK(f.markers[0].offset == 2);
  CHECK(f.markers[1].kind == "rename");
  CHECK(f.markers[1].argument == "y");
  CHECK(f.markers[1].offset == 4);
  CHECK(f.file_queries == std::vector<std::string>{"outline", "tokens"});
  CHECK(!ide_test::parse_fixture("a<|hover").error.empty());
}
