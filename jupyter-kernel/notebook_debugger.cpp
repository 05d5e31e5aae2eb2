// The kernel's debugger: running a cell under the engine on the shell thread, the lock
// discipline, and what both threads share (events, paths, breakpoints). The requests are
// in debug_requests.cpp.
#include "jupyter-kernel/notebook_debugger.h"

#include <chrono>
#include <filesystem>

#include "interpreter/inspect/inspect.h"
#include "repl/value_html.h"

namespace relay::kernel {

namespace {

// Steps per slice: the control thread waits at most one slice for the engine while the
// cell runs (a slice of scalar steps takes well under a millisecond).
constexpr uint64_t kSlice = 20'000;
constexpr int64_t kThread = 1;  // the one thread a cell runs on, as the protocol sees it

bool is_input_name(const std::string& name) { return name.starts_with("<input "); }

}  // namespace

NotebookDebugger::NotebookDebugger() = default;
NotebookDebugger::~NotebookDebugger() = default;

void NotebookDebugger::attach(repl::Session& session) {
  session_ = &session;
  session.set_debug_hook(this);
}

void NotebookDebugger::set_event_sink(EventSink sink) {
  std::lock_guard lock(mutex_);
  sink_ = std::move(sink);
}

void NotebookDebugger::after_execute() {
  {
    std::lock_guard lock(mutex_);
    if (!started_ || !session_) return;
  }
  // Text only: the control thread must not touch values while this thread may.
  std::vector<VariableText> vars;
  for (const repl::SessionVariable& v : session_->variables()) {
    rt::ValueInfo info = rt::inspect(v.value, v.type);
    vars.push_back({"%" + v.name, info.summary, info.type.empty() ? v.type : info.type, repl::value_html(v.value, v.type)});
  }
  std::lock_guard lock(mutex_);
  variables_ = std::move(vars);
}

std::optional<repl::DebugOutcome> NotebookDebugger::run(const repl::DebugRun& run) {
  std::unique_lock lock(mutex_);
  if (!started_ || shutting_down_) return std::nullopt;
  // With nothing to stop at, the engine would only cost time (it checks the session's
  // module afresh): the cell runs as usual.
  bool any_breakpoint = !exception_filters_.empty();
  for (const auto& [path, list] : breakpoints_) any_breakpoint |= !list.empty();
  if (!any_breakpoint) return std::nullopt;
  auto active = std::make_shared<Active>();
  dbg::SourceConfig config;
  config.name = run.module_name;
  config.text = run.module_text;
  config.entry = run.entry;
  config.max_depth = run.max_depth;
  config.check_numerics = run.check_numerics;
  config.interrupt = run.interrupt;
  std::string error;
  // The session checked this text already; should the engine see it differently, the
  // cell still runs, only without the debugger.
  if (!active->engine.launch_source(config, &error)) return std::nullopt;
  active->run = &run;
  active_ = active;
  // However this returns (a kernel's exception escapes `advance` to the session, which
  // reports it), the control thread must not see the run once `run` is gone.
  struct Forget {
    NotebookDebugger& self;
    Active& active;
    ~Forget() {
      active.run = nullptr;
      self.active_.reset();
    }
  } forget{*this, *active};
  dbg::Debugger& engine = active->engine;
  engine.set_exception_filters(exception_filters_);
  apply_breakpoints(nullptr);
  engine.start_with(run.args);
  while (true) {
    const dbg::Debugger::State state = engine.advance(kSlice);
    forward_output(engine, state == dbg::Debugger::State::Exited);
    if (state == dbg::Debugger::State::Exited) break;
    if (state == dbg::Debugger::State::Stopped) {
      if (!started_) {
        engine.resume();  // a step asked for before `disconnect`: nobody would resume it
        continue;
      }
      emit_stopped(engine);
      // Parked until a control request resumes or ends the run. Waking now and then
      // notices an interrupt (SIGINT sets a flag; nothing notifies).
      while (engine.state() == dbg::Debugger::State::Stopped) {
        wake_.wait_for(lock, std::chrono::milliseconds(100));
        if (shutting_down_ || (run.interrupt && run.interrupt->load())) engine.terminate();
      }
      continue;
    }
    // Between slices: a control request waiting for the lock goes first.
    if (waiting_.load() > 0) wake_.wait(lock, [&] { return waiting_.load() == 0; });
  }
  repl::DebugOutcome out;
  out.module_file = engine.program_file();
  if (engine.exit_code() == 0) out.value = engine.result();
  else out.error = engine.failure();
  out.keep_alive = active;  // the engine owns the code a closure value points into
  return out;
}

void NotebookDebugger::shutdown() {
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    if (active_ && active_->engine.state() == dbg::Debugger::State::Stopped) active_->engine.terminate();
  }
  wake_.notify_all();
}

nlohmann::json NotebookDebugger::handle(const json& request) {
  json reply;
  {
    ++waiting_;
    std::unique_lock lock(mutex_);
    --waiting_;
    const std::string command = request.value("command", "");
    try {
      reply = dispatch(request, command);
    } catch (const std::exception& e) {
      // Malformed arguments (a missing field, a wrong type): an error response, never
      // an exception out of the control thread.
      reply = failure(request, std::string("bad `") + command + "` request: " + e.what());
    }
  }
  wake_.notify_all();
  return reply;
}

// --- shared ------------------------------------------------------------------------------

void NotebookDebugger::event(const std::string& name, json body) {
  if (!sink_) return;
  sink_({{"seq", seq_++}, {"type", "event"}, {"event", name}, {"body", std::move(body)}});
}

nlohmann::json NotebookDebugger::response(const json& request, json body) {
  return {{"seq", seq_++},
          {"type", "response"},
          {"request_seq", request.value("seq", 0)},
          {"success", true},
          {"command", request.value("command", "")},
          {"body", std::move(body)}};
}

nlohmann::json NotebookDebugger::failure(const json& request, const std::string& message) {
  return {{"seq", seq_++},
          {"type", "response"},
          {"request_seq", request.value("seq", 0)},
          {"success", false},
          {"command", request.value("command", "")},
          {"message", message},
          {"body", json::object()}};
}

void NotebookDebugger::forward_output(dbg::Debugger& engine, bool finished) {
  // Log points and failed conditions. The run's own result or error (the last output of
  // a finished run) is the cell's, which the kernel publishes as usual.
  std::vector<dbg::Output> out = engine.take_output();
  if (finished && !out.empty() && out.back().category != "console") out.pop_back();
  for (const dbg::Output& o : out) event("output", {{"category", o.category}, {"output", o.text}});
}

void NotebookDebugger::emit_stopped(const dbg::Debugger& engine) {
  const dbg::Stop& stop = engine.stop();
  json body = {{"reason", dbg::stop_reason_name(stop.reason)},
               {"description", stop.description},
               {"threadId", kThread},
               {"allThreadsStopped", true},
               {"preserveFocusHint", false}};
  if (!stop.text.empty()) body["text"] = stop.text;
  if (!stop.breakpoints.empty()) body["hitBreakpointIds"] = stop.breakpoints;
  event("stopped", std::move(body));
}

bool NotebookDebugger::stopped() const {
  return active_ && active_->run && active_->engine.state() == dbg::Debugger::State::Stopped;
}

std::string NotebookDebugger::path_of(FileId file) {
  if (!active_ || !active_->run) return "";
  const SourceManager& display = active_->run->display;
  // Inputs never change their text, so each is hashed once.
  while (paths_.size() < display.size()) {
    const SourceFile& f = display.get(static_cast<FileId>(paths_.size()));
    std::string path;
    if (is_input_name(f.name)) {
      path = files_.path_of(f.text);
    } else {
      std::error_code ec;
      auto p = std::filesystem::absolute(f.name, ec);
      path = ec ? f.name : p.lexically_normal().string();
    }
    paths_.push_back(std::move(path));
  }
  return file < paths_.size() ? paths_[file] : "";
}

nlohmann::json NotebookDebugger::source_of(FileId file) {
  const std::string path = path_of(file);
  const SourceFile& f = active_->run->display.get(file);
  if (is_input_name(f.name)) {
    // A cell run without breakpoints was never dumped; the frontend may ask for its text.
    std::string written, error;
    if (!std::filesystem::exists(path)) files_.dump(f.text, &written, &error);
  }
  return {{"name", f.name}, {"path", path}};
}

std::vector<nlohmann::json> NotebookDebugger::apply_breakpoints(const std::string* path) {
  std::vector<json> answers;
  if (!active_ || !active_->run) return answers;
  const repl::DebugRun& run = *active_->run;
  // Each SourceBreakpoint in module lines, remembering which path and entry it came from.
  std::vector<dbg::LineBreakpointSpec> specs;
  std::vector<std::optional<size_t>> spec_of;  // the answers' entries -> index in specs
  for (const auto& [bp_path, list] : breakpoints_) {
    std::vector<FileId> files;
    for (FileId f = 0; f < run.display.size(); ++f)
      if (path_of(f) == bp_path) files.push_back(f);
    for (size_t i = 0; i < list.size(); ++i) {
      const json& b = list[i];
      std::optional<uint32_t> line;
      // The newest input with that code holds the definitions the module uses.
      for (auto it = files.rbegin(); it != files.rend() && !line; ++it)
        line = run.to_module_line(*it, b.value("line", 0u));
      if (path && *path == bp_path) spec_of.push_back(line ? std::optional<size_t>(specs.size()) : std::nullopt);
      if (!line) continue;
      dbg::LineBreakpointSpec s;
      s.line = *line;
      s.condition = b.value("condition", "");
      s.hit_condition = b.value("hitCondition", "");
      s.log_message = b.value("logMessage", "");
      specs.push_back(std::move(s));
    }
  }
  std::vector<dbg::BreakpointView> views = active_->engine.set_line_breakpoints(specs);
  if (!path) return answers;
  const json& list = breakpoints_[*path];
  for (size_t i = 0; i < spec_of.size(); ++i) {
    const json& asked = list[i];
    json a = {{"verified", true}, {"line", asked.value("line", 0)}, {"source", {{"path", *path}}}};
    if (spec_of[i]) {
      const dbg::BreakpointView& v = views[*spec_of[i]];
      a["id"] = v.id;
      a["verified"] = v.verified;
      if (!v.message.empty()) a["message"] = v.message;
      if (v.pos)
        if (auto at = run.to_input(v.pos->line, v.pos->column)) a["line"] = at->line, a["column"] = at->column;
    }
    answers.push_back(std::move(a));
  }
  return answers;
}

}  // namespace relay::kernel
