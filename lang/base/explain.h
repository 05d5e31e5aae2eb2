// The error index behind `relay explain CODE`.
//
// Each diagnostic code has a Markdown explanation in docs/errors/CODE.md, compiled into
// the library (cmake/Embed.cmake), so the binary needs no files at run time and the
// language server can show the same text on hover.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relay {

// The canonical spelling of a code as a user may type it: "e0040" -> "E0040",
// "E40" -> "E0040", "40" -> "E0040" (or the W code when only that one exists).
std::string normalize_code(std::string_view code);

// The Markdown explanation of `code` (normalised first); empty when there is none.
std::string_view explanation(std::string_view code);

// Known codes that look like `code` (typos, neighbouring numbers), best first.
std::vector<std::string_view> similar_codes(std::string_view code, size_t max = 3);

}  // namespace relay
