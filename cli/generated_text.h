// What the commands that generate Relay text (`relay grad`, `relay import`) share: the
// text is checked through the run driver before it is written, so a generator's bug is
// reported as an internal error rather than handed to the user as a broken file; then
// it goes to a file or to stdout.
#pragma once

#include <string>

#include "cli/diagnostic_output.h"
#include "lang/base/source.h"

namespace relay::cli {

// Adds `text` to `sources` as `name` and loads it with `entry` as `relay run` would.
// False (after printing "internal error: WHAT does not type-check" and the diagnostics)
// when it does not load.
bool check_generated(SourceManager& sources, const std::string& name, const std::string& text,
                     const std::string& entry, const std::string& what, DiagnosticPrinter& printer);

// Writes `text` to `path`, or to stdout when `path` is empty; false after saying why.
bool write_generated(const std::string& path, const std::string& text);

}  // namespace relay::cli
