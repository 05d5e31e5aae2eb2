#include "jupyter-kernel/interpreter.h"

#include <exception>
#include <optional>
#include <string_view>
#include <vector>

#include "ide/context.h"
#include "ide/highlight.h"
#include "jupyter-kernel/code_points.h"
#include "jupyter-kernel/completion_matches.h"
#include "jupyter-kernel/kernel_info.h"
#include "jupyter-kernel/mime_bundles.h"
#include "xeus/xhelper.hpp"

namespace relay::kernel {

namespace {

// Jupyter omits `cursor_pos` (xeus passes -1) to mean the end of the code.
size_t cursor_byte(const std::string& code, int cursor_pos) {
  if (cursor_pos < 0) return code.size();
  return byte_offset_of_code_point(code, static_cast<size_t>(cursor_pos));
}

// xeus 2.4.1's create_error_reply defines its parameters as (evalue, ename), the
// reverse of its declaration, so its replies come out swapped; build them here.
nl::json error_reply(const std::string& ename, const std::string& evalue, const std::vector<std::string>& traceback) {
  return {{"status", "error"}, {"ename", ename}, {"evalue", evalue}, {"traceback", traceback}};
}

constexpr std::string_view kQuitInKernel =
    "`:quit` does nothing in a notebook: shut the kernel down from the notebook instead "
    "(Kernel > Shut Down), or restart it for a fresh session.\n";

}  // namespace

RelayInterpreter::RelayInterpreter(InterruptWatcher& interrupts, NotebookDebugger& debugger)
    : interrupts_(interrupts), debugger_(debugger) {}

RelayInterpreter::~RelayInterpreter() = default;

void RelayInterpreter::configure_impl() {
  repl::SessionOptions options;
  options.viz_png = true;  // `:viz` as SVG and PNG (mime_bundles.h)
  session_ = std::make_unique<repl::Session>(options);
  session_->set_interrupt_flag(interrupts_.flag());
  repl::Session* session = session_.get();
  jit_ = compiler::JitRuntime::for_session([session](const FuncDef* d) { return session->types_of(d); });
  session_->set_tier(&jit_->tier());
  debugger_.attach(*session_);
}

nl::json RelayInterpreter::execute_request_impl(int execution_counter, const std::string& code, bool silent,
                                                bool /*store_history*/, nl::json /*user_expressions*/,
                                                bool /*allow_stdin*/) {
  // The flag was cleared when this request was reported busy, and SIGINTs that came
  // while the kernel was idle were dropped (kernel_server.h, interrupt_watcher.h).
  try {
    repl::ExecResult result = session_->execute(code);
    debugger_.after_execute();  // the bindings the debugger's variables panel shows
    return publish(execution_counter, result, silent);
  } catch (const std::exception& e) {
    return internal_error(e.what(), !silent);
  } catch (...) {
    return internal_error("unknown exception", !silent);
  }
}

nl::json RelayInterpreter::publish(int execution_counter, const repl::ExecResult& result, bool silent) {
  std::optional<ErrorFields> first_error;
  for (const repl::Output& out : result.outputs) {
    switch (out.kind) {
      case repl::Output::Kind::Text:
        if (!silent && !out.text.empty()) {
          // Relay source (`:ir`) in the grammar's colours: the notebook renders ANSI in
          // streams as coloured HTML, as it does for the diagnostics below.
          std::string text = out.relay_source ? ide::highlight_ansi(out.text) : out.text;
          publish_stream("stdout", text.ends_with('\n') ? text : text + "\n");
        }
        break;
      case repl::Output::Kind::Value:
        if (!silent) publish_execution_result(execution_counter, value_bundle(out), nl::json::object());
        break;
      case repl::Output::Kind::Svg:
        if (!silent) display_data(svg_bundle(out), nl::json::object(), nl::json::object());
        break;
      case repl::Output::Kind::Error: {
        if (result.ok) {
          // Diagnostics of an input that still succeeded are warnings: show them, but
          // as stderr text rather than as a failure of the cell.
          if (!silent) {
            std::string text = session_->render(out.diagnostics, /*color=*/true, kNotebookLineWidth);
            while (text.ends_with("\n\n")) text.pop_back();  // no blank line trailing the cell
            publish_stream("stderr", text);
          }
          break;
        }
        ErrorFields f = error_fields(*session_, out, result.interrupted);
        if (!silent) publish_execution_error(f.ename, f.evalue, f.traceback);
        if (!first_error) first_error = std::move(f);
        break;
      }
    }
  }
  if (result.quit && !silent) publish_stream("stdout", std::string(kQuitInKernel));
  if (result.ok) return xeus::create_successful_reply();
  if (!first_error) {
    // A failure without diagnostics should not happen; still answer with an error.
    first_error = ErrorFields{result.interrupted ? "Interrupted" : "RelayError",
                              result.interrupted ? "interrupted" : "the input failed", {}};
    if (!silent) publish_execution_error(first_error->ename, first_error->evalue, first_error->traceback);
  }
  return error_reply(first_error->ename, first_error->evalue, first_error->traceback);
}

nl::json RelayInterpreter::internal_error(const std::string& what, bool publish_it) {
  const std::string evalue = "internal error in the Relay kernel: " + what;
  if (publish_it) publish_execution_error("InternalError", evalue, {evalue});
  return error_reply("InternalError", evalue, {evalue});
}

nl::json RelayInterpreter::complete_request_impl(const std::string& code, int cursor_pos) {
  const size_t cursor = cursor_byte(code, cursor_pos);
  try {
    ide::CompletionResult r = session_->complete(code, static_cast<uint32_t>(cursor));
    CompletionMatches m = completion_matches(r, code);
    return xeus::create_complete_reply(m.matches, static_cast<int>(code_points_before(code, r.replace_begin)),
                                       static_cast<int>(code_points_before(code, r.replace_end)), m.metadata);
  } catch (const std::exception&) {
    // No completion is better than an error popup while typing.
    const int at = static_cast<int>(code_points_before(code, cursor));
    return xeus::create_complete_reply(nl::json::array(), at, at);
  }
}

nl::json RelayInterpreter::inspect_request_impl(const std::string& code, int cursor_pos, int /*detail_level*/) {
  try {
    const size_t cursor = cursor_byte(code, cursor_pos);
    // Inside a call's parentheses the call is what is asked about, as IPython answers
    // (ide::enclosing_call, the scanner completion and signature help use); elsewhere, or
    // when the callee is unknown, the word at the cursor.
    std::optional<repl::Inspection> found;
    if (std::optional<ide::OpenBracket> call = ide::enclosing_call(code, static_cast<uint32_t>(cursor)))
      found = session_->inspect(code, call->callee_end);
    if (!found) found = session_->inspect(code, static_cast<uint32_t>(cursor));
    if (!found) return xeus::create_inspect_reply(false);
    return xeus::create_inspect_reply(true, {{"text/plain", found->plain}, {"text/markdown", found->markdown}});
  } catch (const std::exception&) {
    return xeus::create_inspect_reply(false);
  }
}

nl::json RelayInterpreter::is_complete_request_impl(const std::string& code) {
  try {
    repl::CompletenessResult r = session_->is_complete(code);
    switch (r.status) {
      case repl::Completeness::Complete: return xeus::create_is_complete_reply("complete");
      case repl::Completeness::Incomplete: return xeus::create_is_complete_reply("incomplete", r.indent);
      case repl::Completeness::Invalid: return xeus::create_is_complete_reply("invalid");
    }
  } catch (const std::exception&) {
  }
  return xeus::create_is_complete_reply("unknown");
}

nl::json RelayInterpreter::kernel_info_request_impl() { return kernel_info_content(); }

void RelayInterpreter::shutdown_request_impl() {
  // On the control thread: a cell stopped in the debugger must end, or the shell thread
  // never gets to stop.
  debugger_.shutdown();
  // xeus exits the process right after this returns; nothing of the session needs
  // saving, but the waiting thread is ended so the exit does not race it.
  interrupts_.stop();
}

}  // namespace relay::kernel
