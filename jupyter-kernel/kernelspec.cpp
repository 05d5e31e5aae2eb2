#include "jupyter-kernel/kernelspec.h"

#include <fstream>
#include <string_view>
#include <system_error>

#include "lang/base/embedded.h"

namespace relay {
// jupyter-kernel/logo/* and codemirror/kernel.js, compiled in
// (jupyter-kernel/CMakeLists.txt) so that an installed binary can write a complete
// kernelspec without its source tree.
extern const EmbeddedFile kKernelSpecFiles[];
}  // namespace relay

namespace relay::kernel {

nlohmann::json kernel_json(const std::string& binary) {
  return {
      {"argv", {binary, "kernel", "-f", "{connection_file}"}},
      {"display_name", "Relay"},
      {"language", "relay"},
      // Jupyter interrupts with SIGINT; the kernel turns it into the session's
      // interrupt flag (interrupt_watcher.h).
      {"interrupt_mode", "signal"},
      // JupyterLab shows its debugger for kernels that say so here and in kernel_info.
      {"metadata", {{"debugger", true}}},
  };
}

namespace {

bool write_file(const std::filesystem::path& path, std::string_view bytes, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    *error = "cannot write " + path.string();
    return false;
  }
  return true;
}

}  // namespace

bool write_kernelspec(const std::filesystem::path& dir, const std::string& binary, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    *error = "cannot create " + dir.string() + ": " + ec.message();
    return false;
  }
  if (!write_file(dir / "kernel.json", kernel_json(binary).dump(2) + "\n", error)) return false;
  for (const EmbeddedFile* f = kKernelSpecFiles; !f->name.empty(); ++f) {
    if (!write_file(dir / std::string(f->name), f->data, error)) return false;
  }
  return true;
}

std::string self_executable() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

}  // namespace relay::kernel
