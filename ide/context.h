// What surrounds a cursor, read from the text before it (so it works while the user is
// typing and the text does not parse) and from the last check: the definition around
// it, the innermost open call, the word being typed. Shared by completion and signature
// help.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

// The definition whose chunk holds `offset`: the last one starting at or before it.
const CheckedDefinition* definition_at(const FileCheck& check, uint32_t offset);

// Where a half-typed word starts: the identifier characters (and `.`) before `offset`,
// with a `%` or `@` sigil before them when there is one.
struct Word {
  uint32_t begin = 0;   // start of the word including its sigil
  char sigil = 0;       // '%', '@' or 0
  std::string text;     // without the sigil
};
Word word_before(std::string_view text, uint32_t offset);

// The innermost bracket still open at the cursor, found by a forward scan from `from`
// (a definition's start) that skips strings and comments.
struct OpenBracket {
  char bracket = 0;            // '(', '[' or '{'; 0 when none is open
  uint32_t pos = 0;            // of the bracket
  std::string callee;          // the name right before a '(' (`nn.conv2d`, `@f`), or before '['
  uint32_t callee_end = 0;     // just after `callee` (blank space may separate it from pos)
  std::vector<uint32_t> commas;  // top-level commas between the bracket and the cursor
  char outer = 0;              // the bracket around this one
  std::string outer_callee;
};
struct CursorScan {
  OpenBracket open;                // the innermost (stack.back()), or none
  std::vector<OpenBracket> stack;  // every bracket open at the cursor, outermost first
  bool in_string = false;
  uint32_t string_begin = 0;  // the opening quote when in_string
  bool in_comment = false;
};
CursorScan scan_to(std::string_view text, uint32_t from, uint32_t offset);

// The innermost call whose `(` is open at `offset`, scanning `text` from its start:
// `nn.dense` of `nn.dense(%x, |`. A `(` with no name before it (a tuple, grouping) or
// after a keyword (`if (`) is skipped for the one around it; a `{` (a body) ends the
// search, since a call around a function body is not what the cursor is in. Nothing
// inside a string or comment. Jupyter's Shift-Tab asks about this call.
std::optional<OpenBracket> enclosing_call(std::string_view text, uint32_t offset);

// Inside an open call's argument list: the argument being typed and, when it has the
// form `key=...` or is a bare name being typed, the key.
struct CallArgument {
  size_t index = 0;        // commas before the cursor
  std::string key;         // `key` of `key=...` in the current argument ("" when none)
  bool has_eq = false;     // the current argument already has its `=`
  std::vector<std::string> written_keys;  // keys of earlier `key=` arguments
};
CallArgument call_argument(std::string_view text, const OpenBracket& call, uint32_t offset);

}  // namespace relay::ide
