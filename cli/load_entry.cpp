#include "cli/load_entry.h"

#include <cstdio>

namespace relay::cli {

std::unique_ptr<rt::LoadedProgram> load_entry(const std::string& file, const std::string& entry,
                                              const rt::EntryInputs* inputs, DiagnosticPrinter& printer,
                                              SourceManager& sources) {
  std::string text, error;
  if (!read_source_file(file, &text, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return nullptr;
  }
  FileId id = sources.add(file == "-" ? "<stdin>" : file, std::move(text));
  DiagnosticBag diags;
  auto loaded = rt::load_program(sources, id, entry, inputs, diags);
  printer.print(diags, sources);  // errors, or warnings before the work
  if (!loaded) printer.print_summary();
  return loaded;
}

}  // namespace relay::cli
