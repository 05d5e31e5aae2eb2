// The fixture format of the in-process IDE tests (README.md): `.relay` text with cursor
// markers `<|kind|>` or `<|kind:argument|>`, removed before the text is checked, and a
// directive line `// ide: outline folding tokens inlay` for whole-file queries.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relay::ide_test {

struct Marker {
  std::string kind;      // hover, definition, references, rename, complete, ...
  std::string argument;  // after `:` (rename's new name); "" when none
  uint32_t offset = 0;   // in the text without markers
};

struct Fixture {
  std::string text;                     // without markers
  std::vector<Marker> markers;          // in text order
  std::vector<std::string> file_queries;  // from `// ide:` lines
  std::string error;                    // a malformed marker; empty when fine
};

Fixture parse_fixture(std::string_view raw);

}  // namespace relay::ide_test
