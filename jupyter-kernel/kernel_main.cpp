#include "jupyter-kernel/kernel_main.h"

#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "jupyter-kernel/interpreter.h"
#include "jupyter-kernel/interrupt_watcher.h"
#include "jupyter-kernel/kernel_server.h"
#include "jupyter-kernel/notebook_debugger.h"
#include "jupyter-kernel/xeus_debugger.h"
#include "xeus/xeus_context.hpp"
#include "xeus/xkernel.hpp"
#include "xeus/xkernel_configuration.hpp"
#include "xeus/xserver_zmq.hpp"  // zmq::context_t

namespace relay::kernel {

namespace {

// xeus's loader reads the file without checking it; a missing file or field would end
// in an uncaught exception. Check first so the user gets a message instead.
bool read_configuration(const std::string& path, xeus::xconfiguration* config) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "error: cannot read connection file `%s`\n", path.c_str());
    return false;
  }
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    std::fprintf(stderr, "error: connection file `%s` is not a JSON object\n", path.c_str());
    return false;
  }
  for (const char* field : {"transport", "ip", "control_port", "shell_port", "stdin_port", "iopub_port", "hb_port"}) {
    if (!doc.contains(field)) {
      std::fprintf(stderr, "error: connection file `%s` has no `%s`\n", path.c_str(), field);
      return false;
    }
  }
  // Without a key every client could run code; xeus would invent one no client knows,
  // which is useless. Refuse instead.
  if (doc.value("key", std::string()).empty() || doc.value("signature_scheme", std::string()).empty()) {
    std::fprintf(stderr, "error: connection file `%s` has no signing key\n", path.c_str());
    return false;
  }
  try {
    *config = xeus::load_configuration(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: connection file `%s`: %s\n", path.c_str(), e.what());
    return false;
  }
  return true;
}

}  // namespace

int run_kernel(const std::string& connection_file) {
  // First, before any thread exists: SIGINT is blocked in every thread from here on.
  InterruptWatcher interrupts;

  xeus::xconfiguration config;
  if (!read_configuration(connection_file, &config)) return 1;

  try {
    auto context = xeus::make_context<zmq::context_t>();
    NotebookDebugger debugger;  // declared before the kernel: it outlives it
    auto interpreter = std::make_unique<RelayInterpreter>(interrupts, debugger);
    // `replace`: text that is not valid UTF-8 (a value's printout, a file name) is sent
    // with U+FFFD instead of making the whole message fail to serialize.
    xeus::xkernel kernel(config, xeus::get_user_name(), std::move(context), std::move(interpreter),
                         // Split (control requests on their own thread, for the debugger), and arming
                         // the interrupt watcher while a cell is busy: kernel_server.h.
                         server_builder(interrupts), xeus::make_in_memory_history_manager(), nullptr,
                         debugger_builder(debugger), nl::json::object(), nl::json::error_handler_t::replace);
    kernel.start();
  } catch (const std::exception& e) {
    // Typically a port that is already taken (zmq bind fails).
    std::fprintf(stderr, "error: the kernel could not start: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace relay::kernel
