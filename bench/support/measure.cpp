#include "bench/support/measure.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "lang/base/render.h"

namespace relay::bench {

size_t current_rss() {
  std::ifstream f("/proc/self/statm");
  size_t total = 0, resident = 0;
  f >> total >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

size_t peak_rss() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<size_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

size_t count_lines(const std::string& s) {
  size_t n = static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
  return n + (!s.empty() && s.back() != '\n');
}

void fail_on_errors(const char* program, const DiagnosticBag& diags, const SourceManager& sources,
                    const std::string& what) {
  if (!diags.has_errors()) return;
  const Diagnostic* first = nullptr;
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) {
      first = &d;
      break;
    }
  std::fflush(stdout);
  std::fprintf(stderr, "%s: FAILED: %s has %zu error(s); the first:\n%s", program, what.c_str(),
               diags.error_count(), render_diagnostic(*first, sources).c_str());
  std::exit(1);
}

}  // namespace relay::bench
