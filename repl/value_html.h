// A run-time value as HTML, for the Jupyter kernel's `text/html` output.
//
// The structure, type text and summaries come from the value-inspection model
// (interpreter/inspect/inspect.h), which the debugger shares; this file only lays them out.
//
// Tensors are tables (a matrix per pair of trailing axes, with row and column indices, in
// a box of their own that scrolls sideways when wide), summarised like numpy when large:
// over 1,000 elements, each axis longer than 6 shows its first and last 3 entries around
// a `…` cell, under a line of statistics (`min=… max=… mean=…`, NaN and Inf counts).
// Elements read as the text form prints them inside the array (numpy's print precision,
// 8 significant digits; runtime/print.h); NaN and ±Inf cells are marked (class
// `rv-nonfinite`, in red). A scalar is its value and type on one line (`1.5 : float32`),
// not a table. Tuples and constructor values nest as tables of their fields (index,
// value), or inline, `(1, 2.5)`, when every field is a scalar. A list-like value (a chain
// of `Cons`) is one table of its items, its first 100 and a count of the rest. References
// are text, closures their summary (`%f(%x, %y)`, `nn.relu`). No HTML lists: notebook
// stylesheets restyle nested ones.
//
// The output is bounded whatever the value: about 5,000 cells and 2,000 values in all,
// and nesting deeper than 16 levels is elided, so a huge or deep value costs kilobytes,
// not megabytes, and no recursion proportional to its size.
//
// There is no stylesheet: the markup reads right unstyled (untrusted notebooks drop
// styles), and the few styles that matter are inline (docs/jupyter.md says why);
// colours derive from the text colour, so light and dark notebook themes both work.
#pragma once

#include <string>

#include "interpreter/value.h"

namespace relay::repl {

// `type_text` is the value's Relay type as printed (empty when unknown); it heads the
// output.
std::string value_html(const rt::Value& v, const std::string& type_text);

}  // namespace relay::repl
