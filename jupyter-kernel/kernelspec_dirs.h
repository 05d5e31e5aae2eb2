// Where Jupyter looks for kernelspecs, as `jupyter kernelspec install` chooses them
// (jupyter_core.paths): each function returns the `kernels` directory; the kernel's own
// directory is that plus kKernelName.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace relay::kernel {

// --user: $JUPYTER_DATA_DIR/kernels, else $XDG_DATA_HOME/jupyter/kernels, else
// ~/.local/share/jupyter/kernels. nullopt (with `*error`) when there is no home.
std::optional<std::filesystem::path> user_kernels_dir(std::string* error);

// --sys-prefix: sys.prefix/share/jupyter/kernels of the Python that runs `jupyter`
// (its script's `#!` line; `python3` when no `jupyter` is on the PATH), so the kernel
// lands in the environment, virtual or not, whose Jupyter will look for it.
std::optional<std::filesystem::path> sys_prefix_kernels_dir(std::string* error);

// --prefix DIR: DIR/share/jupyter/kernels.
std::filesystem::path prefix_kernels_dir(const std::filesystem::path& prefix);

}  // namespace relay::kernel
