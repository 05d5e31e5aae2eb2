// The editing features of `relay lsp` as translations of the ide/ core's answers into
// LSP JSON: completion (+ resolve), signature help, semantic tokens (full and delta),
// inlay hints, quick fixes and range formatting. No analysis happens here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lang/types/database.h"
#include "lsp/documents.h"

namespace relay::lsp {

// The capability entries these features advertise (merged into `initialize`'s answer).
nlohmann::json editing_capabilities();

nlohmann::json completion_json(const FileCheck& check, const FileCheck* last_good, const Document& doc,
                               uint32_t offset, PositionEncoding enc);
nlohmann::json completion_resolve_json(const FileCheck* check, nlohmann::json item);
nlohmann::json signature_help_json(const FileCheck& check, const Document& doc, uint32_t offset);

// Semantic tokens in the LSP relative encoding (5 integers per token).
std::vector<uint32_t> semantic_tokens_data(const FileCheck& check, PositionEncoding enc);
// One edit turning `before` into `after` (the common prefix and suffix are kept); no edit
// when they are equal.
nlohmann::json semantic_tokens_edits(const std::vector<uint32_t>& before, const std::vector<uint32_t>& after);

nlohmann::json inlay_hints_json(const FileCheck& check, const Document& doc, const nlohmann::json& range,
                                PositionEncoding enc);
nlohmann::json code_actions_json(const FileCheck& check, const Document& doc, const nlohmann::json& params,
                                 PositionEncoding enc);
nlohmann::json range_formatting_json(const Document& doc, const nlohmann::json& range, PositionEncoding enc);

}  // namespace relay::lsp
