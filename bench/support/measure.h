// Measurement helpers shared by the benchmarks: memory, line counts, and failing loudly
// when a benchmark's input does not check cleanly (a benchmark of an error path would
// measure the wrong thing).
#pragma once

#include <cstddef>
#include <string>

#include "lang/base/diagnostic.h"
#include "lang/base/source.h"

namespace relay::bench {

// Resident set size now, from /proc/self/statm (bytes).
size_t current_rss();
// Peak resident set size of this process so far (bytes).
size_t peak_rss();
// Lines of `s`, counting a last line without a newline.
size_t count_lines(const std::string& s);
inline double mb(double bytes) { return bytes / 1e6; }

// Prints "PROGRAM: WHAT has N error(s); the first:" and that error rendered, then exits 1,
// when `diags` has errors.
void fail_on_errors(const char* program, const DiagnosticBag& diags, const SourceManager& sources,
                    const std::string& what);

}  // namespace relay::bench
