// Jupyter counts cursor positions in Unicode code points (messaging protocol 5.2+); the
// session engine counts bytes of UTF-8. These convert between the two for one text.
#pragma once

#include <cstddef>
#include <string_view>

namespace relay::kernel {

// The byte offset of code point `index` in `text`; the text's size when `index` is at or
// past its end. A byte that is not valid UTF-8 counts as one code point, as the
// renderer shows it as one U+FFFD (clients never send such text; this only keeps the
// mapping total).
size_t byte_offset_of_code_point(std::string_view text, size_t index);

// How many code points precede byte `offset` (clamped to the text's size). An offset
// inside a multi-byte sequence counts that sequence as not yet reached.
size_t code_points_before(std::string_view text, size_t offset);

}  // namespace relay::kernel
