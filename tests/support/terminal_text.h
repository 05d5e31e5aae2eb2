// Test helpers for what a command prints to a terminal: a shell command's standard output,
// and text with its ANSI escapes (colours) removed.
#pragma once

#include <cstdio>
#include <string>

namespace relay::testing {

// The standard output of `command` run by the shell (empty when it cannot start).
inline std::string command_output(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// `s` without its SGR escapes (`ESC [ ... m`).
inline std::string strip_ansi(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      i = s.find('m', i);
      if (i == std::string::npos) break;
      continue;
    }
    out += s[i];
  }
  return out;
}

}  // namespace relay::testing
