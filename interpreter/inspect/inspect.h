// The value-inspection model: any run-time Value as a tree a user interface can page
// through — a one-line summary, the Relay type as text, and named and indexed children.
// The debugger's variables view, the REPL's HTML and the notebook kernel all present
// values through it, so a value reads the same everywhere. It knows nothing of JSON,
// HTML or terminals; numbers are written by runtime/print.h, as value_print writes them.
//
//   value           summary                         named children        indexed children
//   scalar tensor   `1.5`                           -                     -
//   small tensor    `[[1 2] [3 4]]` (numpy, 1 line) shape dtype min max   rows along axis 0
//   large tensor    `min=0.0 max=9.0 mean=4.5`        mean nan inf          (a row of a matrix is
//                   (+ `nan=2 inf=1` when present)  (text leaves)         a vector; of a vector,
//                                                                         a scalar)
//   tuple           `(1, 2.5)`                      -                     fields `0`, `1`, …
//   constructor     `Cons(1, Nil)`                  -                     fields `0`, `1`, …
//   closure         `%f(%x, %y)`, `fn(%x)`          captured values by    -
//                   `nn.relu`, `Cons` (op, ctor)    binder (`%n`)
//   reference       `ref(5)`                        `value`               -
//
// Costs: a summary is bounded text (composites stop after about `summary_width`
// characters, nested large tensors show their type); a large tensor's own summary reads
// its elements once for the statistics. `children` costs what it returns: rows
// 500,000..500,010 of a 1,000,000-row tensor copy ten rows (a row is a new tensor: the
// runtime has no views), and the tensor statistics are computed only when asked for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/value.h"

namespace relay::rt {

struct InspectOptions {
  // Tensors with at most this many elements summarise as their numbers.
  int64_t inline_elements = 64;
  // Tuples, constructor values and references stop adding parts after about this many
  // characters (`(1, 2, …)`); it also bounds how deep a summary looks.
  size_t summary_width = 120;
};

struct ValueInfo {
  std::string summary;  // one line
  std::string type;     // Relay type, TVM's spelling; empty when unknown
  int64_t named = 0;    // named children (tensor statistics, captured values, a ref's value)
  int64_t indexed = 0;  // indexed children (rows, fields)
};

// `static_type`: the type as the caller knows it (the checker's, `Tensor[(?, 3), float32]`);
// when given it is used instead of the type read off the value.
ValueInfo inspect(const Value& v, std::string_view static_type = {}, const InspectOptions& options = {});

// The parts of `inspect`, for callers that need only one (the type costs no element reads).
std::string value_summary(const Value& v, const InspectOptions& options = {});
// What the value alone says about its type: `Tensor[(2, 3), float32]`, `float32` (rank 0),
// `(int32, Tensor[(2), float32])`, `ref(int32)`, `List[int32]` (ADT arguments read from
// the fields; `_` where they say nothing: `List[_]` for Nil), `fn (int32) -> _` (a
// function's annotations). Empty when nothing is known (an operator used as a value).
// Very large types are cut short with `…`.
std::string value_type(const Value& v);

struct ChildCounts {
  int64_t named = 0;
  int64_t indexed = 0;
};
ChildCounts child_counts(const Value& v);

enum class ChildFilter : uint8_t { All, Named, Indexed };

// One child. Most are values; a tensor's statistics are text leaves (`value` undefined).
struct Child {
  std::string name;  // `0`, `min`, `%x`, `value`
  Value value;
  std::string text;  // a leaf's text (`(2, 3)`, `float32`, `0.5`)
  bool is_leaf() const { return !value.defined(); }
};

// A client's window [start, start + count) of `total` items, clipped: a negative start
// reads as 0, and no sum overflows whatever the 64-bit values. Items [lo, hi).
struct Window {
  int64_t lo = 0, hi = 0;
};
Window clip_window(int64_t total, int64_t start, int64_t count);

// Children [start, start + count) of those `filter` selects; with All the named come
// first, then the indexed (numbered from 0 within their own group either way). Costs
// O(what is returned): never a walk over the skipped children.
std::vector<Child> children(const Value& v, ChildFilter filter = ChildFilter::All, int64_t start = 0,
                            int64_t count = std::numeric_limits<int64_t>::max());

// A child as a ValueInfo (a leaf: its text, no type, no children).
ValueInfo inspect(const Child& c, const InspectOptions& options = {});

// The whole value as text that reads back exactly: value_print's numpy layout without
// summarisation and with enough digits to round-trip every element (a debugger's "copy
// value"). As long as the value is.
std::string full_text(const Value& v);

// A tensor's storage (row-major, dtype_bytes per element) for memory views; nullopt for
// other values. Valid while the tensor lives.
std::optional<std::span<const std::byte>> raw_bytes(const Value& v);

// `Cons`, or `<constructor>` when the value was built without its declaration.
std::string constructor_name(const CtorObj& c);

}  // namespace relay::rt
