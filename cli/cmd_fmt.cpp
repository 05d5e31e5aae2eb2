// `relay fmt FILE...`: prints Relay files in the canonical layout (lang/syntax/printer.h).
//
//   relay fmt FILE...          formatted text on stdout
//   relay fmt --write FILE...  rewrite files in place (only those that change)
//   relay fmt --check FILE...  list files that are not formatted; exit 1 if any
//
// --color=always (or auto on a terminal) colours the formatted text with the tree-sitter
// grammar's highlight queries (ide/highlight.h), the same colours editors show.
// `-` reads stdin. A directory stands for the .relay/.rly files below it. A file with
// syntax errors is never formatted: its errors are shown and the exit status is 1.
// Exit status: 0 success, 1 syntax or I/O errors (or unformatted files with --check),
// 2 usage error.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/diagnostic_output.h"
#include "cli/input_files.h"
#include "ide/highlight.h"
#include "lang/syntax/parser.h"
#include "lang/syntax/printer.h"

namespace relay::cli {

namespace {

void fmt_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay fmt [--write | --check] [--max-width=N] [--no-comments]\n"
               "                 [--error-format=human|json] [--error-limit=N] [--color=auto|always|never] FILE...\n"
               "\n"
               "Formats Relay files (.relay, .rly; `-` reads stdin; a directory means every\n"
               ".relay/.rly file below it) in the canonical layout.\n"
               "\n"
               "  --write        rewrite the files in place (only those that change)\n"
               "  --check        print the names of files that are not formatted; exit 1 if any\n"
               "  --max-width=N  break function headers longer than N columns (default 100)\n"
               "  --no-comments  drop comments\n"
               "  --color=WHEN   also colours the formatted text on stdout (auto: on a terminal)\n"
               "\n"
               "Files with syntax errors are not formatted.\n"
               "Exit status: 0 success, 1 errors (or unformatted files with --check), 2 usage error.\n");
}

// Writes `text` to `path` through a temporary file in the same directory and a rename,
// keeping the original permissions.
bool write_atomically(const std::string& path, const std::string& text, std::string* error) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.parent_path();
  std::string tmp = (dir.empty() ? fs::path(".") : dir).string() + "/." +
                    target.filename().string() + ".fmt" + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      *error = "cannot write `" + tmp + "`: " + std::strerror(errno);
      return false;
    }
    out << text;
    out.flush();
    if (!out) {
      *error = "cannot write `" + tmp + "`: " + std::strerror(errno);
      out.close();
      std::remove(tmp.c_str());
      return false;
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) ::chmod(tmp.c_str(), st.st_mode & 07777);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "cannot replace `" + path + "`: " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace

int cmd_fmt(const Args& args) {
  OutputOptions out_opts;
  PrintOptions print_opts;
  bool write = false, check = false;
  std::vector<std::string> inputs;
  bool only_files = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!only_files && a == "--") {
      only_files = true;
      continue;
    }
    if (!only_files && a.size() > 1 && a[0] == '-') {
      if (a == "--help" || a == "-h") {
        fmt_usage(stdout);
        return kExitOk;
      }
      if (a == "--write" || a == "-w") {
        write = true;
        continue;
      }
      if (a == "--check") {
        check = true;
        continue;
      }
      if (a == "--no-comments") {
        print_opts.comments = false;
        continue;
      }
      if (a.rfind("--max-width", 0) == 0) {
        std::string v;
        if (a.size() > 12 && a[11] == '=') {
          v = a.substr(12);
        } else if (a == "--max-width" && i + 1 < args.size()) {
          v = args[++i];
        }
        char* end = nullptr;
        long n = v.empty() ? 0 : std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || n < 1 || n > 100000) {
          std::fprintf(stderr, "error: invalid --max-width `%s` (expected a positive number)\n", v.c_str());
          return kExitUsage;
        }
        print_opts.max_width = static_cast<int>(n);
        continue;
      }
      // an output option, else (an option) an unknown one
      if (take_common_argument(args, i, out_opts, fmt_usage) != ArgumentKind::OutputOption) return kExitUsage;
      continue;
    }
    inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "error: no input files\n\n");
    fmt_usage(stderr);
    return kExitUsage;
  }
  if (write && check) {
    std::fprintf(stderr, "error: `--write` and `--check` cannot be used together\n");
    return kExitUsage;
  }
  if (std::count(inputs.begin(), inputs.end(), "-") > 1) {
    std::fprintf(stderr, "error: `-` (stdin) can be given only once\n");
    return kExitUsage;
  }

  std::vector<std::string> files;
  bool failed = !expand_inputs(inputs, &files);

  DiagnosticPrinter printer(out_opts);
  const bool color_stdout = out_opts.color == ColorChoice::Always ||
                            (out_opts.color == ColorChoice::Auto && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
  SourceManager sources;
  bool unformatted = false;
  for (const std::string& path : files) {
    std::string text, error;
    if (!read_source_file(path, &text, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      failed = true;
      continue;
    }
    std::string name = path == "-" ? "<stdin>" : path;
    FileId id = sources.add(name, std::move(text));
    const SourceFile& file = sources.get(id);
    DiagnosticBag diags;
    ParseOptions po;
    po.require_version = false;
    auto module = parse_module(file, diags, po);
    if (diags.has_errors()) {
      DiagnosticBag errors;
      for (const Diagnostic& d : diags.items())
        if (d.severity == Severity::Error) errors.add(d);
      errors.sort();
      printer.print(errors, sources);
      failed = true;
      continue;
    }
    std::string formatted = print_module(*module, file, print_opts);
    bool changed = formatted != file.text;
    if (check) {
      if (changed) {
        std::printf("%s\n", name.c_str());
        unformatted = true;
      }
    } else if (write && path != "-") {
      if (changed && !write_atomically(path, formatted, &error)) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        failed = true;
      }
    } else {
      if (color_stdout) formatted = ide::highlight_ansi(formatted);
      std::fwrite(formatted.data(), 1, formatted.size(), stdout);
    }
  }
  std::fflush(stdout);
  printer.print_summary();
  return failed || unformatted ? kExitErrors : kExitOk;
}

}  // namespace relay::cli
