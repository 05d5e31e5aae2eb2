// Character widths for the diagnostic renderer (see render.cpp): how many terminal
// cells a code point takes, and the drawing of text cell by cell.
#include <iterator>
#include <string>
#include <vector>

#include "lang/base/render.h"
#include "lang/base/render_internal.h"
#include "lang/base/utf8.h"

namespace relay {

// ======================================================================================
// Code points and display columns

namespace {

std::string encode_utf8(char32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

struct Range {
  char32_t lo, hi;
};

bool in_ranges(char32_t cp, const Range* ranges, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (cp >= ranges[i].lo && cp <= ranges[i].hi) return true;
  return false;
}

// The main combining and invisible ranges; enough for accents, ZWJ emoji sequences
// and variation selectors to keep carets aligned.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
    {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
    {0xE0100, 0xE01EF},
};

// East Asian Wide/Fullwidth blocks and the emoji blocks terminals draw two cells wide.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F320},
    {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA},
    {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
    {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E},
    {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4},
    {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2},
    {0x1F6D5, 0x1F6D7}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB},
    {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

}  // namespace

int char_width(char32_t cp) {
  if (cp < 0x300) return cp == 0 ? 0 : 1;  // below the first combining mark
  if (in_ranges(cp, kZeroWidth, std::size(kZeroWidth))) return 0;
  if (cp >= 0x1100 && in_ranges(cp, kWide, std::size(kWide))) return 2;
  return 1;
}

namespace render_detail {

DrawnLine draw_text(std::string_view s) {
  DrawnLine out;
  out.cells.reserve(s.size());
  out.start_col.reserve(s.size() + 1);
  out.end_col.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    size_t n = decode_utf8(s, i, &cp);
    uint32_t col = out.width();
    if (n == 0) {
      n = 1;
      out.cells.emplace_back("\xEF\xBF\xBD");  // U+FFFD for each invalid byte
    } else if (cp == '\t') {
      out.cells.insert(out.cells.end(), kTabWidth, " ");
    } else if (cp < 0x20 || cp == 0x7F) {
      // Control characters would move the cursor; show their Unicode control pictures.
      out.cells.push_back(encode_utf8(cp == 0x7F ? 0x2421 : 0x2400 + cp));
    } else if (int w = char_width(cp); w == 0) {
      // Combining marks join the previous cell; alone at the start they get a blank base.
      if (out.cells.empty()) {
        out.cells.push_back(" " + std::string(s.substr(i, n)));
      } else {
        size_t k = out.cells.size() - 1;
        while (k > 0 && out.cells[k].empty()) --k;
        out.cells[k] += s.substr(i, n);
      }
    } else {
      out.cells.emplace_back(s.substr(i, n));
      if (w == 2) out.cells.emplace_back();  // "" marks the second cell of a wide character
    }
    for (size_t k = 0; k < n; ++k) {
      out.start_col.push_back(col);
      out.end_col.push_back(out.width());
    }
    i += n;
  }
  out.start_col.push_back(out.width());
  return out;
}

}  // namespace render_detail

using namespace render_detail;

size_t display_width(std::string_view text) { return draw_text(text).width(); }

}  // namespace relay
