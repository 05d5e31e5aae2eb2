// The language-server features as functions from the core's results to LSP JSON. Each is
// a translation: the facts (diagnostics, types, symbols, formatting) come from the core.
#pragma once

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "lang/base/source.h"
#include "lang/types/database.h"
#include "lsp/documents.h"

namespace relay::lsp {

struct MethodNotFound : std::exception {};
struct BadParams : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whether a diagnostic is published (one without labels has no range to show).
bool publishable(const Diagnostic& d);
// A publishDiagnostics item: code, severity, source, message (with notes), range of the
// primary label, relatedInformation for the other labels, tags (unnecessary/deprecated).
nlohmann::json diagnostic_json(const Diagnostic& d, const FileCheck& check, const Document& doc,
                               PositionEncoding enc);
// The items of every publishable diagnostic of `check`.
nlohmann::json diagnostics_json(const FileCheck& check, const Document& doc, PositionEncoding enc);
// The type of the innermost expression or binder at `offset`; an operator's signature,
// attributes and rule; a global's type and doc comment. null when there is nothing.
nlohmann::json hover_json(const FileCheck& check, const Document& doc, uint32_t offset, PositionEncoding enc);
// One edit replacing the whole document by `relay fmt`'s output; [] when the text is
// already formatted or has syntax errors (nothing to format safely).
nlohmann::json formatting_json(const Document& doc, PositionEncoding enc);

}  // namespace relay::lsp
