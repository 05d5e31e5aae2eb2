// Profiler support: an ObjectLinkingLayer plugin that appends a line per JIT'd function to
// /tmp/perf-PID.map ("ADDRESS SIZE NAME" in hex), the file `perf report` reads to name
// addresses in anonymous executable memory.
#pragma once

#include <memory>
#include <string>

#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>

namespace relay::compiler {

// The plugin writes to `path` (opened for appending on first use; lines are written under
// a lock, so concurrent links are safe).
std::unique_ptr<llvm::orc::ObjectLinkingLayer::Plugin> make_perf_map_plugin(std::string path);

std::string default_perf_map_path();

}  // namespace relay::compiler
