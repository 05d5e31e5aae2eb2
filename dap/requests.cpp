// The adapter's requests for starting, configuring and driving a run.
#include <filesystem>

#include "dap/adapter.h"
#include "dap/json_shapes.h"

namespace relay::dap {

using nlohmann::json;

namespace {

std::string canonical(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

}  // namespace

void Adapter::initialize(const json& r) {
  const json& a = r.value("arguments", json::object());
  lines_start_at_1_ = a.value("linesStartAt1", true);
  columns_start_at_1_ = a.value("columnsStartAt1", true);
  json filters = json::array();
  for (const auto& [name, label] : dbg::Debugger::exception_filters())
    filters.push_back({{"filter", name}, {"label", label}, {"default", name == "runtime-error"}});
  respond(r, {{"supportsConfigurationDoneRequest", true},
              {"supportsFunctionBreakpoints", true},
              {"supportsConditionalBreakpoints", true},
              {"supportsHitConditionalBreakpoints", true},
              {"supportsLogPoints", true},
              {"supportsEvaluateForHovers", true},
              {"supportsClipboardContext", true},
              {"supportsSetVariable", true},
              {"supportsRestartRequest", true},
              {"supportsTerminateRequest", true},
              {"supportTerminateDebuggee", true},
              {"supportsCompletionsRequest", true},
              {"completionTriggerCharacters", {"%", "@", "."}},
              {"supportsExceptionInfoRequest", true},
              {"supportsBreakpointLocationsRequest", true},
              {"supportsStepInTargetsRequest", true},
              {"supportsSteppingGranularity", true},
              {"supportsReadMemoryRequest", true},
              {"supportsDelayedStackTraceLoading", true},
              {"exceptionBreakpointFilters", filters}});
  event("initialized");
}

void Adapter::launch(const json& r) {
  // one program a session: a second launch would replace the engine's program under
  // the client's stopped threads and frames
  if (launched_)
    return fail(r, "a program is already launched in this session (`restart` runs it again; `disconnect` ends it)");
  const json& a = r.value("arguments", json::object());
  dbg::LaunchConfig config;
  if (!a.contains("program") || !a["program"].is_string() || a["program"].get<std::string>().empty())
    return fail(r, "launch needs `program`: the path of a .relay file");
  config.program = canonical(a["program"].get<std::string>());
  config.entry = a.value("entry", "main");
  if (!config.entry.empty() && config.entry[0] == '@') config.entry.erase(0, 1);
  if (a.contains("args")) {
    if (!a["args"].is_object()) return fail(r, "`args` maps parameter names to .npy files");
    for (const auto& [name, path] : a["args"].items()) {
      if (!path.is_string()) return fail(r, "`args." + name + "` must be the path of a .npy file");
      std::string n = name;
      if (!n.empty() && n[0] == '%') n.erase(0, 1);
      config.args.emplace_back(n, path.get<std::string>());
    }
  }
  if (a.contains("randomInputs")) {
    if (!a["randomInputs"].is_number_unsigned()) return fail(r, "`randomInputs` is a seed: a whole number >= 0");
    config.random_seed = a["randomInputs"].get<uint64_t>();
  }
  config.stop_on_entry = a.value("stopOnEntry", false);
  config.check_numerics = a.value("checkNumerics", false);
  if (a.contains("maxDepth")) {
    if (!a["maxDepth"].is_number_unsigned() || a["maxDepth"].get<uint64_t>() == 0)
      return fail(r, "`maxDepth` is the deepest call stack allowed: a whole number >= 1");
    config.max_depth = a["maxDepth"].get<size_t>();
  }
  std::string error;
  if (!engine_.launch(config, &error)) {
    event("output", {{"category", "stderr"}, {"output", error + (error.ends_with("\n") ? "" : "\n")}});
    std::string first = error.substr(0, error.find('\n'));
    return fail(r, "cannot debug " + config.program + ": " + first);
  }
  launched_ = true;
  respond(r);
}

void Adapter::set_breakpoints(const json& r) {
  const json& a = r.at("arguments");
  const std::string path = a.at("source").value("path", "");
  std::vector<dbg::LineBreakpointSpec> specs;
  for (const json& b : a.value("breakpoints", json::array())) {
    dbg::LineBreakpointSpec s;
    s.line = line_in(b.at("line").get<int64_t>());
    if (b.contains("column")) s.column = column_in(b["column"].get<int64_t>());
    s.condition = b.value("condition", "");
    s.hit_condition = b.value("hitCondition", "");
    s.log_message = b.value("logMessage", "");
    specs.push_back(std::move(s));
  }
  json out = json::array();
  if (canonical(path) != engine_.program_path()) {
    // Breakpoints in another file: the program being debugged cannot reach them.
    for (size_t i = 0; i < specs.size(); ++i)
      out.push_back({{"verified", false}, {"message", "not in the program being debugged (" + engine_.program_path() + ")"}});
    return respond(r, {{"breakpoints", out}});
  }
  for (const dbg::BreakpointView& b : engine_.set_line_breakpoints(specs)) out.push_back(breakpoint_json(b));
  respond(r, {{"breakpoints", out}});
}

void Adapter::set_function_breakpoints(const json& r) {
  std::vector<dbg::FunctionBreakpointSpec> specs;
  for (const json& b : r.at("arguments").value("breakpoints", json::array()))
    specs.push_back({b.at("name").get<std::string>(), b.value("condition", ""), b.value("hitCondition", "")});
  json out = json::array();
  for (const dbg::BreakpointView& b : engine_.set_function_breakpoints(specs)) out.push_back(breakpoint_json(b));
  respond(r, {{"breakpoints", out}});
}

void Adapter::set_exception_breakpoints(const json& r) {
  std::set<std::string> filters;
  for (const json& f : r.at("arguments").value("filters", json::array())) filters.insert(f.get<std::string>());
  for (const json& f : r.at("arguments").value("filterOptions", json::array()))
    filters.insert(f.at("filterId").get<std::string>());
  std::vector<std::string> unknown;
  engine_.set_exception_filters(filters, &unknown);
  json out = json::array();
  for (const std::string& f : filters) {
    bool bad = std::find(unknown.begin(), unknown.end(), f) != unknown.end();
    json b = {{"verified", !bad}};
    if (bad) b["message"] = "unknown exception filter `" + f + "` (known: nan, inf, runtime-error)";
    out.push_back(b);
  }
  respond(r, {{"breakpoints", out}});
}

void Adapter::breakpoint_locations(const json& r) {
  const json& a = r.at("arguments");
  json out = json::array();
  if (canonical(a.at("source").value("path", "")) == engine_.program_path()) {
    uint32_t line = line_in(a.at("line").get<int64_t>());
    uint32_t end = a.contains("endLine") ? line_in(a["endLine"].get<int64_t>()) : line;
    for (const dbg::Position& p : engine_.breakpoint_locations(line, end))
      out.push_back({{"line", line_out(p.line)}, {"column", column_out(p.column)},
                     {"endLine", line_out(p.end_line)}, {"endColumn", column_out(p.end_column)}});
  }
  respond(r, {{"breakpoints", out}});
}

void Adapter::configuration_done(const json& r) {
  respond(r);
  if (configured_) return;
  configured_ = true;
  engine_.start();
}

void Adapter::execution(const json& r, const std::string& command) {
  const json& a = r.value("arguments", json::object());
  using State = dbg::Debugger::State;
  if (command == "restart") {
    std::string error;
    terminated_sent_ = false;
    if (!engine_.restart(&error)) {
      event("output", {{"category", "stderr"}, {"output", error + "\n"}});
      return fail(r, "restart failed: " + error.substr(0, error.find('\n')));
    }
    return respond(r);
  }
  if (command == "pause") {
    if (engine_.state() != State::Running) return fail(r, "the program is not running");
    engine_.pause();
    return respond(r);
  }
  if (engine_.state() != State::Stopped) return fail(r, "the program is not stopped");
  const auto g = step_granularity(a);
  if (command == "continue") engine_.resume();
  else if (command == "next") engine_.next(g);
  else if (command == "stepOut") engine_.step_out(g);
  else if (command == "stepIn") {
    std::optional<int64_t> target;
    if (a.contains("targetId")) target = a["targetId"].get<int64_t>();
    engine_.step_in(g, target);
  }
  if (command == "continue") respond(r, {{"allThreadsContinued", true}});
  else respond(r);
  if (engine_.state() == State::Exited) after_slice();  // continuing after a run-time error ends the run
}

}  // namespace relay::dap
