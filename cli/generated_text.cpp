#include "cli/generated_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "interpreter/eval/run.h"

namespace relay::cli {

bool check_generated(SourceManager& sources, const std::string& name, const std::string& text,
                     const std::string& entry, const std::string& what, DiagnosticPrinter& printer) {
  FileId built = sources.add(name, text);
  DiagnosticBag check;
  if (rt::load_program(sources, built, entry, nullptr, check) && !check.has_errors()) return true;
  std::fprintf(stderr, "internal error: %s does not type-check; please report it\n", what.c_str());
  printer.print(check, sources);
  printer.print_summary();
  return false;
}

bool write_generated(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "error: cannot write `%s`: %s\n", path.c_str(), std::strerror(errno));
  return static_cast<bool>(out);
}

}  // namespace relay::cli
