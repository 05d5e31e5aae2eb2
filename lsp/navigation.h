// Navigation and structure requests as LSP JSON: definition, typeDefinition, references,
// documentHighlight, prepareRename/rename, documentSymbol, workspace/symbol, foldingRange,
// selectionRange. The answers come from the ide/ library (the symbol index is the
// server's, built once per check); this file converts byte ranges to LSP positions and
// shapes the JSON.
//
// Definitions in the prelude (for files with `#[import = "prelude"]`) are answered with a
// location in the virtual document `relay-prelude:///prelude.relay`, whose text is the
// prelude's source (`relay/preludeText` returns it, so a client can show it).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ide/symbols.h"
#include "lang/types/database.h"
#include "lsp/documents.h"

namespace relay::lsp {

inline constexpr const char* kPreludeUri = "relay-prelude:///prelude.relay";
constexpr int kRequestFailed = -32803;

// A request that is well-formed but cannot be carried out (renaming a prelude function);
// answered with RequestFailed and the message.
struct RequestFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

nlohmann::json definition_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset, PositionEncoding enc);
nlohmann::json type_definition_json(const FileCheck& check, const ide::SymbolIndex& index, const Document& doc,
                                    uint32_t offset, PositionEncoding enc);
nlohmann::json references_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset,
                               bool include_declaration, PositionEncoding enc);
nlohmann::json highlights_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset, PositionEncoding enc);
// Throws RequestFailed for a symbol that cannot be renamed; null where there is none.
nlohmann::json prepare_rename_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset,
                                   PositionEncoding enc);
// Throws BadParams (InvalidParams) for an invalid new name, RequestFailed as above.
nlohmann::json rename_json(const FileCheck& check, const ide::SymbolIndex& index, const Document& doc, uint32_t offset,
                           const std::string& new_name, PositionEncoding enc);
// Hierarchical DocumentSymbol[]: types (Enum) with constructors (EnumMember), functions
// (Function) with parameters (Variable).
nlohmann::json document_symbols_json(const FileCheck& check, const Document& doc, PositionEncoding enc);
// SymbolInformation[] over the given documents: types, constructors and functions whose
// name contains `query` as a case-insensitive subsequence.
nlohmann::json workspace_symbols_json(const std::vector<std::pair<const Document*, std::shared_ptr<const FileCheck>>>& docs,
                                      const std::string& query, PositionEncoding enc);
nlohmann::json folding_ranges_json(const FileCheck& check);
nlohmann::json selection_ranges_json(const FileCheck& check, const ide::SymbolIndex& index, const Document& doc,
                                     const nlohmann::json& positions, PositionEncoding enc);
// The prelude's text, for clients that open `relay-prelude:///prelude.relay`.
std::string prelude_text();

}  // namespace relay::lsp
