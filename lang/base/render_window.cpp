// Long lines for the diagnostic renderer (see render.cpp): the window of bytes around
// the labels (or the edits of a fix) that is drawn of a line too long to draw whole.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lang/base/render_internal.h"
#include "lang/base/utf8.h"

namespace relay::render_detail {

// ======================================================================================
// Long lines: only a window of bytes around the labels is ever drawn

namespace {

// The start of the character (as draw_text decodes the whole line from its start) that
// holds byte `t`. UTF-8 resynchronises: a byte that is not a continuation byte always
// starts a character, and a character is at most 4 bytes.
size_t char_start(const LineBytes& line, size_t t) {
  if ((line.at(t) & 0xC0) != 0x80) return t;
  for (size_t k = 1; k <= 3 && k <= t; ++k) {
    if ((line.at(t - k) & 0xC0) == 0x80) continue;
    char buf[4];
    size_t m = line.read(t - k, buf, 4);
    char32_t cp = 0;
    return decode_utf8(std::string_view(buf, m), 0, &cp) > k ? t - k : t;  // else t is a stray byte
  }
  return t;
}

// The cells that draw_text gives the character at `i` (not the first of the text), and
// its length in bytes.
uint32_t char_cells(const LineBytes& line, size_t i, size_t* len) {
  if (unsigned char c = line.at(i); c < 0x80) {
    *len = 1;
    return c == '\t' ? kTabWidth : 1;
  }
  char buf[4];
  size_t m = line.read(i, buf, 4);
  char32_t cp = 0;
  *len = decode_utf8(std::string_view(buf, m), 0, &cp);
  if (*len == 0) {
    *len = 1;
    return 1;
  }
  if (cp == '\t') return kTabWidth;
  if (cp < 0x20 || cp == 0x7F) return 1;
  return static_cast<uint32_t>(char_width(cp));
}

}  // namespace

// The byte window [first, second) of a long line to draw so that `marks` are visible,
// with kWindowBefore columns before them and kWindowAfter after.
std::pair<size_t, size_t> choose_window(const LineBytes& line, const std::vector<Extent>& marks) {
  const size_t n = line.size();
  size_t lo = marks.empty() ? 0 : n, hi = 0;
  for (const Extent& m : marks) {
    lo = std::min(lo, std::min(m.lo, n));
    hi = std::max(hi, std::min(std::max(m.lo, m.hi), n));
  }
  hi = std::max(hi, lo);
  if (hi - lo > kMaxLabelledBytes) {
    size_t anchor = lo;
    for (const Extent& m : marks)
      if (m.primary) {
        anchor = std::min(m.lo, n);
        break;
      }
    lo = std::max(lo, anchor > kMaxLabelledBytes / 2 ? anchor - kMaxLabelledBytes / 2 : 0);
    hi = std::min(hi, lo + kMaxLabelledBytes);
  }
  // Leftwards: back to the line's start if it is near, else kWindowBefore columns.
  size_t t = lo < n ? char_start(line, lo) : n, b = SIZE_MAX;
  uint32_t cols = 0;
  while (t > 0 && cols < kKeepStartColumns && t + kMaxWalkBytes > lo) {
    t = char_start(line, t - 1);
    size_t len = 0;
    cols += char_cells(line, t, &len);
    if (b == SIZE_MAX && cols >= kWindowBefore) b = t;
  }
  if (t == 0 || b == SIZE_MAX) b = t;
  // Not on a combining mark: it would be drawn on a blank of its own.
  for (size_t i = 0; i < 64 && b > 0; ++i) {
    size_t len = 0;
    if (char_cells(line, b, &len) > 0) break;
    b = char_start(line, b - 1);
  }
  // Rightwards: kWindowAfter columns after the labels.
  t = hi < n ? char_start(line, hi) : n;
  cols = 0;
  while (t < n && cols < kWindowAfter && t < hi + kMaxWalkBytes) {
    size_t len = 0;
    cols += char_cells(line, t, &len);
    t += len;
  }
  return {b, t};
}

}  // namespace relay::render_detail
