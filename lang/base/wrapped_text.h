// Diagnostics about a text a tool wrapped around what the user wrote (the REPL's module
// around an input, the debugger's function around a watch expression), moved onto the
// user's text: a diagnostic must not point into text the user never saw.
//
//   * A label in the user's text moves to where it was written.
//   * The primary label in generated text goes where the tool says (the end of the
//     user's text, say); past the user's text, what a parser "found" there is the end of
//     what the user wrote, not the wrapper's closing `}`.
//   * A secondary label in generated text is dropped.
//   * A fix is kept only when every edit of it lies in the user's text (part of a fix
//     would be wrong).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "lang/base/diagnostic.h"

namespace relay {

struct WrappedText {
  // Where a span of the wrapper was written by the user; nullopt in generated text.
  std::function<std::optional<Span>(Span)> to_user;
  // Where the primary label goes when it lies in generated text.
  std::function<Span(Span)> place_generated;
  // Whether a span lies past the end of the user's text (the closing text the tool added).
  std::function<bool(Span)> past_end;
  // What a parser found past the end: "the end of the input", "the end of the expression".
  std::string end_name;
};

Diagnostic to_user_text(const Diagnostic& d, const WrappedText& w);

}  // namespace relay
