// How the session's outputs look in a notebook: the MIME bundles of `execute_result` and
// `display_data`, and the fields of an `error`. Pure functions, no messaging.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "repl/session.h"

namespace relay::kernel {

// `text/plain` of a value: its printout, then a line `: TYPE`, as `relay repl` shows it.
std::string value_plain_text(const repl::Output& value);

// A Value output: `text/plain` and `text/html` (a table with a shape/dtype header).
nlohmann::json value_bundle(const repl::Output& value);

// An Svg output (`:viz`): the picture, and what it shows as the plain-text fallback.
nlohmann::json svg_bundle(const repl::Output& picture);

struct ErrorFields {
  std::string ename;                   // the first diagnostic's code, or "Interrupted"
  std::string evalue;                  // its message
  std::vector<std::string> traceback;  // the rendered diagnostics (ANSI colour), by line
};

// An Error output of `session`; `interrupted` when the evaluation was interrupted.
ErrorFields error_fields(const repl::Session& session, const repl::Output& error, bool interrupted);

// `text` cut at newlines, without the empty piece after a final newline.
std::vector<std::string> split_lines(const std::string& text);

}  // namespace relay::kernel
