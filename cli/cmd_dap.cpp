// `relay dap`: the debug adapter on stdin/stdout (dap/adapter.h). VS Code, nvim-dap and
// other Debug Adapter Protocol clients start it; it exits after `disconnect` or when its
// input ends. SIGINT pauses the program being debugged instead of ending the adapter.
#include <unistd.h>

#include <csignal>
#include <cstdio>

#include "cli/commands.h"
#include "dap/adapter.h"

namespace relay::cli {

namespace {
dap::Adapter* g_adapter = nullptr;
extern "C" void on_dap_sigint(int) {
  if (g_adapter) g_adapter->interrupt();  // atomics only
}
}  // namespace

int cmd_dap(const Args& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::printf(
          "usage: relay dap\n\nRuns the Relay debug adapter (Debug Adapter Protocol) on stdin/stdout.\n"
          "Editors start it: see docs/debugger.md for VS Code, Neovim and JupyterLab.\n");
      return kExitOk;
    }
    std::fprintf(stderr, "error: unknown option `%s`\n", a.c_str());
    return kExitUsage;
  }
  std::signal(SIGPIPE, SIG_IGN);
  protocol::FramedStream stream(STDIN_FILENO, STDOUT_FILENO);
  dap::Adapter adapter(stream);
  g_adapter = &adapter;
  struct sigaction sa {};
  sa.sa_handler = on_dap_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  int status = adapter.run();
  g_adapter = nullptr;
  // After `disconnect` the adapter's reader thread is still blocked reading stdin, and no
  // portable call wakes it; ending the process here (everything was written and flushed)
  // keeps it from touching the adapter while it is destroyed.
  std::fflush(stdout);
  _exit(status);
}

}  // namespace relay::cli
