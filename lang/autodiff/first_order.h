// First-order reverse-mode differentiation of one global function (TVM's
// FirstOrderGradient, reference §6.1-§6.2): for `fn (x1: T1, ..., xn: Tn) -> R` it builds a
// function with the same parameters that returns `(R, (T1, ..., Tn))`, the original
// result and the gradient of the sum of the result's elements with respect to each
// parameter (every tensor of the result seeded with ones).
//
// The input is the checked syntax tree: operator calls, tuples, projections, constants,
// `let` / graph bindings of those, and function literals bound with `let` whose calls
// are inlined (TVM's first-order mode does the same; TVM's LSTM is written that way).
// Control flow, closures used as values, recursion, references, ADTs and calls of other
// globals are refused with E0120 at the construct, as are operators without a
// gradient rule (gradient_rule.h) and calls a rule does not cover; every such place is
// reported, not only the first.
//
// The result is Relay text (one `def`), each forward value and each gradient `let`-bound
// in evaluation order, so it reads like hand-written code and the ordinary front end
// checks it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"
#include "lang/syntax/ast.h"
#include "lang/types/infer.h"

namespace relay::autodiff {

// `def @<name>(...) { ... }` for `def`, or nullopt after reporting why to `diags`.
// `types` are `def`'s inferred types; `file` holds its source (for metadata references,
// which are copied as written).
std::optional<std::string> first_order_gradient(const FuncDef& def, const InferredTypes& types,
                                                const SourceFile& file, std::string_view name,
                                                DiagnosticBag& diags);

// `module`'s text with `gradient_def` added after its last definition (before a
// metadata section, which must stay last).
std::string insert_definition(const Module& module, const SourceFile& file, const std::string& gradient_def);

}  // namespace relay::autodiff
