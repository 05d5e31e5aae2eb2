// The navigation and structure requests of Server (server.h): parameter decoding and the
// calls into lsp/navigation.h. Kept apart from server.cpp, which holds the protocol core.
#include "lsp/features.h"
#include "lsp/navigation.h"
#include "lsp/server.h"

namespace relay::lsp {

const ide::SymbolIndex& Server::symbol_index(const Document& doc, const std::shared_ptr<const FileCheck>& check) {
  // Built once per check: editors ask for highlights on every cursor move.
  auto& [of, index] = symbols_[doc.uri];
  if (of != check || !index) {
    of = check;
    index = std::make_shared<const ide::SymbolIndex>(ide::build_symbol_index(*check));
  }
  return *index;
}

std::optional<Server::json> Server::navigation_request(const std::string& method, const json& params) {
  // Requests about a position in a document.
  auto at = [&](auto&& answer) -> json {
    const Document& doc = document(params);
    auto r = check(doc);
    return answer(*r, symbol_index(doc, r), doc, position_offset(doc, params));
  };
  using Index = ide::SymbolIndex;
  if (method == "textDocument/definition")
    return at([&](const FileCheck&, const Index& i, const Document& d, uint32_t o) {
      return definition_json(i, d, o, encoding_);
    });
  if (method == "textDocument/typeDefinition")
    return at([&](const FileCheck& c, const Index& i, const Document& d, uint32_t o) {
      return type_definition_json(c, i, d, o, encoding_);
    });
  if (method == "textDocument/references") {
    const bool decl = params.contains("context") && params["context"].value("includeDeclaration", false);
    return at([&](const FileCheck&, const Index& i, const Document& d, uint32_t o) {
      return references_json(i, d, o, decl, encoding_);
    });
  }
  if (method == "textDocument/documentHighlight")
    return at([&](const FileCheck&, const Index& i, const Document& d, uint32_t o) {
      return highlights_json(i, d, o, encoding_);
    });
  if (method == "textDocument/prepareRename")
    return at([&](const FileCheck&, const Index& i, const Document& d, uint32_t o) {
      return prepare_rename_json(i, d, o, encoding_);
    });
  if (method == "textDocument/rename") {
    const std::string name = params.at("newName").get<std::string>();
    return at([&](const FileCheck& c, const Index& i, const Document& d, uint32_t o) {
      return rename_json(c, i, d, o, name, encoding_);
    });
  }
  if (method == "textDocument/documentSymbol") {
    const Document& doc = document(params);
    return document_symbols_json(*check(doc), doc, encoding_);
  }
  if (method == "textDocument/foldingRange") return folding_ranges_json(*check(document(params)));
  if (method == "textDocument/selectionRange") {
    const Document& doc = document(params);
    auto r = check(doc);
    return selection_ranges_json(*r, symbol_index(doc, r), doc, params.at("positions"), encoding_);
  }
  if (method == "workspace/symbol") {
    std::vector<std::pair<const Document*, std::shared_ptr<const FileCheck>>> docs;
    for (const auto& [uri, doc] : docs_) docs.emplace_back(&doc, check(doc));
    return workspace_symbols_json(docs, params.value("query", ""), encoding_);
  }
  // The text behind `relay-prelude:///prelude.relay` locations.
  if (method == "relay/preludeText") return json{{"uri", kPreludeUri}, {"text", prelude_text()}};
  return std::nullopt;
}

}  // namespace relay::lsp
