// `relay kernel -f CONNECTION_FILE`: the Jupyter kernel (jupyter-kernel/), started by
// Jupyter through the kernelspec.
// `relay jupyter --install [--user | --sys-prefix | --prefix DIR]`: writes that
// kernelspec. Exit 0 on success, 1 on errors, 2 on usage errors.
// Compiled only when the kernel is (xeus found: RELAY_HAVE_KERNEL).
#ifdef RELAY_HAVE_KERNEL
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "jupyter-kernel/kernel_main.h"
#include "jupyter-kernel/kernelspec.h"
#include "jupyter-kernel/kernelspec_dirs.h"

namespace relay::cli {

namespace {

void kernel_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay kernel -f CONNECTION_FILE\n"
               "\n"
               "Runs the Relay Jupyter kernel on the ports and address of CONNECTION_FILE until\n"
               "Jupyter shuts it down. Jupyter starts it for you once the kernelspec is installed\n"
               "(`relay jupyter --install`); see docs/jupyter.md.\n");
}

void jupyter_usage(FILE* out) {
  std::fprintf(out,
               "usage: relay jupyter --install [--user | --sys-prefix | --prefix DIR]\n"
               "\n"
               "Installs the Jupyter kernelspec `relay` (kernel.json and logos) that starts this\n"
               "binary, by its absolute path, as `relay kernel -f {connection_file}`.\n"
               "  --user        for the current user (default): $JUPYTER_DATA_DIR/kernels/relay,\n"
               "                else ~/.local/share/jupyter/kernels/relay\n"
               "  --sys-prefix  into the Python environment that runs `jupyter`:\n"
               "                sys.prefix/share/jupyter/kernels/relay\n"
               "  --prefix DIR  DIR/share/jupyter/kernels/relay\n");
}

}  // namespace

int cmd_kernel(const Args& args) {
  std::string connection_file;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      kernel_usage(stdout);
      return kExitOk;
    }
    if (a == "-f" || a == "--connection-file") {
      if (i + 1 == args.size()) {
        std::fprintf(stderr, "error: `%s` needs a file\n\n", a.c_str());
        kernel_usage(stderr);
        return kExitUsage;
      }
      connection_file = args[++i];
    } else if (a.rfind("--connection-file=", 0) == 0) {
      connection_file = a.substr(a.find('=') + 1);
    } else {
      std::fprintf(stderr, "error: unknown argument `%s`\n\n", a.c_str());
      kernel_usage(stderr);
      return kExitUsage;
    }
  }
  if (connection_file.empty()) {
    std::fprintf(stderr, "error: no connection file (-f FILE)\n\n");
    kernel_usage(stderr);
    return kExitUsage;
  }
  return kernel::run_kernel(connection_file) == 0 ? kExitOk : kExitErrors;
}

int cmd_jupyter(const Args& args) {
  enum class Where { User, SysPrefix, Prefix };
  bool install = false;
  std::optional<Where> where;
  std::string prefix;
  auto choose = [&](Where w, const std::string& flag) {
    if (where && *where != w) {
      std::fprintf(stderr, "error: `%s` conflicts with an earlier location option\n\n", flag.c_str());
      jupyter_usage(stderr);
      return false;
    }
    where = w;
    return true;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      jupyter_usage(stdout);
      return kExitOk;
    }
    if (a == "--install") {
      install = true;
    } else if (a == "--user") {
      if (!choose(Where::User, a)) return kExitUsage;
    } else if (a == "--sys-prefix") {
      if (!choose(Where::SysPrefix, a)) return kExitUsage;
    } else if (a == "--prefix" || a.rfind("--prefix=", 0) == 0) {
      if (!choose(Where::Prefix, "--prefix")) return kExitUsage;
      if (a == "--prefix") {
        if (i + 1 == args.size()) {
          std::fprintf(stderr, "error: `--prefix` needs a directory\n\n");
          jupyter_usage(stderr);
          return kExitUsage;
        }
        prefix = args[++i];
      } else {
        prefix = a.substr(a.find('=') + 1);
      }
      if (prefix.empty()) {
        std::fprintf(stderr, "error: `--prefix` needs a directory\n\n");
        return kExitUsage;
      }
    } else {
      std::fprintf(stderr, "error: unknown argument `%s`\n\n", a.c_str());
      jupyter_usage(stderr);
      return kExitUsage;
    }
  }
  if (!install) {
    jupyter_usage(stderr);
    return kExitUsage;
  }

  std::string error;
  std::optional<std::filesystem::path> kernels;
  switch (where.value_or(Where::User)) {
    case Where::User: kernels = kernel::user_kernels_dir(&error); break;
    case Where::SysPrefix: kernels = kernel::sys_prefix_kernels_dir(&error); break;
    case Where::Prefix: kernels = kernel::prefix_kernels_dir(std::filesystem::absolute(prefix)); break;
  }
  if (!kernels) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return kExitErrors;
  }
  const std::string binary = kernel::self_executable();
  if (binary.empty()) {
    std::fprintf(stderr, "error: cannot find the path of this executable (/proc/self/exe)\n");
    return kExitErrors;
  }
  const std::filesystem::path dir = *kernels / kernel::kKernelName;
  if (!kernel::write_kernelspec(dir, binary, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return kExitErrors;
  }
  std::printf("installed kernelspec `%s` in %s\n  (it runs %s kernel -f {connection_file})\n", kernel::kKernelName,
              dir.c_str(), binary.c_str());
  return kExitOk;
}

}  // namespace relay::cli

#endif  // RELAY_HAVE_KERNEL
