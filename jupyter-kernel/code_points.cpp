#include "jupyter-kernel/code_points.h"

#include "lang/base/utf8.h"

namespace relay::kernel {

namespace {

// Length of the code point starting at byte `i` (1 for an invalid byte).
size_t step(std::string_view text, size_t i) {
  char32_t cp;
  size_t n = decode_utf8(text, i, &cp);
  return n == 0 ? 1 : n;
}

}  // namespace

size_t byte_offset_of_code_point(std::string_view text, size_t index) {
  size_t i = 0;
  for (size_t k = 0; k < index && i < text.size(); ++k) i += step(text, i);
  return i;
}

size_t code_points_before(std::string_view text, size_t offset) {
  if (offset > text.size()) offset = text.size();
  size_t count = 0;
  for (size_t i = 0; i < offset;) {
    size_t n = step(text, i);
    if (i + n > offset) break;  // `offset` falls inside this sequence
    i += n;
    ++count;
  }
  return count;
}

}  // namespace relay::kernel
