// `relay explain CODE`: prints the extended explanation of a diagnostic code (the error
// index, as `rustc --explain`), or `--list` for every code.
#include <cstdio>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "lang/base/diagnostic.h"
#include "lang/base/explain.h"

namespace relay::cli {
namespace {

constexpr const char* kUsage =
    "usage: relay explain CODE     print the explanation of a diagnostic code (e.g. E0040)\n"
    "       relay explain --list   list every diagnostic code with its message\n";

// A message template as one readable line: placeholders become `...`.
std::string plain_message(std::string_view tmpl) { return format_template(tmpl, {"...", "...", "...", "..."}); }

int list_codes() {
  for (const auto& k : all_diag_kinds()) {
    std::printf("%.*s  %-7.*s  %s\n", static_cast<int>(k.code.size()), k.code.data(),
                static_cast<int>(severity_name(k.severity).size()), severity_name(k.severity).data(),
                plain_message(k.message).c_str());
  }
  return kExitOk;
}

int unknown_code(std::string_view typed) {
  std::string code = normalize_code(typed);
  if (find_diag_code(code)) {
    std::fprintf(stderr, "error: `%s` has no extended explanation\n", code.c_str());
    return kExitErrors;
  }
  std::fprintf(stderr, "error: `%.*s` is not a diagnostic code\n", static_cast<int>(typed.size()),
               typed.data());
  auto close = similar_codes(code);
  if (!close.empty()) {
    std::string names;
    for (auto c : close) names += (names.empty() ? "`" : ", `") + std::string(c) + "`";
    std::fprintf(stderr, "help: did you mean %s?\n", names.c_str());
  }
  std::fprintf(stderr, "note: `relay explain --list` lists every code\n");
  return kExitErrors;
}

}  // namespace

int cmd_explain(const Args& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return kExitOk;  // asked-for help is a success, as for every other subcommand
  }
  if (args.size() == 1 && args[0] == "--list") return list_codes();
  if (args.size() != 1 || (args[0].size() > 1 && args[0][0] == '-')) {
    if (args.size() == 1) std::fprintf(stderr, "error: unknown option `%s`\n", args[0].c_str());
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  std::string_view text = explanation(args[0]);
  if (text.empty()) return unknown_code(args[0]);
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (text.back() != '\n') std::fputc('\n', stdout);
  return kExitOk;
}

}  // namespace relay::cli
