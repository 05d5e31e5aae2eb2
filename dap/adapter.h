// `relay dap`: the Debug Adapter Protocol (1.71) over stdio, a thin front end on the
// debugging engine (debugger/debugger.h). This layer alone knows JSON: it turns requests
// into engine calls and engine results into responses and events.
//
// Threads: a reader thread frames messages off stdin and queues them; everything else
// runs on the main thread. While the program runs, the main thread advances the engine in
// slices and handles queued requests between them; the reader asks the engine to poll
// when a message arrives, so a `pause` is answered within one statement of the program
// even inside an endless loop.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "debugger/debugger.h"
#include "protocol/framing.h"

namespace relay::dap {

class Adapter {
 public:
  explicit Adapter(protocol::FramedStream& stream);
  ~Adapter();
  // Serves until `disconnect` or the end of input. Returns the process exit status.
  int run();
  // From a signal handler: pause the program as the `pause` request would.
  void interrupt();

 private:
  struct Incoming {
    enum class Kind { Message, BadFraming, Eof } kind;
    std::string text;
  };
  void read_loop();
  std::optional<Incoming> next_message(bool wait);
  void handle(const std::string& body);
  void dispatch(const nlohmann::json& request);
  void after_slice();

  // Messages out.
  void send(nlohmann::json message);
  void respond(const nlohmann::json& request, nlohmann::json body = nullptr);
  void fail(const nlohmann::json& request, const std::string& message);
  void event(const std::string& name, nlohmann::json body = nullptr);
  void flush_output();

  // Requests (requests.cpp, inspect_requests.cpp).
  void initialize(const nlohmann::json& r);
  void launch(const nlohmann::json& r);
  void set_breakpoints(const nlohmann::json& r);
  void set_function_breakpoints(const nlohmann::json& r);
  void set_exception_breakpoints(const nlohmann::json& r);
  void breakpoint_locations(const nlohmann::json& r);
  void configuration_done(const nlohmann::json& r);
  void execution(const nlohmann::json& r, const std::string& command);
  void stack_trace(const nlohmann::json& r);
  void scopes(const nlohmann::json& r);
  void variables(const nlohmann::json& r);
  void evaluate(const nlohmann::json& r);
  void set_variable(const nlohmann::json& r);
  void completions(const nlohmann::json& r);
  void step_in_targets(const nlohmann::json& r);
  void exception_info(const nlohmann::json& r);
  void read_memory(const nlohmann::json& r);
  void source(const nlohmann::json& r);

  // Conversions.
  nlohmann::json source_of(FileId file) const;
  nlohmann::json breakpoint_json(const dbg::BreakpointView& b) const;
  nlohmann::json variable_json(const dbg::VariableView& v) const;
  int64_t line_out(uint32_t line) const { return lines_start_at_1_ ? line : static_cast<int64_t>(line) - 1; }
  int64_t column_out(uint32_t column) const { return columns_start_at_1_ ? column : static_cast<int64_t>(column) - 1; }
  // 1-based; a line or column before the first is 0 (a breakpoint there moves to the
  // first code), and none wraps around
  uint32_t line_in(int64_t line) const { return to_one_based(line, lines_start_at_1_); }
  uint32_t column_in(int64_t column) const { return to_one_based(column, columns_start_at_1_); }
  static uint32_t to_one_based(int64_t n, bool starts_at_1) {
    const int64_t one_based = starts_at_1 ? n : (n < INT64_MAX ? n + 1 : n);
    return static_cast<uint32_t>(std::clamp<int64_t>(one_based, 0, UINT32_MAX));
  }

  protocol::FramedStream& stream_;
  dbg::Debugger engine_;
  int64_t seq_ = 1;
  bool launched_ = false, configured_ = false, terminated_sent_ = false, done_ = false;
  bool lines_start_at_1_ = true, columns_start_at_1_ = true;
  std::atomic<bool> interrupt_{false};

  std::thread reader_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Incoming> inbox_;
};

}  // namespace relay::dap
