// Suggested fixes for the diagnostic renderer (see render.cpp): the patched source of
// each help with edits, its markers, and its drawing.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lang/base/render_internal.h"

namespace relay::render_detail {

// ======================================================================================
// Suggested fixes, shown as the patched source

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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace relay::render_detail
