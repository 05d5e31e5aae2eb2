// Run-time values as the interpreter shows them: tensors as numpy's str() prints them
// (runtime/print.h), tuples `(a, b)`, references `ref(v)`, constructor values
// `Cons(1, Nil)`, closures `<closure>`. A tuple or constructor value whose fields
// include a multi-line tensor puts each field on its own lines, indented:
//
//   (
//     [[1 2]
//      [3 4]],
//     5
//   )
//
// Deeply nested values (a 100,000-element list is 100,000 nested Cons values) print
// without recursion, and a reference that contains itself prints as `ref(...)` inside.
#pragma once

#include <string>

#include "interpreter/runtime/print.h"
#include "interpreter/value.h"

namespace relay::rt {

std::string format_value(const Value& v, const PrintOptions& options = {});

}  // namespace relay::rt
