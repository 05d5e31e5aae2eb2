// Session operations for front ends' editing support: completeness, completion and
// inspection. Completion and inspection run the language server's engines (ide/) on the
// session's module with the input placed where execution would put it.
#include <dirent.h>

#include "ide/hover.h"
#include "lang/syntax/parser.h"
#include "repl/session_impl.h"

namespace relay::repl {

namespace {

// The first syntax error of module text `text`, or nullopt when it parses.
std::optional<uint32_t> first_syntax_error(const std::string& text) {
  SourceManager sm;
  FileId id = sm.add("<input>", text);
  DiagnosticBag diags;
  ParseOptions po;
  po.require_version = false;
  parse_module(sm.get(id), diags, po);
  std::optional<uint32_t> first;
  for (const auto& d : diags.items())
    if (d.severity == Severity::Error && (!first || d.primary().span.begin < *first)) first = d.primary().span.begin;
  return first;
}

uint32_t trimmed_end(std::string_view s) {
  uint32_t e = static_cast<uint32_t>(s.size());
  while (e > 0 && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return e;
}

std::vector<std::string> files_starting_with(const std::string& prefix) {
  std::string dir = ".", stem = prefix;
  size_t slash = prefix.rfind('/');
  if (slash != std::string::npos) {
    dir = prefix.substr(0, slash + 1);
    stem = prefix.substr(slash + 1);
  }
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == ".." || !n.starts_with(stem)) continue;
      bool is_dir = e->d_type == DT_DIR;
      if (!is_dir && !n.ends_with(".relay") && !n.ends_with(".rly")) continue;
      out.push_back((slash == std::string::npos ? "" : dir) + n + (is_dir ? "/" : ""));
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}


}  // namespace

CompletenessResult Session::is_complete(std::string_view input) const {
  InputKind kind = classify(input);
  if (kind == InputKind::Command) return {};
  BracketScan scan = scan_brackets(input);
  if (scan.open_string || scan.open_comment) return {Completeness::Incomplete, ""};
  if (kind == InputKind::Empty) return {};
  if (scan.unmatched_close) return {Completeness::Invalid, ""};
  if (scan.depth > 0) return {Completeness::Incomplete, std::string(2 * scan.depth, ' ')};
  // Balanced: it is incomplete when the first syntax error is at its very end (`1 +`,
  // `def @f(%x)` before its body), invalid when an error comes earlier.
  std::string text;
  uint32_t base = 0;
  if (kind == InputKind::Definitions) {
    text = std::string(input);
  } else {
    std::vector<Region> regions;
    std::optional<std::vector<std::string>> binds;
    if (kind == InputKind::Binding) binds = binding_names(input);
    text = impl_->input_function(input, binds ? &*binds : nullptr, &regions, Origin{});
    base = regions.front().begin;
  }
  auto error = first_syntax_error(text);
  if (!error) return {};
  if (*error >= base + trimmed_end(input)) return {Completeness::Incomplete, ""};
  return {Completeness::Invalid, ""};
}

std::shared_ptr<const FileCheck> Session::Impl::check_for_ide(std::string_view input, ModuleText* text,
                                                               uint32_t* base) {
  InputKind kind = classify(input);
  std::vector<Region> regions;
  std::string tail;
  if (kind == InputKind::Definitions) {
    tail = std::string(input);
    regions.push_back(Region{0, static_cast<uint32_t>(tail.size()), Origin{}});
  } else {
    std::optional<std::vector<std::string>> binds;
    if (kind == InputKind::Binding) binds = binding_names(input);
    tail = input_function(input, binds ? &*binds : nullptr, &regions, Origin{});
  }
  *text = module.build(tail, regions);
  *base = text->tail_begin + regions.front().begin;
  return check_text(*text);
}

ide::CompletionResult Session::complete(std::string_view input, uint32_t cursor) {
  cursor = std::min<uint32_t>(cursor, static_cast<uint32_t>(input.size()));
  ide::CompletionResult result;
  result.replace_begin = result.replace_end = cursor;
  std::string_view expr = input;
  uint32_t shift = 0;
  if (auto c = split_command(input)) {
    uint32_t colon = static_cast<uint32_t>(input.find(':'));
    uint32_t name_end = colon + 1 + static_cast<uint32_t>(c->name.size());
    if (cursor <= name_end) {
      result.replace_begin = colon;
      std::string typed(input.substr(colon, cursor - colon));
      for (const auto& n : command_names())
        if (n.starts_with(typed)) result.items.push_back(ide::plain_item(n, ide::CompletionKind::Keyword, "command"));
      return result;
    }
    uint32_t arg_begin = std::min(c->arg_offset, cursor);
    std::string typed(input.substr(arg_begin, cursor - arg_begin));
    result.replace_begin = arg_begin;
    if (c->name == "viz" || c->name == "grad") {
      for (const auto& d : impl_->accepted->definitions) {
        std::string n(d.def->name);
        if (n.starts_with(typed) || ("@" + n).starts_with(typed))
          result.items.push_back(ide::plain_item(n, ide::CompletionKind::Global, "function"));
      }
      return result;
    }
    if (c->name == "load") {
      for (auto& f : files_starting_with(typed)) result.items.push_back(ide::plain_item(f, ide::CompletionKind::Keyword, "file"));
      return result;
    }
    if (c->name == "set") {
      for (std::string opt : {"check-numerics on", "check-numerics off"})
        if (opt.starts_with(typed)) result.items.push_back(ide::plain_item(opt, ide::CompletionKind::Keyword, "setting"));
      return result;
    }
    if (c->name != "type" && c->name != "ir" && c->name != "time") {
      result.replace_begin = cursor;
      return result;
    }
    expr = input.substr(c->arg_offset);
    shift = c->arg_offset;
  }
  ModuleText text;
  uint32_t base = 0;
  auto check = impl_->check_for_ide(expr, &text, &base);
  ide::CompletionResult r = ide::complete(*check, impl_->accepted.get(), text.text, base + (cursor - shift));
  std::erase_if(r.items, [](const ide::CompletionItem& i) { return i.label.find(kInputFunction) != std::string::npos; });
  r.replace_begin = r.replace_begin >= base ? r.replace_begin - base + shift : cursor;
  r.replace_end = r.replace_end >= base ? r.replace_end - base + shift : cursor;
  return r;
}

std::optional<Inspection> Session::inspect(std::string_view input, uint32_t cursor) {
  cursor = std::min<uint32_t>(cursor, static_cast<uint32_t>(input.size()));
  std::string_view expr = input;
  uint32_t shift = 0;
  if (auto c = split_command(input)) {
    if (cursor < c->arg_offset) return std::nullopt;
    expr = input.substr(c->arg_offset);
    shift = c->arg_offset;
  }
  ModuleText text;
  uint32_t base = 0;
  auto check = impl_->check_for_ide(expr, &text, &base);
  // A cursor right after a word (`nn.dense|(`) asks about that word, as Jupyter sends it.
  uint32_t local = cursor - shift;
  if (local > 0 && word_char(expr[local - 1]) && (local == expr.size() || !word_char(expr[local]))) --local;
  auto hover = ide::hover_at(*check, base + local);
  // Only what lies inside the input: not the session's function around it.
  if (!hover || hover->begin < base || hover->end > base + expr.size()) return std::nullopt;
  Inspection out;
  out.markdown = hover->markdown;
  // Plain text: the markdown without its code fences.
  std::string_view md = hover->markdown;
  while (!md.empty()) {
    size_t nl = md.find('\n');
    std::string_view line = md.substr(0, nl);
    if (!line.starts_with("```")) out.plain += std::string(line) + "\n";
    if (nl == std::string_view::npos) break;
    md.remove_prefix(nl + 1);
  }
  while (!out.plain.empty() && out.plain.back() == '\n') out.plain.pop_back();
  return out;
}

}  // namespace relay::repl
