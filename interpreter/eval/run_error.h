// Turning a failed run into a diagnostic, the same way for every front end (`relay run`,
// the REPL, the notebook kernel): E0101 when interrupted, E0102 when the numerics checker
// stopped it, E0100 otherwise, with the Relay stack as a note.
#pragma once

#include <functional>

#include "interpreter/eval/machine.h"
#include "interpreter/eval/numerics.h"
#include "lang/base/diagnostic.h"
#include "lang/base/source.h"

namespace relay::rt {

// Maps a span of the checked program to where it should be shown (identity for `relay
// run`; the REPL maps its session module back to the input each piece came from).
using SpanMap = std::function<Span(Span)>;

// `numerics` may be null. `sources` must hold the files of the mapped spans.
Diagnostic run_error_diagnostic(const EvalError& e, const NumericsChecker* numerics, const SourceManager& sources,
                                const SpanMap& map = {});

}  // namespace relay::rt
