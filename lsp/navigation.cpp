#include "lsp/navigation.h"

#include "ide/navigation.h"
#include "ide/structure.h"
#include "ide/symbols.h"
#include "lang/prelude/prelude.h"
#include "lsp/features.h"

namespace relay::lsp {

using json = nlohmann::json;

namespace {

// LSP SymbolKind values.
constexpr int kSymEnum = 10, kSymFunction = 12, kSymVariable = 13, kSymEnumMember = 22;
// LSP DocumentHighlightKind values.
constexpr int kHighlightRead = 2, kHighlightWrite = 3;

struct Prelude {
  std::string text{prelude_source()};
  LineIndex lines{text};
};
const Prelude& prelude() {
  static const Prelude p;
  return p;
}

// Converts ranges of one document (or of the prelude) to LSP JSON.
struct Converter {
  const Document& doc;
  PositionEncoding enc;
  const LineIndex& lines = doc.lines();
  json range(ide::Range r) const { return range_of(doc.text, lines, r.begin, r.end, enc); }
  json location(const ide::Location& l) const {
    if (l.in_prelude)
      return {{"uri", kPreludeUri}, {"range", range_of(prelude().text, prelude().lines, l.range.begin, l.range.end, enc)}};
    return {{"uri", doc.uri}, {"range", range(l.range)}};
  }
};

json outline_json(const ide::OutlineSymbol& s, const Converter& conv) {
  int kind = kSymFunction;
  switch (s.kind) {
    case ide::OutlineKind::Type: kind = kSymEnum; break;
    case ide::OutlineKind::Ctor: kind = kSymEnumMember; break;
    case ide::OutlineKind::Function: kind = kSymFunction; break;
    case ide::OutlineKind::Param: kind = kSymVariable; break;
  }
  json out = {{"name", s.name}, {"kind", kind}, {"range", conv.range(s.range)},
              {"selectionRange", conv.range(s.selection)}};
  if (!s.detail.empty()) out["detail"] = s.detail;
  json children = json::array();
  for (const auto& c : s.children) children.push_back(outline_json(c, conv));
  out["children"] = std::move(children);
  return out;
}

}  // namespace

json definition_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset, PositionEncoding enc) {
  auto loc = ide::definition_at(index, offset);
  if (!loc) return nullptr;
  return Converter{doc, enc}.location(*loc);
}

json type_definition_json(const FileCheck& check, const ide::SymbolIndex& index, const Document& doc, uint32_t offset,
                          PositionEncoding enc) {
  auto loc = ide::type_definition_at(check, index, offset);
  if (!loc) return nullptr;
  return Converter{doc, enc}.location(*loc);
}

json references_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset, bool include_declaration,
                     PositionEncoding enc) {
  Converter conv{doc, enc};
  json out = json::array();
  for (const auto& l : ide::references_at(index, offset, include_declaration))
    out.push_back(conv.location(l));
  return out;
}

json highlights_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset, PositionEncoding enc) {
  Converter conv{doc, enc};
  json out = json::array();
  for (const auto& h : ide::highlights_at(index, offset))
    out.push_back({{"range", conv.range(h.range)}, {"kind", h.write ? kHighlightWrite : kHighlightRead}});
  return out;
}

json prepare_rename_json(const ide::SymbolIndex& index, const Document& doc, uint32_t offset, PositionEncoding enc) {
  if (!index.at(offset)) return nullptr;
  auto r = ide::prepare_rename(index, offset);
  if (!r.error.empty()) throw RequestFailed(r.error);
  return {{"range", Converter{doc, enc}.range(r.range)}, {"placeholder", r.placeholder}};
}

json rename_json(const FileCheck& check, const ide::SymbolIndex& index, const Document& doc, uint32_t offset,
                 const std::string& new_name, PositionEncoding enc) {
  auto prepared = ide::prepare_rename(index, offset);
  if (!prepared.error.empty()) throw RequestFailed(prepared.error);
  auto r = ide::rename(check, index, offset, new_name);
  if (!r.error.empty()) throw BadParams(r.error);
  Converter conv{doc, enc};
  json edits = json::array();
  for (const auto& e : r.edits) edits.push_back({{"range", conv.range(e)}, {"newText", r.new_text}});
  return {{"changes", {{doc.uri, std::move(edits)}}}};
}

json document_symbols_json(const FileCheck& check, const Document& doc, PositionEncoding enc) {
  Converter conv{doc, enc};
  json out = json::array();
  for (const auto& s : ide::document_outline(check)) out.push_back(outline_json(s, conv));
  return out;
}

json workspace_symbols_json(const std::vector<std::pair<const Document*, std::shared_ptr<const FileCheck>>>& docs,
                            const std::string& query, PositionEncoding enc) {
  json out = json::array();
  for (const auto& [doc, check] : docs) {
    Converter conv{*doc, enc};
    for (const ide::WorkspaceSymbol& s : ide::workspace_symbols(*check, query)) {
      const int kind = s.kind == ide::OutlineKind::Type   ? kSymEnum
                       : s.kind == ide::OutlineKind::Ctor ? kSymEnumMember
                                                          : kSymFunction;
      json item = {{"name", s.name}, {"kind", kind}, {"location", {{"uri", doc->uri}, {"range", conv.range(s.selection)}}}};
      if (!s.container.empty()) item["containerName"] = s.container;
      out.push_back(std::move(item));
    }
  }
  return out;
}

json folding_ranges_json(const FileCheck& check) {
  json out = json::array();
  for (const auto& f : ide::folding_ranges(check))
    out.push_back({{"startLine", f.start_line},
                   {"endLine", f.end_line},
                   {"kind", f.kind == ide::FoldKind::Comment ? "comment" : "region"}});
  return out;
}

json selection_ranges_json(const FileCheck& check, const ide::SymbolIndex& index, const Document& doc,
                           const json& positions, PositionEncoding enc) {
  Converter conv{doc, enc};
  json out = json::array();
  for (const json& p : positions) {
    auto chain = ide::selection_chain(check, index, offset_of(doc.text, conv.lines, p, enc));
    json node = nullptr;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      json next = {{"range", conv.range(*it)}};
      if (!node.is_null()) next["parent"] = std::move(node);
      node = std::move(next);
    }
    out.push_back(std::move(node));
  }
  return out;
}

std::string prelude_text() { return prelude().text; }

}  // namespace relay::lsp
