// The kernel's xeus interpreter: Jupyter requests in, session engine calls, messages out.
// Everything Relay-specific is in repl::Session; this class only translates (offsets in
// code points to bytes and back, outputs to MIME bundles, diagnostics to `error`s) and
// makes sure no input or exception can take the kernel down.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/pipeline/compile_function.h"
#include "jupyter-kernel/interrupt_watcher.h"
#include "jupyter-kernel/notebook_debugger.h"
#include "repl/session.h"
#include "xeus/xinterpreter.hpp"

namespace relay::kernel {

class RelayInterpreter final : public xeus::xinterpreter {
 public:
  // `interrupts` delivers SIGINT as a flag; `debugger` debugs the session's cells. Both
  // must outlive the interpreter.
  RelayInterpreter(InterruptWatcher& interrupts, NotebookDebugger& debugger);
  ~RelayInterpreter() override;

 private:
  void configure_impl() override;
  nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent, bool store_history,
                                nl::json user_expressions, bool allow_stdin) override;
  nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
  nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
  nl::json is_complete_request_impl(const std::string& code) override;
  nl::json kernel_info_request_impl() override;
  void shutdown_request_impl() override;

  // Publishes one input's outputs (unless `silent`) and builds the execute reply.
  nl::json publish(int execution_counter, const repl::ExecResult& result, bool silent);
  // An exception that escaped the engine: reported as an error, the kernel lives on.
  nl::json internal_error(const std::string& what, bool publish_it);

  InterruptWatcher& interrupts_;
  NotebookDebugger& debugger_;
  std::unique_ptr<repl::Session> session_;
  std::unique_ptr<compiler::JitRuntime> jit_;  // native code for hot functions (`:jit`)
};

}  // namespace relay::kernel
