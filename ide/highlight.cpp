#include "ide/highlight.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "lang/base/embedded.h"

extern "C" const TSLanguage* tree_sitter_relay(void);

namespace relay {
extern const EmbeddedFile kHighlightQueries[];
}

namespace relay::ide {
namespace {

struct Query {
  TSQuery* query = nullptr;
  std::vector<int> priority;  // per pattern
  Query() {
    std::string_view source = find_embedded(kHighlightQueries, "highlights.scm");
    uint32_t offset = 0;
    TSQueryError error = TSQueryErrorNone;
    query = ts_query_new(tree_sitter_relay(), source.data(), static_cast<uint32_t>(source.size()), &offset, &error);
    if (!query) return;  // the C++ test compiles the same file: this does not happen in a build
    uint32_t patterns = ts_query_pattern_count(query);
    priority.assign(patterns, 100);
    for (uint32_t p = 0; p < patterns; ++p) {
      uint32_t steps = 0;
      const TSQueryPredicateStep* s = ts_query_predicates_for_pattern(query, p, &steps);
      // `(#set! "priority" N)`: the steps are String set!, String priority, String N, Done.
      for (uint32_t i = 0; i + 2 < steps; ++i) {
        auto str = [&](uint32_t k) -> std::string_view {
          if (s[k].type != TSQueryPredicateStepTypeString) return {};
          uint32_t len = 0;
          const char* v = ts_query_string_value_for_id(query, s[k].value_id, &len);
          return {v, len};
        };
        if (str(i) == "set!" && str(i + 1) == "priority") priority[p] = std::atoi(std::string(str(i + 2)).c_str());
      }
    }
  }
  ~Query() {
    if (query) ts_query_delete(query);
  }
};

const Query& shared_query() {
  static const Query q;
  return q;
}

}  // namespace

std::vector<HighlightSpan> highlight(std::string_view text) {
  const Query& q = shared_query();
  std::vector<HighlightSpan> out;
  if (!q.query) return out;
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_relay());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  TSQueryCursor* cursor = ts_query_cursor_new();
  ts_query_cursor_exec(cursor, q.query, ts_tree_root_node(tree));

  // Candidates per node range; the best (priority, then earliest pattern) is kept.
  struct Candidate {
    uint32_t begin, end;
    int priority;
    uint32_t pattern;
    uint32_t capture;
  };
  std::vector<Candidate> all;
  TSQueryMatch match;
  uint32_t index = 0;
  while (ts_query_cursor_next_capture(cursor, &match, &index)) {
    const TSQueryCapture& c = match.captures[index];
    uint32_t b = ts_node_start_byte(c.node), e = ts_node_end_byte(c.node);
    if (b >= e) continue;
    all.push_back({b, e, q.priority[match.pattern_index], match.pattern_index, c.index});
  }
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.end != b.end) return a.end > b.end;  // outer nodes first
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.pattern < b.pattern;
  });
  uint32_t covered = 0;  // spans never overlap: an inner node inside a coloured one is skipped
  for (size_t i = 0; i < all.size(); ++i) {
    const Candidate& c = all[i];
    if (i > 0 && all[i - 1].begin == c.begin && all[i - 1].end == c.end) continue;  // lost to a better one
    if (c.begin < covered) continue;
    uint32_t len = 0;
    const char* name = ts_query_capture_name_for_id(q.query, c.capture, &len);
    out.push_back({c.begin, c.end, std::string(name, len)});
    covered = c.end;
  }
  ts_query_cursor_delete(cursor);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return out;
}

std::string_view ansi_style(std::string_view capture) {
  // A small theme on the 16 standard colours, readable on dark and light terminals.
  static const std::pair<std::string_view, std::string_view> kTheme[] = {
      {"comment", "2;3"},           // dim italic
      {"keyword", "35"},            // magenta
      {"function.builtin", "36"},   // cyan
      {"function", "34"},           // blue
      {"type", "33"},               // yellow
      {"constructor", "33;1"},
      {"variable.parameter", "3"},  // italic
      {"property", "36"},
      {"attribute", "35"},
      {"number", "32"},             // green
      {"boolean", "32"},
      {"string", "32"},
      {"constant", "32"},
      {"operator", ""},
      {"punctuation", ""},
      {"variable", ""},
  };
  while (true) {
    for (const auto& [name, style] : kTheme)
      if (name == capture) return style;
    size_t dot = capture.rfind('.');
    if (dot == std::string_view::npos) return {};
    capture = capture.substr(0, dot);
  }
}

namespace {
// CSS colours for the same theme, for HTML (the notebook).
std::string_view css_color(std::string_view capture) {
  static const std::pair<std::string_view, std::string_view> kCss[] = {
      {"comment", "color:#6a737d;font-style:italic"},
      {"keyword", "color:#a626a4"},
      {"function.builtin", "color:#0184bc"},
      {"function", "color:#4078f2"},
      {"type", "color:#c18401"},
      {"constructor", "color:#c18401;font-weight:bold"},
      {"variable.parameter", "font-style:italic"},
      {"property", "color:#0184bc"},
      {"attribute", "color:#a626a4"},
      {"number", "color:#50a14f"},
      {"boolean", "color:#50a14f"},
      {"string", "color:#50a14f"},
      {"constant", "color:#50a14f"},
  };
  while (true) {
    for (const auto& [name, style] : kCss)
      if (name == capture) return style;
    size_t dot = capture.rfind('.');
    if (dot == std::string_view::npos) return {};
    capture = capture.substr(0, dot);
  }
}

void escape_html(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
}
}  // namespace

namespace {
std::string ansi_from_spans(std::string_view text, const std::vector<HighlightSpan>& spans) {
  std::string out;
  out.reserve(text.size() * 5 / 4);
  uint32_t at = 0;
  for (const auto& s : spans) {
    std::string_view style = ansi_style(s.capture);
    if (style.empty()) continue;
    out.append(text.substr(at, s.begin - at));
    // A span may cross lines (block comments): colour each line, so that a pager or a
    // line-by-line echo never sees a colour left open across a newline.
    std::string_view body = text.substr(s.begin, s.end - s.begin);
    size_t start = 0;
    while (start <= body.size()) {
      size_t nl = body.find('\n', start);
      std::string_view line = body.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      if (!line.empty()) {
        out += "\x1b[";
        out += style;
        out += 'm';
        out += line;
        out += "\x1b[0m";
      }
      if (nl == std::string_view::npos) break;
      out += '\n';
      start = nl + 1;
    }
    at = s.end;
  }
  out.append(text.substr(at));
  return out;
}
}  // namespace

std::string highlight_ansi(std::string_view text) { return ansi_from_spans(text, highlight(text)); }

std::vector<HighlightSpan> highlight_type(std::string_view type) {
  // A type alone is no Relay file; as a parameter's annotation it parses as one, and
  // its spans are the ones a definition would show.
  static constexpr std::string_view kBefore = "def @f(%x: ", kAfter = ") { %x }";
  std::string wrapped;
  wrapped.append(kBefore).append(type).append(kAfter);
  const uint32_t b = static_cast<uint32_t>(kBefore.size()), e = b + static_cast<uint32_t>(type.size());
  std::vector<HighlightSpan> out;
  for (HighlightSpan& s : highlight(wrapped)) {
    if (s.begin < b || s.end > e) continue;
    out.push_back({s.begin - b, s.end - b, std::move(s.capture)});
  }
  return out;
}

std::string highlight_type_ansi(std::string_view type) { return ansi_from_spans(type, highlight_type(type)); }

std::string highlight_html(std::string_view text) {
  std::string out;
  uint32_t at = 0;
  for (const auto& s : highlight(text)) {
    std::string_view css = css_color(s.capture);
    if (css.empty()) continue;
    escape_html(out, text.substr(at, s.begin - at));
    out += "<span style=\"";
    out += css;
    out += "\">";
    escape_html(out, text.substr(s.begin, s.end - s.begin));
    out += "</span>";
    at = s.end;
  }
  escape_html(out, text.substr(at));
  return out;
}

SourceColorer diagnostic_source_colors() {
  struct Cache {
    std::string text;
    std::vector<SourceColor> colors;
    bool valid = false;
  };
  // The whole file is parsed (about 0.1 s per megabyte): past this size a diagnostic's
  // snippet is shown without syntax colour rather than keep the user waiting.
  constexpr size_t kMaxColouredBytes = size_t{8} << 20;
  auto cache = std::make_shared<Cache>();
  return [cache](std::string_view text) {
    if (text.size() > kMaxColouredBytes) return std::vector<SourceColor>{};
    if (cache->valid && cache->text == text) return cache->colors;
    std::vector<SourceColor> colors;
    for (const HighlightSpan& s : highlight(text)) {
      std::string_view sgr = ansi_style(s.capture);
      if (!sgr.empty()) colors.push_back(SourceColor{s.begin, s.end, std::string(sgr)});
    }
    cache->text.assign(text);
    cache->colors = colors;
    cache->valid = true;
    return colors;
  };
}

}  // namespace relay::ide
