// The error-recovering Relay parser.
//
// Parsing never fails: the result is always a Module (possibly with Error nodes) plus
// diagnostics in the bag. Recovery happens at definitions, bindings and brackets, so
// independent syntax errors produce one diagnostic each and the rest of the file is
// still available to later stages.
#pragma once

#include <memory>

#include "lang/base/diagnostic.h"
#include "lang/syntax/ast.h"

namespace relay {

struct ParseOptions {
  // Warn (W0001) when a module has no `#[version = "0.0.5"]` header.
  bool require_version = true;
};

std::unique_ptr<Module> parse_module(const SourceFile& file, DiagnosticBag& diags,
                                     const ParseOptions& options = {});

// Parses a lone expression (`Module::expr`), as TVM's parse_expr does; the version
// header is optional. Definitions are not allowed.
std::unique_ptr<Module> parse_expression(const SourceFile& file, DiagnosticBag& diags);

}  // namespace relay
