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

// Whether a diagnostic is published (one without labels has no range to show).
bool publishable(const Diagnostic& d);
// A publishDiagnostics item: code, severity, source, message (with notes), range of the
// primary label, relatedInformation for the other labels, tags (unnecessary/deprecated).
nlohmann::json diagnostic_json(const Diagnostic& d, const FileCheck& check, const Document& doc,
                               PositionEncoding enc);
// The server's own error limit per document: larger than the command line's (an editor
// lists diagnostics in a panel and marks them in the text), still bounded so a file of
// random bytes does not flood the client. The client may change it with the
// initialization option `errorLimit` (0: no limit).
constexpr size_t kDefaultLspErrorLimit = 200;
// The items of the publishable diagnostics of `check`, up to the `error_limit`-th error
// (0: all). Past it, one information item at the first diagnostic not shown says how
// many more errors and warnings there were, like the command line's note.
nlohmann::json diagnostics_json(const FileCheck& check, const Document& doc, PositionEncoding enc,
                                size_t error_limit = kDefaultLspErrorLimit);
// The type of the innermost expression or binder at `offset`; an operator's signature,
// attributes and rule; a global's type and doc comment. null when there is nothing.
nlohmann::json hover_json(const FileCheck& check, const Document& doc, uint32_t offset, PositionEncoding enc);
// One edit replacing the whole document by `relay fmt`'s output; [] when the text is
// already formatted or has syntax errors (nothing to format safely).
nlohmann::json formatting_json(const Document& doc, PositionEncoding enc);

}  // namespace relay::lsp
