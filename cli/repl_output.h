// How `relay repl` shows what an input produced: values with their types, messages,
// pictures saved as SVG files, diagnostics (coloured on a terminal).
#pragma once

#include <string>

#include "repl/session.h"

namespace relay::cli {

struct ReplOutputOptions {
  bool color = false;
  std::string viz_dir = ".";  // where `:viz` pictures are written
};

// Prints `result`'s outputs: results on stdout, diagnostics on stderr (stdout is flushed
// first so a script's output keeps its order). False when a picture could not be written
// (said on stderr): the input failed.
bool print_result(const repl::Session& session, const repl::ExecResult& result, const ReplOutputOptions& options);

}  // namespace relay::cli
