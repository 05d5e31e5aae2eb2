// ide/highlight.h: the grammar's highlight queries over a text, as spans and as ANSI /
// HTML; the captures a user sees in `relay fmt --color` and the REPL.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "ide/highlight.h"
#include "tests/support/terminal_text.h"

using namespace relay;
using relay::testing::command_output;
using relay::testing::strip_ansi;

namespace {

// The capture covering byte `at`, or "" when none does.
std::string capture_at(const std::vector<ide::HighlightSpan>& spans, size_t at) {
  for (const auto& s : spans)
    if (s.begin <= at && at < s.end) return s.capture;
  return "";
}

}  // namespace

TEST_CASE("highlight spans carry the grammar's capture names", "[highlight]") {
  const std::string text =
      "/// Doc.\n"
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  %0 = nn.relu(%x, alpha=0.5f, name=\"r\");\n"
      "  %0\n"
      "}\n";
  auto spans = ide::highlight(text);
  CHECK(capture_at(spans, text.find("Doc")) == "comment.documentation");
  CHECK(capture_at(spans, text.find("def")) == "keyword");
  CHECK(capture_at(spans, text.find("@main")) == "function");
  CHECK(capture_at(spans, text.find("%x:")) == "variable.parameter");  // priority 101 beats @variable
  CHECK(capture_at(spans, text.find("Tensor")) == "type.builtin");
  CHECK(capture_at(spans, text.find("float32")) == "type.builtin");
  CHECK(capture_at(spans, text.find("nn.relu")) == "function.call");
  CHECK(capture_at(spans, text.find("alpha")) == "property");
  CHECK(capture_at(spans, text.find("0.5f")) == "number.float");
  CHECK(capture_at(spans, text.find("\"r\"")) == "string");
  // In order and never overlapping.
  for (size_t i = 1; i < spans.size(); ++i) CHECK(spans[i - 1].end <= spans[i].begin);
}

TEST_CASE("broken text is still highlighted around the error", "[highlight]") {
  const std::string text = "def @f(%x) { add(%x, ; }\ndef @g() { 1f }\n";
  auto spans = ide::highlight(text);
  CHECK(capture_at(spans, text.find("@g")) == "function");
  CHECK(capture_at(spans, text.find("1f")) == "number.float");
}

TEST_CASE("a type alone is highlighted as in a definition", "[highlight]") {
  const std::string type = "fn (Tensor[(3, ?), float32], (int64, bool)) -> Tensor[(n), float16]";
  auto spans = ide::highlight_type(type);
  CHECK(capture_at(spans, type.find("fn")) == "keyword");
  CHECK(capture_at(spans, type.find("Tensor")) == "type.builtin");
  CHECK(capture_at(spans, type.find("3")) == "number");
  CHECK(capture_at(spans, type.find("int64")) == "type");  // outside Tensor[...]: a type name
  CHECK(capture_at(spans, type.find("float16")) == "type.builtin");
  for (const auto& s : spans) CHECK(s.end <= type.size());  // nothing of the wrapping leaks
  CHECK(ide::highlight_type_ansi("float32") == "\x1b[" + std::string(ide::ansi_style("type.builtin")) + "mfloat32\x1b[0m");
}

TEST_CASE("ANSI and HTML renderings", "[highlight]") {
  const std::string text = "def @f(%a: float32) { %a < 1f /* c\nd */ }";
  std::string ansi = ide::highlight_ansi(text);
  CHECK(ansi.find("\x1b[35mdef\x1b[0m") != std::string::npos);
  // A multi-line comment is coloured line by line.
  CHECK(ansi.find("\x1b[2;3m/* c\x1b[0m\n\x1b[2;3md */\x1b[0m") != std::string::npos);
  // Without the escapes the text is unchanged.
  CHECK(strip_ansi(ansi) == text);

  std::string html = ide::highlight_html(text);
  CHECK(html.find("<span style=\"color:#a626a4\">def</span>") != std::string::npos);
  CHECK(html.find("&lt;") != std::string::npos);
  CHECK(html.find(" < ") == std::string::npos);
}

TEST_CASE("relay fmt --color and the REPL's :ir use the grammar's colours", "[highlight]") {
  const std::string dir = RELAY_SOURCE_DIR;
  const std::string file = dir + "/tests/corpus/mlp_let.relay";
  std::string plain = command_output(std::string(RELAY_BINARY) + " fmt --color=never " + file);
  std::string coloured = command_output(std::string(RELAY_BINARY) + " fmt --color=always " + file);
  REQUIRE_FALSE(plain.empty());
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(coloured == ide::highlight_ansi(plain));  // the same text, coloured by the highlighter
  CHECK(coloured.find("\x1b[35mdef\x1b[0m") != std::string::npos);

  std::string repl = command_output("printf 'def @f(%%x: float32) -> float32 { add(%%x, 1f) }\\n:ir @f(2f)\\n' | " +
                         std::string(RELAY_BINARY) + " repl --color=always 2>&1");
  CHECK(repl.find("\x1b[34m@f\x1b[0m(\x1b[32m2f\x1b[0m)") != std::string::npos);
}
