// Syntax highlighting with the tree-sitter grammar (editors/tree-sitter-relay): the
// grammar's queries/highlights.scm run over a text give spans with capture names
// (`keyword`, `function.call`, `type.builtin`, ...), and a theme turns them into ANSI
// colours for the terminal or inline-styled HTML. One grammar drives every colour the
// toolchain shows (relay fmt --color, the REPL), as it does in the editors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/render.h"

namespace relay::ide {

struct HighlightSpan {
  uint32_t begin = 0;  // byte offsets into the text
  uint32_t end = 0;
  std::string capture;  // the capture name without `@`
};

// Non-overlapping spans in text order. Where patterns capture the same node, the higher
// `(#set! "priority" N)` wins (default 100), then the earlier pattern. Text that does not
// parse is still highlighted: tree-sitter keeps the rest of the tree.
std::vector<HighlightSpan> highlight(std::string_view text);

// The ANSI SGR parameters for a capture ("1;35"), falling back from `a.b.c` to `a.b` and
// `a`; empty for captures left uncoloured (punctuation, plain variables).
std::string_view ansi_style(std::string_view capture);

// The text with ANSI colour around each highlighted span.
std::string highlight_ansi(std::string_view text);

// Spans of a type written alone ("fn (Tensor[(3), float32]) -> float32"), coloured as
// the grammar colours it in a definition; offsets into `type`.
std::vector<HighlightSpan> highlight_type(std::string_view type);

// The type with ANSI colour around each highlighted span (the REPL's signatures).
std::string highlight_type_ansi(std::string_view type);

// The text HTML-escaped, each highlighted span in `<span style="color:...">`.
std::string highlight_html(std::string_view text);

// The hook that colours the source lines of rendered diagnostics
// (RenderOptions::source_colors) with the same theme as highlight_ansi. It keeps the
// last file's colours, so that many diagnostics in one file parse it once; one
// colourer per thread.
SourceColorer diagnostic_source_colors();

}  // namespace relay::ide
