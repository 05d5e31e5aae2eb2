// The value of a two-argument command-line option (`--entry NAME`), shared by the
// commands that parse their own options.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace relay::cli {

// args[i + 1], with `i` moved past it; null after saying on stderr that `option` needs a
// value (a usage error).
inline const std::string* option_value(const std::vector<std::string>& args, size_t& i, const char* option) {
  if (i + 1 >= args.size()) {
    std::fprintf(stderr, "error: `%s` needs a value\n", option);
    return nullptr;
  }
  return &args[++i];
}

}  // namespace relay::cli
