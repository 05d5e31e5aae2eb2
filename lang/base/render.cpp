// The terminal and JSON renderers for diagnostics (see render.h, docs/diagnostics.md).
//
// Layout follows rustc's emitter: a header, a `-->` location, source lines framed by a
// gutter of line numbers, underlines (`^^^` primary, `---` secondary) with their
// messages, `= note:`/`= help:` lines, and suggested fixes shown as patched source.
// Everything is drawn on a grid of terminal cells (one per display column), so wide
// characters, tabs and colour never disturb the alignment of carets.
#include "lang/base/render.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

namespace relay {

// ======================================================================================
// Code points and display columns

namespace {

// Decodes the UTF-8 sequence at s[i]; returns its length, or 0 when the bytes are not
// valid UTF-8 (overlong forms and surrogates included), in which case the renderer
// shows one U+FFFD per byte.
size_t decode_utf8(std::string_view s, size_t i, char32_t* out) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    *out = c;
    return 1;
  }
  size_t n;
  char32_t cp;
  if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 0x1F; }
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 0x0F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 0x07; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  *out = cp;
  return n;
}

std::string encode_utf8(char32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

struct Range {
  char32_t lo, hi;
};

bool in_ranges(char32_t cp, const Range* ranges, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (cp >= ranges[i].lo && cp <= ranges[i].hi) return true;
  return false;
}

// The main combining and invisible ranges; enough for accents, ZWJ emoji sequences
// and variation selectors to keep carets aligned.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},
    {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
    {0xE0100, 0xE01EF},
};

// East Asian Wide/Fullwidth blocks and the emoji blocks terminals draw two cells wide.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F320},
    {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA},
    {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
    {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E},
    {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4},
    {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2},
    {0x1F6D5, 0x1F6D7}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB},
    {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

}  // namespace

int char_width(char32_t cp) {
  if (cp == 0) return 0;
  if (in_ranges(cp, kZeroWidth, std::size(kZeroWidth))) return 0;
  if (cp >= 0x1100 && in_ranges(cp, kWide, std::size(kWide))) return 2;
  return 1;
}

namespace {

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

constexpr int kTabWidth = 4;  // tabs become four cells, as rustc draws them

DrawnLine draw_text(std::string_view s) {
  DrawnLine out;
  out.start_col.reserve(s.size() + 1);
  out.end_col.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    size_t n = decode_utf8(s, i, &cp);
    std::string glyph;
    int w = 1;
    if (n == 0) {
      n = 1;
      glyph = "\xEF\xBF\xBD";  // U+FFFD for each invalid byte
    } else if (cp == '\t') {
      glyph = " ";
      w = kTabWidth;
    } else if (cp < 0x20 || cp == 0x7F) {
      // Control characters would move the cursor; show their Unicode control pictures.
      glyph = encode_utf8(cp == 0x7F ? 0x2421 : 0x2400 + cp);
    } else {
      glyph = std::string(s.substr(i, n));
      w = char_width(cp);
    }
    uint32_t col = out.width();
    if (w == 0) {
      // Combining marks join the previous cell; alone at the start they get a blank base.
      if (out.cells.empty()) {
        out.cells.push_back(" " + glyph);
        col = 0;
      } else {
        size_t k = out.cells.size() - 1;
        while (k > 0 && out.cells[k].empty()) --k;
        out.cells[k] += glyph;
      }
    } else {
      out.cells.push_back(glyph);
      for (int k = 1; k < w; ++k) out.cells.push_back(cp == '\t' ? " " : "");
    }
    for (size_t k = 0; k < n; ++k) {
      out.start_col.push_back(col);
      out.end_col.push_back(out.width());
    }
    i += n;
  }
  out.start_col.push_back(out.width());
  return out;
}

}  // namespace

size_t display_width(std::string_view text) { return draw_text(text).width(); }

namespace {

// The offset whose line and column are shown for `offset`: the end of a file that ends
// in a newline is moved back onto that newline, i.e. just after the last line's text,
// where a reader looks for "end of file" (and where rustc points).
uint32_t shown_offset(const SourceFile& file, uint32_t offset) {
  uint32_t size = static_cast<uint32_t>(file.text.size());
  offset = std::min(offset, size);
  if (offset == size && size > 0 && file.text[size - 1] == '\n') --offset;
  return offset;
}

}  // namespace

LineCol display_position(const SourceFile& file, uint32_t offset) {
  return file.lines.lookup(shown_offset(file, offset));
}

// ======================================================================================
// A grid of styled cells, serialised with or without ANSI colour

namespace {

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
};

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
  }
  return "";
}

struct Cell {
  std::string glyph = " ";
  Style style = Style::Plain;
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
  std::string str(bool color, Severity sev) const {
    std::string out;
    for (const auto& r : rows_) {
      size_t n = r.size();
      while (n > 0 && (r[n - 1].glyph == " " || r[n - 1].glyph.empty())) --n;
      Style cur = Style::Plain;
      for (size_t i = 0; i < n; ++i) {
        const Cell& c = r[i];
        // Blanks keep the current style: fewer escape codes, same look.
        if (color && c.style != cur && c.glyph != " ") {
          if (cur != Style::Plain) out += "\x1b[0m";
          out += style_code(c.style, sev);
          cur = c.style;
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
// Layout of labelled source snippets

// A label placed on the grid. Single-line: columns [col_s, col_e) of line_s.
// Multi-line: col_s on line_s, and col_e = the column of the last character on line_e.
struct Ann {
  uint32_t line_s = 1, line_e = 1;
  uint32_t col_s = 0, col_e = 1;
  bool primary = false;
  bool multiline = false;
  bool slash = false;  // multi-line span starting at the line's indentation: drawn `/`
  int depth = 0;       // multi-line: margin column (1-based) that carries its `|`
  std::string msg;
};

// Every label of one file, shown under one `-->` or `:::` header.
struct Snippet {
  const SourceFile* file = nullptr;
  uint32_t anchor = 0;  // offset whose position the header shows
  std::vector<Ann> anns;
  std::vector<uint32_t> lines;  // shown lines, sorted; gaps of one line filled in
  std::map<uint32_t, DrawnLine> drawn;
  size_t margin = 0;  // cells left of the text for multi-line bars (0 without any)
  uint32_t left = 0;  // long lines: the first column shown (Ann columns are relative to it)
  uint32_t right = UINT32_MAX;  // long lines: the column after the last one shown
};

// Multi-line spans up to this many lines are shown whole; longer ones show their first
// and last lines with `...` between, which is all a reader needs to see the extent.
constexpr uint32_t kMaxWholeMultiline = 5;

// Lines wider than this many columns (generated code, printed models) are cut to a window
// around the labels, with `...` marking the cuts, as rustc does for narrow terminals.
constexpr uint32_t kMaxLineWidth = 140;
constexpr uint32_t kCutContext = 20;  // columns kept left of the leftmost label

const DrawnLine& drawn_line(Snippet& s, uint32_t line) {
  auto it = s.drawn.find(line);
  if (it == s.drawn.end())
    it = s.drawn.emplace(line, draw_text(s.file->lines.line_text(s.file->text, line))).first;
  return it->second;  // std::map: stays valid while more lines are added
}

std::string one_line(std::string_view msg) {
  std::string s(msg);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

Ann make_ann(Snippet& s, const Label& label, bool primary) {
  const SourceFile& f = *s.file;
  uint32_t size = static_cast<uint32_t>(f.text.size());
  uint32_t b = std::min(label.span.begin, size);
  uint32_t e = std::min(std::max(label.span.end, b), size);
  Ann a;
  a.primary = primary;
  a.msg = one_line(label.message);

  uint32_t sb = shown_offset(f, b);
  a.line_s = f.lines.lookup(sb).line;
  const DrawnLine& first = drawn_line(s, a.line_s);
  a.col_s = first.col_at(sb - f.lines.line_start(a.line_s));
  if (e == b) {  // zero width: one caret at the position
    a.line_e = a.line_s;
    a.col_e = a.col_s + 1;
    return a;
  }
  uint32_t last = e - 1;  // the span's last byte decides its last line
  a.line_e = f.lines.lookup(last).line;
  const DrawnLine& end = drawn_line(s, a.line_e);
  size_t k = last - f.lines.line_start(a.line_e);
  if (a.line_e == a.line_s) {
    a.col_e = std::max(a.col_s + 1, end.end_at(k));
    return a;
  }
  a.multiline = true;
  a.col_e = end.col_at(k);
  std::string_view text = f.lines.line_text(f.text, a.line_s);
  size_t indent = text.find_first_not_of(" \t");
  if (indent == std::string_view::npos) indent = text.size();
  a.slash = a.col_s <= first.col_at(indent);
  return a;
}

// Chooses the window of columns to show when a line is too wide, and makes the label
// columns relative to it.
void cut_long_lines(Snippet& s) {
  uint32_t widest = 0;
  for (uint32_t l : s.lines) widest = std::max(widest, drawn_line(s, l).width());
  if (widest <= kMaxLineWidth || s.anns.empty()) return;
  uint32_t lo = UINT32_MAX, hi = 0;
  for (const Ann& a : s.anns) {
    lo = std::min({lo, a.col_s, a.multiline ? a.col_e : a.col_s});
    hi = std::max({hi, a.col_e, a.multiline ? a.col_s + 1 : a.col_e});
  }
  if (hi + 3 > kMaxLineWidth && lo > kCutContext) s.left = lo - kCutContext;
  s.right = std::max(s.left + kMaxLineWidth, hi + 3);
  for (Ann& a : s.anns) {
    a.col_s -= s.left;
    a.col_e -= s.left;
  }
}

// The visible part of a source line: cut to the snippet's window, `...` at the cuts.
DrawnLine windowed(const Snippet& s, const DrawnLine& line) {
  if (s.left == 0 && line.width() <= s.right) return line;
  DrawnLine out;
  uint32_t end = std::min(line.width(), s.right);
  if (s.left < end)
    out.cells.assign(line.cells.begin() + s.left, line.cells.begin() + end);
  else
    out.cells.assign(3, " ");  // a short line next to a cut one: just the `...`
  if (s.left > 0)
    for (size_t i = 0; i < 3 && i < out.cells.size(); ++i) out.cells[i] = ".";
  if (line.width() > s.right)
    for (size_t i = 0; i < 3 && i < out.cells.size(); ++i) out.cells[out.cells.size() - 1 - i] = ".";
  return out;
}

bool is_primary(const Diagnostic& d, size_t i) { return i == 0 || d.labels[i].primary; }

std::vector<Snippet> build_snippets(const Diagnostic& d, const SourceManager& sm) {
  std::vector<Snippet> out;
  for (size_t i = 0; i < d.labels.size(); ++i) {
    const Label& label = d.labels[i];
    if (label.span.file >= sm.size()) continue;  // no text to show: the header still says it
    const SourceFile& f = sm.get(label.span.file);
    auto it = std::find_if(out.begin(), out.end(), [&](const Snippet& s) { return s.file == &f; });
    if (it == out.end()) {
      out.emplace_back();
      it = out.end() - 1;
      it->file = &f;
      it->anchor = std::min<uint32_t>(label.span.begin, static_cast<uint32_t>(f.text.size()));
    }
    it->anns.push_back(make_ann(*it, label, is_primary(d, i)));
  }
  for (Snippet& s : out) {
    // Margin depths: spans that start earlier get the outer (left) columns.
    std::vector<Ann*> multi;
    for (Ann& a : s.anns)
      if (a.multiline) multi.push_back(&a);
    std::stable_sort(multi.begin(), multi.end(), [](const Ann* x, const Ann* y) {
      if (x->line_s != y->line_s) return x->line_s < y->line_s;
      if (x->col_s != y->col_s) return x->col_s < y->col_s;
      return x->line_e > y->line_e;
    });
    for (size_t i = 0; i < multi.size(); ++i) multi[i]->depth = static_cast<int>(i + 1);
    s.margin = multi.empty() ? 0 : multi.size() + 1;

    std::set<uint32_t> lines;
    for (const Ann& a : s.anns) {
      lines.insert(a.line_s);
      lines.insert(a.line_e);
      if (a.multiline && a.line_e - a.line_s + 1 <= kMaxWholeMultiline)
        for (uint32_t l = a.line_s; l <= a.line_e; ++l) lines.insert(l);
    }
    for (uint32_t l : lines) {
      // A single hidden line is shown rather than replaced by `...`.
      if (!s.lines.empty() && l == s.lines.back() + 2) s.lines.push_back(l - 1);
      s.lines.push_back(l);
    }
    cut_long_lines(s);
  }
  return out;
}

// ======================================================================================
// Suggested fixes, shown as the patched source

struct Marker {
  size_t line;  // index into new_lines
  size_t b, e;  // byte range within that line
  char ch;      // '+' inserted, '~' replaced
};

// The edits of one help within one file.
struct FixPart {
  const SourceFile* file = nullptr;
  uint32_t anchor = 0;
  uint32_t first_line = 1;
  bool diff = false;  // a deletion: show `-` old lines and `+` new lines
  std::vector<std::string> old_lines, new_lines;
  std::vector<Marker> markers;
  uint32_t last_line() const {
    return first_line + static_cast<uint32_t>(std::max(old_lines.size(), new_lines.size())) - 1;
  }
};

struct Fix {
  std::string message;
  std::vector<FixPart> parts;
};

std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (true) {
    size_t n = s.find('\n', b);
    std::string_view line = s.substr(b, n == std::string_view::npos ? std::string_view::npos : n - b);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.emplace_back(line);
    if (n == std::string_view::npos) break;
    b = n + 1;
  }
  return out;
}

FixPart make_fix_part(const SourceFile& f, std::vector<TextEdit> edits) {
  const uint32_t size = static_cast<uint32_t>(f.text.size());
  for (auto& e : edits) {
    e.span.begin = std::min(e.span.begin, size);
    e.span.end = std::min(std::max(e.span.end, e.span.begin), size);
  }
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return a.span.begin < b.span.begin; });
  FixPart p;
  p.file = &f;
  p.anchor = edits.front().span.begin;
  p.first_line = f.lines.lookup(edits.front().span.begin).line;
  uint32_t max_end = 0;
  for (const auto& e : edits) max_end = std::max(max_end, e.span.end);
  uint32_t last_line = f.lines.lookup(max_end).line;
  uint32_t region_b = f.lines.line_start(p.first_line);
  uint32_t region_e = f.lines.line_start(last_line) +
                      static_cast<uint32_t>(f.lines.line_text(f.text, last_line).size());
  region_e = std::max(region_e, max_end);

  std::string patched;
  std::vector<std::pair<size_t, size_t>> ranges;
  std::vector<char> kinds;
  uint32_t pos = region_b;
  for (const auto& e : edits) {
    if (e.span.begin < pos) continue;  // overlaps an earlier edit: not applicable together
    patched.append(f.text, pos, e.span.begin - pos);
    size_t start = patched.size();
    patched += e.replacement;
    if (e.replacement.empty() && e.span.size() > 0) p.diff = true;
    if (!e.replacement.empty()) {
      ranges.emplace_back(start, patched.size());
      kinds.push_back(e.span.size() == 0 ? '+' : '~');
    }
    pos = e.span.end;
  }
  patched.append(f.text, pos, region_e - pos);
  p.old_lines = split_lines(std::string_view(f.text).substr(region_b, region_e - region_b));
  p.new_lines = split_lines(patched);

  // Markers, cut at the line breaks of the patched text.
  size_t line_b = 0;
  for (size_t i = 0; i < p.new_lines.size(); ++i) {
    size_t line_e = patched.find('\n', line_b);
    if (line_e == std::string::npos) line_e = patched.size();
    for (size_t r = 0; r < ranges.size(); ++r) {
      size_t b = std::max(ranges[r].first, line_b), e = std::min(ranges[r].second, line_e);
      if (b < e) p.markers.push_back(Marker{i, b - line_b, e - line_b, kinds[r]});
    }
    line_b = line_e + 1;
  }
  return p;
}

std::vector<Fix> build_fixes(const Diagnostic& d, const SourceManager& sm) {
  std::vector<Fix> out;
  for (const Help& h : d.helps) {
    if (h.edits.empty()) continue;
    Fix fix;
    fix.message = h.message;
    std::vector<FileId> files;
    for (const auto& e : h.edits)
      if (e.span.file < sm.size() && std::find(files.begin(), files.end(), e.span.file) == files.end())
        files.push_back(e.span.file);
    for (FileId id : files) {
      std::vector<TextEdit> mine;
      for (const auto& e : h.edits)
        if (e.span.file == id) mine.push_back(e);
      fix.parts.push_back(make_fix_part(sm.get(id), std::move(mine)));
    }
    out.push_back(std::move(fix));
  }
  return out;
}

// ======================================================================================
// Drawing

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

  Canvas& cv_;
  size_t w_;  // gutter width: digits of the largest line number shown
  size_t x_;  // first column after "N | "
};

Style ann_style(const Ann& a) { return a.primary ? Style::Primary : Style::Secondary; }
const char* underline(const Ann& a) { return a.primary ? "^" : "-"; }

void Painter::snippet(Snippet& s) {
  for (size_t i = 0; i < s.lines.size(); ++i) {
    uint32_t line = s.lines[i];
    if (i > 0 && line > s.lines[i - 1] + 1) {
      size_t r = cv_.new_row();
      cv_.put(r, 0, "...", Style::Gutter);
      for (const Ann& m : s.anns)
        if (m.multiline && m.line_s <= s.lines[i - 1] && m.line_e >= line)
          cv_.put_cell(r, x_ + m.depth - 1, "|", ann_style(m));
    }
    size_t r = source_row(line);
    for (const Ann& m : s.anns) {
      if (!m.multiline) continue;
      if (m.line_s < line && line <= m.line_e) cv_.put_cell(r, x_ + m.depth - 1, "|", ann_style(m));
      if (m.line_s == line && m.slash) cv_.put_cell(r, x_ + m.depth - 1, "/", ann_style(m));
    }
    cv_.put_line(r, x_ + s.margin, windowed(s, drawn_line(s, line)));
    annotation_rows(s, line);
  }
}

// The rows under one source line: single-line underlines with their messages (the
// rightmost inline, the others hanging from `|` connectors, rustc style), then the
// `__^` rows where multi-line spans start, then the `|__^` rows where they end.
void Painter::annotation_rows(Snippet& s, uint32_t line) {
  std::vector<const Ann*> singles, starts, ends;
  for (const Ann& a : s.anns) {
    if (!a.multiline && a.line_s == line) singles.push_back(&a);
    if (a.multiline && a.line_s == line && !a.slash) starts.push_back(&a);
    if (a.multiline && a.line_e == line) ends.push_back(&a);
  }
  std::stable_sort(singles.begin(), singles.end(), [](const Ann* x, const Ann* y) {
    return x->col_s != y->col_s ? x->col_s < y->col_s : x->col_e < y->col_e;
  });
  std::stable_sort(starts.begin(), starts.end(),
                   [](const Ann* x, const Ann* y) { return x->depth < y->depth; });
  std::stable_sort(ends.begin(), ends.end(),
                   [](const Ann* x, const Ann* y) { return x->depth > y->depth; });

  // The rightmost message goes inline unless another underline reaches past its end.
  const Ann* inline_ann = nullptr;
  std::map<const Ann*, size_t> level;  // hanging messages: 1 = first row below connectors
  size_t levels = 0;
  if (!singles.empty()) {
    const Ann* last = nullptr;
    for (const Ann* a : singles)
      if (!a->msg.empty()) last = a;
    bool ok = last != nullptr;
    for (const Ann* a : singles)
      if (ok && a != last && a->col_e > last->col_e) ok = false;
    if (ok) inline_ann = last;
    for (size_t i = singles.size(); i-- > 0;)
      if (singles[i] != inline_ann && !singles[i]->msg.empty()) level[singles[i]] = ++levels;
  }
  size_t single_rows = singles.empty() ? 0 : 1 + (levels ? levels + 1 : 0);
  size_t total = single_rows + starts.size() + ends.size();
  if (total == 0) return;
  size_t base = cv_.rows();
  for (size_t i = 0; i < total; ++i) {
    size_t r = cv_.new_row();
    cv_.put_cell(r, w_ + 1, "|", Style::Gutter);
  }

  const size_t tx = x_ + s.margin;  // column of the line's first character
  if (!singles.empty()) {
    for (bool primary : {false, true})  // primary carets win where underlines overlap
      for (const Ann* a : singles)
        if (a->primary == primary) cv_.fill(base, tx + a->col_s, tx + a->col_e, underline(*a), ann_style(*a));
    if (inline_ann) cv_.put(base, tx + inline_ann->col_e + 1, inline_ann->msg, ann_style(*inline_ann));
    for (auto [a, lv] : level)
      for (size_t r = 1; r <= lv; ++r) cv_.put_cell(base + r, tx + a->col_s, "|", ann_style(*a));
    for (auto [a, lv] : level) cv_.put(base + lv + 1, tx + a->col_s, a->msg, ann_style(*a));
  }
  for (size_t i = 0; i < starts.size(); ++i) {
    const Ann& m = *starts[i];
    size_t r = base + single_rows + i;
    cv_.fill(r, x_ + m.depth, tx + m.col_s, "_", ann_style(m));
    cv_.put_cell(r, tx + m.col_s, underline(m), ann_style(m));
  }
  for (size_t i = 0; i < ends.size(); ++i) {
    const Ann& m = *ends[i];
    size_t r = base + single_rows + starts.size() + i;
    cv_.put_cell(r, x_ + m.depth - 1, "|", ann_style(m));
    cv_.fill(r, x_ + m.depth, tx + m.col_e, "_", ann_style(m));
    cv_.put_cell(r, tx + m.col_e, underline(m), ann_style(m));
    if (!m.msg.empty()) cv_.put(r, tx + m.col_e + 2, m.msg, ann_style(m));
  }
  // Bars of multi-line spans that pass through these rows, drawn last so that a bar
  // crossing another span's `___` stays visible.
  for (const Ann& m : s.anns) {
    if (!m.multiline) continue;
    auto row_of = [&](const std::vector<const Ann*>& v, size_t offset) -> long {
      for (size_t i = 0; i < v.size(); ++i)
        if (v[i] == &m) return static_cast<long>(offset + i);
      return -1;
    };
    long start_r = row_of(starts, single_rows);
    long end_r = row_of(ends, single_rows + starts.size());
    for (size_t r = 0; r < total; ++r) {
      long lr = static_cast<long>(r);
      bool begun = m.line_s < line || (m.line_s == line && (m.slash || (start_r >= 0 && lr > start_r)));
      bool open = m.line_e > line || (m.line_e == line && lr < end_r);
      if (begun && open) cv_.put_cell(base + r, x_ + m.depth - 1, "|", ann_style(m));
    }
  }
}

void Painter::fix(const Fix& fix, const SourceFile* primary_file) {
  size_t r = cv_.new_row();
  size_t c = cv_.put(r, 0, "help", Style::Emphasis);
  cv_.put(r, c, ": " + one_line(fix.message), Style::Plain);
  for (const FixPart& p : fix.parts) {
    if (p.file != primary_file) location(":::", *p.file, p.anchor);
    empty_gutter();
    if (p.diff) {
      for (size_t i = 0; i < p.old_lines.size(); ++i) {
        size_t row = cv_.new_row();
        cv_.put(row, 0, std::to_string(p.first_line + i), Style::Gutter);
        cv_.put_cell(row, w_ + 1, "-", Style::Removal);
        cv_.put_line(row, x_, draw_text(p.old_lines[i]));
      }
    }
    for (size_t i = 0; i < p.new_lines.size(); ++i) {
      size_t row = cv_.new_row();
      cv_.put(row, 0, std::to_string(p.first_line + i), Style::Gutter);
      if (p.diff) {
        cv_.put_cell(row, w_ + 1, "+", Style::Addition);
      } else {
        cv_.put_cell(row, w_ + 1, "|", Style::Gutter);
      }
      DrawnLine dl = draw_text(p.new_lines[i]);
      cv_.put_line(row, x_, dl);
      if (p.diff) continue;
      size_t mr = SIZE_MAX;
      for (const Marker& m : p.markers) {
        if (m.line != i) continue;
        if (mr == SIZE_MAX) {
          mr = cv_.new_row();
          cv_.put_cell(mr, w_ + 1, "|", Style::Gutter);
        }
        cv_.fill(mr, x_ + dl.col_at(m.b), x_ + std::max(dl.col_at(m.e), dl.col_at(m.b) + 1),
                 std::string(1, m.ch), Style::Addition);
      }
    }
  }
}

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

  std::vector<Snippet> snippets = build_snippets(d, sm);
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

// ======================================================================================
// JSON

namespace {

using Json = nlohmann::ordered_json;  // keeps the documented field order

void put_span(Json& j, const SourceManager& sm, Span span) {
  if (span.file >= sm.size()) {
    for (const char* k : {"file", "line", "column", "end_line", "end_column", "byte_start", "byte_end"})
      j[k] = nullptr;
    return;
  }
  const SourceFile& f = sm.get(span.file);
  uint32_t size = static_cast<uint32_t>(f.text.size());
  uint32_t b = std::min(span.begin, size);
  uint32_t e = std::min(std::max(span.end, b), size);
  LineCol s = display_position(f, b), en = display_position(f, e);
  j["file"] = f.name;
  j["line"] = s.line;
  j["column"] = s.column;
  j["end_line"] = en.line;
  j["end_column"] = en.column;
  j["byte_start"] = b;
  j["byte_end"] = e;
}

}  // namespace

std::string render_json(const Diagnostic& d, const SourceManager& sm) {
  Json j;
  j["code"] = static_cast<size_t>(d.kind) < all_diag_kinds().size() ? std::string(d.code()) : "";
  j["severity"] = std::string(severity_name(d.severity));
  j["message"] = d.message;
  put_span(j, sm, d.labels.empty() ? Span{static_cast<FileId>(sm.size()), 0, 0} : d.labels[0].span);

  Json labels = Json::array();
  for (size_t i = 0; i < d.labels.size(); ++i) {
    Json l;
    l["primary"] = is_primary(d, i);
    l["message"] = d.labels[i].message;
    put_span(l, sm, d.labels[i].span);
    labels.push_back(std::move(l));
  }
  j["labels"] = std::move(labels);

  j["notes"] = Json::array();
  for (const auto& n : d.notes) j["notes"].push_back(n);

  Json helps = Json::array();
  for (const Help& h : d.helps) {
    Json hj;
    hj["message"] = h.message;
    hj["fixes"] = Json::array();
    for (const TextEdit& e : h.edits) {
      Json ej;
      put_span(ej, sm, e.span);
      ej["replacement"] = e.replacement;
      hj["fixes"].push_back(std::move(ej));
    }
    helps.push_back(std::move(hj));
  }
  j["helps"] = std::move(helps);

  j["tags"] = Json::array();
  if (d.tags & kTagUnnecessary) j["tags"].push_back("unnecessary");
  if (d.tags & kTagDeprecated) j["tags"].push_back("deprecated");

  j["rendered"] = render_diagnostic(d, sm, RenderOptions{false});
  // Invalid UTF-8 in a message must not throw: it becomes U+FFFD.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace relay
