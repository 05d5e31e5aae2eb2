// Fuzz target over the whole front end: lexer, parser, name resolution, type checking,
// diagnostic rendering and (when it is built) the printer.
//
// For every input:
//   1. analyze_file (parse + prelude import + resolve) and check_module (type inference
//      with every operator relation) must not crash, whatever the bytes;
//   2. diagnostics must render (terminal and JSON; the first 4 of each input);
//   3. if the input had no errors, print_module's output must parse and resolve with no
//      errors either, the re-parsed module must be alpha-equal to the original (same
//      structure, same names: alpha_equiv.h), and printing it again must give the same
//      text (the printer's idempotence promise, printer.h). A failure prints the input,
//      the printed text and the difference, then aborts, so libFuzzer saves the input as
//      a crash.
//
// Built two ways: with libFuzzer (tests/fuzz/CMakeLists.txt, -DRELAY_FUZZ=ON, clang) and
// with replay_main.cpp as a plain program that runs the committed corpus under CTest.
//
// RELAY_FUZZ_NO_IDEMPOTENCE=1 in the environment skips check 3's second print (to hunt
// for other bugs while a known idempotence bug is open).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lang/base/render.h"
#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"

#if defined(RELAY_FUZZ_HAVE_PRINTER) && __has_include("lang/syntax/printer.h")
#include "lang/syntax/alpha_equiv.h"
#include "lang/syntax/printer.h"
#define RELAY_FUZZ_PRINT 1
#else
#define RELAY_FUZZ_PRINT 0
#endif

namespace {

using namespace relay;

// Renders the first diagnostics both ways: JSON (which embeds the plain terminal text)
// and the coloured terminal text. Rendering dominates the cost of an input with many
// diagnostics; they are sorted by position, so a capped prefix still reaches every kind.
void render_all(const DiagnosticBag& diags, const SourceManager& sources) {
  constexpr size_t kMaxRendered = 4;
  for (size_t i = 0; i < diags.size() && i < kMaxRendered; ++i) {
    const Diagnostic& d = diags.items()[i];
    std::string json = render_json(d, sources);
    std::string text = render_diagnostic(d, sources, RenderOptions{true});
    if (text.empty() || json.empty()) {
      std::fprintf(stderr, "empty rendering for %s\n", std::string(d.code()).c_str());
      std::abort();
    }
  }
}

#if RELAY_FUZZ_PRINT
bool check_idempotence() {
  static const bool enabled = [] {
    const char* v = std::getenv("RELAY_FUZZ_NO_IDEMPOTENCE");
    return !(v && *v && std::string_view(v) != "0");
  }();
  return enabled;
}

void dump(const char* title, const std::string& text) {
  std::fprintf(stderr, "---- %s (%zu bytes) ----\n", title, text.size());
  std::fwrite(text.data(), 1, text.size(), stderr);  // the text may hold NUL bytes
  std::fputc('\n', stderr);
}

[[noreturn]] void round_trip_failure(const std::string& what, const SourceManager& sources,
                                     FileId input, FileId printed, const DiagnosticBag* diags,
                                     const std::string* again) {
  std::fprintf(stderr, "\n==== relay fuzz: round-trip failure: %s ====\n", what.c_str());
  dump("input", sources.get(input).text);
  dump("printed", sources.get(printed).text);
  if (again) dump("printed again", *again);
  if (diags)
    for (const Diagnostic& d : diags->items())
      std::fprintf(stderr, "%s\n", render_diagnostic(d, sources).c_str());
  std::fflush(stderr);
  std::abort();
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceManager sources;
  FileId input = sources.add("fuzz.relay", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticBag diags;
  FrontendResult result = analyze_file(sources, input, diags);
  render_all(diags, sources);
  {
    // Type errors are kept apart: the round trip below is about syntax and names.
    DiagnosticBag type_diags;
    check_module(*result.module, result.prelude.get(), type_diags);
    render_all(type_diags, sources);
  }
  if (diags.has_errors()) return 0;

#if RELAY_FUZZ_PRINT
  std::string text = print_module(*result.module, sources.get(input));
  FileId printed = sources.add("printed.relay", std::move(text));
  DiagnosticBag diags2;
  FrontendResult reparsed = analyze_file(sources, printed, diags2);
  render_all(diags2, sources);
  if (diags2.has_errors())
    round_trip_failure("the printed module has errors", sources, input, printed, &diags2, nullptr);
  AlphaEqualOptions same_names;
  same_names.compare_var_names = true;
  std::string why;
  if (!alpha_equal(*result.module, *reparsed.module, same_names, &why))
    round_trip_failure("the printed module means something else: " + why, sources, input,
                       printed, nullptr, nullptr);
  if (check_idempotence()) {
    std::string again = print_module(*reparsed.module, sources.get(printed));
    if (again != sources.get(printed).text)
      round_trip_failure("printing is not idempotent", sources, input, printed, nullptr, &again);
  }
#endif
  return 0;
}
