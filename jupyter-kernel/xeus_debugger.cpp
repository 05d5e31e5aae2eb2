#include "jupyter-kernel/xeus_debugger.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "xeus/xauthentication.hpp"
#include "xeus/xdebugger.hpp"
#include "xeus/xeus_context.hpp"
#include "xeus/xmessage.hpp"
#include "xeus/xmiddleware.hpp"
#include "xeus/xzmq_serializer.hpp"
#include "zmq_addon.hpp"

namespace relay::kernel {

namespace {

std::atomic<NotebookDebugger*> g_debugger{nullptr};

class XeusDebugger final : public xeus::xdebugger {
 public:
  XeusDebugger(zmq::context_t& context, const xeus::xconfiguration& config, std::string user_name,
               std::string session_id, NotebookDebugger& debugger)
      : debugger_(debugger),
        publisher_(context, zmq::socket_type::pub),
        auth_(xeus::make_xauthentication(config.m_signature_scheme, config.m_key)),
        user_name_(std::move(user_name)),
        session_id_(std::move(session_id)) {
    // Events are published as xeus's own debugger client does: through a socket of
    // ours into the IOPub thread's inproc listener, so they do not depend on which
    // thread (shell or control) produces them.
    publisher_.set(zmq::sockopt::linger, xeus::get_socket_linger());
    publisher_.connect(xeus::get_publisher_end_point());
    debugger_.set_event_sink([this](const nl::json& event) { publish(event); });
  }

  ~XeusDebugger() override { debugger_.set_event_sink(nullptr); }

 private:
  nl::json process_request_impl(const nl::json& header, const nl::json& message) override {
    {
      std::lock_guard lock(mutex_);
      parent_ = header;  // events are children of the request that caused them, or the last one
    }
    return debugger_.handle(message);
  }

  void publish(const nl::json& event) {
    std::lock_guard lock(mutex_);
    xeus::xpub_message msg("debug_event", xeus::make_header("debug_event", user_name_, session_id_), parent_,
                           nl::json::object(), event, xeus::buffer_sequence());
    zmq::multipart_t wire =
        xeus::xzmq_serializer::serialize_iopub(std::move(msg), *auth_, nl::json::error_handler_t::replace);
    wire.send(publisher_);
  }

  NotebookDebugger& debugger_;
  std::mutex mutex_;  // the socket and `parent_`: events come from the shell and control threads
  zmq::socket_t publisher_;
  std::unique_ptr<xeus::xauthentication> auth_;
  std::string user_name_, session_id_;
  nl::json parent_ = nl::json::object();
};

std::unique_ptr<xeus::xdebugger> make_debugger(xeus::xcontext& context, const xeus::xconfiguration& config,
                                               const std::string& user_name, const std::string& session_id,
                                               const nl::json& /*debugger_config*/) {
  return std::make_unique<XeusDebugger>(context.get_wrapped_context<zmq::context_t>(), config, user_name, session_id,
                                        *g_debugger.load());
}

}  // namespace

xeus::xkernel::debugger_builder debugger_builder(NotebookDebugger& debugger) {
  g_debugger.store(&debugger);
  return make_debugger;
}

}  // namespace relay::kernel
