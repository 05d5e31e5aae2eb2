// Turning diagnostics into text: the rustc-style terminal rendering and one-line JSON.
//
// Both are pure functions of (Diagnostic, SourceManager): no I/O, no terminal queries.
// The caller decides about colour (a tty check belongs in the front end), prints a
// blank line after each rendered diagnostic and ends with render_summary().
// The exact formats are documented in docs/diagnostics.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"

namespace relay {

struct RenderOptions {
  bool color = false;  // ANSI escape codes (bold/red/yellow/blue/green)
  // Source lines wider than this many columns are cut to a window around their labels,
  // with `...` at the cuts. 140 suits a terminal; a notebook cell shows about 100 (the
  // Jupyter kernel). Clamped to [40, 140].
  uint32_t max_line_width = 140;
};

// The terminal rendering of one diagnostic: header, source snippets with labels,
// notes, helps and suggested fixes. Ends with a single '\n'.
std::string render_diagnostic(const Diagnostic& d, const SourceManager& sm,
                              const RenderOptions& options = {});

// The closing line: "error: aborting due to 2 previous errors; 1 warning emitted\n",
// "warning: 1 warning emitted\n", or "" when both counts are zero.
std::string render_summary(size_t errors, size_t warnings, bool color);

// One line of JSON (no trailing newline) describing `d`; schema in docs/diagnostics.md.
std::string render_json(const Diagnostic& d, const SourceManager& sm);

// Terminal columns taken by code point `cp`: 2 for East Asian wide characters and
// emoji, 0 for combining marks and zero-width characters, 1 otherwise.
int char_width(char32_t cp);

// Terminal columns taken by UTF-8 `text` as the renderer draws it (tabs are 4
// columns, invalid bytes 1 column each).
size_t display_width(std::string_view text);

// Where a byte offset is shown to users: 1-based line and 1-based byte column.
// The end of a file that ends in a newline is reported at the end of the last line
// (after its last character) rather than on the empty line after it.
LineCol display_position(const SourceFile& file, uint32_t offset);

}  // namespace relay
