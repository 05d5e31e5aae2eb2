// Reading a session input as text, before (or without) parsing it: what kind of input it
// is, whether its brackets are balanced, the names a binding input binds, and a command's
// name and argument. Shared by execution, completeness detection and completion.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relay::repl {

enum class InputKind {
  Empty,        // only whitespace and comments
  Command,      // `:name args`
  Definitions,  // starts with `def`, `type`, `extern`, `///` or `#[`
  Binding,      // `let %x = ...;` (one or more), ending with `;`
  Expression,   // anything else
};

InputKind classify(std::string_view input);

// A character of a name as the input is read: an identifier character or `.` (operator
// names such as `nn.dense`).
bool word_char(char c);

// Brackets, strings and (nested) block comments, scanned left to right.
struct BracketScan {
  int depth = 0;                 // brackets still open at the end
  bool open_string = false;      // ends inside a string
  bool open_comment = false;     // ends inside a block comment
  bool unmatched_close = false;  // a closing bracket without its opener (or the wrong one)
  uint32_t unmatched_at = 0;
};
BracketScan scan_brackets(std::string_view input);

// The variables bound by a Binding input, in order: `let %a = 1; let %b = 2;` -> {a, b}.
// nullopt when a `let` is not followed by a variable (Relay's `let` binds one variable;
// the parser reports anything else).
std::optional<std::vector<std::string>> binding_names(std::string_view input);

struct CommandLine {
  std::string name;        // without the colon: "type", "load", ...
  std::string_view arg;    // the rest, trimmed
  uint32_t arg_offset = 0; // where `arg` starts in the input
};
// The command of a Command input (nullopt otherwise).
std::optional<CommandLine> split_command(std::string_view input);

// Offset of the first character that is not whitespace or a comment (`///` doc lines
// count as text), or input.size().
uint32_t skip_space_and_comments(std::string_view input, uint32_t from = 0);

}  // namespace relay::repl
