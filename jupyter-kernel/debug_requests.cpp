// The debug requests JupyterLab sends (control thread, the lock held). The engine's
// answers take their DAP shapes from dap/json_shapes.h; what is Jupyter's own (debugInfo,
// dumpCell, inspectVariables, richInspectVariables) and the mapping of positions to
// cells is here.
#include <fstream>
#include <sstream>

#include "dap/json_shapes.h"
#include "jupyter-kernel/notebook_debugger.h"
#include "repl/value_html.h"

namespace relay::kernel {

using nlohmann::json;

namespace {

constexpr int64_t kThread = 1;

const json& arguments(const json& r) {
  static const json empty = json::object();
  auto it = r.find("arguments");
  return it != r.end() && it->is_object() ? *it : empty;
}

constexpr const char* kNotStopped = "no cell is stopped in the debugger";

}  // namespace

json NotebookDebugger::dispatch(const json& r, const std::string& command) {
  if (command == "initialize") return initialize(r);
  if (command == "attach" || command == "configurationDone") return response(r);
  if (command == "debugInfo") return debug_info(r);
  if (command == "dumpCell") return dump_cell(r);
  if (command == "setBreakpoints") return set_breakpoints(r);
  if (command == "setExceptionBreakpoints") return set_exception_breakpoints(r);
  if (command == "threads") return response(r, {{"threads", {{{"id", kThread}, {"name", "cell"}}}}});
  if (command == "stackTrace") return stack_trace(r);
  if (command == "scopes") return scopes(r);
  if (command == "variables") return variables(r);
  if (command == "evaluate") return evaluate(r);
  if (command == "setVariable") return set_variable(r);
  if (command == "continue" || command == "next" || command == "stepIn" || command == "stepOut" ||
      command == "pause" || command == "terminate")
    return execution(r, command);
  if (command == "source") return source(r);
  if (command == "inspectVariables") return inspect_variables(r);
  if (command == "richInspectVariables") return rich_inspect_variables(r);
  if (command == "exceptionInfo") return exception_info(r);
  if (command == "disconnect") return disconnect(r);
  return failure(r, "the Relay kernel does not support the `" + command + "` request");
}

json NotebookDebugger::initialize(const json& r) {
  started_ = true;
  json filters = json::array();
  for (const auto& [name, label] : dbg::Debugger::exception_filters())
    filters.push_back({{"filter", name}, {"label", label}, {"default", false}});
  json reply = response(r, {{"supportsConfigurationDoneRequest", true},
                            {"supportsConditionalBreakpoints", true},
                            {"supportsHitConditionalBreakpoints", true},
                            {"supportsLogPoints", true},
                            {"supportsEvaluateForHovers", true},
                            {"supportsSetVariable", true},
                            {"supportsExceptionInfoRequest", true},
                            {"supportsTerminateRequest", true},
                            {"exceptionBreakpointFilters", filters}});
  event("initialized", json::object());
  return reply;
}

json NotebookDebugger::debug_info(const json& r) {
  json sources = json::array();
  for (const auto& [path, list] : breakpoints_)
    if (!list.empty()) sources.push_back({{"source", path}, {"breakpoints", list}});
  json threads = json::array();
  if (stopped()) threads.push_back(kThread);
  return response(r, {{"isStarted", started_},
                      {"hashMethod", "Murmur2"},
                      {"hashSeed", files_.seed()},
                      {"tmpFilePrefix", files_.prefix()},
                      {"tmpFileSuffix", files_.suffix()},
                      {"breakpoints", sources},
                      {"stoppedThreads", threads},
                      {"richRendering", true},
                      {"exceptionPaths", json::array()}});
}

json NotebookDebugger::dump_cell(const json& r) {
  std::string path, error;
  if (!files_.dump(arguments(r).at("code").get<std::string>(), &path, &error)) return failure(r, error);
  return response(r, {{"sourcePath", path}});
}

json NotebookDebugger::set_breakpoints(const json& r) {
  const json& a = arguments(r);
  const std::string path = a.at("source").at("path").get<std::string>();
  breakpoints_[path] = a.value("breakpoints", json::array());
  json out = json::array();
  if (active_ && active_->run) {
    for (json& b : apply_breakpoints(&path)) out.push_back(std::move(b));
  } else {
    // Checked when a cell with this code runs: the code may not even be valid yet.
    for (const json& b : breakpoints_[path])
      out.push_back({{"verified", true}, {"line", b.value("line", 0)}, {"source", {{"path", path}}}});
  }
  return response(r, {{"breakpoints", out}});
}

json NotebookDebugger::set_exception_breakpoints(const json& r) {
  const json& a = arguments(r);
  exception_filters_.clear();
  for (const json& f : a.value("filters", json::array())) exception_filters_.insert(f.get<std::string>());
  for (const json& f : a.value("filterOptions", json::array()))
    exception_filters_.insert(f.at("filterId").get<std::string>());
  if (active_) active_->engine.set_exception_filters(exception_filters_);
  return response(r);
}

json NotebookDebugger::stack_trace(const json& r) {
  if (!stopped()) return failure(r, kNotStopped);
  const json& a = arguments(r);
  dbg::Debugger& engine = active_->engine;
  const repl::DebugRun& run = *active_->run;
  int64_t total = 0;
  json frames = json::array();
  for (const dbg::FrameView& f : engine.stack_trace(a.value("startFrame", int64_t{0}), a.value("levels", int64_t{0}), &total)) {
    json j = {{"id", dap::protocol_frame_id(f.id)}, {"name", f.name}, {"line", 0}, {"column", 0}};
    if (f.name == "@" + run.entry) j["name"] = run.entry_label;  // the input function is the cell
    if (f.label) j["presentationHint"] = "label";
    if (f.pos && f.file == engine.program_file()) {
      // In the module text: shown where the user wrote it (a cell, a loaded file).
      if (auto at = run.to_input(f.pos->line, f.pos->column)) {
        j["line"] = at->line;
        j["column"] = at->column;
        if (auto end = run.to_input(f.pos->end_line, f.pos->end_column); end && end->file == at->file)
          j["endLine"] = end->line, j["endColumn"] = end->column;
        j["source"] = source_of(at->file);
      }
    } else if (f.pos && f.file < engine.sources().size()) {
      // The prelude: written next to the cells' files, so the frontend can open it.
      if (prelude_path_.empty()) {
        std::string error;
        if (!files_.write_extra("prelude.relay", engine.sources().get(f.file).text, &prelude_path_, &error))
          prelude_path_.clear();
      }
      j["line"] = f.pos->line;
      j["column"] = f.pos->column;
      j["endLine"] = f.pos->end_line;
      j["endColumn"] = f.pos->end_column;
      if (!prelude_path_.empty()) j["source"] = {{"name", "prelude"}, {"path", prelude_path_}};
      j["presentationHint"] = "subtle";
    }
    frames.push_back(std::move(j));
  }
  return response(r, {{"stackFrames", frames}, {"totalFrames", total}});
}

json NotebookDebugger::scopes(const json& r) {
  if (!stopped()) return failure(r, kNotStopped);
  json out = json::array();
  for (const dbg::ScopeView& s : active_->engine.scopes(dap::engine_frame_id(arguments(r).at("frameId").get<int64_t>())))
    out.push_back(dap::scope_json(s));
  return response(r, {{"scopes", out}});
}

json NotebookDebugger::variables(const json& r) {
  if (!stopped()) return failure(r, kNotStopped);
  const json& a = arguments(r);
  auto vars = active_->engine.variables(a.at("variablesReference").get<int64_t>(), dap::child_filter(a.value("filter", "")),
                                        a.value("start", int64_t{0}), a.value("count", int64_t{0}));
  if (!vars) return failure(r, "unknown variablesReference (variables are valid only while the cell is stopped)");
  json out = json::array();
  for (const dbg::VariableView& v : *vars) out.push_back(dap::variable_json(v));
  return response(r, {{"variables", out}});
}

json NotebookDebugger::evaluate(const json& r) {
  if (!stopped()) return failure(r, "evaluation needs a cell stopped in the debugger; run code in a cell instead");
  const json& a = arguments(r);
  std::optional<int64_t> frame;
  if (a.contains("frameId")) frame = dap::engine_frame_id(a["frameId"].get<int64_t>());
  std::string error;
  auto v = active_->engine.evaluate(a.at("expression").get<std::string>(), frame,
                                    dap::eval_context(a.value("context", "repl")), &error);
  forward_output(active_->engine, false);
  if (!v) return failure(r, error);
  return response(r, dap::evaluate_body(*v));
}

json NotebookDebugger::set_variable(const json& r) {
  if (!stopped()) return failure(r, kNotStopped);
  const json& a = arguments(r);
  std::string error;
  auto v = active_->engine.set_variable(a.at("variablesReference").get<int64_t>(), a.at("name").get<std::string>(),
                                        a.at("value").get<std::string>(), &error);
  if (!v) return failure(r, error);
  json body = {{"value", v->value}, {"variablesReference", v->reference}};
  if (!v->type.empty()) body["type"] = v->type;
  return response(r, body);
}

json NotebookDebugger::execution(const json& r, const std::string& command) {
  if (!active_ || !active_->run) return failure(r, "no cell is running in the debugger");
  dbg::Debugger& engine = active_->engine;
  if (command == "pause") {
    if (engine.state() != dbg::Debugger::State::Running) return failure(r, "the cell is not running");
    engine.pause();
    return response(r);
  }
  if (command == "terminate") {
    engine.terminate();
    return response(r);
  }
  if (!stopped()) return failure(r, kNotStopped);
  const json& a = arguments(r);
  const dbg::Granularity g = dap::step_granularity(a);
  if (command == "continue") engine.resume();
  else if (command == "next") engine.next(g);
  else if (command == "stepOut") engine.step_out(g);
  else engine.step_in(g, a.contains("targetId") ? std::optional<int64_t>(a["targetId"].get<int64_t>()) : std::nullopt);
  // The shell thread, woken when this request lets go of the lock, runs the cell on.
  event("continued", {{"threadId", kThread}, {"allThreadsContinued", true}});
  return command == "continue" ? response(r, {{"allThreadsContinued", true}}) : response(r);
}

json NotebookDebugger::source(const json& r) {
  const json& a = arguments(r);
  const std::string path = a.value("source", json::object()).value("path", "");
  std::ifstream in(path, std::ios::binary);
  if (path.empty() || !in) return failure(r, "source unavailable: " + (path.empty() ? std::string("no path") : path));
  std::ostringstream text;
  text << in.rdbuf();
  return response(r, {{"content", text.str()}, {"mimeType", "text/x-relay"}});
}

json NotebookDebugger::inspect_variables(const json& r) {
  // The session's bindings after the last cell that finished.
  json out = json::array();
  for (const VariableText& v : variables_) {
    json j = {{"name", v.name}, {"value", v.value}, {"variablesReference", 0}, {"evaluateName", v.name}};
    if (!v.type.empty()) j["type"] = v.type;
    out.push_back(std::move(j));
  }
  return response(r, {{"variables", out}});
}

json NotebookDebugger::rich_inspect_variables(const json& r) {
  const json& a = arguments(r);
  std::string name = a.at("variableName").get<std::string>();
  const std::string bare = !name.empty() && name[0] == '%' ? name.substr(1) : name;
  std::string html, plain;
  if (stopped()) {
    // In the stopped frame (the innermost when none is named). The shell thread is
    // parked: the value may be read here.
    const int64_t frame = a.contains("frameId") ? dap::engine_frame_id(a["frameId"].get<int64_t>()) : 0;
    std::string type;
    if (auto v = active_->engine.frame_value(frame, bare, &type)) {
      html = repl::value_html(*v, type);
      plain = rt::inspect(*v, type).summary;
    }
  }
  if (html.empty())
    for (const VariableText& v : variables_)
      if (v.name == "%" + bare) html = v.html, plain = v.value;
  if (html.empty()) return failure(r, "no variable `%" + bare + "` to show");
  return response(r, {{"data", {{"text/html", html}, {"text/plain", plain}}}, {"metadata", json::object()}});
}

json NotebookDebugger::exception_info(const json& r) {
  if (!stopped()) return failure(r, kNotStopped);
  auto info = active_->engine.exception_info();
  if (!info) return failure(r, "the cell is not stopped on an exception");
  return response(r, {{"exceptionId", info->id},
                      {"description", info->description},
                      {"breakMode", "always"},
                      {"details", {{"message", info->description}, {"typeName", info->id}, {"stackTrace", info->details}}}});
}

json NotebookDebugger::disconnect(const json& r) {
  // The frontend turned the debugger off: a stopped cell runs on to its end, unhindered.
  started_ = false;
  breakpoints_.clear();
  exception_filters_.clear();
  if (active_ && active_->run) {
    dbg::Debugger& engine = active_->engine;
    engine.set_line_breakpoints({});
    engine.set_function_breakpoints({});
    engine.set_exception_filters({});
    if (engine.state() == dbg::Debugger::State::Stopped) {
      engine.resume();
      event("continued", {{"threadId", kThread}, {"allThreadsContinued", true}});
    }
  }
  return response(r);
}

}  // namespace relay::kernel
