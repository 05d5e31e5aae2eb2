// How the session's outputs look in a notebook: the MIME bundles of `execute_result` and
// `display_data`, and the fields of an `error`. Pure functions, no messaging.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "repl/session.h"

namespace relay::kernel {

// `text/plain` of a value: its printout, then a line `: TYPE`, as `relay repl` shows it.
std::string value_plain_text(const repl::Output& value);

// A Value output: `text/plain` and `text/html` (a table with a shape/dtype header).
nlohmann::json value_bundle(const repl::Output& value);

// An Svg output (`:viz`): the picture, and what it shows as the plain-text fallback.
// The picture is the bare `<svg>` element (see `svg_element`), with `image/png` (base64)
// beside it when the output carries a PNG rendering.
nlohmann::json svg_bundle(const repl::Output& picture);

// `document` without what comes before its root element (the XML declaration, a
// DOCTYPE, comments, blank space) and without trailing blank space. Graphviz writes a
// complete SVG file, which is right for `relay repl`'s NAME.svg; in a notebook the
// picture is inlined into HTML, where a declaration is not allowed: nbconvert's HTML
// export parses it with lxml, which refuses a str that declares an encoding, and
// IPython's own SVG display sends the bare element too. Text that is not such a
// document comes back unchanged.
std::string svg_element(std::string_view document);

// Columns of a diagnostic's source lines in a notebook: a code cell's output shows about
// 100 monospace columns at the default width, so longer lines are windowed around their
// labels (with `...`) instead of wrapping under the underline that marks them.
inline constexpr uint32_t kNotebookLineWidth = 100;

struct ErrorFields {
  std::string ename;                   // the first diagnostic's code, or "Interrupted"
  std::string evalue;                  // its message
  std::vector<std::string> traceback;  // the rendered diagnostics (ANSI colour), by line
};

// An Error output of `session`; `interrupted` when the evaluation was interrupted.
ErrorFields error_fields(const repl::Session& session, const repl::Output& error, bool interrupted);

// `text` cut at newlines, without the empty piece after a final newline.
std::vector<std::string> split_lines(const std::string& text);

}  // namespace relay::kernel
