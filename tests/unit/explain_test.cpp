// Every diagnostic code has an entry in the error index (docs/errors/CODE.md) with a
// Relay example, so `relay explain CODE` never comes up empty.
#include <algorithm>

#include <catch2/catch.hpp>

#include "lang/base/diagnostic.h"
#include "lang/base/explain.h"

using namespace relay;

TEST_CASE("explain: every code has an explanation with a relay example", "[explain]") {
  for (const auto& k : all_diag_kinds()) {
    INFO("code " << k.code << " needs docs/errors/" << k.code << ".md with a ```relay example");
    std::string_view text = explanation(k.code);
    CHECK(!text.empty());
    CHECK(text.find("```relay") != std::string_view::npos);
    // The title line names the code, so the page can be found by it.
    CHECK(text.substr(0, text.find('\n')).find(k.code) != std::string_view::npos);
  }
}

TEST_CASE("explain: codes as users type them", "[explain]") {
  CHECK(normalize_code("e0040") == "E0040");
  CHECK(normalize_code(" E40 ") == "E0040");
  CHECK(normalize_code("40") == "E0040");
  CHECK(normalize_code("w2") == "W0002");
  CHECK(normalize_code("nonsense") == "NONSENSE");
  CHECK(explanation("e0040") == explanation("E0040"));
  CHECK(explanation("E9999").empty());
  CHECK(explanation("").empty());
}

TEST_CASE("explain: similar codes for typos", "[explain]") {
  auto close = similar_codes("E0400");
  REQUIRE(!close.empty());
  CHECK(std::find(close.begin(), close.end(), std::string_view("E0040")) != close.end());
  CHECK(similar_codes("E0011").front() == "E0010");  // ties broken by numeric closeness
  CHECK(similar_codes("XYZ").empty());
}
