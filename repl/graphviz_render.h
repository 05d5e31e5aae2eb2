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

// The same layout rendered twice: as SVG into `*svg` and as a PNG image (Graphviz's
// cairo or gd plugin, both in Debian's libgvc6) into `*png`. Notebooks send both: the
// PNG is what untrusted notebooks, notebook viewers and exports show.
bool render_svg_and_png(const std::string& dot, std::string* svg, std::string* png, std::string* error);

}  // namespace relay::repl
