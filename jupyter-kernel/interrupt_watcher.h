// SIGINT as a flag for the session engine.
//
// `interrupt_mode: signal` in the kernelspec makes Jupyter interrupt the kernel with
// SIGINT (and jupyter_client 7 also sends one before every shutdown). The default
// action would kill the kernel, and a handler that runs on the thread blocked in
// zmq_poll makes the poll fail with EINTR, which cppzmq turns into an exception that
// xeus does not catch (the kernel would abort). So SIGINT is blocked in the main thread
// and in every thread started after it (xeus, ZeroMQ), and one thread of ours waits for
// it with sigwait and sets the flag that `Session::set_interrupt_flag` polls.
//
// Threads that libraries started before `main` (OpenBLAS's pool) do not block it, and
// the kernel may pick one of them to deliver a process-directed SIGINT to; a handler
// that only sets the same flag makes that harmless too.
#pragma once

#include <atomic>
#include <thread>

namespace relay::kernel {

class InterruptWatcher {
 public:
  // Blocks SIGINT in the calling thread, so construct this before anything starts a
  // thread (the ZeroMQ context, xeus): threads inherit the mask. Then starts waiting.
  // One per process.
  InterruptWatcher();
  // Stops waiting; SIGINT stays blocked or handled, so a late one is ignored.
  ~InterruptWatcher();
  InterruptWatcher(const InterruptWatcher&) = delete;
  InterruptWatcher& operator=(const InterruptWatcher&) = delete;

  // Set by every SIGINT; the session polls it between evaluation steps.
  const std::atomic<bool>* flag() const;
  // Forgets an interrupt that arrived while nothing was running.
  void reset();
  // Ends the waiting thread (idempotent); called at shutdown.
  void stop();

 private:
  void run();

  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace relay::kernel
