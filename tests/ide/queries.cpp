#include "tests/ide/queries.h"

#include <algorithm>

#include "ide/completion.h"
#include "ide/context.h"
#include "ide/hover.h"
#include "ide/inlay_hints.h"
#include "ide/navigation.h"
#include "ide/semantic_tokens.h"
#include "ide/signature_help.h"
#include "ide/structure.h"
#include "ide/symbols.h"
#include "lang/prelude/prelude.h"

namespace relay::ide_test {

namespace {

// Renders offsets and ranges of one text (the fixture's, or the prelude's).
class Where {
 public:
  explicit Where(std::string_view text) : text_(text), lines_(text) {}
  std::string pos(uint32_t offset) const {
    const LineCol lc = lines_.lookup(offset);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }
  // `3:5-3:7 `%x``; a range over several lines shows its first line and `…`.
  std::string range(uint32_t begin, uint32_t end) const {
    std::string_view s = text_.substr(begin, end - begin);
    std::string shown(s.substr(0, s.find('\n')));
    if (shown.size() < s.size()) shown += "…";
    return pos(begin) + "-" + pos(end) + " `" + shown + "`";
  }
  std::string range(ide::Range r) const { return range(r.begin, r.end); }

 private:
  std::string_view text_;
  LineIndex lines_;
};

std::string location(const ide::Location& l, const Where& here, const Where& prelude) {
  return l.in_prelude ? "prelude " + prelude.range(l.range) : here.range(l.range);
}

const char* completion_kind(ide::CompletionKind k) {
  switch (k) {
    case ide::CompletionKind::Local: return "local";
    case ide::CompletionKind::Parameter: return "parameter";
    case ide::CompletionKind::Global: return "global";
    case ide::CompletionKind::Operator: return "operator";
    case ide::CompletionKind::Attribute: return "attribute";
    case ide::CompletionKind::Constructor: return "constructor";
    case ide::CompletionKind::DType: return "dtype";
    case ide::CompletionKind::Keyword: return "keyword";
    case ide::CompletionKind::Field: return "field";
  }
  return "?";
}

const char* outline_kind(ide::OutlineKind k) {
  switch (k) {
    case ide::OutlineKind::Type: return "type";
    case ide::OutlineKind::Ctor: return "constructor";
    case ide::OutlineKind::Function: return "function";
    case ide::OutlineKind::Param: return "parameter";
  }
  return "?";
}

void outline(const std::vector<ide::OutlineSymbol>& symbols, const Where& here, int depth, std::string& out) {
  for (const auto& s : symbols) {
    out += std::string(2 * depth, ' ') + outline_kind(s.kind) + " " + s.name;
    if (!s.detail.empty()) out += " : " + s.detail;
    out += "  at " + here.range(s.selection) + "\n";
    outline(s.children, here, depth + 1, out);
  }
}

// Completion items are capped: the operator list grows with every operator added, and a
// golden should change only when the feature does.
constexpr size_t kMaxCompletionItems = 12;

std::string at_marker(const Marker& m, const FileCheck& check, const ide::SymbolIndex& index, const Where& here,
                      const Where& prelude) {
  const std::string& text = check.source->text;
  std::string out;
  if (m.kind == "hover") {
    auto h = ide::hover_at(check, m.offset);
    if (!h) return "nothing\n";
    return "range " + here.range(h->begin, h->end) + "\n" + h->markdown + "\n";
  }
  if (m.kind == "definition" || m.kind == "type_definition") {
    auto l = m.kind == "definition" ? ide::definition_at(index, m.offset) : ide::type_definition_at(check, index, m.offset);
    return l ? location(*l, here, prelude) + "\n" : "nothing\n";
  }
  if (m.kind == "references") {
    for (const auto& l : ide::references_at(index, m.offset, /*include_declaration=*/true))
      out += location(l, here, prelude) + "\n";
    return out.empty() ? "nothing\n" : out;
  }
  if (m.kind == "highlight") {
    for (const auto& h : ide::highlights_at(index, m.offset))
      out += std::string(h.write ? "write " : "read  ") + here.range(h.range) + "\n";
    return out.empty() ? "nothing\n" : out;
  }
  if (m.kind == "rename") {
    const ide::RenameResult prepared = ide::prepare_rename(index, m.offset);
    if (!prepared.error.empty()) return "refused: " + prepared.error + "\n";
    out = "prepare " + here.range(prepared.range) + " placeholder `" + prepared.placeholder + "`\n";
    if (m.argument.empty()) return out;
    const ide::RenameResult r = ide::rename(check, index, m.offset, m.argument);
    if (!r.error.empty()) return out + "refused: " + r.error + "\n";
    for (const auto& e : r.edits) out += here.range(e) + " -> `" + r.new_text + "`\n";
    return out;
  }
  if (m.kind == "complete") {
    const ide::CompletionResult r = ide::complete(check, nullptr, text, m.offset);
    out = "replaces " + here.range(r.replace_begin, r.replace_end) + "\n";
    // What the editor shows: the items starting with the typed word (without sigil).
    std::string typed(text.substr(r.replace_begin, r.replace_end - r.replace_begin));
    if (!typed.empty() && (typed[0] == '%' || typed[0] == '@')) typed.erase(0, 1);
    std::vector<const ide::CompletionItem*> shown;
    for (const auto& item : r.items) {
      std::string_view label = item.label;
      if (!label.empty() && (label[0] == '%' || label[0] == '@')) label.remove_prefix(1);
      if (label.starts_with(typed)) shown.push_back(&item);
    }
    std::stable_sort(shown.begin(), shown.end(), [](auto* a, auto* b) {
      return a->sort_text + a->label < b->sort_text + b->label;
    });
    for (size_t i = 0; i < shown.size() && i < kMaxCompletionItems; ++i) {
      const auto& item = *shown[i];
      out += std::string(completion_kind(item.kind)) + " " + item.label;
      if (!item.detail.empty()) out += " : " + item.detail;
      if (item.insert_text != item.label && !item.insert_text.empty()) out += "  inserts `" + item.insert_text + "`";
      out += "\n";
    }
    if (shown.size() > kMaxCompletionItems) out += "(" + std::to_string(shown.size() - kMaxCompletionItems) + " more)\n";
    return out;
  }
  if (m.kind == "signature") {
    auto s = ide::signature_help(check, text, m.offset);
    if (!s) return "nothing\n";
    out = s->label + "\n";
    if (s->active_parameter < s->parameters.size()) {
      const auto& p = s->parameters[s->active_parameter];
      out += "active " + std::to_string(s->active_parameter) + ": `" + s->label.substr(p.begin, p.end - p.begin) + "`\n";
    }
    return out;
  }
  if (m.kind == "call") {
    auto c = ide::enclosing_call(text, m.offset);
    return c ? "`" + c->callee + "` ends at " + here.pos(c->callee_end) + "\n" : "nothing\n";
  }
  if (m.kind == "selection") {
    for (const auto& r : ide::selection_chain(check, index, m.offset)) out += here.range(r) + "\n";
    return out;
  }
  return "unknown marker kind `" + m.kind + "`\n";
}

std::string whole_file(const std::string& query, const FileCheck& check, const Where& here) {
  std::string out;
  if (query == "outline") {
    outline(ide::document_outline(check), here, 0, out);
  } else if (query == "folding") {
    for (const auto& f : ide::folding_ranges(check))
      out += std::to_string(f.start_line + 1) + "-" + std::to_string(f.end_line + 1) +
             (f.kind == ide::FoldKind::Comment ? " comment\n" : " region\n");
  } else if (query == "tokens") {
    const auto types = ide::token_type_names();
    const auto mods = ide::token_modifier_names();
    for (const auto& t : ide::semantic_tokens(check)) {
      out += here.range(t.begin, t.end) + " " + std::string(types[static_cast<size_t>(t.type)]);
      for (size_t b = 0; b < mods.size(); ++b)
        if (t.modifiers & (1u << b)) out += " +" + std::string(mods[b]);
      out += "\n";
    }
  } else if (query == "inlay") {
    for (const auto& h : ide::inlay_hints(check, 0, static_cast<uint32_t>(check.source->text.size())))
      out += here.pos(h.offset) + " " + h.label + "\n";
  } else {
    out = "unknown query `" + query + "`\n";
  }
  return out.empty() ? "nothing\n" : out;
}

}  // namespace

std::string run_queries(const Fixture& fixture, const FileCheck& check) {
  const Where here(check.source->text);
  const Where prelude(prelude_source());
  const ide::SymbolIndex index = ide::build_symbol_index(check);
  std::string out;
  for (const Marker& m : fixture.markers) {
    out += "== " + m.kind + (m.argument.empty() ? "" : ":" + m.argument) + " at " + here.pos(m.offset) + "\n";
    out += at_marker(m, check, index, here, prelude) + "\n";
  }
  for (const std::string& q : fixture.file_queries) out += "== " + q + "\n" + whole_file(q, check, here) + "\n";
  return out;
}

}  // namespace relay::ide_test
