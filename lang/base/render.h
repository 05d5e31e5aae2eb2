// Turning diagnostics into text: the rustc-style terminal rendering and one-line JSON.
//
// Both are pure functions of (Diagnostic, SourceManager): no I/O, no terminal queries.
// The caller decides about colour (a tty check belongs in the front end), prints a
// blank line after each rendered diagnostic and ends with render_summary().
// The exact formats are documented in docs/diagnostics.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"

namespace relay {

// Bytes [begin, end) of a file's text drawn with the ANSI SGR parameters `sgr` ("34",
// "1;35"): a syntax colour for the source lines of snippets.
struct SourceColor {
  uint32_t begin = 0, end = 0;
  std::string sgr;
};

// Given a file's whole text, its syntax colours: spans in text order, not overlapping.
using SourceColorer = std::function<std::vector<SourceColor>(std::string_view text)>;

struct RenderOptions {
  bool color = false;  // ANSI escape codes (bold/red/yellow/blue/green)
  // Source lines wider than this many columns are cut to a window around their labels,
  // with `...` at the cuts. 140 suits a terminal; a notebook cell shows about 100 (the
  // Jupyter kernel). Clamped to [40, 140].
  uint32_t max_line_width = 140;
  // With `color`: colours the source text of snippets (not the gutter, labels or `...`
  // cuts). A hook because the colours come from the tree-sitter grammar in ide/, a layer
  // above this one; front ends fill it (ide::diagnostic_source_colors). Called once per
  // file shown; never called without `color`, so plain output does not depend on it.
  SourceColorer source_colors = nullptr;
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
