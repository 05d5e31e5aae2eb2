// SIGINT as a flag for the session engine, without a signal handler.
//
// `interrupt_mode: signal` in the kernelspec makes Jupyter interrupt the kernel with
// SIGINT (and jupyter_client 7 also sends one before every shutdown). Two things rule
// out an ordinary handler: the default action would kill the kernel, and a handler
// that runs on the thread blocked in zmq_poll makes the poll fail with EINTR, which
// cppzmq turns into an exception that xeus does not catch (the kernel would abort).
// So SIGINT is blocked in every thread, and one thread of ours waits for it with
// sigtimedwait and sets the flag that `Session::set_interrupt_flag` polls.
#pragma once

#include <atomic>
#include <thread>

namespace relay::kernel {

class InterruptWatcher {
 public:
  // Blocks SIGINT in the calling thread, so construct this before anything starts a
  // thread (the ZeroMQ context, xeus): threads inherit the mask. Then starts waiting.
  InterruptWatcher();
  // Stops waiting; SIGINT stays blocked, so a late one is ignored rather than fatal.
  ~InterruptWatcher();
  InterruptWatcher(const InterruptWatcher&) = delete;
  InterruptWatcher& operator=(const InterruptWatcher&) = delete;

  const std::atomic<bool>* flag() const { return &interrupted_; }
  // Forgets an interrupt that arrived while nothing was running.
  void reset() { interrupted_.store(false); }
  // Ends the waiting thread (idempotent); called at shutdown.
  void stop();

 private:
  void run();

  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace relay::kernel
