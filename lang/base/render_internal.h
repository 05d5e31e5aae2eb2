// Internal declarations shared by the diagnostic renderer's source files (render.cpp,
// render_width.cpp, render_window.cpp, render_snippet.cpp, render_fix.cpp,
// render_json.cpp). Not a public header: the interface is render.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/base/render.h"

namespace relay::render_detail {

// ======================================================================================
// Code points and display columns

// A line of text as it is drawn: one string per terminal cell, plus the column of
// every byte so that spans (byte offsets) can be turned into caret positions.
struct DrawnLine {
  std::vector<std::string> cells;    // "" marks the second cell of a wide character
  std::vector<uint32_t> start_col;   // per byte (+1 for the end): first column of its char
  std::vector<uint32_t> end_col;     // per byte: column just after its char
  uint32_t width() const { return static_cast<uint32_t>(cells.size()); }
  uint32_t col_at(size_t byte) const { return byte < start_col.size() ? start_col[byte] : width(); }
  uint32_t end_at(size_t byte) const { return byte < end_col.size() ? end_col[byte] : width() + 1; }
};

inline constexpr int kTabWidth = 4;  // tabs become four cells, as rustc draws them

// Draws UTF-8 text cell by cell (render_width.cpp).
DrawnLine draw_text(std::string_view s);

// The offset whose line and column are shown for `offset` (render.cpp).
uint32_t shown_offset(const SourceFile& file, uint32_t offset);

// ======================================================================================
// A grid of styled cells, serialised with or without ANSI colour

enum class Style : uint8_t {
  Plain,
  Level,      // "error[E0040]" / "warning[W0002]": bold red / bold yellow
  Message,    // the header message: bold
  Gutter,     // line numbers, `|`, `-->`, `=`: bold blue
  Primary,    // primary underline and its message: the level's colour
  Secondary,  // secondary underlines and their messages: bold blue
  Emphasis,   // "note", "help": bold
  Addition,   // suggestion markers `+`, `~`: bold green
  Removal,    // removed lines in a suggestion: bold red
  Syntax,     // source text coloured by RenderOptions::source_colors: the cell's `sgr`
};

// ANSI codes of the level and of each style (render.cpp).
std::string_view level_code(Severity sev);
std::string_view style_code(Style st, Severity sev);

struct Cell {
  std::string glyph = " ";
  Style style = Style::Plain;
  std::string_view sgr = {};  // Style::Syntax: SGR parameters (owned by the Snippet's colours)
};

class Canvas {
 public:
  size_t new_row() {
    rows_.emplace_back();
    return rows_.size() - 1;
  }
  size_t rows() const { return rows_.size(); }
  void put_cell(size_t row, size_t col, std::string glyph, Style st) {
    auto& r = rows_[row];
    if (r.size() <= col) r.resize(col + 1);
    r[col] = Cell{std::move(glyph), st};
  }
  // Writes text (any UTF-8) starting at `col`; returns the column after it.
  size_t put(size_t row, size_t col, std::string_view text, Style st) {
    DrawnLine line = draw_text(text);
    for (auto& g : line.cells) put_cell(row, col++, std::move(g), st);
    return col;
  }
  void fill(size_t row, size_t from, size_t to, std::string_view glyph, Style st) {
    for (size_t c = from; c < to; ++c) put_cell(row, c, std::string(glyph), st);
  }
  void put_line(size_t row, size_t col, const DrawnLine& line) {
    for (const auto& g : line.cells) put_cell(row, col++, g, Style::Plain);
  }
  // Gives an already drawn plain cell a syntax colour; the glyph stays as it is.
  void tint(size_t row, size_t col, std::string_view sgr) {
    auto& r = rows_[row];
    if (col >= r.size() || r[col].style != Style::Plain || sgr.empty()) return;
    r[col].style = Style::Syntax;
    r[col].sgr = sgr;
  }
  std::string str(bool color, Severity sev) const {
    std::string out;
    for (const auto& r : rows_) {
      size_t n = r.size();
      while (n > 0 && (r[n - 1].glyph == " " || r[n - 1].glyph.empty())) --n;
      Style cur = Style::Plain;
      std::string_view cur_sgr;
      for (size_t i = 0; i < n; ++i) {
        const Cell& c = r[i];
        // Blanks keep the current style: fewer escape codes, same look.
        if (color && (c.style != cur || c.sgr != cur_sgr) && c.glyph != " ") {
          if (cur != Style::Plain) out += "\x1b[0m";
          if (c.style == Style::Syntax) out.append("\x1b[").append(c.sgr).append("m");
          else out += style_code(c.style, sev);
          cur = c.style;
          cur_sgr = c.sgr;
        }
        out += c.glyph;
      }
      if (color && cur != Style::Plain) out += "\x1b[0m";
      out += '\n';
    }
    return out;
  }

 private:
  std::vector<std::vector<Cell>> rows_;
};

// ======================================================================================
// Long lines: only a window of bytes around the labels is ever drawn

// Lines wider than this many columns (generated code, printed models) are cut to a window
// around the labels, with `...` marking the cuts, as rustc does for narrow terminals.
inline constexpr uint32_t kMaxLineWidth = 140;
inline constexpr uint32_t kCutContext = 20;  // columns kept left of the leftmost label

// Lines up to this many bytes are drawn whole (and cut by columns afterwards, see
// `cut_long_lines`). Longer ones (generated code, printed models, minified files) are
// drawn only in a window around their labels, so that rendering costs the size of what
// is shown, not the length of the line. The window holds enough columns that the column
// cut gives the same picture as drawing the whole line would.
inline constexpr uint32_t kLongLineBytes = 4096;
// Columns drawn left of the labels (more than kCutContext) and right of them (more than
// kMaxLineWidth); labels fewer than kKeepStartColumns from the line's start keep the
// start in the window, so that their columns are the real ones.
inline constexpr uint32_t kWindowBefore = kCutContext + 4;
inline constexpr uint32_t kWindowAfter = kMaxLineWidth + 4;
inline constexpr uint32_t kKeepStartColumns = kMaxLineWidth + kCutContext;
// Bound on the bytes walked for those columns (zero-width characters take none).
inline constexpr size_t kMaxWalkBytes = 2048;
// Labelled text wider than this is cut (around the first primary label) rather than
// shown whole: a label over a megabyte of one line shows its first few kilobytes.
inline constexpr size_t kMaxLabelledBytes = 4096;

// The bytes of one line that may be stitched together from pieces (the patched lines of
// a fix are original text and replacements), read without copying the whole line.
class LineBytes {
 public:
  LineBytes() = default;
  explicit LineBytes(std::string_view whole) { add(whole); }
  void add(std::string_view part) {
    if (part.empty()) return;
    parts_.push_back(part);
    size_ += part.size();
    ends_.push_back(size_);
  }
  size_t size() const { return size_; }
  unsigned char at(size_t i) const {
    if (parts_.size() == 1) return static_cast<unsigned char>(parts_[0][i]);
    size_t k = static_cast<size_t>(std::upper_bound(ends_.begin(), ends_.end(), i) - ends_.begin());
    return static_cast<unsigned char>(parts_[k][i - (ends_[k] - parts_[k].size())]);
  }
  // Copies up to `n` bytes from `i` into `buf`; returns how many.
  size_t read(size_t i, char* buf, size_t n) const {
    n = std::min(n, size_ - i);
    for (size_t k = 0; k < n; ++k) buf[k] = static_cast<char>(at(i + k));
    return n;
  }
  // The bytes [b, e).
  std::string copy(size_t b, size_t e) const {
    std::string out;
    out.reserve(e - b);
    size_t k = static_cast<size_t>(std::upper_bound(ends_.begin(), ends_.end(), b) - ends_.begin());
    for (; k < parts_.size() && b < e; ++k) {
      size_t start = ends_[k] - parts_[k].size();
      size_t n = std::min(ends_[k], e) - b;
      out.append(parts_[k].substr(b - start, n));
      b += n;
    }
    return out;
  }
  // Drops a trailing '\r' (lines are split at '\n' only).
  void strip_cr() {
    if (size_ == 0 || parts_.back().back() != '\r') return;
    parts_.back().remove_suffix(1);
    --size_;
    --ends_.back();
    if (parts_.back().empty()) {
      parts_.pop_back();
      ends_.pop_back();
    }
  }

 private:
  std::vector<std::string_view> parts_;
  std::vector<size_t> ends_;  // offset just after each part
  size_t size_ = 0;
};

// Bytes [lo, hi) of a line that should be visible, e.g. a label's.
struct Extent {
  size_t lo = 0, hi = 0;
  bool primary = false;
};

// The byte window of a long line to draw so that `marks` are visible (render_window.cpp).
std::pair<size_t, size_t> choose_window(const LineBytes& line, const std::vector<Extent>& marks);

// ======================================================================================
// Layout of labelled source snippets

// A source line as shown: the drawn bytes [begin, end) of the line (all of it unless
// the line is long), and the columns [left, right) of that drawing that are shown.
struct LineView {
  DrawnLine text;
  uint32_t begin = 0, end = 0;
  bool more_left = false, more_right = false;  // the line goes on beyond [begin, end)
  uint32_t left = 0, right = UINT32_MAX;
  // Column of the character holding `byte` (an offset in the line); bytes left of the
  // window are at column 0, bytes right of it just after the window.
  uint32_t col_at(uint32_t byte) const { return text.col_at(std::clamp(byte, begin, end) - begin); }
  // Column just after the character holding `byte`.
  uint32_t end_at(uint32_t byte) const {
    if (byte < begin) return 0;
    if (byte >= end && more_right) return text.width();
    return text.end_at(byte - begin);
  }
};

// Chooses the shown columns of a view (render_snippet.cpp).
void choose_columns(LineView& v, uint32_t lo, uint32_t hi, uint32_t width = kMaxLineWidth);

// A label placed on the grid. Single-line: columns [col_s, col_e) of line_s.
// Multi-line: col_s on line_s, and col_e = the column of the last character on line_e.
// Columns count from the left of what is shown of that line.
struct Ann {
  uint32_t line_s = 1, line_e = 1;
  uint32_t col_s = 0, col_e = 1;
  bool primary = false;
  bool multiline = false;
  bool slash = false;  // multi-line span starting at the line's indentation: drawn `/`
  int depth = 0;       // multi-line: margin column (1-based) that carries its `|`
  std::string msg;
};

// A label's bytes, clamped to its file.
struct Located {
  const Label* label = nullptr;
  bool primary = false;
  bool empty = false;         // zero width: one caret at `sb`
  uint32_t sb = 0, last = 0;  // first byte (as shown, see shown_offset) and last byte
  uint32_t line_s = 1, line_e = 1;
};

// Every label of one file, shown under one `-->` or `:::` header.
struct Snippet {
  const SourceFile* file = nullptr;
  uint32_t anchor = 0;  // offset whose position the header shows
  std::vector<Located> labels;
  std::vector<Ann> anns;
  std::vector<uint32_t> lines;  // shown lines, sorted; gaps of one line filled in
  std::map<uint32_t, std::vector<Extent>> marks;  // long lines: the labelled bytes
  std::map<uint32_t, LineView> views;
  size_t margin = 0;  // cells left of the text for multi-line bars (0 without any)
  std::vector<SourceColor> colors;  // syntax colours of the file (RenderOptions::source_colors)
};

// The rest of the layout (render_snippet.cpp).
std::string one_line(std::string_view msg);
DrawnLine windowed(const LineView& v);
bool is_primary(const Diagnostic& d, size_t i);
// `width`: RenderOptions::max_line_width, at most kMaxLineWidth (the long-line windows
// hold that many columns).
std::vector<Snippet> build_snippets(const Diagnostic& d, const SourceManager& sm, uint32_t width = kMaxLineWidth);

// ======================================================================================
// Suggested fixes, shown as the patched source

struct Marker {
  size_t line;  // index into new_lines
  size_t b, e;  // byte range within that line's text
  char ch;      // '+' inserted, '~' replaced
};

// One line of a fix as shown: the whole line, or for a long line the window of bytes
// around its edits, with `...` drawn where it goes on.
struct FixLine {
  std::string text;
  bool more_left = false, more_right = false;
  size_t lo = 0, hi = 0;  // cut lines: the bytes of `text` around the edits
};

// The edits of one help within one file.
struct FixPart {
  const SourceFile* file = nullptr;
  uint32_t anchor = 0;
  uint32_t first_line = 1;
  bool diff = false;  // a deletion: show `-` old lines and `+` new lines
  std::vector<FixLine> old_lines, new_lines;
  std::vector<Marker> markers;
  uint32_t last_line() const {
    return first_line + static_cast<uint32_t>(std::max(old_lines.size(), new_lines.size())) - 1;
  }
};

struct Fix {
  std::string message;
  std::vector<FixPart> parts;
};

// Splitting text into lines, and the fixes of a diagnostic (render_fix.cpp).
std::vector<std::string> split_lines(std::string_view s);
std::vector<Fix> build_fixes(const Diagnostic& d, const SourceManager& sm);

// ======================================================================================
// Drawing

// Painter::snippet is in render_snippet.cpp, Painter::fix in render_fix.cpp.
class Painter {
 public:
  Painter(Canvas& cv, size_t gutter) : cv_(cv), w_(gutter), x_(gutter + 3) {}

  // "  |"
  void empty_gutter() { cv_.put_cell(cv_.new_row(), w_ + 1, "|", Style::Gutter); }

  // " --> file:3:12" or " ::: file:3:12"
  void location(std::string_view arrow, const SourceFile& f, uint32_t offset) {
    size_t r = cv_.new_row();
    LineCol lc = display_position(f, offset);
    size_t c = cv_.put(r, w_, arrow, Style::Gutter);
    cv_.put(r, c + 1,
            f.name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column), Style::Plain);
  }

  // "  = note: text", continuation lines aligned under the text.
  void child(std::string_view word, std::string_view text) {
    size_t r = cv_.new_row();
    cv_.put_cell(r, w_ + 1, "=", Style::Gutter);
    size_t c = cv_.put(r, w_ + 3, word, Style::Emphasis);
    c = cv_.put(r, c, ": ", Style::Plain);
    std::vector<std::string> lines = split_lines(text);
    cv_.put(r, c, lines[0], Style::Plain);
    for (size_t i = 1; i < lines.size(); ++i) cv_.put(cv_.new_row(), c, lines[i], Style::Plain);
  }

  void snippet(Snippet& s);
  void fix(const Fix& fix, const SourceFile* primary_file);

 private:
  size_t source_row(uint32_t line) {
    size_t r = cv_.new_row();
    cv_.put(r, 0, std::to_string(line), Style::Gutter);
    cv_.put_cell(r, w_ + 1, "|", Style::Gutter);
    return r;
  }
  void annotation_rows(Snippet& s, uint32_t line);
  void color_source(size_t row, const Snippet& s, uint32_t line, const DrawnLine& shown);

  Canvas& cv_;
  size_t w_;  // gutter width: digits of the largest line number shown
  size_t x_;  // first column after "N | "
};

}  // namespace relay::render_detail
