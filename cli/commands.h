// The `relay` subcommands. Each lives in its own cmd_*.cpp and returns the exit code.
#pragma once

#include <string>
#include <vector>

namespace relay::cli {

using Args = std::vector<std::string>;

int cmd_check(const Args& args);
int cmd_fmt(const Args& args);
int cmd_explain(const Args& args);
int cmd_ops(const Args& args);
int cmd_run(const Args& args);
int cmd_compile(const Args& args);  // the compile path's stages (--emit)
int cmd_grad(const Args& args);     // reverse-mode differentiation
int cmd_import(const Args& args);   // ONNX models in
int cmd_lsp(const Args& args);
int cmd_dap(const Args& args);
int cmd_repl(const Args& args);
#ifdef RELAY_HAVE_KERNEL
int cmd_kernel(const Args& args);   // the Jupyter kernel
int cmd_jupyter(const Args& args);  // installs its kernelspec
#endif

// Exit codes shared by every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitErrors = 1;
constexpr int kExitUsage = 2;

}  // namespace relay::cli
