// `relay check FILE...`: syntax, name and type errors. `--emit=types` also prints the
// type of every global (`@name: TYPE`, TVM's spelling) to stdout.
// Exit 0 without errors, 1 with errors, 2 on usage errors.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/diagnostic_output.h"
#include "cli/input_files.h"
#include "lang/syntax/frontend.h"
#include "lang/types/check_module.h"

namespace relay::cli {

static void check_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay check [--emit=types] [--error-format=human|json] [--error-limit=N] [--color=auto|always|never]\n"
               "                   FILE...\n"
               "\n"
               "Checks Relay files (.relay, .rly; `-` reads stdin; a directory means every\n"
               "Relay file below it) for syntax, name and type errors.\n"
               "  --emit=types   print `@name: TYPE` for every global function (stdout)\n"
               "  --error-limit=N  show at most N errors (default 50; 0 shows all), then\n"
               "                 say how many more were found\n"
               "Exit status: 0 no errors, 1 errors found, 2 usage error.\n");
}

int cmd_check(const Args& args) {
  OutputOptions out;
  bool emit_types = false;
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      check_usage(stdout);
      return kExitOk;
    }
    if (a == "--emit=types") {
      emit_types = true;
      continue;
    }
    if (a.rfind("--emit", 0) == 0) {
      std::fprintf(stderr, "error: `--emit` takes `types` (as `--emit=types`)\n");
      return kExitUsage;
    }
    switch (take_common_argument(args, i, out, check_usage)) {
      case ArgumentKind::UsageError: return kExitUsage;
      case ArgumentKind::OutputOption: continue;
      case ArgumentKind::Positional: files.push_back(a);
    }
  }
  if (files.empty()) {
    check_usage(stderr);
    return kExitUsage;
  }
  std::vector<std::string> paths;
  bool io_error = !expand_inputs(files, &paths);
  DiagnosticPrinter printer(out);
  SourceManager sources;
  for (const std::string& path : paths) {
    std::string text, error;
    if (!read_source_file(path, &text, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      io_error = true;
      continue;
    }
    FileId id = sources.add(path == "-" ? "<stdin>" : path, std::move(text));
    DiagnosticBag diags;
    FrontendResult front = analyze_file(sources, id, diags);
    ModuleTypes types = check_module(*front.module, front.prelude.get(), diags);
    printer.print(diags, sources);
    if (emit_types) std::fputs(format_global_types(types).c_str(), stdout);
  }
  printer.print_summary();
  return printer.errors() > 0 || io_error ? kExitErrors : kExitOk;
}

}  // namespace relay::cli
