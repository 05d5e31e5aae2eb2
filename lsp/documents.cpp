#include "lsp/documents.h"

#include <algorithm>
#include <string>

namespace relay::lsp {

uint32_t offset_of(const std::string& text, const LineIndex& lines, const nlohmann::json& position,
                   PositionEncoding enc) {
  // uinteger in LSP: a value past int64's range (2^63 and up) is as far as any
  auto coordinate = [](const nlohmann::json& v) -> int64_t {
    if (v.is_number_unsigned()) return static_cast<int64_t>(std::min<uint64_t>(v.get<uint64_t>(), INT64_MAX));
    return v.get<int64_t>();
  };
  const int64_t line = coordinate(position.at("line"));
  const int64_t character = coordinate(position.at("character"));
  if (line < 0 || character < 0) throw BadParams("a negative position (line " + std::to_string(line) + ", character " + std::to_string(character) + ")");
  if (static_cast<uint64_t>(line) >= lines.line_count()) return static_cast<uint32_t>(text.size());
  // a character past the line's end means its end (LSP); no line is 2^32 long, so
  // clamping first keeps a huge character from wrapping around
  const uint32_t column = static_cast<uint32_t>(std::min<int64_t>(character, UINT32_MAX));
  if (enc == PositionEncoding::Utf16) return lines.offset_of_utf16(text, static_cast<uint32_t>(line), column);
  const uint32_t start = lines.line_start(static_cast<uint32_t>(line) + 1);
  const uint32_t end = lines.line_end(text, static_cast<uint32_t>(line) + 1);
  return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{start} + column, end));
}

nlohmann::json position_of(const std::string& text, const LineIndex& lines, uint32_t offset, PositionEncoding enc) {
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  const LineCol lc = lines.lookup(offset);
  const uint32_t character = enc == PositionEncoding::Utf16 ? lines.utf16_column(text, offset) : lc.column - 1;
  return {{"line", lc.line - 1}, {"character", character}};
}

nlohmann::json range_of(const std::string& text, const LineIndex& lines, uint32_t begin, uint32_t end,
                        PositionEncoding enc) {
  return {{"start", position_of(text, lines, begin, enc)}, {"end", position_of(text, lines, end, enc)}};
}

bool apply_change(std::string& text, const nlohmann::json& change, PositionEncoding enc) {
  if (!change.is_object() || !change.contains("text") || !change["text"].is_string()) return false;
  const std::string& inserted = change["text"].get_ref<const std::string&>();
  if (!change.contains("range")) {
    text = inserted;
    return true;
  }
  const nlohmann::json& range = change["range"];
  LineIndex lines(text);
  uint32_t b = offset_of(text, lines, range.at("start"), enc);
  uint32_t e = offset_of(text, lines, range.at("end"), enc);
  if (e < b) return false;
  text.replace(b, e - b, inserted);
  return true;
}

std::string path_of_uri(const std::string& uri) {
  if (uri.rfind("file://", 0) != 0) return uri;
  std::string out;
  for (size_t i = 7; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

}  // namespace relay::lsp
