// The kernel's debugger: JupyterLab's debug requests (the Debug Adapter Protocol inside
// Jupyter's debug_request / debug_reply / debug_event messages) over the debugging engine
// (debugger/debugger.h), debugging the cells the session runs.
//
// How a cell is debugged. Once the frontend has sent `initialize`, the session offers
// every expression and binding cell to this object (it is the session's DebugHook,
// repl/session_debug.h): `run` loads the session's module text with the cell's input
// function into a fresh engine, sets the breakpoints the frontend gave for that cell's
// file (and for the cells whose definitions the module holds), and runs the input
// function on the session's bindings. Cells are known by file name: JupyterLab names a
// cell's file by a hash of its code (cell_files.h), and so does the kernel, for every
// file of the session's sources that is an input; positions map between the module text
// and the inputs through DebugRun.
//
// Threads. `run` is called on the shell thread, inside the cell's execute_request; debug
// requests arrive on the control thread (a split xeus server: kernel_server.h), which
// answers while the shell thread is inside a cell. One mutex guards everything here,
// the engine included; a condition variable parks the shell thread while the program is
// stopped. The shell thread runs the program in slices of steps, holding the mutex during
// a slice and letting a waiting control request in between slices; while stopped it
// waits until a control request (`continue`, `next`, ...) makes the engine run again,
// the cell is interrupted, or the kernel shuts down. Run-time values (whose reference
// counts are not atomic) are touched by the control thread only while the shell thread
// is parked on the condition variable, never while it runs; what `inspectVariables`
// shows between cells is text made on the shell thread after each cell.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "debugger/debugger.h"
#include "jupyter-kernel/cell_files.h"
#include "repl/session.h"
#include "repl/session_debug.h"

namespace relay::kernel {

class NotebookDebugger final : public repl::DebugHook {
 public:
  // Publishes one debug_event's content on IOPub (any thread; called with the lock held).
  using EventSink = std::function<void(const nlohmann::json& event)>;

  NotebookDebugger();
  ~NotebookDebugger() override;

  // --- the shell thread ---
  // The session whose cells are debugged (when the interpreter is configured).
  void attach(repl::Session& session);
  // After each execute request: the session's bindings as `inspectVariables` shows them.
  void after_execute();
  std::optional<repl::DebugOutcome> run(const repl::DebugRun& run) override;

  // --- the control thread ---
  // A debug_request's content (a DAP request) -> the debug_reply's content (its response).
  nlohmann::json handle(const nlohmann::json& request);
  void set_event_sink(EventSink sink);
  // The kernel is shutting down: a cell stopped in the debugger ends (as interrupted).
  void shutdown();

 private:
  // One cell being debugged.
  struct Active {
    dbg::Debugger engine;
    const repl::DebugRun* run = nullptr;  // while `run` is on the stack
  };
  // A session binding as text (made on the shell thread).
  struct VariableText {
    std::string name, value, type, html;
  };
  using json = nlohmann::json;

  // notebook_debugger.cpp
  void event(const std::string& name, json body);
  json response(const json& request, json body = json::object());
  json failure(const json& request, const std::string& message);
  void forward_output(dbg::Debugger& engine, bool finished);
  void emit_stopped(const dbg::Debugger& engine);
  // The path JupyterLab knows display file `file` of the session by (a cell's hash file,
  // or a loaded file's path); empty when none.
  std::string path_of(FileId file);
  json source_of(FileId file);
  // The frontend's breakpoints, in module lines, into the running cell's engine; the
  // responses for the breakpoints of `path` when given.
  std::vector<json> apply_breakpoints(const std::string* path);
  bool stopped() const;

  // debug_requests.cpp
  json dispatch(const json& request, const std::string& command);
  json initialize(const json& r);
  json debug_info(const json& r);
  json dump_cell(const json& r);
  json set_breakpoints(const json& r);
  json set_exception_breakpoints(const json& r);
  json stack_trace(const json& r);
  json scopes(const json& r);
  json variables(const json& r);
  json evaluate(const json& r);
  json set_variable(const json& r);
  json execution(const json& r, const std::string& command);
  json source(const json& r);
  json inspect_variables(const json& r);
  json rich_inspect_variables(const json& r);
  json exception_info(const json& r);
  json disconnect(const json& r);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<int> waiting_{0};  // control requests waiting for the mutex
  EventSink sink_;
  int64_t seq_ = 1;
  bool started_ = false;
  bool shutting_down_ = false;
  CellFiles files_;
  repl::Session* session_ = nullptr;       // used on the shell thread only
  std::map<std::string, json> breakpoints_;  // path -> the SourceBreakpoints last set there
  std::set<std::string> exception_filters_;
  std::shared_ptr<Active> active_;         // the cell being debugged
  std::vector<std::string> paths_;         // display file id -> path_of, cached
  std::string prelude_path_;
  std::vector<VariableText> variables_;
};

}  // namespace relay::kernel
