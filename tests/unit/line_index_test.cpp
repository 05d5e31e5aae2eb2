// LineIndex's UTF-16 conversions (what the language server speaks by default) and the
// Utf16Cursor that semantic tokens use: on text with 1-, 2-, 3- and 4-byte characters
// (the last two UTF-16 units), every offset converts and converts back, and the cursor
// agrees with the index whether it is walked forwards, backwards or at random.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "lang/base/source.h"

using relay::LineIndex;
using relay::Utf16Cursor;

namespace {

// Offsets where a character starts (and the end of the text).
std::vector<uint32_t> char_starts(const std::string& text) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(static_cast<uint32_t>(text.size()));
  return out;
}

const std::string kText =
    "def @f(%x: float32) {\n"
    "  // é ü — 中文 and 😀 twice: 😀\n"
    "\n"
    "  %x /* ∑ */\n"
    "}";

}  // namespace

TEST_CASE("line index: UTF-16 columns of multi-byte text", "[source]") {
  LineIndex lines(kText);
  uint32_t emoji = static_cast<uint32_t>(kText.find("😀"));
  // Line 2 (0-based 1): `  // é ü — 中文 and ` is 18 UTF-16 units before the emoji.
  CHECK(lines.utf16_column(kText, emoji) == 18);
  CHECK(lines.utf16_column(kText, emoji + 4) == 20);  // the emoji is a surrogate pair
  for (uint32_t offset : char_starts(kText)) {
    relay::LineCol lc = lines.lookup(offset);
    uint32_t col = lines.utf16_column(kText, offset);
    CHECK(lines.offset_of_utf16(kText, lc.line - 1, col) == offset);
  }
}

TEST_CASE("line index: the cursor agrees with utf16_column in any order", "[source]") {
  LineIndex lines(kText);
  std::vector<uint32_t> offsets = char_starts(kText);
  auto expect = [&](uint32_t offset, Utf16Cursor::Position p) {
    INFO("offset " << offset);
    CHECK(p.line0 == lines.lookup(offset).line - 1);
    CHECK(p.column16 == lines.utf16_column(kText, offset));
  };
  Utf16Cursor forward(kText, lines);
  for (uint32_t o : offsets) expect(o, forward.at(o));
  Utf16Cursor backward(kText, lines);
  for (auto it = offsets.rbegin(); it != offsets.rend(); ++it) expect(*it, backward.at(*it));
  std::mt19937 rng(7);
  Utf16Cursor random(kText, lines);
  for (int i = 0; i < 500; ++i) {
    uint32_t o = offsets[rng() % offsets.size()];
    expect(o, random.at(o));
  }
  // Past the end clamps to the end.
  Utf16Cursor past(kText, lines);
  auto p = past.at(static_cast<uint32_t>(kText.size()) + 10);
  CHECK(p.line0 == lines.lookup(static_cast<uint32_t>(kText.size())).line - 1);
}

TEST_CASE("line index: CRLF and a lone CR end lines and a position past a line's end is its end", "[source]") {
  // "\r\n" is one terminator; a lone '\r' is one too (LSP's and every editor's lines)
  const std::string crlf = "ab\r\ncd\r\n\r\nlast";
  LineIndex lines(crlf);
  REQUIRE(lines.line_count() == 4);
  CHECK(lines.line_start(2) == 4);
  CHECK(lines.line_text(crlf, 1) == "ab");
  CHECK(lines.line_text(crlf, 3) == "");
  CHECK(lines.line_text(crlf, 4) == "last");
  CHECK(lines.line_end(crlf, 1) == 2);  // before the '\r'
  CHECK(lines.line_end(crlf, 4) == crlf.size());
  // a column past the end stops before the terminator, not between '\r' and '\n'
  CHECK(lines.offset_of_utf16(crlf, 0, 2) == 2);
  CHECK(lines.offset_of_utf16(crlf, 0, 3) == 2);
  CHECK(lines.offset_of_utf16(crlf, 1, UINT32_MAX) == 6);
  CHECK(lines.offset_of_utf16(crlf, 3, 99) == crlf.size());

  const std::string cr = "ab\rcd\r\ref\n\rg\r";
  LineIndex cr_lines(cr);
  REQUIRE(cr_lines.line_count() == 7);  // "ab", "cd", "", "ef", "", "g", "": "\r\r" is two ends
  CHECK(cr_lines.line_text(cr, 2) == "cd");
  CHECK(cr_lines.line_text(cr, 3) == "");
  CHECK(cr_lines.line_text(cr, 4) == "ef");
  CHECK(cr_lines.line_text(cr, 5) == "");
  CHECK(cr_lines.line_text(cr, 6) == "g");
  CHECK(cr_lines.lookup(static_cast<uint32_t>(cr.find('g'))).line == 6);
  CHECK(cr_lines.offset_of_utf16(cr, 1, 10) == 5);  // before "cd"'s '\r'
  for (uint32_t offset : char_starts(cr)) {  // every position converts and back
    if (cr[offset < cr.size() ? offset : 0] == '\r' || (offset > 0 && offset < cr.size() && cr[offset] == '\n'))
      continue;  // inside a terminator: no position of its own
    const relay::LineCol lc = cr_lines.lookup(offset);
    CHECK(cr_lines.offset_of_utf16(cr, lc.line - 1, cr_lines.utf16_column(cr, offset)) == offset);
  }
}
