#include "lsp/editing.h"

#include "ide/completion.h"
#include "ide/fixes.h"
#include "ide/inlay_hints.h"
#include "ide/range_format.h"
#include "ide/semantic_tokens.h"
#include "ide/signature_help.h"
#include "lang/ops/op_registry.h"
#include "lsp/features.h"

namespace relay::lsp {

using json = nlohmann::json;

json editing_capabilities() {
  json types = json::array(), mods = json::array();
  for (std::string_view t : ide::token_type_names()) types.push_back(t);
  for (std::string_view m : ide::token_modifier_names()) mods.push_back(m);
  return {{"completionProvider", {{"triggerCharacters", json::array({"%", "@", ".", "(", ",", "="})}, {"resolveProvider", true}}},
          {"signatureHelpProvider", {{"triggerCharacters", json::array({"(", ","})}}},
          {"semanticTokensProvider",
           {{"legend", {{"tokenTypes", types}, {"tokenModifiers", mods}}}, {"full", {{"delta", true}}}}},
          {"inlayHintProvider", true},
          {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
          {"documentRangeFormattingProvider", true}};
}

namespace {

// LSP CompletionItemKind.
int lsp_kind(ide::CompletionKind k) {
  switch (k) {
    case ide::CompletionKind::Local:
    case ide::CompletionKind::Parameter: return 6;     // Variable
    case ide::CompletionKind::Global: return 3;        // Function
    case ide::CompletionKind::Operator: return 24;     // Operator
    case ide::CompletionKind::Attribute: return 10;    // Property
    case ide::CompletionKind::Constructor: return 20;  // EnumMember
    case ide::CompletionKind::DType: return 25;        // TypeParameter
    case ide::CompletionKind::Keyword: return 14;      // Keyword
    case ide::CompletionKind::Field: return 5;         // Field
  }
  return 1;
}

}  // namespace

json completion_json(const FileCheck& check, const FileCheck* last_good, const Document& doc, uint32_t offset,
                     PositionEncoding enc) {
  const ide::CompletionResult r = ide::complete(check, last_good, doc.text, offset);
  const LineIndex& lines = doc.lines();
  const json range = range_of(doc.text, lines, r.replace_begin, r.replace_end, enc);
  json items = json::array();
  for (const ide::CompletionItem& it : r.items) {
    json j = {{"label", it.label},
              {"kind", lsp_kind(it.kind)},
              {"sortText", it.sort_text},
              {"textEdit", {{"range", range}, {"newText", it.insert_text}}},
              {"insertTextFormat", it.snippet ? 2 : 1}};
    if (!it.detail.empty()) j["detail"] = it.detail;
    if (it.deprecated) j["tags"] = json::array({1});  // CompletionItemTag.Deprecated
    if (!it.data_kind.empty()) j["data"] = {{"kind", it.data_kind}, {"name", it.data_name}, {"uri", doc.uri}};
    items.push_back(std::move(j));
  }
  return {{"isIncomplete", false}, {"items", std::move(items)}};
}

json completion_resolve_json(const FileCheck* check, json item) {
  if (!item.is_object() || !item.contains("data") || !item["data"].is_object()) return item;
  const json& data = item["data"];
  const std::string kind = data.value("kind", ""), name = data.value("name", "");
  const std::string doc = ide::completion_documentation(check, kind, name);
  if (!doc.empty()) item["documentation"] = {{"kind", "markdown"}, {"value", doc}};
  return item;
}

json signature_help_json(const FileCheck& check, const Document& doc, uint32_t offset) {
  auto s = ide::signature_help(check, doc.text, offset);
  if (!s) return nullptr;
  json params = json::array();
  for (const ide::SignatureParameter& p : s->parameters) {
    json j = {{"label", {p.begin, p.end}}};  // the label is ASCII: bytes = UTF-16 units
    if (!p.documentation.empty()) j["documentation"] = p.documentation;
    params.push_back(std::move(j));
  }
  json sig = {{"label", s->label}, {"parameters", std::move(params)}, {"activeParameter", s->active_parameter}};
  if (!s->documentation.empty()) sig["documentation"] = {{"kind", "markdown"}, {"value", s->documentation}};
  return {{"signatures", json::array({sig})}, {"activeSignature", 0}, {"activeParameter", s->active_parameter}};
}

std::vector<uint32_t> semantic_tokens_data(const FileCheck& check, PositionEncoding enc) {
  const std::vector<ide::SemanticToken> tokens = ide::semantic_tokens(check);
  const std::string& text = check.source->text;
  const LineIndex& lines = check.source->lines;
  // Tokens come in text order: a cursor counts each column on from the previous token.
  Utf16Cursor cursor(text, lines);
  auto position = [&](uint32_t offset) -> std::pair<uint32_t, uint32_t> {
    if (enc == PositionEncoding::Utf16) {
      auto p = cursor.at(offset);
      return {p.line0, p.column16};
    }
    LineCol lc = lines.lookup(std::min<uint32_t>(offset, static_cast<uint32_t>(text.size())));
    return {lc.line - 1, lc.column - 1};
  };
  std::vector<uint32_t> data;
  data.reserve(tokens.size() * 5);
  uint32_t prev_line = 0, prev_col = 0;
  for (const ide::SemanticToken& t : tokens) {
    const auto [line, col] = position(t.begin);
    const uint32_t end_col = position(t.end).second;
    data.push_back(line - prev_line);
    data.push_back(line == prev_line ? col - prev_col : col);
    data.push_back(end_col - col);
    data.push_back(static_cast<uint32_t>(t.type));
    data.push_back(t.modifiers);
    prev_line = line, prev_col = col;
  }
  return data;
}

json semantic_tokens_edits(const std::vector<uint32_t>& before, const std::vector<uint32_t>& after) {
  size_t pre = 0;
  while (pre < before.size() && pre < after.size() && before[pre] == after[pre]) ++pre;
  size_t suf = 0;
  while (suf < before.size() - pre && suf < after.size() - pre &&
         before[before.size() - 1 - suf] == after[after.size() - 1 - suf])
    ++suf;
  if (pre == before.size() && pre == after.size()) return json::array();
  return json::array({{{"start", pre},
                       {"deleteCount", before.size() - pre - suf},
                       {"data", std::vector<uint32_t>(after.begin() + static_cast<std::ptrdiff_t>(pre),
                                                      after.end() - static_cast<std::ptrdiff_t>(suf))}}});
}

json inlay_hints_json(const FileCheck& check, const Document& doc, const json& range, PositionEncoding enc) {
  const LineIndex& lines = doc.lines();
  const uint32_t b = offset_of(doc.text, lines, range.at("start"), enc);
  const uint32_t e = offset_of(doc.text, lines, range.at("end"), enc);
  json out = json::array();
  for (const ide::InlayHint& h : ide::inlay_hints(check, b, e))
    out.push_back({{"position", position_of(doc.text, lines, h.offset, enc)},
                   {"label", h.label},
                   {"kind", 1},  // InlayHintKind.Type
                   {"paddingLeft", false},
                   {"paddingRight", false}});
  return out;
}

json code_actions_json(const FileCheck& check, const Document& doc, const json& params, PositionEncoding enc) {
  if (params.contains("context") && params["context"].contains("only")) {
    bool wanted = false;
    for (const json& k : params["context"]["only"])
      if (k == "quickfix" || k == "") wanted = true;
    if (!wanted) return json::array();
  }
  const LineIndex& lines = doc.lines();
  const uint32_t b = offset_of(doc.text, lines, params.at("range").at("start"), enc);
  const uint32_t e = offset_of(doc.text, lines, params.at("range").at("end"), enc);
  json out = json::array();
  for (const ide::Fix& f : ide::quick_fixes(check, b, e)) {
    json edits = json::array();
    for (const ide::FixEdit& ed : f.edits)
      edits.push_back({{"range", range_of(doc.text, lines, ed.begin, ed.end, enc)}, {"newText", ed.text}});
    json action = {{"title", f.title},
                   {"kind", "quickfix"},
                   {"isPreferred", f.preferred},
                   {"edit", {{"changes", {{doc.uri, std::move(edits)}}}}}};
    // Linked to the diagnostic as it was published.
    const Diagnostic& d = check.diagnostics[f.diagnostic];
    if (publishable(d)) action["diagnostics"] = json::array({diagnostic_json(d, check, doc, enc)});
    out.push_back(std::move(action));
  }
  return out;
}

json range_formatting_json(const Document& doc, const json& range, PositionEncoding enc) {
  const uint32_t first = range.at("start").at("line").get<uint32_t>();
  const uint32_t last = range.at("end").at("line").get<uint32_t>();
  auto edit = ide::format_range(doc.path, doc.text, first, last);
  if (!edit) return json::array();
  const LineIndex& lines = doc.lines();
  return json::array({{{"range", range_of(doc.text, lines, edit->begin, edit->end, enc)}, {"newText", edit->text}}});
}

}  // namespace relay::lsp
