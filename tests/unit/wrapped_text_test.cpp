// to_user_text (lang/base/wrapped_text.h): diagnostics about a tool's wrapper around the
// user's text, moved onto that text. The wrapper here is "fn() {" + user text + "\n}".
#include <catch2/catch.hpp>

#include "lang/base/wrapped_text.h"

using namespace relay;

namespace {

constexpr FileId kWrapper = 1, kUser = 2;
constexpr uint32_t kBegin = 6, kEnd = 6 + 9;  // the user's 9 bytes in the wrapper

WrappedText wrapper() {
  WrappedText w;
  w.to_user = [](Span s) -> std::optional<Span> {
    if (s.file != kWrapper) return s;
    if (s.begin < kBegin || s.end > kEnd) return std::nullopt;
    return Span{kUser, s.begin - kBegin, s.end - kBegin};
  };
  w.place_generated = [](Span) { return Span{kUser, 9, 9}; };
  w.past_end = [](Span s) { return s.begin >= kEnd; };
  w.end_name = "the end of the input";
  return w;
}

}  // namespace

TEST_CASE("wrapped text: labels in the user's text move onto it, others stay where they are", "[diagnostic]") {
  Diagnostic d;
  d.message = "mismatched types";
  d.labels = {{Span{kWrapper, 8, 10}, "this", true}, {Span{7, 3, 4}, "the prelude's", false}};
  Diagnostic out = to_user_text(d, wrapper());
  REQUIRE(out.labels.size() == 2);
  CHECK(out.labels[0].span.file == kUser);
  CHECK(out.labels[0].span.begin == 2);
  CHECK(out.labels[0].span.end == 4);
  CHECK(out.labels[1].span.file == 7);  // another file is the user's as it is
  CHECK(out.message == "mismatched types");
}

TEST_CASE("wrapped text: a primary label past the end is the end of the input, secondary generated ones go", "[diagnostic]") {
  Diagnostic d;
  d.message = "expected `)`, found `}`";
  d.labels = {{Span{kWrapper, kEnd + 1, kEnd + 2}, "here", true}, {Span{kWrapper, 0, 2}, "the header", false}};
  Diagnostic out = to_user_text(d, wrapper());
  REQUIRE(out.labels.size() == 1);
  CHECK(out.labels[0].span.file == kUser);
  CHECK(out.labels[0].span.begin == 9);
  CHECK(out.message == "expected `)`, found the end of the input");
  // In the header, before the text, the message stays.
  d.labels = {{Span{kWrapper, 0, 2}, "here", true}};
  out = to_user_text(d, wrapper());
  CHECK(out.message == "expected `)`, found `}`");
}

TEST_CASE("wrapped text: a fix is kept only when all its edits are in the user's text", "[diagnostic]") {
  Diagnostic d;
  d.message = "m";
  d.labels = {{Span{kWrapper, 7, 8}, "", true}};
  d.help("inside", {TextEdit{Span{kWrapper, 7, 8}, "x"}, TextEdit{Span{kWrapper, 9, 9}, "y"}});
  d.help("partly outside", {TextEdit{Span{kWrapper, 7, 8}, "x"}, TextEdit{Span{kWrapper, 1, 2}, "y"}});
  Diagnostic out = to_user_text(d, wrapper());
  REQUIRE(out.helps.size() == 2);
  REQUIRE(out.helps[0].edits.size() == 2);
  CHECK(out.helps[0].edits[1].span.file == kUser);
  CHECK(out.helps[0].edits[1].span.begin == 3);
  CHECK(out.helps[0].message == "inside");
  CHECK(out.helps[1].edits.empty());  // the help stays, without a fix
  CHECK(out.helps[1].message == "partly outside");
}
