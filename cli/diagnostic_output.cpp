#include "cli/diagnostic_output.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

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
}

void DiagnosticPrinter::print(const DiagnosticBag& diags, const SourceManager& sources) {
  for (const Diagnostic& d : diags.items()) {
    if (d.severity == Severity::Error) ++errors_;
    if (d.severity == Severity::Warning) ++warnings_;
    if (options_.format == ErrorFormat::Json) {
      std::cerr << render_json(d, sources) << '\n';
    } else {
      std::cerr << render_diagnostic(d, sources, RenderOptions{color_}) << '\n';
    }
  }
  std::cerr.flush();
}

void DiagnosticPrinter::print_summary() {
  if (options_.format != ErrorFormat::Human) return;
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
