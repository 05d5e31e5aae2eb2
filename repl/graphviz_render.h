// DOT text to SVG through Graphviz's library (libgvc, the `dot` layout engine), so that
// `:viz` works without a `dot` executable on the PATH.
#pragma once

#include <string>

namespace relay::repl {

// Lays out `dot` and renders it as an SVG document into `*svg`. On failure (text that
// is not DOT, a layout or render error) returns false and puts Graphviz's message in
// `*error`; nothing is printed to stderr. Calls are serialised: Graphviz keeps its
// parser and error state in globals.
bool render_svg(const std::string& dot, std::string* svg, std::string* error);

}  // namespace relay::repl
