// The session engine behind `relay repl` and the notebook kernel (repl/session.h):
// what the transcript goldens (tests/ui/repl) cannot show — completion and inspection
// offsets, completeness, timing output, :reload of a changed file, interrupts, and that
// a failed input leaves the session exactly as it was.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <thread>

#include "repl/session.h"

using namespace relay;
using namespace relay::repl;

namespace {

std::string text_of(const ExecResult& r) {
  std::string s;
  for (const auto& o : r.outputs) s += o.text + "\n";
  return s;
}

std::string env_of(Session& s) { return text_of(s.execute(":env")); }

bool has_label(const ide::CompletionResult& r, const std::string& label) {
  for (const auto& i : r.items)
    if (i.label == label) return true;
  return false;
}

}  // namespace

TEST_CASE("session: values are shown with their types", "[session]") {
  Session s;
  auto r = s.execute("add(ones(shape=[2], dtype=\"float32\"), 1f)");
  REQUIRE(r.ok);
  REQUIRE(r.outputs.size() == 1);
  CHECK(r.outputs[0].kind == Output::Kind::Value);
  CHECK(r.outputs[0].text == "[2. 2.]");
  CHECK(r.outputs[0].type == "Tensor[(2), float32]");
  REQUIRE(r.outputs[0].value.is_tensor());
}

TEST_CASE("session: every kind of failure leaves the session unchanged", "[session]") {
  Session s;
  REQUIRE(s.execute("def @f(%x: float32) -> float32 { multiply(%x, 2f) }").ok);
  REQUIRE(s.execute("let %v = 3f;").ok);
  std::string before = env_of(s);
  const char* failures[] = {
      "add(1f, ",                                                     // syntax (run as is)
      "@g(%v)",                                                       // name
      "def @f(%x: float32) -> int32 { %x }",                          // type in a redefinition
      "let %v = take(ones(shape=[2], dtype=\"float32\"), 9, mode=\"fast\");",  // run time in a binding
      "def @h() -> float32 { 1f } def @f(%y: int32) -> int32 { %nope }",  // one bad of two definitions
      ":viz nothing",
      ":load /nonexistent/x.relay",
  };
  for (const char* input : failures) {
    INFO(input);
    auto r = s.execute(input);
    CHECK_FALSE(r.ok);
    REQUIRE(!r.outputs.empty());
    CHECK(r.outputs.back().kind == Output::Kind::Error);
    CHECK(env_of(s) == before);
  }
  auto r = s.execute("@f(%v)");
  REQUIRE(r.ok);
  CHECK(r.outputs[0].text == "6.0");
}

TEST_CASE("session: a redefinition re-checks its callers and reports new types", "[session]") {
  Session s;
  REQUIRE(s.execute("def @inner(%x: float32) -> float32 { %x }").ok);
  REQUIRE(s.execute("def @outer(%x: float32) { @inner(%x) }").ok);
  auto r = s.execute("def @inner(%x: float32) -> (float32, float32) { (%x, %x) }");
  REQUIRE(r.ok);
  std::string t = text_of(r);
  CHECK(t.find("redefined @inner: fn (float32) -> (float32, float32)  (was fn (float32) -> float32)") !=
        std::string::npos);
  CHECK(t.find("re-checked @outer: fn (float32) -> (float32, float32)") != std::string::npos);
  // Breaking an annotated caller is refused with E0111 and the errors in the caller.
  REQUIRE(s.execute("def @user(%x: float32) -> (float32, float32) { @inner(%x) }").ok);
  r = s.execute("def @inner(%x: float32) -> float32 { %x }");
  CHECK_FALSE(r.ok);
  REQUIRE(r.outputs[0].diagnostics.size() >= 2);
  CHECK(r.outputs[0].diagnostics[0].code() == "E0111");
  CHECK(r.outputs[0].diagnostics[0].message == "redefining @inner breaks @user");
  CHECK(text_of(s.execute(":type @inner")) == "fn (float32) -> (float32, float32)\n");
}

TEST_CASE("session: diagnostics point into the input they came from", "[session]") {
  Session s;
  REQUIRE(s.execute("let %a = 1f;").ok);
  auto r = s.execute("add(%a, %zz)");
  REQUIRE_FALSE(r.ok);
  const Diagnostic& d = r.outputs[0].diagnostics.at(0);
  const SourceFile& f = s.sources().get(d.primary().span.file);
  CHECK(f.name == "<input 2>");
  CHECK(f.text.substr(d.primary().span.begin, d.primary().span.size()) == "%zz");
  std::string shown = s.render(r.outputs[0].diagnostics, false);
  CHECK(shown.find("--> <input 2>:1:9") != std::string::npos);
}

TEST_CASE("session: completeness of partial inputs", "[session]") {
  Session s;
  CHECK(s.is_complete("add(1f, 2f)").status == Completeness::Complete);
  auto open = s.is_complete("def @f(%x: float32) {\n  let %y = (");
  CHECK(open.status == Completeness::Incomplete);
  CHECK(open.indent == "    ");
  CHECK(s.is_complete("def @f(%x: float32)").status == Completeness::Incomplete);
  CHECK(s.is_complete("add(1f, 2f) +").status == Completeness::Incomplete);
  CHECK(s.is_complete("let %x = 1f;").status == Completeness::Complete);
  CHECK(s.is_complete("\"unclosed").status == Completeness::Incomplete);
  CHECK(s.is_complete("/* open comment").status == Completeness::Incomplete);
  CHECK(s.is_complete("add(1f))").status == Completeness::Invalid);
  CHECK(s.is_complete("def def").status == Completeness::Invalid);
  CHECK(s.is_complete(":env").status == Completeness::Complete);
  CHECK(s.is_complete("").status == Completeness::Complete);
}

TEST_CASE("session: completion uses the language server's engine on the session", "[session]") {
  Session s;
  REQUIRE(s.execute("def @scale(%x: float32) -> float32 { %x }").ok);
  REQUIRE(s.execute("let %weights = 1f;").ok);
  std::string input = "add(%we";
  auto r = s.complete(input, static_cast<uint32_t>(input.size()));
  CHECK(has_label(r, "%weights"));
  CHECK(r.replace_begin == 4);
  CHECK(r.replace_end == input.size());
  input = "@sc";
  r = s.complete(input, 3);
  CHECK(has_label(r, "@scale"));
  CHECK(r.replace_begin == 0);
  for (const auto& i : r.items) CHECK(i.label.find("__repl") == std::string::npos);
  input = "nn.con";
  r = s.complete(input, 6);
  CHECK(has_label(r, "nn.conv2d"));
  // Commands, and expressions inside a command.
  r = s.complete(":ty", 3);
  REQUIRE(r.items.size() == 1);
  CHECK(r.items[0].label == ":type");
  CHECK(r.replace_begin == 0);
  input = ":type %wei";
  r = s.complete(input, static_cast<uint32_t>(input.size()));
  CHECK(has_label(r, "%weights"));
  CHECK(r.replace_begin == 6);
  r = s.complete(":viz sc", 7);
  REQUIRE(r.items.size() == 1);
  CHECK(r.items[0].label == "scale");
  // Inside a multi-line definition being typed, its parameters are in scope.
  input = "def @g(%input_tensor: float32) {\n  add(%inp";
  r = s.complete(input, static_cast<uint32_t>(input.size()));
  CHECK(has_label(r, "%input_tensor"));
}

TEST_CASE("session: inspection shows what hover shows", "[session]") {
  Session s;
  REQUIRE(s.execute("/// Doubles.\ndef @twice(%x: float32) -> float32 { add(%x, %x) }").ok);
  auto i = s.inspect("@twice(1f)", 3);
  REQUIRE(i);
  CHECK(i->markdown.find("fn (float32) -> float32") != std::string::npos);
  CHECK(i->markdown.find("Doubles.") != std::string::npos);
  CHECK(i->plain.find("```") == std::string::npos);
  i = s.inspect("nn.relu(1f)", 7);  // the cursor right after the name
  REQUIRE(i);
  CHECK(i->markdown.find("nn.relu") != std::string::npos);
  CHECK_FALSE(s.inspect("   ", 1));
}

TEST_CASE("session: :time reports a duration and the steps", "[session]") {
  Session s;
  auto r = s.execute(":time add(1f, 2f)");
  REQUIRE(r.ok);
  REQUIRE(r.outputs.size() == 2);
  CHECK(r.outputs[0].text == "3.0");
  CHECK(r.outputs[1].text.starts_with("time: "));
  CHECK(r.outputs[1].text.find("evaluation steps)") != std::string::npos);
}

TEST_CASE("session: :reload picks up a changed file", "[session]") {
  std::string path = "/tmp/relay_session_test_" + std::to_string(::getpid()) + ".relay";
  auto write = [&](const char* text) {
    std::ofstream(path) << text;
  };
  write("#[version = \"0.0.5\"]\ndef @k() -> float32 { 1f }\n");
  Session s;
  REQUIRE(s.execute(":load " + path).ok);
  CHECK(s.execute("@k()").outputs[0].text == "1.0");
  write("#[version = \"0.0.5\"]\ndef @k() -> float32 { 2f }\n");
  REQUIRE(s.execute(":reload").ok);
  CHECK(s.execute("@k()").outputs[0].text == "2.0");
  write("#[version = \"0.0.5\"]\ndef @k() -> float32 { %nope }\n");
  CHECK_FALSE(s.execute(":reload").ok);  // a broken file keeps the old definition
  CHECK(s.execute("@k()").outputs[0].text == "2.0");
  std::remove(path.c_str());
  // Gone: the error says why, and the definitions stay.
  auto gone = s.execute(":reload");
  REQUIRE_FALSE(gone.ok);
  REQUIRE(!gone.outputs.empty());
  REQUIRE(gone.outputs.back().diagnostics.size() == 1);
  const Diagnostic& d = gone.outputs.back().diagnostics[0];
  CHECK(d.message == "cannot read `" + path + "` again");
  CHECK(d.labels.at(0).message == "no such file or directory");
  CHECK(s.execute("@k()").outputs[0].text == "2.0");
}

TEST_CASE("session: an interrupt stops a long evaluation and keeps the session", "[session]") {
  Session s;
  std::atomic<bool> flag{false};
  s.set_interrupt_flag(&flag);
  REQUIRE(s.execute("let %keep = 7f;").ok);
  REQUIRE(s.execute("def @loop(%i: int32, %n: int32) -> int32 {\n"
                    "  if (%i >= %n) { %i } else { @loop(%i + 1, %n) }\n}").ok);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    flag.store(true);
  });
  auto start = std::chrono::steady_clock::now();
  auto r = s.execute("@loop(0, 2000000000)");
  auto waited = std::chrono::steady_clock::now() - start;
  stopper.join();
  CHECK_FALSE(r.ok);
  CHECK(r.interrupted);
  CHECK(r.outputs[0].diagnostics.at(0).code() == "E0101");
  CHECK(waited < std::chrono::seconds(5));
  flag.store(false);
  CHECK(s.execute("%keep").outputs[0].text == "7.0");
}

TEST_CASE("session: :viz draws a function as SVG", "[session]") {
  Session s;
  REQUIRE(s.execute("def @f(%x: Tensor[(2, 2), float32]) { nn.relu(%x) }").ok);
  auto r = s.execute(":viz f");
  REQUIRE(r.ok);
  REQUIRE(r.outputs[0].kind == Output::Kind::Svg);
  CHECK(r.outputs[0].svg.find("<svg") != std::string::npos);
  CHECK(r.outputs[0].svg.find("nn.relu") != std::string::npos);
  CHECK(r.outputs[0].name == "f");
}

TEST_CASE("session: :reset forgets everything and :quit asks to leave", "[session]") {
  Session s;
  REQUIRE(s.execute("let %a = 1f;").ok);
  REQUIRE(s.execute("def @f() -> float32 { 1f }").ok);
  REQUIRE(s.execute(":reset").ok);
  CHECK(env_of(s) == "(the session is empty)\n");
  CHECK_FALSE(s.execute("%a").ok);
  CHECK(s.execute(":q").quit);
}

TEST_CASE("session: functions without a return annotation can be called", "[session]") {
  // The session adds each unannotated function's inferred result type as its
  // annotation, callees before callers, so later inputs and other definitions call them.
  Session s;
  REQUIRE(s.execute("def @inner(%x: Tensor[(2), float32]) { add(%x, %x) }").ok);
  REQUIRE(s.execute("def @outer(%x: Tensor[(2), float32]) { @inner(@inner(%x)) }").ok);
  auto r = s.execute("@outer(ones(shape=[2], dtype=\"float32\"))");
  REQUIRE(r.ok);
  CHECK(r.outputs[0].text == "[4. 4.]");
  // A new result type flows to the callers, whose annotations are worked out again.
  r = s.execute("def @inner(%x: Tensor[(2), float32]) { (%x, %x) }");
  CHECK_FALSE(r.ok);  // @outer passes a tuple to @inner: broken, refused
  CHECK(r.outputs[0].diagnostics.at(0).code() == "E0111");
  REQUIRE(s.execute("def @outer(%x: Tensor[(2), float32]) { @inner(%x) }").ok);
  r = s.execute("def @inner(%x: Tensor[(2), float32]) { (%x, %x) }");
  REQUIRE(r.ok);
  CHECK(text_of(r).find("re-checked @outer: fn (Tensor[(2), float32]) -> (Tensor[(2), float32], Tensor[(2), "
                        "float32])") != std::string::npos);
  r = s.execute("@outer(ones(shape=[2], dtype=\"float32\")).1");
  REQUIRE(r.ok);
  CHECK(r.outputs[0].type == "Tensor[(2), float32]");
  // A diagnostic inside such a function still points at what the user wrote.
  r = s.execute("def @bad(%x: Tensor[(2), float32]) { add(%x, %nope) }");
  REQUIRE_FALSE(r.ok);
  const Diagnostic& d = r.outputs[0].diagnostics.at(0);
  CHECK(s.sources().get(d.primary().span.file).text.substr(d.primary().span.begin, 5) == "%nope");
}

TEST_CASE("session: a run-time error in a closure bound earlier points into its input", "[session]") {
  // The closure's code is in the chunk of the input that bound it, which later checks no
  // longer hold; its spans still map back to that input.
  Session s;
  REQUIRE(s.execute("let %f = fn (%x: Tensor[(2), float32]) { take(%x, 5, mode=\"fast\") };").ok);
  REQUIRE(s.execute("def @g(%x: float32) -> float32 { %x }").ok);
  REQUIRE(s.execute("@g(1f)").ok);
  auto r = s.execute("%f(ones(shape=[2], dtype=\"float32\"))");
  REQUIRE_FALSE(r.ok);
  const Diagnostic& d = r.outputs.at(0).diagnostics.at(0);
  CHECK(d.code() == "E0100");
  const SourceFile& f = s.sources().get(d.primary().span.file);
  CHECK(f.name == "<input 1>");
  CHECK(f.text.substr(d.primary().span.begin, 5) == "take(");
}
