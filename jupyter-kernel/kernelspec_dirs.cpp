#include "jupyter-kernel/kernelspec_dirs.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace relay::kernel {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// The interpreter named by the `#!` line of the first `jupyter` on the PATH
// ("/usr/bin/python3", "/usr/bin/env python3"); empty when there is none.
std::string jupyter_interpreter() {
  std::stringstream path(env("PATH"));
  std::string dir;
  while (std::getline(path, dir, ':')) {
    if (dir.empty()) continue;
    std::filesystem::path script = std::filesystem::path(dir) / "jupyter";
    std::ifstream in(script);
    if (!in) continue;
    std::string line;
    std::getline(in, line);
    if (line.rfind("#!", 0) != 0) return std::string();
    line = line.substr(2);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    return line;
  }
  return std::string();
}

}  // namespace

std::optional<std::filesystem::path> user_kernels_dir(std::string* error) {
  if (std::string d = env("JUPYTER_DATA_DIR"); !d.empty()) return std::filesystem::path(d) / "kernels";
  std::string xdg = env("XDG_DATA_HOME");
  if (xdg.empty()) {
    std::string home = env("HOME");
    if (home.empty()) {
      *error = "neither JUPYTER_DATA_DIR nor HOME is set";
      return std::nullopt;
    }
    xdg = home + "/.local/share";
  }
  return std::filesystem::path(xdg) / "jupyter" / "kernels";
}

std::optional<std::filesystem::path> sys_prefix_kernels_dir(std::string* error) {
  std::string python = jupyter_interpreter();
  // A `#!` line is a program and at most one argument; the shell splits it the same way.
  if (python.empty() || python.find_first_of("'\"`$;&|<>") != std::string::npos) python = "python3";
  const std::string command = python + " -c 'import sys; print(sys.prefix)' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    *error = "cannot run " + python;
    return std::nullopt;
  }
  std::string out;
  char buf[512];
  while (size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (status != 0 || out.empty()) {
    *error = "cannot find sys.prefix with `" + python + "`; use --prefix DIR instead";
    return std::nullopt;
  }
  return prefix_kernels_dir(out);
}

std::filesystem::path prefix_kernels_dir(const std::filesystem::path& prefix) {
  return prefix / "share" / "jupyter" / "kernels";
}

}  // namespace relay::kernel
