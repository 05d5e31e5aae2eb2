#include "cli/diagnostic_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "ide/highlight.h"
#include "lang/base/render.h"

namespace relay::cli {

bool parse_output_option(const std::string& arg, const std::string* next, OutputOptions& out,
                         int* consumed, std::string* error) {
  *consumed = 0;
  auto value_of = [&](std::string_view name, std::string* value) {
    if (arg.rfind(std::string(name) + "=", 0) == 0) {
      *value = arg.substr(name.size() + 1);
      *consumed = 1;
      return true;
    }
    if (arg == name && next) {
      *value = *next;
      *consumed = 2;
      return true;
    }
    return false;
  };
  std::string v;
  if (value_of("--error-format", &v)) {
    if (v == "human") out.format = ErrorFormat::Human;
    else if (v == "json") out.format = ErrorFormat::Json;
    else {
      *error = "invalid --error-format `" + v + "` (expected `human` or `json`)";
      return false;
    }
    return true;
  }
  if (value_of("--error-limit", &v)) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno != 0 || v[0] == '-') {
      *error = "invalid --error-limit `" + v + "` (expected a number of errors; 0 shows all)";
      return false;
    }
    out.error_limit = static_cast<size_t>(n);
    return true;
  }
  if (value_of("--color", &v)) {
    if (v == "auto") out.color = ColorChoice::Auto;
    else if (v == "always") out.color = ColorChoice::Always;
    else if (v == "never") out.color = ColorChoice::Never;
    else {
      *error = "invalid --color `" + v + "` (expected `auto`, `always` or `never`)";
      return false;
    }
    return true;
  }
  return true;
}

ArgumentKind take_common_argument(const std::vector<std::string>& args, size_t& i, OutputOptions& out,
                                  void (*usage)(std::FILE*)) {
  const std::string& a = args[i];
  int consumed = 0;
  std::string error;
  const std::string* next = i + 1 < args.size() ? &args[i + 1] : nullptr;
  if (!parse_output_option(a, next, out, &consumed, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return ArgumentKind::UsageError;
  }
  if (consumed) {
    i += static_cast<size_t>(consumed) - 1;
    return ArgumentKind::OutputOption;
  }
  if (a.size() > 1 && a[0] == '-') {
    std::fprintf(stderr, "error: unknown option `%s`\n\n", a.c_str());
    usage(stderr);
    return ArgumentKind::UsageError;
  }
  return ArgumentKind::Positional;
}

bool take_argument_of_one_file(const std::vector<std::string>& args, size_t& i, OutputOptions& out,
                               void (*usage)(std::FILE*), const char* command, std::string& file) {
  const ArgumentKind kind = take_common_argument(args, i, out, usage);
  if (kind == ArgumentKind::UsageError) return false;
  if (kind == ArgumentKind::Positional) {
    if (!file.empty()) {
      std::fprintf(stderr, "error: `relay %s` takes one file\n", command);
      return false;
    }
    file = args[i];
  }
  return true;
}

DiagnosticPrinter::DiagnosticPrinter(OutputOptions options) : options_(options) {
  switch (options_.color) {
    case ColorChoice::Always: color_ = true; break;
    case ColorChoice::Never: color_ = false; break;
    case ColorChoice::Auto: {
      const char* no_color = std::getenv("NO_COLOR");
      color_ = isatty(STDERR_FILENO) && !(no_color && *no_color);
      break;
    }
  }
  // Snippets show source in the colours of `relay fmt --color` and the editors.
  if (color_) source_colors_ = ide::diagnostic_source_colors();
}

void DiagnosticPrinter::print(const DiagnosticBag& diags, const SourceManager& sources) {
  const bool limited = options_.format == ErrorFormat::Human && options_.error_limit != 0;
  for (const Diagnostic& d : diags.items()) {
    // Everything after the limit-th error is counted, not shown.
    if (limited && errors_ >= options_.error_limit) {
      if (d.severity == Severity::Error) ++errors_, ++hidden_errors_;
      if (d.severity == Severity::Warning) ++warnings_, ++hidden_warnings_;
      continue;
    }
    if (d.severity == Severity::Error) ++errors_;
    if (d.severity == Severity::Warning) ++warnings_;
    if (options_.format == ErrorFormat::Json) {
      std::cerr << render_json(d, sources) << '\n';
    } else {
      std::cerr << render_diagnostic(d, sources, RenderOptions{color_, 140, source_colors_}) << '\n';
    }
  }
  std::cerr.flush();
}

void DiagnosticPrinter::print_summary() {
  if (options_.format != ErrorFormat::Human) return;
  if (hidden_errors_ + hidden_warnings_ > 0) {
    auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    std::string more;
    if (hidden_errors_) more = count(hidden_errors_, "more error");
    if (hidden_warnings_) more += (more.empty() ? "" : " and ") + count(hidden_warnings_, "more warning");
    std::cerr << "note: " << more << " not shown: stopped after " << options_.error_limit
              << " errors (--error-limit=N changes the limit; 0 shows all)\n";
  }
  std::cerr << render_summary(errors_, warnings_, color_);
}

bool read_source_file(const std::string& path, std::string* text, std::string* error) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    *text = ss.str();
    return true;
  }
  return read_text_file(path, text, error);
}

}  // namespace relay::cli
