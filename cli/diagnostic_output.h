// How the command line shows diagnostics: rustc-style text on stderr (coloured on a
// terminal unless NO_COLOR is set), or one JSON object per line with
// --error-format=json. Shared by every subcommand that reports diagnostics.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "lang/base/diagnostic.h"
#include "lang/base/render.h"
#include "lang/base/source.h"

namespace relay::cli {

enum class ErrorFormat { Human, Json };
enum class ColorChoice { Auto, Always, Never };

// Past this many errors, human output stops showing diagnostics and says how many more
// there were (a file of random bytes gives hundreds; the first ones matter). Like
// clang's -ferror-limit; the JSON format is for tools and shows everything.
constexpr size_t kDefaultErrorLimit = 50;

struct OutputOptions {
  ErrorFormat format = ErrorFormat::Human;
  ColorChoice color = ColorChoice::Auto;
  size_t error_limit = kDefaultErrorLimit;  // 0: no limit
};

// Consumes `--error-format=...` / `--color=...` / `--error-limit=N` (also as two arguments). Returns false
// and sets `error` for a bad value; returns true with `consumed` = 0 when `arg` is not
// an output option.
bool parse_output_option(const std::string& arg, const std::string* next, OutputOptions& out,
                         int* consumed, std::string* error);

// What args[i] is, once a command has tried its own options on it: an output option
// (taken into `out`; `i` moves past its value when that is the next argument), a
// positional argument (a file, or `-`), or a usage error, already said on stderr (a bad
// output option's value; an unknown option, then the command's `usage`).
enum class ArgumentKind { OutputOption, Positional, UsageError };
ArgumentKind take_common_argument(const std::vector<std::string>& args, size_t& i, OutputOptions& out,
                                  void (*usage)(std::FILE*));
// The same for a command of one file (`relay run`, `relay compile`): a positional argument
// becomes `file`, and a second one is a usage error ("`relay COMMAND` takes one file").
// False on a usage error, already said.
bool take_argument_of_one_file(const std::vector<std::string>& args, size_t& i, OutputOptions& out,
                               void (*usage)(std::FILE*), const char* command, std::string& file);

class DiagnosticPrinter {
 public:
  explicit DiagnosticPrinter(OutputOptions options);
  void print(const DiagnosticBag& diags, const SourceManager& sources);
  // The closing "aborting due to N previous errors" line (human format only).
  void print_summary();
  size_t errors() const { return errors_; }
  size_t warnings() const { return warnings_; }

 private:
  OutputOptions options_;
  bool color_ = false;
  SourceColorer source_colors_;  // with colour: the grammar's colours for snippet lines
  size_t errors_ = 0;
  size_t warnings_ = 0;
  size_t hidden_errors_ = 0, hidden_warnings_ = 0;  // past the error limit
};

// Reads a whole file (or stdin for "-"); false with `error` set on failure.
bool read_source_file(const std::string& path, std::string* text, std::string* error);

}  // namespace relay::cli
