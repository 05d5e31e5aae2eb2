// Range formatting with the whole-file printer (lang/syntax/printer.h).
//
// The printer's layout is not line-local (a binding's indentation and line breaks depend
// on the structure around it), so the file is formatted whole and the result is diffed
// against the text by common leading and trailing lines. The single changed hunk is
// returned when it meets the requested lines, even when it reaches beyond them: applying
// only a slice of it could leave text the printer would lay out differently again, so a
// second format would not be a no-op. When the hunk does not meet the requested lines,
// nothing is returned (the request's lines are already formatted).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relay::ide {

struct LineEdit {
  uint32_t begin, end;  // bytes of the text to replace (whole lines)
  std::string text;
};

// The whole text as `relay fmt` prints it; nullopt when it has syntax errors (nothing to
// format safely).
std::optional<std::string> format_document(std::string_view path, std::string_view text);

// `first_line`/`last_line` are 0-based and inclusive. nullopt when there is nothing to
// change in them, or when the text has syntax errors (nothing to format safely).
std::optional<LineEdit> format_range(std::string_view path, std::string_view text, uint32_t first_line,
                                     uint32_t last_line);

}  // namespace relay::ide
