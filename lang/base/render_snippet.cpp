// Source snippets for the diagnostic renderer (see render.cpp): the layout of labelled
// source lines (which lines, which columns, where each label goes) and their drawing.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lang/base/render_internal.h"

namespace relay::render_detail {

// ======================================================================================
// Layout of labelled source snippets

// Chooses the shown columns of a view that must show columns [lo, hi) of its drawing.
void choose_columns(LineView& v, uint32_t lo, uint32_t hi, uint32_t width) {
  v.left = 0;
  v.right = UINT32_MAX;
  if (!v.more_left && !v.more_right && v.text.width() <= width) return;
  if (lo > kCutContext && (v.more_left || hi + 3 > width)) v.left = lo - kCutContext;
  v.right = std::max(v.left + width, hi + 3);
}

namespace {

// Multi-line spans up to this many lines are shown whole; longer ones show their first
// and last lines with `...` between, which is all a reader needs to see the extent.
constexpr uint32_t kMaxWholeMultiline = 5;

const LineView& view(Snippet& s, uint32_t line) {
  auto it = s.views.find(line);
  if (it != s.views.end()) return it->second;  // std::map: stays valid while more are added
  std::string_view text = s.file->lines.line_text(s.file->text, line);
  // A lone '\r' ends its line (LineIndex, as in editors) but is shown, as its control
  // picture: it is what the lexer's E0008 points at.
  const std::string& all = s.file->text;
  if (const size_t end = s.file->lines.line_end(all, line);
      end < all.size() && all[end] == '\r' && (end + 1 == all.size() || all[end + 1] != '\n'))
    text = std::string_view(text.data(), text.size() + 1);
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

}  // namespace

std::string one_line(std::string_view msg) {
  std::string s(msg);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

namespace {

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
void cut_long_lines(Snippet& s, uint32_t width) {
  uint32_t widest = 0;
  for (uint32_t l : s.lines) widest = std::max(widest, view(s, l).text.width());
  if (widest <= width || s.anns.empty()) return;
  uint32_t lo = UINT32_MAX, hi = 0;
  uint32_t primary_lo = UINT32_MAX, primary_hi = 0;
  bool any_multiline = false;
  for (const Ann& a : s.anns) {
    lo = std::min({lo, a.col_s, a.multiline ? a.col_e : a.col_s});
    hi = std::max({hi, a.col_e, a.multiline ? a.col_s + 1 : a.col_e});
    any_multiline |= a.multiline;
    if (a.primary) {
      primary_lo = std::min(primary_lo, a.col_s);
      primary_hi = std::max(primary_hi, a.col_e);
    }
  }
  // Labels spread wider than the window (a long operand's label beside the operator's):
  // the window goes around the primary labels and the others are cut to it, so that the
  // line stays within `width` instead of wrapping away from its underlines.
  const bool clip = !any_multiline && primary_hi > 0 && hi - lo + kCutContext + 3 > width &&
                    primary_hi - primary_lo + kCutContext + 6 <= width;
  if (clip) {
    lo = primary_lo;
    hi = primary_hi;
  }
  uint32_t left = 0;
  if (hi + 3 > width && lo > kCutContext) left = lo - kCutContext;
  uint32_t right = std::max(left + width, hi + 3);
  for (auto& [line, v] : s.views) {
    v.left = left;
    v.right = right;
  }
  // Inside the `...` marks at either cut; a label wholly outside keeps one column at the
  // edge it lies beyond, so its message still says what continues out of view.
  const uint32_t first = left > 0 ? left + 3 : 0, last = right - 3;
  for (Ann& a : s.anns) {
    if (clip) {
      a.col_s = std::clamp(a.col_s, first, last - 1);
      a.col_e = std::clamp(a.col_e, a.col_s + 1, last);
    }
    a.col_s -= left;
    a.col_e -= left;
  }
}

// With long lines (drawn only in part, their columns counted from the window's start)
// every line gets a window of its own around its own labels.
void cut_each_line(Snippet& s, uint32_t width) {
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
    choose_columns(s.views[l], lo == UINT32_MAX ? 0 : lo, hi, width);
  }
  for (Ann& a : s.anns) {
    a.col_s -= s.views[a.line_s].left;
    a.col_e -= s.views[a.line_e].left;
  }
}

}  // namespace

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

std::vector<Snippet> build_snippets(const Diagnostic& d, const SourceManager& sm, uint32_t width) {
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
      cut_each_line(s, width);
    else
      cut_long_lines(s, width);
  }
  return out;
}

// ======================================================================================
// Drawing

namespace {

Style ann_style(const Ann& a) { return a.primary ? Style::Primary : Style::Secondary; }
const char* underline(const Ann& a) { return a.primary ? "^" : "-"; }

}  // namespace

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
    DrawnLine shown = windowed(view(s, line));
    cv_.put_line(r, x_ + s.margin, shown);
    color_source(r, s, line, shown);
    annotation_rows(s, line);
  }
}

// Tints the drawn source text of `line` (row `row`, as `shown` by windowed()) with the
// file's syntax colours. Only cells that show source characters change: the `...` at a
// cut stay plain, and no glyph changes, so the text without escapes is the plain one.
void Painter::color_source(size_t row, const Snippet& s, uint32_t line, const DrawnLine& shown) {
  if (s.colors.empty()) return;
  const LineView& v = s.views.at(line);
  const uint32_t start = s.file->lines.line_start(line);
  const uint32_t lo = start + v.begin, hi = start + v.end;  // the drawn bytes, in the file
  const uint32_t n = shown.width();
  if (n == 0) return;
  // As windowed() decides: three cells of `...` at each cut.
  const uint32_t first = v.left > 0 || v.more_left ? 3 : 0;
  const uint32_t last = v.text.width() > v.right || v.more_right ? (n > 3 ? n - 3 : 0) : n;
  const size_t tx = x_ + s.margin;
  auto it = std::lower_bound(s.colors.begin(), s.colors.end(), lo,
                             [](const SourceColor& c, uint32_t at) { return c.end <= at; });
  for (; it != s.colors.end() && it->begin < hi; ++it) {
    uint32_t b = std::max(it->begin, lo) - start, e = std::min(it->end, hi) - start;
    if (b >= e) continue;
    uint32_t cs = v.col_at(b), ce = v.end_at(e - 1);  // columns of the whole drawing
    if (ce <= v.left) continue;
    cs = std::max(cs, v.left) - v.left;
    ce = std::min(ce - v.left, last);
    for (uint32_t c = std::max(cs, first); c < ce; ++c) cv_.tint(row, tx + c, it->sgr);
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

}  // namespace relay::render_detail
