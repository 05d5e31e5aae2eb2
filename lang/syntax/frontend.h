// The front-end pipeline for one file: parse, load imported libraries, resolve names.
//
// Every front end (cli, lsp, repl, kernel) calls this instead of chaining the stages
// itself, so a file means the same thing everywhere. The type checker and the
// incremental database build on the result.
#pragma once

#include <memory>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"
#include "lang/syntax/parser.h"

namespace relay {

struct FrontendResult {
  std::unique_ptr<Module> module;
  // The prelude, when the file imports it (shared, parsed once per process).
  std::shared_ptr<const Module> prelude;
};

// Parses and resolves `file` (already added to `sources`). Diagnostics are appended to
// `diags` and sorted by position.
FrontendResult analyze_file(SourceManager& sources, FileId file, DiagnosticBag& diags,
                            const ParseOptions& options = {});

// The parsed and resolved prelude, registered in `sources` on first use.
std::shared_ptr<const Module> load_prelude(SourceManager& sources);

}  // namespace relay
