#include "tests/ide/fixture.h"

#include <sstream>

namespace relay::ide_test {

Fixture parse_fixture(std::string_view raw) {
  Fixture f;
  size_t i = 0;
  while (i < raw.size()) {
    const size_t open = raw.find("<|", i);
    if (open == std::string_view::npos) {
      f.text += raw.substr(i);
      break;
    }
    f.text += raw.substr(i, open - i);
    const size_t close = raw.find("|>", open + 2);
    if (close == std::string_view::npos) {
      f.error = "a `<|` at byte " + std::to_string(open) + " is never closed by `|>`";
      return f;
    }
    std::string body(raw.substr(open + 2, close - open - 2));
    Marker m;
    m.offset = static_cast<uint32_t>(f.text.size());
    const size_t colon = body.find(':');
    m.kind = body.substr(0, colon);
    if (colon != std::string::npos) m.argument = body.substr(colon + 1);
    if (m.kind.empty()) {
      f.error = "an empty marker at byte " + std::to_string(open);
      return f;
    }
    f.markers.push_back(std::move(m));
    i = close + 2;
  }
  // Directive lines: `// ide: QUERY...` anywhere (they are ordinary comments).
  std::istringstream lines(f.text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("// ide:")) continue;
    std::istringstream words(line.substr(7));
    for (std::string w; words >> w;) f.file_queries.push_back(w);
  }
  return f;
}

}  // namespace relay::ide_test
