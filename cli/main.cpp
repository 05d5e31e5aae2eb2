// `relay`: the single command-line entry point. Each subcommand is a thin layer over
// the core libraries in lang/.
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "interpreter/runtime/allocator_tuning.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const relay::cli::Args&);
  const char* summary;
};

const Command kCommands[] = {
    {"check", relay::cli::cmd_check, "check files for syntax, name and type errors"},
    {"fmt", relay::cli::cmd_fmt, "format files in the canonical layout"},
    {"explain", relay::cli::cmd_explain, "explain a diagnostic code, e.g. `relay explain E0040`"},
    {"ops", relay::cli::cmd_ops, "list the operators with their signatures (`--json` for data)"},
    {"run", relay::cli::cmd_run, "run @main: interpreted, hot functions compiled (--jit), or on a GPU (--device=cuda)"},
    {"compile", relay::cli::cmd_compile, "print a stage of the compile path (graph, fused groups, loop IR, LLVM IR, asm, PTX, memory)"},
    {"grad", relay::cli::cmd_grad, "differentiate a function: add @NAME_grad returning its gradients"},
    {"import", relay::cli::cmd_import, "translate an ONNX model into a Relay program"},
    {"lsp", relay::cli::cmd_lsp, "the language server (LSP over stdio)"},
    {"dap", relay::cli::cmd_dap, "the debug adapter (Debug Adapter Protocol over stdio)"},
    {"repl", relay::cli::cmd_repl, "an interactive session (runs a script when stdin is not a terminal)"},
#ifdef RELAY_HAVE_KERNEL
    {"kernel", relay::cli::cmd_kernel, "the Jupyter kernel (started by Jupyter: `relay kernel -f FILE`)"},
    {"jupyter", relay::cli::cmd_jupyter, "install the Jupyter kernelspec (`relay jupyter --install`)"},
#endif
};

void print_usage(FILE* out) {
  std::fprintf(out, "usage: relay <command> [options] [args]\n\ncommands:\n");
  for (const auto& c : kCommands) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\nrun `relay <command> --help` for a command's options\n");
}

}  // namespace

int main(int argc, char** argv) {
  relay::rt::tune_allocator();
  if (argc < 2) {
    print_usage(stderr);
    return relay::cli::kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return 0;
  }
  if (name == "--version") {
    std::printf("relay 0.1.0 (Relay text format 0.0.5)\n");
    return 0;
  }
  relay::cli::Args args(argv + 2, argv + argc);
  for (const auto& c : kCommands) {
    if (name == c.name) return c.run(args);
  }
  std::fprintf(stderr, "error: unknown command `%s`\n\n", argv[1]);
  print_usage(stderr);
  return relay::cli::kExitUsage;
}
