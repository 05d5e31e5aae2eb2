// Completion items as Jupyter `complete_reply` matches, with the item kinds and details
// JupyterLab shows (`_jupyter_types_experimental`).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "ide/completion.h"

namespace relay::kernel {

struct CompletionMatches {
  nlohmann::json matches;   // strings extending the typed word, in the engine's order, once each
  nlohmann::json metadata;  // {"_jupyter_types_experimental": [...]}
};

// `result`'s ranges are byte offsets into `code`; the experimental types' `start`/`end`
// are code points, like the reply's cursor_start/cursor_end. Jupyter inserts a match as
// is, so a snippet item contributes its label.
CompletionMatches completion_matches(const ide::CompletionResult& result, std::string_view code);

}  // namespace relay::kernel
