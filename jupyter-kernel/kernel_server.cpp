#include "jupyter-kernel/kernel_server.h"

#include <atomic>
#include <deque>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

#include "xeus/xeus_context.hpp"
#include "xeus/xserver_shell_main.hpp"

namespace relay::kernel {

namespace {

std::atomic<InterruptWatcher*> g_watcher{nullptr};

std::string field(const nl::json& object, const char* name) { return object.value(name, std::string()); }

// A split server (xeus's xserver_shell_main): shell requests on the main thread, control
// requests on a thread of their own, so the debugger answers on the control channel
// while a cell runs or is stopped at a breakpoint (notebook_debugger.h). Everything
// below runs on the shell thread, except `publish_impl` for control messages.
//
// It also changes when xeus aborts queued requests after a failed cell. For a request
// with `stop_on_error` (jupyter_client's default), xeus sends the error reply and then
// aborts whatever is on the shell socket, polling again 50 ms after each abort. So a
// request sent after the client had the reply (`add(1, 1)` right after an interrupted
// loop) was aborted or not depending on how fast the kernel reached its poll, with a
// bare `{"status": "error"}` reply and no `busy`/`idle` for it. Here the requests that
// are waiting are taken off the socket just before the error reply goes out, and only
// those can be aborted (only execute requests, as ipykernel does); the rest run in
// order once the failed request is idle, before anything that came later.
class KernelServer final : public xeus::xserver_shell_main {
 public:
  KernelServer(zmq::context_t& context, const xeus::xconfiguration& config, nl::json::error_handler_t eh,
               InterruptWatcher& interrupts)
      : xserver_shell_main(context, config, eh), interrupts_(interrupts) {}

 protected:
  void publish_impl(xeus::xpub_message msg, xeus::channel c) override {
    const Status status = execution_status(msg, c);
    // Armed before `busy` is sent, disarmed after `idle` is: every SIGINT sent by a
    // client that has seen the cell busy and not yet idle reaches this execution.
    if (status == Status::Busy) interrupts_.arm();
    xserver_shell_main::publish_impl(std::move(msg), c);
    if (status == Status::Idle) {
      interrupts_.disarm();
      // The last thing xeus does for a request is to publish its idle status.
      run_held_requests();
    }
  }

  void send_shell_impl(xeus::xmessage msg) override {
    if (!aborting_ && field(msg.header(), "msg_type") == "execute_reply" && field(msg.content(), "status") == "error")
      xserver_shell_main::abort_queue_impl([this](xeus::xmessage waiting) { held_.push_back(std::move(waiting)); }, 0);
    xserver_shell_main::send_shell_impl(std::move(msg));
  }

  // xeus calls this after an error reply to a request with `stop_on_error`; `abort`
  // sends the aborted request's reply.
  void abort_queue_impl(const listener& abort, long /*polling_interval*/) override {
    aborting_ = true;
    std::deque<xeus::xmessage> kept;
    for (xeus::xmessage& msg : held_) {
      if (field(msg.header(), "msg_type") == "execute_request") abort(std::move(msg));
      else kept.push_back(std::move(msg));
    }
    held_ = std::move(kept);
    aborting_ = false;
  }

 private:
  enum class Status { Other, Busy, Idle };

  // A `status` message of an execute request: on the shell channel, so on the shell
  // thread (control requests, on their own thread, are never interrupted).
  static Status execution_status(const xeus::xpub_message& msg, xeus::channel c) {
    if (c != xeus::channel::SHELL || field(msg.header(), "msg_type") != "status") return Status::Other;
    if (field(msg.parent_header(), "msg_type") != "execute_request") return Status::Other;
    const std::string state = field(msg.content(), "execution_state");
    return state == "busy" ? Status::Busy : state == "idle" ? Status::Idle : Status::Other;
  }

  // Handles the held requests as if they had just been received, oldest first. A held
  // request that fails holds more; they join the queue, and this loop (not a nested
  // one) handles them.
  void run_held_requests() {
    if (running_held_) return;
    running_held_ = true;
    while (!held_.empty()) {
      xeus::xmessage msg = std::move(held_.front());
      held_.pop_front();
      try {
        notify_shell_listener(std::move(msg));
      } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;  // as xeus's own shell loop does
      }
    }
    running_held_ = false;
  }

  InterruptWatcher& interrupts_;
  std::deque<xeus::xmessage> held_;  // taken off the socket before an error reply
  bool aborting_ = false;
  bool running_held_ = false;
};

std::unique_ptr<xeus::xserver> make_server(xeus::xcontext& context, const xeus::xconfiguration& config,
                                           nl::json::error_handler_t eh) {
  return std::make_unique<KernelServer>(context.get_wrapped_context<zmq::context_t>(), config, eh,
                                        *g_watcher.load());
}

}  // namespace

xeus::xkernel::server_builder server_builder(InterruptWatcher& interrupts) {
  g_watcher.store(&interrupts);
  return make_server;
}

}  // namespace relay::kernel
