// The start shared by `relay run` and `relay compile`: read FILE (`-` for stdin), check it
// through the run driver and find its entry, printing every diagnostic (warnings too).
#pragma once

#include <memory>
#include <string>

#include "cli/diagnostic_output.h"
#include "interpreter/eval/run.h"

namespace relay::cli {

// Null after printing why (an unreadable file, errors, no such entry; the summary line
// included). `inputs` binds the entry's arguments; null leaves them to the caller.
std::unique_ptr<rt::LoadedProgram> load_entry(const std::string& file, const std::string& entry,
                                              const rt::EntryInputs* inputs, DiagnosticPrinter& printer,
                                              SourceManager& sources);

}  // namespace relay::cli
