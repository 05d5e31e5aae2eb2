#include "cli/repl_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "ide/highlight.h"

namespace relay::cli {

namespace {
constexpr const char* kDim = "\x1b[2m";
constexpr const char* kCyan = "\x1b[36m";
constexpr const char* kReset = "\x1b[0m";

// An echo ("defined @f: fn (...) -> ...") with its Relay pieces in the grammar's colours:
// names as the grammar colours them (`@f` a function, `%w` a plain variable), types
// through ide::highlight_type; the prose between stays plain.
std::string color_fragments(const repl::Output& o) {
  using Kind = repl::Output::Fragment::Kind;
  std::string out;
  size_t at = 0;
  for (const auto& f : o.fragments) {
    if (f.begin < at || f.end > o.text.size()) continue;  // not in order: left plain
    out.append(o.text, at, f.begin - at);
    std::string_view piece = std::string_view(o.text).substr(f.begin, f.end - f.begin);
    std::string_view style = f.kind == Kind::Global ? ide::ansi_style("function")
                             : f.kind == Kind::Local ? ide::ansi_style("variable")
                                                     : std::string_view();
    if (f.kind == Kind::Type) out += ide::highlight_type_ansi(piece);
    else if (style.empty()) out += piece;
    else out.append("\x1b[").append(style).append("m").append(piece).append(kReset);
    at = f.end;
  }
  out.append(o.text, at);
  return out;
}
}  // namespace

bool print_result(const repl::Session& session, const repl::ExecResult& result, const ReplOutputOptions& options) {
  using Kind = repl::Output::Kind;
  bool written = true;
  for (const auto& o : result.outputs) {
    switch (o.kind) {
      case Kind::Value:
        std::printf("%s\n", o.text.c_str());
        if (options.color) std::printf("%s: %s%s%s\n", kDim, kCyan, o.type.c_str(), kReset);
        else std::printf(": %s\n", o.type.c_str());
        break;
      case Kind::Text:
        if (o.text.empty()) break;
        if (options.color && o.relay_source) std::printf("%s\n", ide::highlight_ansi(o.text).c_str());
        else if (options.color && !o.fragments.empty()) std::printf("%s\n", color_fragments(o).c_str());
        else std::printf("%s\n", o.text.c_str());
        break;
      case Kind::Svg: {
        std::string path = options.viz_dir + "/" + o.name + ".svg";
        errno = 0;
        std::ofstream out(path, std::ios::binary);
        out << o.svg;
        out.close();
        if (!out) {
          const int why = errno;
          std::fflush(stdout);
          std::fprintf(stderr, "error: cannot write `%s`%s%s\n", path.c_str(), why ? ": " : "", why ? std::strerror(why) : "");
          written = false;
        } else {
          std::printf("wrote %s to %s\n", o.text.c_str(), path.c_str());
        }
        break;
      }
      case Kind::Error:
        std::fflush(stdout);
        std::fputs(session.render(o.diagnostics, options.color).c_str(), stderr);
        std::fflush(stderr);
        break;
    }
  }
  std::fflush(stdout);
  return written;
}

}  // namespace relay::cli
