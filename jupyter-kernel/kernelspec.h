// The kernelspec: the directory `relay jupyter --install` writes so that Jupyter can
// start `relay kernel`: kernel.json and the logos.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace relay::kernel {

// The kernel's name in Jupyter (`--kernel relay`, a notebook's kernelspec.name).
inline constexpr const char* kKernelName = "relay";

// kernel.json for a kernel started as `BINARY kernel -f {connection_file}`.
nlohmann::json kernel_json(const std::string& binary);

// Writes kernel.json and the logos into `dir` (created with its parents; existing
// files are replaced). On failure returns false with a message in `*error`.
bool write_kernelspec(const std::filesystem::path& dir, const std::string& binary, std::string* error);

// The absolute path of the running executable (/proc/self/exe), so kernel.json keeps
// working whatever the PATH of the process that starts the kernel.
std::string self_executable();

}  // namespace relay::kernel
