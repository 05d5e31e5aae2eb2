// `relay lsp`: the language server on stdin/stdout (lsp/server.h). Exit status 0 after a
// `shutdown` request then `exit`, 1 when the client exits or disconnects without one.
#include <unistd.h>

#include <csignal>
#include <cstdio>

#include "cli/commands.h"
#include "lsp/server.h"

namespace relay::cli {

int cmd_lsp(const Args& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::printf("usage: relay lsp [--stdio]\n\nRuns the Relay language server (LSP 3.17) on stdin/stdout.\n");
      return kExitOk;
    }
    if (a != "--stdio") {
      std::fprintf(stderr, "error: unknown option `%s`\n", a.c_str());
      return kExitUsage;
    }
  }
  // A client that goes away must not kill the server with SIGPIPE in the middle of a
  // write; the next read sees end of input instead.
  std::signal(SIGPIPE, SIG_IGN);
  protocol::FramedStream transport(STDIN_FILENO, STDOUT_FILENO);
  lsp::Server server(transport);
  return server.run();
}

}  // namespace relay::cli
