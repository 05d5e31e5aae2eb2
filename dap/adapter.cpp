#include "dap/adapter.h"

#include <chrono>
#include <set>

namespace relay::dap {

using nlohmann::json;

namespace {
// Steps per slice while the program runs: the reader's poll ends a slice early, so this
// only bounds how long queued requests wait when nothing polls.
constexpr uint64_t kSliceSteps = 200'000;
}  // namespace

Adapter::Adapter(protocol::FramedStream& stream) : stream_(stream) {}

Adapter::~Adapter() {
  // The reader ends at the end of input; after `disconnect` it may still be blocked in
  // read(), and `relay dap` then ends the process without destroying the adapter.
  if (reader_.joinable()) reader_.join();
}

void Adapter::interrupt() {
  interrupt_.store(true);
  engine_.request_poll();
}

void Adapter::read_loop() {
  for (;;) {
    std::string body, error;
    auto status = stream_.read(body, error);
    Incoming in{Incoming::Kind::Message, std::move(body)};
    if (status == protocol::FramedStream::ReadStatus::BadFraming) in = {Incoming::Kind::BadFraming, error};
    if (status == protocol::FramedStream::ReadStatus::Eof) in = {Incoming::Kind::Eof, ""};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      inbox_.push_back(std::move(in));
    }
    ready_.notify_one();
    engine_.request_poll();
    if (status == protocol::FramedStream::ReadStatus::Eof) return;
  }
}

std::optional<Adapter::Incoming> Adapter::next_message(bool wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wait)
    while (inbox_.empty() && !interrupt_.load()) ready_.wait_for(lock, std::chrono::milliseconds(100));
  if (inbox_.empty()) return std::nullopt;
  Incoming in = std::move(inbox_.front());
  inbox_.pop_front();
  return in;
}

int Adapter::run() {
  reader_ = std::thread([this] { read_loop(); });
  while (!done_) {
    if (interrupt_.exchange(false)) engine_.pause();
    const bool running = engine_.state() == dbg::Debugger::State::Running;
    // While the program runs, take what has arrived without waiting; otherwise wait.
    while (auto in = next_message(!running)) {
      if (in->kind == Incoming::Kind::Eof) {
        done_ = true;
        break;
      }
      if (in->kind == Incoming::Kind::BadFraming) {
        event("output", {{"category", "important"}, {"output", "relay dap: bad message framing: " + in->text + "\n"}});
      } else {
        handle(in->text);
      }
      // A running program gets its slice after each message.
      if (done_ || engine_.state() == dbg::Debugger::State::Running) break;
    }
    if (done_) break;
    if (engine_.state() == dbg::Debugger::State::Running) {
      engine_.advance(kSliceSteps);
      after_slice();
    }
  }
  return 0;
}

void Adapter::after_slice() {
  flush_output();
  switch (engine_.state()) {
    case dbg::Debugger::State::Stopped: {
      const dbg::Stop& s = engine_.stop();
      json body = {{"reason", dbg::stop_reason_name(s.reason)},
                   {"description", s.description},
                   {"threadId", 1},
                   {"allThreadsStopped", true}};
      if (!s.text.empty()) body["text"] = s.text;
      if (!s.breakpoints.empty()) body["hitBreakpointIds"] = s.breakpoints;
      event("stopped", body);
      break;
    }
    case dbg::Debugger::State::Exited:
      if (!terminated_sent_) {
        event("exited", {{"exitCode", engine_.exit_code()}});
        event("terminated");
        terminated_sent_ = true;
      }
      break;
    default: break;
  }
}

void Adapter::handle(const std::string& body) {
  json request;
  try {
    request = json::parse(body);
  } catch (const json::exception& e) {
    event("output", {{"category", "important"}, {"output", std::string("relay dap: a message is not JSON: ") + e.what() + "\n"}});
    return;
  }
  if (!request.is_object() || request.value("type", "") != "request" || !request.contains("command") ||
      !request["command"].is_string() || !request.contains("seq") || !request["seq"].is_number_integer()) {
    if (request.is_object() && request.contains("seq") && request["seq"].is_number_integer() &&
        request.contains("command") && request["command"].is_string())
      fail(request, "malformed request: expected {\"type\": \"request\", \"seq\": N, \"command\": ...}");
    else
      event("output", {{"category", "important"}, {"output", "relay dap: ignored a message that is not a request\n"}});
    return;
  }
  try {
    dispatch(request);
  } catch (const json::exception& e) {
    fail(request, std::string("bad arguments: ") + e.what());
  } catch (const std::exception& e) {
    fail(request, std::string("internal error: ") + e.what());
  }
}

void Adapter::dispatch(const json& r) {
  const std::string command = r["command"];
  if (command == "initialize") return initialize(r);
  if (command == "launch") return launch(r);
  if (command == "attach") return fail(r, "relay dap launches programs; attaching is not supported");
  if (command == "disconnect") {
    engine_.terminate();
    respond(r);
    done_ = true;
    return;
  }
  if (command == "terminate") {
    engine_.terminate();
    respond(r);
    after_slice();
    return;
  }
  if (command == "threads") return respond(r, {{"threads", json::array({{{"id", 1}, {"name", "main"}}})}});
  static const std::set<std::string> known = {
      "setBreakpoints", "setFunctionBreakpoints", "setExceptionBreakpoints", "breakpointLocations",
      "configurationDone", "continue", "next", "stepIn", "stepOut", "pause", "restart", "stackTrace", "scopes",
      "variables", "evaluate", "setVariable", "completions", "stepInTargets", "exceptionInfo", "readMemory", "source"};
  if (!known.count(command)) return fail(r, "unknown request `" + command + "`");
  if (!launched_) return fail(r, "`" + command + "` needs a launched program (send `launch` first)");
  if (command == "setBreakpoints") return set_breakpoints(r);
  if (command == "setFunctionBreakpoints") return set_function_breakpoints(r);
  if (command == "setExceptionBreakpoints") return set_exception_breakpoints(r);
  if (command == "breakpointLocations") return breakpoint_locations(r);
  if (command == "configurationDone") return configuration_done(r);
  if (command == "continue" || command == "next" || command == "stepIn" || command == "stepOut" ||
      command == "pause" || command == "restart")
    return execution(r, command);
  if (command == "stackTrace") return stack_trace(r);
  if (command == "scopes") return scopes(r);
  if (command == "variables") return variables(r);
  if (command == "evaluate") return evaluate(r);
  if (command == "setVariable") return set_variable(r);
  if (command == "completions") return completions(r);
  if (command == "stepInTargets") return step_in_targets(r);
  if (command == "exceptionInfo") return exception_info(r);
  if (command == "readMemory") return read_memory(r);
  if (command == "source") return source(r);
  fail(r, "unknown request `" + command + "`");
}

// --- messages out ----------------------------------------------------------------------

void Adapter::send(json message) {
  message["seq"] = seq_++;
  stream_.write(message.dump(-1, ' ', false, json::error_handler_t::replace));
}

void Adapter::respond(const json& request, json body) {
  json m = {{"type", "response"}, {"request_seq", request["seq"]}, {"success", true}, {"command", request["command"]}};
  if (!body.is_null()) m["body"] = std::move(body);
  send(std::move(m));
}

void Adapter::fail(const json& request, const std::string& message) {
  send({{"type", "response"},
        {"request_seq", request["seq"]},
        {"success", false},
        {"command", request["command"]},
        {"message", message},
        {"body", {{"error", {{"id", 1}, {"format", message}, {"showUser", false}}}}}});
}

void Adapter::event(const std::string& name, json body) {
  json m = {{"type", "event"}, {"event", name}};
  if (!body.is_null()) m["body"] = std::move(body);
  send(std::move(m));
}

void Adapter::flush_output() {
  for (const dbg::Output& o : engine_.take_output()) {
    json body = {{"category", o.category}, {"output", o.text}};
    if (o.pos) {
      body["source"] = source_of(engine_.program_file());
      body["line"] = line_out(o.pos->line);
      body["column"] = column_out(o.pos->column);
    }
    event("output", body);
  }
}

}  // namespace relay::dap
