#include "jupyter-kernel/completion_matches.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "jupyter-kernel/code_points.h"

namespace relay::kernel {

namespace {

const char* kind_name(ide::CompletionKind kind) {
  switch (kind) {
    case ide::CompletionKind::Local: return "variable";
    case ide::CompletionKind::Parameter: return "parameter";
    case ide::CompletionKind::Global: return "function";
    case ide::CompletionKind::Operator: return "operator";
    case ide::CompletionKind::Attribute: return "attribute";
    case ide::CompletionKind::Constructor: return "constructor";
    case ide::CompletionKind::DType: return "dtype";
    case ide::CompletionKind::Keyword: return "keyword";
    case ide::CompletionKind::Field: return "field";
  }
  return "text";
}

}  // namespace

CompletionMatches completion_matches(const ide::CompletionResult& result, std::string_view code) {
  CompletionMatches out{nlohmann::json::array(), nlohmann::json::object()};
  const size_t start = code_points_before(code, result.replace_begin);
  const size_t end = code_points_before(code, result.replace_end);
  // The engine leaves filtering to the editor, as LSP clients filter; Jupyter frontends
  // show the matches as given, so only those that extend what was typed are kept.
  const std::string_view typed =
      code.substr(std::min<size_t>(result.replace_begin, code.size()),
                  result.replace_end > result.replace_begin ? result.replace_end - result.replace_begin : 0);
  nlohmann::json types = nlohmann::json::array();
  std::unordered_set<std::string> seen;
  for (const ide::CompletionItem& item : result.items) {
    // A plain insert text (a sigil or spelling the label lacks) is what should land in
    // the cell; a snippet's `${1:x}` placeholders would be typed literally, so then the
    // label is used.
    const std::string& text = (!item.snippet && !item.insert_text.empty()) ? item.insert_text : item.label;
    if (!std::string_view(text).starts_with(typed) || !seen.insert(text).second) continue;
    out.matches.push_back(text);
    types.push_back({{"start", start},
                     {"end", end},
                     {"text", text},
                     {"type", kind_name(item.kind)},
                     {"signature", item.detail}});
  }
  out.metadata["_jupyter_types_experimental"] = std::move(types);
  return out;
}

}  // namespace relay::kernel
