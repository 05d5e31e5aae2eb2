// Where Shift-Tab asks about a call: with the cursor inside a call's parentheses
// (`nn.dense(|`, `nn.dense(%x, |`, `@f(%a, %b|`), Jupyter front ends expect the callee's
// signature and documentation, as IPython shows them; the word under the cursor is the
// call's argument, or nothing at all.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace relay::kernel {

// The byte offset just after the name of the innermost call whose `(` is open at byte
// `cursor` of `code` (`nn.dense` of `nn.dense(%x, |`), or nothing when the cursor is not
// inside a call's parentheses. Brackets inside comments and string literals do not count;
// a `(` with no name before it (a tuple, grouping) is skipped for the one around it.
std::optional<size_t> enclosing_callee_end(std::string_view code, size_t cursor);

}  // namespace relay::kernel
