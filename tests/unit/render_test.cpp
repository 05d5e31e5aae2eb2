// Exact renderings of diagnostics (terminal and JSON). Expected texts are written out
// in full so that any change to the layout shows up as a readable diff.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "lang/base/render.h"

using namespace relay;

namespace {

// The span of the `nth` occurrence of `needle` in the file's text.
Span find(const SourceManager& sm, FileId f, std::string_view needle, int nth = 0) {
  std::string_view text = sm.get(f).text;
  size_t p = text.find(needle);
  for (int i = 0; i < nth; ++i) p = text.find(needle, p + 1);
  REQUIRE(p != std::string_view::npos);
  return Span{f, static_cast<uint32_t>(p), static_cast<uint32_t>(p + needle.size())};
}

std::string render(const Diagnostic& d, const SourceManager& sm) {
  return render_diagnostic(d, sm, RenderOptions{false});
}

const char* kMain =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: float32, %y: float32) {\n"
    "  %0 = add(%xx, %y);\n"
    "  %0\n"
    "}\n";

}  // namespace

TEST_CASE("render: single primary label", "[render]") {
  SourceManager sm;
  FileId f = sm.add("path/file.relay", kMain);
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%xx"), {"%xx"});
  CHECK(render(d, sm) ==
        "error[E0040]: cannot find local variable `%xx` in this scope\n"
        " --> path/file.relay:3:12\n"
        "  |\n"
        "3 |   %0 = add(%xx, %y);\n"
        "  |            ^^^ not found in this scope\n");
}

TEST_CASE("render: primary and secondary labels on one line", "[render]") {
  SourceManager sm;
  FileId f = sm.add("p.relay", kMain);
  Diagnostic d = make_diagnostic(DiagKind::DuplicateParameter, find(sm, f, "%y"), {"%y"});
  d.label(find(sm, f, "%x"), "first bound here");
  d.label(find(sm, f, "float32", 1), "annotated here");
  CHECK(render(d, sm) ==
        "error[E0049]: `%y` is bound more than once in this parameter list\n"
        " --> p.relay:2:24\n"
        "  |\n"
        "2 | def @main(%x: float32, %y: float32) {\n"
        "  |           --           ^^  ------- annotated here\n"
        "  |           |            |\n"
        "  |           |            bound again here\n"
        "  |           first bound here\n");

  SECTION("a rightmost label without message leaves the inline slot to the next one") {
    Diagnostic e = make_diagnostic(DiagKind::DuplicateParameter, find(sm, f, "%y"), {"%y"});
    e.label(find(sm, f, "%x"), "");
    CHECK(render(e, sm) ==
          "error[E0049]: `%y` is bound more than once in this parameter list\n"
          " --> p.relay:2:24\n"
          "  |\n"
          "2 | def @main(%x: float32, %y: float32) {\n"
          "  |           --           ^^ bound again here\n");
  }
}

TEST_CASE("render: labels on different lines", "[render]") {
  SourceManager sm;
  std::string text = "#[version = \"0.0.5\"]\ndef @f(%a) {\n  %a\n}\n";
  for (int i = 0; i < 6; ++i) text += "\n";
  text += "def @f(%b) {\n  %b\n}\n";
  FileId f = sm.add("dup.relay", text);
  Diagnostic d = make_diagnostic(DiagKind::DuplicateGlobal, find(sm, f, "@f", 1), {"@f"});
  d.label(find(sm, f, "@f"), "first defined here");
  // Sorted by line, `...` for the gap, the gutter as wide as "11".
  CHECK(render(d, sm) ==
        "error[E0046]: the global function `@f` is defined more than once\n"
        "  --> dup.relay:11:5\n"
        "   |\n"
        "2  | def @f(%a) {\n"
        "   |     -- first defined here\n"
        "...\n"
        "11 | def @f(%b) {\n"
        "   |     ^^ redefined here\n");

  SECTION("a gap of one line shows that line instead of `...`") {
    Diagnostic e = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%a", 1), {"%a"});
    e.label(find(sm, f, "#[version"), "header");
    CHECK(render(e, sm) ==
          "error[E0040]: cannot find local variable `%a` in this scope\n"
          " --> dup.relay:3:3\n"
          "  |\n"
          "1 | #[version = \"0.0.5\"]\n"
          "  | --------- header\n"
          "2 | def @f(%a) {\n"
          "3 |   %a\n"
          "  |   ^^ not found in this scope\n");
  }
}

TEST_CASE("render: multi-line spans", "[render]") {
  SourceManager sm;
  FileId f = sm.add("m.relay",
                    "def @main() {\n"
                    "  let %f = fn (%a) {\n"
                    "    %a\n"
                    "  };\n"
                    "  %f\n"
                    "}\n");
  const std::string& text = sm.get(f).text;
  uint32_t fn = static_cast<uint32_t>(text.find("fn ("));
  uint32_t close = static_cast<uint32_t>(text.find("};"));

  SECTION("starting mid-line: `__^` to the start, `|__^` at the end") {
    Diagnostic d = make_diagnostic(DiagKind::UnusedVariable, Span{f, fn, close + 1}, {"%f"});
    CHECK(render(d, sm) ==
          "warning[W0002]: unused variable `%f`\n"
          " --> m.relay:2:12\n"
          "  |\n"
          "2 |     let %f = fn (%a) {\n"
          "  |  ____________^\n"
          "3 | |     %a\n"
          "4 | |   };\n"
          "  | |___^ never used\n");
  }
  SECTION("starting at the indentation: `/`, with a label inside") {
    uint32_t let = static_cast<uint32_t>(text.find("let"));
    Diagnostic d = make_diagnostic(DiagKind::UnusedVariable, Span{f, let, close + 2}, {"%f"});
    d.labels[0].message = "this binding";
    d.label(find(sm, f, "%f"), "named here");
    CHECK(render(d, sm) ==
          "warning[W0002]: unused variable `%f`\n"
          " --> m.relay:2:3\n"
          "  |\n"
          "2 | /   let %f = fn (%a) {\n"
          "  | |       -- named here\n"
          "3 | |     %a\n"
          "4 | |   };\n"
          "  | |____^ this binding\n");
  }
  SECTION("long spans show the first and last lines") {
    SourceManager sm2;
    std::string body = "def @main() {\n";
    for (int i = 0; i < 8; ++i) body += "  %" + std::to_string(i) + " = f();\n";
    body += "  %7\n}\n";
    FileId g = sm2.add("long.relay", body);
    uint32_t b = static_cast<uint32_t>(body.find('{'));
    Diagnostic d = make_diagnostic(DiagKind::UnclosedDelimiter, Span{g, b, static_cast<uint32_t>(body.size() - 1)}, {"{"});
    d.labels[0].message = "this block";
    CHECK(render(d, sm2) ==
          "error[E0025]: unclosed delimiter `{`\n"
          "  --> long.relay:1:13\n"
          "   |\n"
          "1  |   def @main() {\n"
          "   |  _____________^\n"
          "...  |\n"
          "11 | | }\n"
          "   | |_^ this block\n");
  }
}

TEST_CASE("render: long lines are cut around the labels", "[render]") {
  SourceManager sm;
  std::string line = "  %0 = add(%x, 1f); /* " + std::string(150, 'c') + " */ add(%0, %y)";
  FileId f = sm.add("long.relay", "def @main(%x: float32) {\n" + line + "\n}\n");
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%y"), {"%y"});
  CHECK(render(d, sm) ==
        "error[E0040]: cannot find local variable `%y` in this scope\n"
        " --> long.relay:2:186\n"
        "  |\n"
        "2 | ...ccccc */ add(%0, %y)\n"
        "  |                     ^^ not found in this scope\n");

  SECTION("labels near the start keep the start and cut the end") {
    Diagnostic e = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%x", 1), {"%x"});
    std::string out = render(e, sm);
    CHECK(out.find("2 |   %0 = add(%x, 1f); /* ccc") != std::string::npos);
    CHECK(out.find("ccc...\n  |            ^^ not found") != std::string::npos);
  }
}

TEST_CASE("render: a narrower line width, and labels spread wider than it", "[render]") {
  SourceManager sm;
  // An operand 110 columns long before the operator: the operand's label and the
  // operator's cannot share one 100-column window.
  std::string line = "  %0 = add(%x, 1f) + /* " + std::string(90, 'c') + " */ %x + %y;";
  FileId f = sm.add("wide.relay", "def @main(%x: float32) {\n" + line + "\n}\n");
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%y"), {"%y"});
  d.label(find(sm, f, "add(%x, 1f) + /* " + std::string(90, 'c') + " */ %x"), "this operand");
  // At the terminal's 140 columns the line is drawn whole: every label fits.
  const std::string wide = render(d, sm);
  CHECK(wide.find("2 |   %0 = add(%x, 1f)") != std::string::npos);
  CHECK(wide.find("...") == std::string::npos);
  // At 100 (a notebook cell) the window goes around the primary label; the operand's
  // label is cut at the `...`, and no line is wider than 100 columns plus the gutter.
  const std::string narrow = render_diagnostic(d, sm, RenderOptions{false, 100});
  INFO(narrow);
  CHECK(narrow ==
        "error[E0040]: cannot find local variable `%y` in this scope\n"
        " --> wide.relay:2:124\n"
        "  |\n"
        "2 | ...cccccccc */ %x + %y;\n"
        "  |    --------------   ^^ not found in this scope\n"
        "  |    |\n"
        "  |    this operand\n");
  // Widths are clamped to [40, 140].
  CHECK(render_diagnostic(d, sm, RenderOptions{false, 1000}) == wide);
  CHECK(render_diagnostic(d, sm, RenderOptions{false, 1}) == render_diagnostic(d, sm, RenderOptions{false, 40}));
}

namespace {

// A line of about `bytes` bytes of `%a = add(%b, 1f); `, with `middle` in its middle and
// `end` at its end.
std::string long_line(size_t bytes, std::string_view middle, std::string_view end) {
  const std::string_view unit = "%a = add(%b, 1f); ";
  std::string s;
  s.reserve(bytes + middle.size() + end.size() + unit.size());
  while (s.size() < bytes / 2) s += unit;
  s += middle;
  while (s.size() < bytes) s += unit;
  s += end;
  return s;
}

}  // namespace

// Only a window around the labels of a very long line is drawn; the picture is the one
// a whole-line drawing gives (the expected texts below are what the renderer printed
// before it learnt to draw windows, at a cost of seconds and gigabytes).
TEST_CASE("render: very long lines are drawn only around the labels", "[render]") {
  SourceManager sm;
  FileId f = sm.add("long.relay", "def @main(%b: float32) {\n" +
                                      long_line(5u << 20, "%q = add(%b, 变量\t%b); ", "add(%b, %z)") +
                                      "\n}\n");
  SECTION("a label in the middle") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%q"), {"%q"});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%q` in this scope\n"
          " --> long.relay:2:2621449\n"
          "  |\n"
          "2 | ...a = add(%b, 1f); %q = add(%b, 变量    %b); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %...\n"
          "  |                     ^^ not found in this scope\n");
    auto j = nlohmann::json::parse(render_json(d, sm));
    CHECK(j["column"] == 2621449);
    CHECK(j["rendered"] == render(d, sm));
  }
  SECTION("a label at the end") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%z"), {"%z"});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%z` in this scope\n"
          " --> long.relay:2:5242894\n"
          "  |\n"
          "2 | ...%b, 1f); add(%b, %z)\n"
          "  |                     ^^ not found in this scope\n");
  }
  SECTION("two labels, one on wide characters after a tab") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%q"), {"%q"});
    d.label(find(sm, f, "变量"), "wide");
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%q` in this scope\n"
          " --> long.relay:2:2621449\n"
          "  |\n"
          "2 | ...a = add(%b, 1f); %q = add(%b, 变量    %b); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %...\n"
          "  |                     ^^           ---- wide\n"
          "  |                     |\n"
          "  |                     not found in this scope\n");
  }
  SECTION("fixes show a window of the patched line") {
    Span q = find(sm, f, "%q");
    Diagnostic d = make_diagnostic(DiagKind::UnusedVariable, q, {"%q"});
    d.help("prefix it with an underscore", {TextEdit{Span{f, q.begin + 1, q.begin + 1}, "_"}});
    d.help("remove it", {TextEdit{find(sm, f, "%q = add(%b, 变量\t%b); "), ""}});
    CHECK(render(d, sm) ==
          "warning[W0002]: unused variable `%q`\n"
          " --> long.relay:2:2621449\n"
          "  |\n"
          "2 | ...a = add(%b, 1f); %q = add(%b, 变量    %b); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %...\n"
          "  |                     ^^ never used\n"
          "  |\n"
          "help: prefix it with an underscore\n"
          "  |\n"
          "2 | ... = add(%b, 1f); %_q = add(%b, 变量    %b); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %...\n"
          "  |                     +\n"
          "help: remove it\n"
          "  |\n"
          "2 - ...a = add(%b, 1f); %q = add(%b, 变量    %b); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %...\n"
          "2 + ...a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %a = add(...\n");
  }
  SECTION("a replacement at the end of the line") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%z"), {"%z"});
    d.help("use a parameter", {TextEdit{find(sm, f, "%z"), "%b"}});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%z` in this scope\n"
          " --> long.relay:2:5242894\n"
          "  |\n"
          "2 | ...%b, 1f); add(%b, %z)\n"
          "  |                     ^^ not found in this scope\n"
          "  |\n"
          "help: use a parameter\n"
          "  |\n"
          "2 | ...%b, 1f); add(%b, %b)\n"
          "  |                     ~~\n");
  }
  SECTION("a label over most of the line shows its start") {
    Span all = find(sm, f, "%a = add");
    all.end = find(sm, f, "%z").end;
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, all, {"x"});
    std::string out = render(d, sm);
    CHECK(out.size() < 20000);
    CHECK(out.find("2 | def @main") == std::string::npos);
    CHECK(out.find("2 | %a = add(%b, 1f); %a = add(%b, 1f);") != std::string::npos);
    CHECK(out.find("...\n  | ^^^^^^^^^^") != std::string::npos);
  }
}

TEST_CASE("render: a long line near its start and around odd bytes", "[render]") {
  SourceManager sm;
  SECTION("the start is kept, columns are the real ones") {
    FileId f = sm.add("start.relay",
                      "def @main() {\n  %0 = add(%x, 1f); /* " + std::string(8000, 'c') + " */\n}\n");
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%x"), {"%x"});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%x` in this scope\n"
          " --> start.relay:2:12\n"
          "  |\n"
          "2 |   %0 = add(%x, 1f); /* " + std::string(114, 'c') + "...\n"
          "  |            ^^ not found in this scope\n");
  }
  SECTION("invalid bytes, combining marks, control characters and a tab before the label") {
    FileId f = sm.add("odd.relay",
                      long_line(5000, "\xe4\xb8 \xcc\x81\xcc\x81 e\xcc\x81 \xff\x80\x80\x80😀\t\x01%q = add(%b, %b); ", ""));
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%q"), {"%q"});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%q` in this scope\n"
          " --> odd.relay:1:2525\n"
          "  |\n"
          "1 | ...\xef\xbf\xbd\xef\xbf\xbd \xcc\x81\xcc\x81 e\xcc\x81 "
          "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd😀    \xe2\x90\x81%q = add(%b, %b); "
          "%a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); %a = add(%b, 1f); "
          "%a = add(...\n"
          "  |                     ^^ not found in this scope\n");
  }
}

// No timing here: rendering many diagnostics on one long line must simply work, each
// showing a short snippet (it used to take minutes).
TEST_CASE("render: many diagnostics on one very long line", "[render]") {
  SourceManager sm;
  const size_t bytes = 2u << 20;
  FileId f = sm.add("many.relay", "def @main() {\n" + long_line(bytes, "", "") + "\n}\n");
  const uint32_t start = 14;  // the long line's first byte
  const int count = 2000;
  int bad = 0;
  for (int i = 0; i < count; ++i) {
    uint32_t at = start + static_cast<uint32_t>(uint64_t(i) * (bytes - 20) / count);
    std::string_view text = sm.get(f).text;
    at = static_cast<uint32_t>(text.find("%a", at));
    Diagnostic d = make_diagnostic(DiagKind::UnusedVariable, Span{f, at, at + 2}, {"%a"});
    if (i % 2) d.help("prefix it with an underscore", {TextEdit{Span{f, at + 1, at + 1}, "_"}});
    std::string out = render(d, sm);
    bool ok = out.size() < 1200 && out.find("\n2 | ") != std::string::npos &&
              out.find("%a = add(") != std::string::npos && out.find("^^ never used") != std::string::npos;
    if (!ok && ++bad == 1) FAIL_CHECK(out);
  }
  CHECK(bad == 0);
}

TEST_CASE("render: tabs are four columns", "[render]") {
  SourceManager sm;
  FileId f = sm.add("t.relay", "def @main() {\n\t%0 = add(%a,\t%b);\n}\n");
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%b"), {"%b"});
  CHECK(render(d, sm) ==
        "error[E0040]: cannot find local variable `%b` in this scope\n"
        " --> t.relay:2:15\n"
        "  |\n"
        "2 |     %0 = add(%a,    %b);\n"
        "  |                     ^^ not found in this scope\n");
}

TEST_CASE("render: wide characters take two columns", "[render]") {
  SourceManager sm;
  FileId f = sm.add("u.relay",
                    "def @main() {\n"
                    "  %0 = add(%变量, %y);\n"
                    "  %1 = \"😀\" + %q;\n"
                    "}\n");
  SECTION("caret after CJK text, byte-based column") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%y"), {"%y"});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%y` in this scope\n"
          " --> u.relay:2:21\n"
          "  |\n"
          "2 |   %0 = add(%变量, %y);\n"
          "  |                   ^^ not found in this scope\n");
  }
  SECTION("a CJK name is underlined across both cells of each character") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%变量"), {"%变量"});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%变量` in this scope\n"
          " --> u.relay:2:12\n"
          "  |\n"
          "2 |   %0 = add(%变量, %y);\n"
          "  |            ^^^^^ not found in this scope\n");
  }
  SECTION("emoji") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%q"), {"%q"});
    d.label(find(sm, f, "😀"), "");
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%q` in this scope\n"
          " --> u.relay:3:17\n"
          "  |\n"
          "3 |   %1 = \"😀\" + %q;\n"
          "  |         --    ^^ not found in this scope\n");
  }
}

TEST_CASE("render: zero-width span at end of file", "[render]") {
  SourceManager sm;
  FileId f = sm.add("eof.relay", "def @main() {\n  %x\n");
  uint32_t end = static_cast<uint32_t>(sm.get(f).text.size());
  Diagnostic d = make_diagnostic(DiagKind::ExpectedToken, Span{f, end, end}, {"`}`", "end of file"});
  d.label(find(sm, f, "{"), "to close this");
  // The end of a file ending in a newline is shown after the last line's text.
  CHECK(render(d, sm) ==
        "error[E0020]: expected `}`, found end of file\n"
        " --> eof.relay:2:5\n"
        "  |\n"
        "1 | def @main() {\n"
        "  |             - to close this\n"
        "2 |   %x\n"
        "  |     ^ expected `}`\n");

  SourceManager sm2;
  FileId g = sm2.add("bare.relay", "%x");  // no final newline
  Diagnostic e = make_diagnostic(DiagKind::ExpectedToken, Span{g, 2, 2}, {"`;`", "end of file"});
  CHECK(render(e, sm2) ==
        "error[E0020]: expected `;`, found end of file\n"
        " --> bare.relay:1:3\n"
        "  |\n"
        "1 | %x\n"
        "  |   ^ expected `;`\n");
}

TEST_CASE("render: notes, helps and fixes", "[render]") {
  SourceManager sm;
  FileId f = sm.add("path/file.relay", kMain);

  SECTION("replacement: `~` under the new text") {
    Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%xx"), {"%xx"});
    d.note("locals are visible from their binding to the end of their scope");
    d.help("bind it first");
    d.help("a local variable with a similar name exists", {TextEdit{find(sm, f, "%xx"), "%x"}});
    CHECK(render(d, sm) ==
          "error[E0040]: cannot find local variable `%xx` in this scope\n"
          " --> path/file.relay:3:12\n"
          "  |\n"
          "3 |   %0 = add(%xx, %y);\n"
          "  |            ^^^ not found in this scope\n"
          "  |\n"
          "  = note: locals are visible from their binding to the end of their scope\n"
          "  = help: bind it first\n"
          "help: a local variable with a similar name exists\n"
          "  |\n"
          "3 |   %0 = add(%x, %y);\n"
          "  |            ~~\n");
  }
  SECTION("insertion: `+` under the inserted text") {
    uint32_t paren = find(sm, f, ");").begin;
    Diagnostic d = make_diagnostic(DiagKind::ExpectedExpression, Span{f, paren, paren}, {"`)`"});
    d.help("pass a third argument", {TextEdit{Span{f, paren, paren}, ", %x"}});
    CHECK(render(d, sm) ==
          "error[E0021]: expected an expression, found `)`\n"
          " --> path/file.relay:3:19\n"
          "  |\n"
          "3 |   %0 = add(%xx, %y);\n"
          "  |                   ^ expected an expression\n"
          "  |\n"
          "help: pass a third argument\n"
          "  |\n"
          "3 |   %0 = add(%xx, %y, %x);\n"
          "  |                   ++++\n");
  }
  SECTION("deletion: the old and new lines") {
    Diagnostic d = make_diagnostic(DiagKind::UnusedVariable, find(sm, f, "%y"), {"%y"});
    d.help("remove the parameter", {TextEdit{find(sm, f, ", %y: float32"), ""}});
    CHECK(render(d, sm) ==
          "warning[W0002]: unused variable `%y`\n"
          " --> path/file.relay:2:24\n"
          "  |\n"
          "2 | def @main(%x: float32, %y: float32) {\n"
          "  |                        ^^ never used\n"
          "  |\n"
          "help: remove the parameter\n"
          "  |\n"
          "2 - def @main(%x: float32, %y: float32) {\n"
          "2 + def @main(%x: float32) {\n");
  }
  SECTION("multi-line notes are indented under their text") {
    Diagnostic d;
    d.kind = DiagKind::InvalidMetadata;
    d.message = "invalid metadata section: bad";
    d.note("first\nsecond");
    CHECK(render(d, sm) ==
          "error[E0014]: invalid metadata section: bad\n"
          "  |\n"
          "  = note: first\n"
          "          second\n");
  }
}

TEST_CASE("render: a label in another file", "[render]") {
  SourceManager sm;
  FileId a = sm.add("a.relay", kMain);
  FileId b = sm.add("lib/b.relay", "def @add(%a, %b) { %a }\n");
  Diagnostic d = make_diagnostic(DiagKind::DuplicateGlobal, find(sm, a, "@main"), {"@main"});
  d.label(find(sm, b, "@add"), "also defined here");
  CHECK(render(d, sm) ==
        "error[E0046]: the global function `@main` is defined more than once\n"
        " --> a.relay:2:5\n"
        "  |\n"
        "2 | def @main(%x: float32, %y: float32) {\n"
        "  |     ^^^^^ redefined here\n"
        "  |\n"
        " ::: lib/b.relay:1:5\n"
        "  |\n"
        "1 | def @add(%a, %b) { %a }\n"
        "  |     ---- also defined here\n");
}

TEST_CASE("render: colour only when asked", "[render]") {
  SourceManager sm;
  FileId f = sm.add("c.relay", kMain);
  Diagnostic err = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%xx"), {"%xx"});
  err.label(find(sm, f, "%x"), "did you mean this?");
  err.note("n");
  std::string plain = render_diagnostic(err, sm, RenderOptions{false});
  std::string color = render_diagnostic(err, sm, RenderOptions{true});
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(color.find("\x1b[1;31merror[E0040]\x1b[0m\x1b[1m: cannot find") != std::string::npos);
  CHECK(color.find("\x1b[1;31m^^^ not found in this scope") != std::string::npos);  // primary: red
  CHECK(color.find("\x1b[1;34m--") != std::string::npos);                           // secondary: blue
  CHECK(color.find("\x1b[1;34m-->") != std::string::npos);                          // gutter: blue
  CHECK(color.find("\x1b[1mnote\x1b[0m") != std::string::npos);

  // Stripping the escapes gives back the plain rendering.
  std::string stripped;
  for (size_t i = 0; i < color.size(); ++i) {
    if (color[i] == '\x1b') {
      i = color.find('m', i);
      continue;
    }
    stripped += color[i];
  }
  CHECK(stripped == plain);

  Diagnostic warn = make_diagnostic(DiagKind::UnusedVariable, find(sm, f, "%y"), {"%y"});
  std::string wc = render_diagnostic(warn, sm, RenderOptions{true});
  CHECK(wc.find("\x1b[1;33mwarning[W0002]") != std::string::npos);
  CHECK(wc.find("\x1b[1;33m^^ never used") != std::string::npos);  // warning carets: yellow
}

TEST_CASE("render: summary line", "[render]") {
  CHECK(render_summary(0, 0, false).empty());
  CHECK(render_summary(1, 0, false) == "error: aborting due to 1 previous error\n");
  CHECK(render_summary(3, 1, false) == "error: aborting due to 3 previous errors; 1 warning emitted\n");
  CHECK(render_summary(0, 2, false) == "warning: 2 warnings emitted\n");
  CHECK(render_summary(2, 0, true) == "\x1b[1;31merror\x1b[0m\x1b[1m: aborting due to 2 previous errors\x1b[0m\n");
}

TEST_CASE("render: JSON", "[render]") {
  SourceManager sm;
  sm.add("other.relay", "");
  FileId f = sm.add("path/file.relay", kMain);
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%xx"), {"%xx"});
  d.label(find(sm, f, "%x"), "similar");
  d.note("a note");
  d.help("a local variable with a similar name exists", {TextEdit{find(sm, f, "%xx"), "%x"}});
  d.tag(kTagUnnecessary);
  std::string line = render_json(d, sm);
  CHECK(line.find('\n') == std::string::npos);  // one line, newlines escaped

  auto j = nlohmann::json::parse(line);
  CHECK(j["code"] == "E0040");
  CHECK(j["severity"] == "error");
  CHECK(j["message"] == "cannot find local variable `%xx` in this scope");
  CHECK(j["file"] == "path/file.relay");
  CHECK(j["line"] == 3);
  CHECK(j["column"] == 12);
  CHECK(j["end_line"] == 3);
  CHECK(j["end_column"] == 15);
  uint32_t at = static_cast<uint32_t>(std::string_view(kMain).find("%xx"));
  CHECK(j["byte_start"] == at);
  CHECK(j["byte_end"] == at + 3);

  REQUIRE(j["labels"].size() == 2);
  CHECK(j["labels"][0]["primary"] == true);
  CHECK(j["labels"][0]["message"] == "not found in this scope");
  CHECK(j["labels"][0]["line"] == 3);
  CHECK(j["labels"][1]["primary"] == false);
  CHECK(j["labels"][1]["message"] == "similar");
  CHECK(j["labels"][1]["line"] == 2);
  CHECK(j["labels"][1]["column"] == 11);
  CHECK(j["labels"][1]["end_column"] == 13);

  CHECK(j["notes"] == nlohmann::json::array({"a note"}));
  REQUIRE(j["helps"].size() == 1);
  CHECK(j["helps"][0]["message"] == "a local variable with a similar name exists");
  REQUIRE(j["helps"][0]["fixes"].size() == 1);
  const auto& fix = j["helps"][0]["fixes"][0];
  CHECK(fix["file"] == "path/file.relay");
  CHECK(fix["line"] == 3);
  CHECK(fix["column"] == 12);
  CHECK(fix["byte_start"] == at);
  CHECK(fix["byte_end"] == at + 3);
  CHECK(fix["replacement"] == "%x");
  CHECK(j["tags"] == nlohmann::json::array({"unnecessary"}));
  CHECK(j["rendered"] == render_diagnostic(d, sm, RenderOptions{false}));
}

TEST_CASE("render: JSON columns are byte-based past wide characters", "[render]") {
  SourceManager sm;
  FileId f = sm.add("u.relay", "%变 + %y");
  Diagnostic d = make_diagnostic(DiagKind::UndefinedLocal, find(sm, f, "%y"), {"%y"});
  auto j = nlohmann::json::parse(render_json(d, sm));
  CHECK(j["column"] == 8);  // '%', 3 bytes, ' + ' -> byte 7, 1-based 8
  CHECK(j["byte_start"] == 7);
}

TEST_CASE("render: robust against odd input", "[render]") {
  SourceManager sm;
  FileId f = sm.add("odd.relay", "ab\r\ncd\x01\xff\n");
  SECTION("spans past the end are clamped, control and invalid bytes shown one cell each") {
    Diagnostic d = make_diagnostic(DiagKind::InvalidUtf8, Span{f, 6, 7});
    d.label(Span{f, 50, 60}, "far away");
    CHECK(render(d, sm) ==
          "error[E0002]: invalid UTF-8 in source\n"
          " --> odd.relay:2:3\n"
          "  |\n"
          "2 | cd\xe2\x90\x81\xef\xbf\xbd\n"
          "  |   ^ - far away\n"
          "  |   |\n"
          "  |   these bytes are not valid UTF-8\n");
  }
  SECTION("a label in an unknown file and no labels at all") {
    Diagnostic d = make_diagnostic(DiagKind::UnknownImport, Span{42, 0, 1}, {"x"});
    CHECK(render(d, sm) == "error[E0015]: unknown import `x`\n");
    auto j = nlohmann::json::parse(render_json(d, sm));
    CHECK(j["file"].is_null());
    Diagnostic none;
    none.message = "m";
    CHECK_NOTHROW(render_json(none, sm));
  }
  SECTION("invalid UTF-8 in a message does not break the JSON") {
    Diagnostic d = make_diagnostic(DiagKind::InvalidCharacter, Span{f, 0, 1}, {"\xff"});
    CHECK_NOTHROW(nlohmann::json::parse(render_json(d, sm)));
  }
}

TEST_CASE("render: character widths", "[render]") {
  CHECK(char_width(U'a') == 1);
  CHECK(char_width(U'变') == 2);
  CHECK(char_width(U'😀') == 2);
  CHECK(char_width(U'\u0301') == 0);  // combining acute accent
  CHECK(display_width("a\tb") == 6);
  CHECK(display_width("变量") == 4);
  CHECK(display_width("e\xcc\x81") == 1);
  CHECK(display_width("\xff") == 1);
}
