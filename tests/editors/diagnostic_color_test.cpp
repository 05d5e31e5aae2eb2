// Source snippets of rendered diagnostics in the grammar's colours
// (RenderOptions::source_colors filled by ide::diagnostic_source_colors): the snippet's
// text is coloured as `relay fmt --color` colours it, and removing the escapes gives the
// plain rendering byte for byte.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "ide/highlight.h"
#include "lang/base/render.h"
#include "tests/support/terminal_text.h"

using namespace relay;
using relay::testing::command_output;
using relay::testing::strip_ansi;

namespace {

Span find(const SourceManager& sm, FileId f, std::string_view needle) {
  std::string_view text = sm.get(f).text;
  size_t p = text.find(needle);
  REQUIRE(p != std::string_view::npos);
  return Span{f, static_cast<uint32_t>(p), static_cast<uint32_t>(p + needle.size())};
}

std::string sgr(std::string_view capture) { return "\x1b[" + std::string(ide::ansi_style(capture)) + "m"; }

const char* kDense =
    "def @main(%x: Tensor[(1, 4), float32], %w: Tensor[(3, 4), float32]) {\n"
    "  %0 = nn.dense(%x, %w, units=3);\n"
    "  %0\n"
    "}\n";

}  // namespace

TEST_CASE("diagnostic snippets carry the grammar's colours", "[highlight]") {
  SourceManager sm;
  FileId f = sm.add("dense.relay", kDense);
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "nn.dense"), {"nn.dense"});
  d.label(find(sm, f, "%x:"), "declared here");

  RenderOptions coloured{true};
  coloured.source_colors = ide::diagnostic_source_colors();
  const std::string plain = render_diagnostic(d, sm, RenderOptions{false});
  const std::string color = render_diagnostic(d, sm, coloured);

  // The operator is the grammar's function call, the keyword and the dtype theirs.
  REQUIRE(!ide::ansi_style("function.call").empty());
  CHECK(color.find(sgr("function.call") + "nn.dense\x1b[0m") != std::string::npos);
  CHECK(color.find(sgr("keyword") + "def") != std::string::npos);  // (its reset after the blank)
  CHECK(color.find(sgr("type.builtin") + "float32\x1b[0m") != std::string::npos);
  CHECK(color.find(sgr("property") + "units\x1b[0m") != std::string::npos);
  // The labels keep the renderer's colours.
  CHECK(color.find("\x1b[1;31m^^^^^^^^") != std::string::npos);
  CHECK(strip_ansi(color) == plain);

  // Without colour the hook is never asked, and the output is the plain one.
  int calls = 0;
  RenderOptions off{false};
  off.source_colors = [&](std::string_view) {
    ++calls;
    return std::vector<SourceColor>{};
  };
  CHECK(render_diagnostic(d, sm, off) == plain);
  CHECK(calls == 0);
}

TEST_CASE("coloured snippets of cut long lines keep their widths", "[highlight]") {
  // A line wider than the window: the renderer cuts it to `...` around the label.
  std::string body = "def @main(%x: Tensor[(1, 4), float32]) {\n  %0 = add(%x, ";
  for (int i = 0; i < 40; ++i) body += "multiply(%x, 2f), ";
  body += "nn.relu(%x));\n";
  for (int i = 0; i < 40; ++i) body += "  %" + std::to_string(i + 1) + " = add(%0, " + std::to_string(i) + "f);";
  body += "\n  %0\n}\n";
  SourceManager sm;
  FileId f = sm.add("long.relay", body);
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "nn.relu"), {"nn.relu"});
  d.label(find(sm, f, "%40"), "far away");

  for (uint32_t width : {140u, 60u}) {
    RenderOptions coloured{true, width};
    coloured.source_colors = ide::diagnostic_source_colors();
    const std::string plain = render_diagnostic(d, sm, RenderOptions{false, width});
    const std::string color = render_diagnostic(d, sm, coloured);
    REQUIRE(plain.find("...") != std::string::npos);  // the line was cut
    CHECK(color.find(sgr("function.call") + "nn.relu\x1b[0m") != std::string::npos);
    CHECK(strip_ansi(color) == plain);
    // The `...` of a cut is never source: never coloured.
    CHECK(color.find(sgr("function.call") + "...") == std::string::npos);
    CHECK(color.find(sgr("number.float") + ".") == std::string::npos);
  }
}

TEST_CASE("relay check --color=always colours the snippet, --color=never does not", "[highlight]") {
  const std::string path = "diagnostic_color_test.relay";
  {
    std::ofstream out(path);
    out << "def @main(%x: Tensor[(1, 4), float32]) {\n  nn.relu(%y)\n}\n";
  }
  const std::string relay = RELAY_BINARY;
  std::string plain = command_output(relay + " check --color=never " + path + " 2>&1");
  std::string color = command_output(relay + " check --color=always " + path + " 2>&1");
  std::remove(path.c_str());
  REQUIRE(plain.find("nn.relu(%y)") != std::string::npos);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(color.find(sgr("function.call") + "nn.relu\x1b[0m(%y)") != std::string::npos);
  CHECK(strip_ansi(color) == plain);
}
