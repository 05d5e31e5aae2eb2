// The terminal and JSON renderers for diagnostics (see render.h, docs/diagnostics.md).
//
// Layout follows rustc's emitter: a header, a `-->` location, source lines framed by a
// gutter of line numbers, underlines (`^^^` primary, `---` secondary) with their
// messages, `= note:`/`= help:` lines, and suggested fixes shown as patched source.
// Everything is drawn on a grid of terminal cells (one per display column), so wide
// characters, tabs and colour never disturb the alignment of carets.
#include "lang/base/render.h"
#include "lang/base/utf8.h"

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
  if (cp < 0x300) return cp == 0 ? 0 : 1;  // below the first combining mark
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
  out.cells.reserve(s.size());
  out.start_col.reserve(s.size() + 1);
  out.end_col.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    size_t n = decode_utf8(s, i, &cp);
    uint32_t col = out.width();
    if (n == 0) {
      n = 1;
      out.cells.emplace_back("\xEF\xBF\xBD");  // U+FFFD for each invalid byte
    } else if (cp == '\t') {
      out.cells.insert(out.cells.end(), kTabWidth, " ");
    } else if (cp < 0x20 || cp == 0x7F) {
      // Control characters would move the cursor; show their Unicode control pictures.
      out.cells.push_back(encode_utf8(cp == 0x7F ? 0x2421 : 0x2400 + cp));
    } else if (int w = char_width(cp); w == 0) {
      // Combining marks join the previous cell; alone at the start they get a blank base.
      if (out.cells.empty()) {
        out.cells.push_back(" " + std::string(s.substr(i, n)));
      } else {
        size_t k = out.cells.size() - 1;
        while (k > 0 && out.cells[k].empty()) --k;
        out.cells[k] += s.substr(i, n);
      }
    } else {
      out.cells.emplace_back(s.substr(i, n));
      if (w == 2) out.cells.emplace_back();  // "" marks the second cell of a wide character
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
// Long lines: only a window of bytes around the labels is ever drawn

// Lines wider than this many columns (generated code, printed models) are cut to a window
// around the labels, with `...` marking the cuts, as rustc does for narrow terminals.
constexpr uint32_t kMaxLineWidth = 140;
constexpr uint32_t kCutContext = 20;  // columns kept left of the leftmost label

// Lines up to this many bytes are drawn whole (and cut by columns afterwards, see
// `cut_long_lines`). Longer ones (generated code, printed models, minified files) are
// drawn only in a window around their labels, so that rendering costs the size of what
// is shown, not the length of the line. The window holds enough columns that the column
// cut gives the same picture as drawing the whole line would.
constexpr uint32_t kLongLineBytes = 4096;
// Columns drawn left of the labels (more than kCutContext) and right of them (more than
// kMaxLineWidth); labels fewer than kKeepStartColumns from the line's start keep the
// start in the window, so that their columns are the real ones.
constexpr uint32_t kWindowBefore = kCutContext + 4;
constexpr uint32_t kWindowAfter = kMaxLineWidth + 4;
constexpr uint32_t kKeepStartColumns = kMaxLineWidth + kCutContext;
// Bound on the bytes walked for those columns (zero-width characters take none).
constexpr size_t kMaxWalkBytes = 2048;
// Labelled text wider than this is cut (around the first primary label) rather than
// shown whole: a label over a megabyte of one line shows its first few kilobytes.
constexpr size_t kMaxLabelledBytes = 4096;

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

// The start of the character (as draw_text decodes the whole line from its start) that
// holds byte `t`. UTF-8 resynchronises: a byte that is not a continuation byte always
// starts a character, and a character is at most 4 bytes.
size_t char_start(const LineBytes& line, size_t t) {
  if ((line.at(t) & 0xC0) != 0x80) return t;
  for (size_t k = 1; k <= 3 && k <= t; ++k) {
    if ((line.at(t - k) & 0xC0) == 0x80) continue;
    char buf[4];
    size_t m = line.read(t - k, buf, 4);
    char32_t cp = 0;
    return decode_utf8(std::string_view(buf, m), 0, &cp) > k ? t - k : t;  // else t is a stray byte
  }
  return t;
}

// The cells that draw_text gives the character at `i` (not the first of the text), and
// its length in bytes.
uint32_t char_cells(const LineBytes& line, size_t i, size_t* len) {
  if (unsigned char c = line.at(i); c < 0x80) {
    *len = 1;
    return c == '\t' ? kTabWidth : 1;
  }
  char buf[4];
  size_t m = line.read(i, buf, 4);
  char32_t cp = 0;
  *len = decode_utf8(std::string_view(buf, m), 0, &cp);
  if (*len == 0) {
    *len = 1;
    return 1;
  }
  if (cp == '\t') return kTabWidth;
  if (cp < 0x20 || cp == 0x7F) return 1;
  return static_cast<uint32_t>(char_width(cp));
}

// Bytes [lo, hi) of a line that should be visible, e.g. a label's.
struct Extent {
  size_t lo = 0, hi = 0;
  bool primary = false;
};

// The byte window [first, second) of a long line to draw so that `marks` are visible,
// with kWindowBefore columns before them and kWindowAfter after.
std::pair<size_t, size_t> choose_window(const LineBytes& line, const std::vector<Extent>& marks) {
  const size_t n = line.size();
  size_t lo = marks.empty() ? 0 : n, hi = 0;
  for (const Extent& m : marks) {
    lo = std::min(lo, std::min(m.lo, n));
    hi = std::max(hi, std::min(std::max(m.lo, m.hi), n));
  }
  hi = std::max(hi, lo);
  if (hi - lo > kMaxLabelledBytes) {
    size_t anchor = lo;
    for (const Extent& m : marks)
      if (m.primary) {
        anchor = std::min(m.lo, n);
        break;
      }
    lo = std::max(lo, anchor > kMaxLabelledBytes / 2 ? anchor - kMaxLabelledBytes / 2 : 0);
    hi = std::min(hi, lo + kMaxLabelledBytes);
  }
  // Leftwards: back to the line's start if it is near, else kWindowBefore columns.
  size_t t = lo < n ? char_start(line, lo) : n, b = SIZE_MAX;
  uint32_t cols = 0;
  while (t > 0 && cols < kKeepStartColumns && t + kMaxWalkBytes > lo) {
    t = char_start(line, t - 1);
    size_t len = 0;
    cols += char_cells(line, t, &len);
    if (b == SIZE_MAX && cols >= kWindowBefore) b = t;
  }
  if (t == 0 || b == SIZE_MAX) b = t;
  // Not on a combining mark: it would be drawn on a blank of its own.
  for (size_t i = 0; i < 64 && b > 0; ++i) {
    size_t len = 0;
    if (char_cells(line, b, &len) > 0) break;
    b = char_start(line, b - 1);
  }
  // Rightwards: kWindowAfter columns after the labels.
  t = hi < n ? char_start(line, hi) : n;
  cols = 0;
  while (t < n && cols < kWindowAfter && t < hi + kMaxWalkBytes) {
    size_t len = 0;
    cols += char_cells(line, t, &len);
    t += len;
  }
  return {b, t};
}

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

// Chooses the shown columns of a view that must show columns [lo, hi) of its drawing.
void choose_columns(LineView& v, uint32_t lo, uint32_t hi) {
  v.left = 0;
  v.right = UINT32_MAX;
  if (!v.more_left && !v.more_right && v.text.width() <= kMaxLineWidth) return;
  if (lo > kCutContext && (v.more_left || hi + 3 > kMaxLineWidth)) v.left = lo - kCutContext;
  v.right = std::max(v.left + kMaxLineWidth, hi + 3);
}

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
};

// Multi-line spans up to this many lines are shown whole; longer ones show their first
// and last lines with `...` between, which is all a reader needs to see the extent.
constexpr uint32_t kMaxWholeMultiline = 5;

const LineView& view(Snippet& s, uint32_t line) {
  auto it = s.views.find(line);
  if (it != s.views.end()) return it->second;  // std::map: stays valid while more are added
  std::string_view text = s.file->lines.line_text(s.file->text, line);
  LineView v;
  v.end = static_cast<uint32_t>(text.size());
  if (text.size() <= kLongLineBytes) {
    v.text = draw_text(text);
  } else {
    static const std::vector<Extent> kNone;
    auto m = s.marks.find(line);
    LineBytes bytes(text);
    auto [b, e] = choose_window(bytes, m == s.marks.end() ? kNone : m->second);
    v.begin = static_cast<uint32_t>(b);
    v.end = static_cast<uint32_t>(e);
    v.more_left = b > 0;
    v.more_right = e < text.size();
    v.text = draw_text(text.substr(b, e - b));
  }
  return s.views.emplace(line, std::move(v)).first->second;
}

std::string one_line(std::string_view msg) {
  std::string s(msg);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

Located locate(const SourceFile& f, const Label& label, bool primary) {
  uint32_t size = static_cast<uint32_t>(f.text.size());
  uint32_t b = std::min(label.span.begin, size);
  uint32_t e = std::min(std::max(label.span.end, b), size);
  Located l;
  l.label = &label;
  l.primary = primary;
  l.sb = shown_offset(f, b);
  l.line_s = f.lines.lookup(l.sb).line;
  l.empty = e == b;
  l.last = l.empty ? l.sb : e - 1;  // the span's last byte decides its last line
  l.line_e = l.empty ? l.line_s : f.lines.lookup(l.last).line;
  return l;
}

// Records which bytes of each line the labels need to show.
void add_marks(Snippet& s, const Located& l) {
  const LineIndex& lines = s.file->lines;
  uint32_t ls = lines.line_start(l.line_s);
  if (l.line_s == l.line_e) {
    s.marks[l.line_s].push_back(Extent{l.sb - ls, l.empty ? l.sb - ls : l.last + 1 - ls, l.primary});
    return;
  }
  s.marks[l.line_s].push_back(Extent{l.sb - ls, l.sb - ls + 1, l.primary});
  uint32_t le = lines.line_start(l.line_e);
  s.marks[l.line_e].push_back(Extent{l.last - le, l.last - le + 1, l.primary});
}

Ann make_ann(Snippet& s, const Located& l) {
  const SourceFile& f = *s.file;
  Ann a;
  a.primary = l.primary;
  a.msg = one_line(l.label->message);
  a.line_s = l.line_s;
  const LineView& first = view(s, a.line_s);
  uint32_t start = l.sb - f.lines.line_start(a.line_s);
  a.col_s = first.col_at(start);
  if (l.empty) {  // zero width: one caret at the position
    a.line_e = a.line_s;
    a.col_e = a.col_s + 1;
    return a;
  }
  a.line_e = l.line_e;
  const LineView& end = view(s, a.line_e);
  uint32_t k = l.last - f.lines.line_start(a.line_e);
  if (a.line_e == a.line_s) {
    a.col_e = std::max(a.col_s + 1, end.end_at(k));
    return a;
  }
  a.multiline = true;
  a.col_e = end.col_at(k);
  std::string_view text = f.lines.line_text(f.text, a.line_s);
  if (first.begin == 0 && first.end == text.size()) {
    size_t indent = text.find_first_not_of(" \t");
    if (indent == std::string_view::npos) indent = text.size();
    a.slash = a.col_s <= first.col_at(static_cast<uint32_t>(indent));
  } else {  // a long line: only look as far as the span's start
    a.slash = start <= kLongLineBytes &&
              text.substr(0, start).find_first_not_of(" \t") == std::string_view::npos;
  }
  return a;
}

// Chooses the window of columns to show when a line is too wide, and makes the label
// columns relative to it. Without long lines one window serves every line of the
// snippet, so that columns line up across lines.
void cut_long_lines(Snippet& s) {
  uint32_t widest = 0;
  for (uint32_t l : s.lines) widest = std::max(widest, view(s, l).text.width());
  if (widest <= kMaxLineWidth || s.anns.empty()) return;
  uint32_t lo = UINT32_MAX, hi = 0;
  for (const Ann& a : s.anns) {
    lo = std::min({lo, a.col_s, a.multiline ? a.col_e : a.col_s});
    hi = std::max({hi, a.col_e, a.multiline ? a.col_s + 1 : a.col_e});
  }
  uint32_t left = 0;
  if (hi + 3 > kMaxLineWidth && lo > kCutContext) left = lo - kCutContext;
  uint32_t right = std::max(left + kMaxLineWidth, hi + 3);
  for (auto& [line, v] : s.views) {
    v.left = left;
    v.right = right;
  }
  for (Ann& a : s.anns) {
    a.col_s -= left;
    a.col_e -= left;
  }
}

// With long lines (drawn only in part, their columns counted from the window's start)
// every line gets a window of its own around its own labels.
void cut_each_line(Snippet& s) {
  for (uint32_t l : s.lines) {
    uint32_t lo = UINT32_MAX, hi = 0;
    for (const Ann& a : s.anns) {
      if (a.line_s == l) {
        lo = std::min(lo, a.col_s);
        hi = std::max(hi, a.multiline ? a.col_s + 1 : a.col_e);
      }
      if (a.multiline && a.line_e == l) {
        lo = std::min(lo, a.col_e);
        hi = std::max(hi, a.col_e + 1);
      }
    }
    view(s, l);
    choose_columns(s.views[l], lo == UINT32_MAX ? 0 : lo, hi);
  }
  for (Ann& a : s.anns) {
    a.col_s -= s.views[a.line_s].left;
    a.col_e -= s.views[a.line_e].left;
  }
}

// The visible part of a source line: cut to its window, `...` at the cuts.
DrawnLine windowed(const LineView& v) {
  const DrawnLine& line = v.text;
  bool cut_left = v.left > 0 || v.more_left;
  bool cut_right = line.width() > v.right || v.more_right;
  if (!cut_left && !cut_right) return line;
  DrawnLine out;
  uint32_t end = std::min(line.width(), v.right);
  if (v.left < end)
    out.cells.assign(line.cells.begin() + v.left, line.cells.begin() + end);
  else
    out.cells.assign(3, " ");  // a short line next to a cut one: just the `...`
  if (cut_left)
    for (size_t i = 0; i < 3 && i < out.cells.size(); ++i) out.cells[i] = ".";
  if (cut_right)
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
    it->labels.push_back(locate(f, label, is_primary(d, i)));
  }
  for (Snippet& s : out) {
    // Every label's bytes first: they decide which part of a long line is drawn.
    for (const Located& l : s.labels) add_marks(s, l);
    for (const Located& l : s.labels) s.anns.push_back(make_ann(s, l));

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
    bool has_long = false;
    for (uint32_t l : s.lines) {
      const LineView& v = view(s, l);
      has_long |= v.more_left || v.more_right || v.end > kLongLineBytes;
    }
    if (has_long)
      cut_each_line(s);
    else
      cut_long_lines(s);
  }
  return out;
}

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

std::vector<FixLine> whole_lines(std::string_view s) {
  std::vector<FixLine> out;
  for (std::string& line : split_lines(s)) out.push_back(FixLine{std::move(line)});
  return out;
}

// A fix whose region holds a long line: the old and new lines are assembled as pieces
// of the original text and the replacements, and only windows of the long ones copied.
void make_long_fix_lines(FixPart& p, const SourceFile& f, const std::vector<TextEdit>& edits,
                         uint32_t region_b, uint32_t region_e) {
  const std::string_view text = f.text;
  const LineIndex& index = f.lines;
  std::vector<LineBytes> olds(1), news(1);
  std::vector<std::vector<Extent>> old_marks(1), new_marks(1);

  // Appends original text [b, e), starting a new line after each '\n'.
  auto add_original = [&](std::vector<LineBytes>& lines, std::vector<std::vector<Extent>>& marks,
                          uint32_t b, uint32_t e) {
    while (b < e) {
      uint32_t l = index.lookup(b).line;
      uint32_t nl = l < index.line_count() ? index.line_start(l + 1) - 1 : UINT32_MAX;
      if (nl >= e) {
        lines.back().add(text.substr(b, e - b));
        return;
      }
      lines.back().add(text.substr(b, nl - b));
      lines.emplace_back();
      marks.emplace_back();
      b = nl + 1;
    }
  };
  add_original(olds, old_marks, region_b, region_e);

  uint32_t pos = region_b;
  for (const auto& e : edits) {
    if (e.span.begin < pos) continue;  // overlaps an earlier edit: not applicable together
    add_original(news, new_marks, pos, e.span.begin);
    if (e.replacement.empty() && e.span.size() > 0) p.diff = true;
    char ch = e.span.size() == 0 ? '+' : '~';
    // The replacement, line by line, with its markers.
    std::string_view r = e.replacement;
    size_t start_line = news.size() - 1, start_off = news.back().size();
    while (true) {
      size_t n = r.find('\n');
      std::string_view piece = r.substr(0, n);
      size_t b = news.back().size();
      news.back().add(piece);
      if (!piece.empty()) p.markers.push_back(Marker{news.size() - 1, b, news.back().size(), ch});
      if (n == std::string_view::npos) break;
      news.emplace_back();
      new_marks.emplace_back();
      r.remove_prefix(n + 1);
    }
    // What must stay visible: the edit's place in the new text and in the old text.
    if (start_line == news.size() - 1) {
      new_marks.back().push_back(Extent{start_off, news.back().size(), true});
    } else {
      new_marks[start_line].push_back(Extent{start_off, start_off + 1, true});
      new_marks.back().push_back(Extent{0, news.back().size(), true});
    }
    LineCol ob = index.lookup(e.span.begin), oe = index.lookup(e.span.end);
    size_t ol = ob.line - p.first_line, ol_e = oe.line - p.first_line;
    if (ol == ol_e) {
      old_marks[ol].push_back(Extent{ob.column - 1u, oe.column - 1u, true});
    } else {
      old_marks[ol].push_back(Extent{ob.column - 1u, ob.column + 0u, true});
      if (ol_e < old_marks.size()) old_marks[ol_e].push_back(Extent{oe.column - 1u, oe.column - 1u, true});
    }
    pos = e.span.end;
  }
  add_original(news, new_marks, pos, region_e);

  auto finish = [](LineBytes& line, const std::vector<Extent>& marks, auto&& shift) {
    line.strip_cr();
    FixLine out;
    if (line.size() <= kLongLineBytes) {
      out.text = line.copy(0, line.size());
      return out;
    }
    std::pair<size_t, size_t> w = choose_window(line, marks);
    size_t b = w.first, e = w.second;
    out.text = line.copy(b, e);
    out.more_left = b > 0;
    out.more_right = e < line.size();
    auto clamp = [&](size_t x) { return std::clamp(x, b, e) - b; };
    out.lo = out.text.size();
    for (const Extent& m : marks) {
      out.lo = std::min(out.lo, clamp(m.lo));
      out.hi = std::max(out.hi, clamp(std::max(m.lo, m.hi)));
    }
    if (marks.empty()) out.lo = 0;
    shift(b, e);
    return out;
  };
  for (size_t i = 0; i < olds.size(); ++i)
    p.old_lines.push_back(finish(olds[i], old_marks[i], [](size_t, size_t) {}));
  for (size_t i = 0; i < news.size(); ++i) {
    p.new_lines.push_back(finish(news[i], new_marks[i], [&](size_t b, size_t e) {
      for (Marker& m : p.markers) {
        if (m.line != i) continue;
        m.b = std::clamp(m.b, b, e) - b;
        m.e = std::clamp(m.e, b, e) - b;
      }
    }));
  }
  // Markers wholly outside the shown windows.
  p.markers.erase(std::remove_if(p.markers.begin(), p.markers.end(),
                                 [](const Marker& m) { return m.b >= m.e; }),
                  p.markers.end());
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

  for (uint32_t l = p.first_line; l <= last_line; ++l) {
    if (f.lines.line_text(f.text, l).size() > kLongLineBytes) {
      make_long_fix_lines(p, f, edits, region_b, region_e);
      return p;
    }
  }

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
  p.old_lines = whole_lines(std::string_view(f.text).substr(region_b, region_e - region_b));
  p.new_lines = whole_lines(patched);

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
    cv_.put_line(r, x_ + s.margin, windowed(view(s, line)));
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

// A line of a fix as drawn: whole, or (a long line) cut to the columns around its edits.
LineView fix_view(const FixLine& line) {
  LineView v;
  v.text = draw_text(line.text);
  v.end = static_cast<uint32_t>(line.text.size());
  v.more_left = line.more_left;
  v.more_right = line.more_right;
  if (v.more_left || v.more_right) {
    uint32_t lo = v.text.col_at(line.lo);
    choose_columns(v, lo, std::max(v.text.col_at(line.hi), lo + 1));
  }
  return v;
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
        cv_.put_line(row, x_, windowed(fix_view(p.old_lines[i])));
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
      LineView v = fix_view(p.new_lines[i]);
      cv_.put_line(row, x_, windowed(v));
      if (p.diff) continue;
      const DrawnLine& dl = v.text;
      size_t mr = SIZE_MAX;
      for (const Marker& m : p.markers) {
        if (m.line != i) continue;
        uint32_t b = dl.col_at(m.b), e = std::max(dl.col_at(m.e), b + 1);
        b = std::max(b, v.left) - v.left;  // columns of the shown part
        e = std::min(e, v.right) - std::min(v.left, std::min(e, v.right));
        if (b >= e) continue;
        if (mr == SIZE_MAX) {
          mr = cv_.new_row();
          cv_.put_cell(mr, w_ + 1, "|", Style::Gutter);
        }
        cv_.fill(mr, x_ + b, x_ + e, std::string(1, m.ch), Style::Addition);
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
