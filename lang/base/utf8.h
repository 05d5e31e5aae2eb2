// UTF-8 decoding shared by the lexer (validation) and the renderer (column widths).
#pragma once

#include <cstddef>
#include <string_view>

namespace relay {

// Decodes the UTF-8 sequence at s[i]; returns its length, or 0 when the bytes are not
// valid UTF-8 (overlong forms and surrogates included), in which case the renderer
// shows one U+FFFD per byte.
inline size_t decode_utf8(std::string_view s, size_t i, char32_t* out) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *out = c;
    return 1;
  }
  size_t n;
  char32_t cp;
  if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 0x1F; }
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 0x0F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 0x07; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  *out = cp;
  return n;
}

}  // namespace relay
