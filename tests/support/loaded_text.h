// Test helper: a Relay module from text, checked and loaded through the run driver
// (interpreter/eval/run.h), with @main as its entry. The version header is added.
//
//   LoadedText l("def @main() { 1 }");
//   rt::RunOutcome out = l.run(options, args);
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "interpreter/eval/run.h"

namespace relay::testing {

struct LoadedText {
  SourceManager sources;
  std::unique_ptr<rt::LoadedProgram> p;

  explicit LoadedText(const std::string& text) {
    FileId id = sources.add("test.relay", "#[version = \"0.0.5\"]\n" + text);
    DiagnosticBag diags;
    p = rt::load_program(sources, id, "main", nullptr, diags);
    REQUIRE(p);
  }
  // The source text of an expression of the module.
  std::string text(const Expr& e) const { return std::string(sources.get(e.span.file).slice(e.span)); }
  // @main on `args` through run_function.
  rt::RunOutcome run(const rt::RunOptions& options, std::vector<rt::Value> args = {}) {
    return rt::run_function(*p->program, p->program->global(*p->entry), std::move(args), options, sources);
  }
};

}  // namespace relay::testing
