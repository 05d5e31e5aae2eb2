// The terminal and JSON renderers for diagnostics (see render.h, docs/diagnostics.md).
//
// Layout follows rustc's emitter: a header, a `-->` location, source lines framed by a
// gutter of line numbers, underlines (`^^^` primary, `---` secondary) with their
// messages, `= note:`/`= help:` lines, and suggested fixes shown as patched source.
// Everything is drawn on a grid of terminal cells (one per display column), so wide
// characters, tabs and colour never disturb the alignment of carets.
//
// The renderer is split by job: render_width.cpp (character widths), render_window.cpp
// (long lines), render_snippet.cpp (snippets and labels), render_fix.cpp (suggested
// fixes), render_json.cpp (JSON); render_internal.h declares what they share. This file
// holds the entry points.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lang/base/render.h"
#include "lang/base/render_internal.h"

namespace relay {

namespace render_detail {

// The offset whose line and column are shown for `offset`: the end of a file that ends
// in a newline is moved back onto that newline, i.e. just after the last line's text,
// where a reader looks for "end of file" (and where rustc points).
uint32_t shown_offset(const SourceFile& file, uint32_t offset) {
  uint32_t size = static_cast<uint32_t>(file.text.size());
  offset = std::min(offset, size);
  if (offset == size && size > 0 && file.text[size - 1] == '\n') --offset;
  return offset;
}

}  // namespace render_detail

using namespace render_detail;

LineCol display_position(const SourceFile& file, uint32_t offset) {
  return file.lines.lookup(shown_offset(file, offset));
}

// ======================================================================================
// A grid of styled cells, serialised with or without ANSI colour

namespace render_detail {

std::string_view level_code(Severity sev) {
  switch (sev) {
    case Severity::Error: return "\x1b[1;31m";
    case Severity::Warning: return "\x1b[1;33m";
    case Severity::Note: return "\x1b[1;32m";
  }
  return "\x1b[1;31m";
}

std::string_view style_code(Style st, Severity sev) {
  switch (st) {
    case Style::Plain: return "";
    case Style::Level:
    case Style::Primary: return level_code(sev);
    case Style::Message:
    case Style::Emphasis: return "\x1b[1m";
    case Style::Gutter:
    case Style::Secondary: return "\x1b[1;34m";
    case Style::Addition: return "\x1b[1;32m";
    case Style::Removal: return "\x1b[1;31m";
    case Style::Syntax: return "";  // the cell carries its own code (Canvas::str)
  }
  return "";
}

}  // namespace render_detail

namespace {

size_t digits(uint32_t n) { return std::to_string(n).size(); }

}  // namespace

std::string render_diagnostic(const Diagnostic& d, const SourceManager& sm,
                              const RenderOptions& options) {
  Canvas cv;
  // Header: "error[E0040]: message".
  {
    std::string level(severity_name(d.severity));
    if (static_cast<size_t>(d.kind) < all_diag_kinds().size() && !d.code().empty())
      level += "[" + std::string(d.code()) + "]";
    std::vector<std::string> lines = split_lines(d.message);
    size_t r = cv.new_row();
    size_t c = cv.put(r, 0, level, Style::Level);
    cv.put(r, c, ": " + lines[0], Style::Message);
    for (size_t i = 1; i < lines.size(); ++i) cv.put(cv.new_row(), 0, lines[i], Style::Message);
  }

  const uint32_t width = std::clamp<uint32_t>(options.max_line_width, 40, kMaxLineWidth);
  std::vector<Snippet> snippets = build_snippets(d, sm, width);
  if (options.color && options.source_colors)
    for (Snippet& s : snippets) s.colors = options.source_colors(s.file->text);
  std::vector<Fix> fixes = build_fixes(d, sm);

  // One gutter width for the whole diagnostic, so every `|` lines up.
  uint32_t max_line = 1;
  for (const Snippet& s : snippets)
    if (!s.lines.empty()) max_line = std::max(max_line, s.lines.back());
  for (const Fix& f : fixes)
    for (const FixPart& p : f.parts) max_line = std::max(max_line, p.last_line());
  Painter paint(cv, digits(max_line));

  for (size_t i = 0; i < snippets.size(); ++i) {
    if (i > 0) paint.empty_gutter();
    paint.location(i == 0 ? "-->" : ":::", *snippets[i].file, snippets[i].anchor);
    paint.empty_gutter();
    paint.snippet(snippets[i]);
  }

  bool plain_children = !d.notes.empty();
  for (const Help& h : d.helps) plain_children |= h.edits.empty();
  if (plain_children || (!fixes.empty() && !snippets.empty())) paint.empty_gutter();
  for (const auto& n : d.notes) paint.child("note", n);
  for (const Help& h : d.helps)
    if (h.edits.empty()) paint.child("help", h.message);
  const SourceFile* primary_file = snippets.empty() ? nullptr : snippets[0].file;
  for (const Fix& f : fixes) paint.fix(f, primary_file);

  return cv.str(options.color, d.severity);
}

std::string render_summary(size_t errors, size_t warnings, bool color) {
  if (errors == 0 && warnings == 0) return {};
  std::string warned;
  if (warnings)
    warned = std::to_string(warnings) + (warnings == 1 ? " warning emitted" : " warnings emitted");
  std::string level = errors ? "error" : "warning";
  std::string text = warned;
  if (errors) {
    text = "aborting due to " + std::to_string(errors) +
           (errors == 1 ? " previous error" : " previous errors");
    if (warnings) text += "; " + warned;
  }
  if (!color) return level + ": " + text + "\n";
  return std::string(level_code(errors ? Severity::Error : Severity::Warning)) + level +
         "\x1b[0m\x1b[1m: " + text + "\x1b[0m\n";
}

}  // namespace relay
