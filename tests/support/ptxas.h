// NVIDIA's PTX assembler for the GPU back end's tests: every generated PTX module must
// assemble for the targeted architectures. ptxas ships with the CUDA toolkit, which the
// project does not need; tests that find none say so and check the rest.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace relay::testing {

// $RELAY_PTXAS, $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas, or ptxas on PATH; empty
// when there is none.
inline std::string find_ptxas() {
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("RELAY_PTXAS"); p && *p) candidates.push_back(p);
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) candidates.push_back(std::string(home) + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (size_t start = 0; start <= dirs.size();) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      if (end > start) candidates.push_back(dirs.substr(start, end - start) + "/ptxas");
      start = end + 1;
    }
  }
  for (const std::string& c : candidates)
    if (::access(c.c_str(), X_OK) == 0) return c;
  return {};
}

// Assembles `ptx` for `arch` (sm_80, ...): empty when ptxas accepts it, else its exit
// status and messages. With `report` (ptxas -v), *report gets its per-function registers,
// shared memory and spills.
inline std::string ptxas_errors(const std::string& ptxas, const std::string& ptx, const std::string& arch,
                                std::string* report = nullptr) {
  char dir_template[] = "/tmp/relay-ptxas-XXXXXX";
  if (!::mkdtemp(dir_template)) return "cannot make a scratch folder";
  const std::filesystem::path dir = dir_template;
  {
    std::ofstream out(dir / "module.ptx", std::ios::binary);
    out << ptx;
  }
  const std::string command = "'" + ptxas + "'" + (report ? " -v" : "") + " -arch=" + arch + " '" +
                              (dir / "module.ptx").string() + "' -o '" +
                              (dir / "module.cubin").string() + "' 2>&1";
  std::string output;
  int status = -1;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
    status = ::pclose(p);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (report) *report = output;
  if (status == 0) return {};
  return "ptxas -arch=" + arch + " exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
         ": " + output.substr(0, 4000);
}

// The functions of a ptxas -v report (ptxas_errors' `report`) that spill nothing: lines
// "0 bytes spill stores" ("0 bytes", not "40 bytes").
inline size_t functions_without_spills(const std::string& report) {
  size_t clean = 0;
  for (size_t at = report.find("0 bytes spill stores"); at != std::string::npos; at = report.find("0 bytes spill stores", at + 1))
    if (at == 0 || report[at - 1] == ' ') ++clean;
  return clean;
}

}  // namespace relay::testing
