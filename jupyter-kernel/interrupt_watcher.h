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
// that does what the waiting thread does makes that harmless too.
//
// Which execution an interrupt belongs to. A SIGINT counts only while the watcher is
// armed: from just before the kernel publishes an execute request's `busy` status until
// it publishes that request's `idle` (kernel_server.h calls `arm` and `disarm`). A
// SIGINT at any other time (the kernel is idle, or answering a completion) is dropped,
// so it cannot stop a later input.
//
// The race this replaced: the flag used to be cleared when the interpreter began an
// input, to forget interrupts that arrived while idle. But xeus publishes `busy` and
// `execute_input` before it calls the interpreter, so a client that saw the cell
// running and interrupted it at once could have its SIGINT land before that clearing:
// the interrupt was forgotten, the cell ran on (minutes, for a long loop), and the next
// input waited behind it. Arming before `busy` is published means that every interrupt
// a client sends after it could see the cell running is kept.
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

  // Set by a SIGINT while armed; the session polls it between evaluation steps.
  const std::atomic<bool>* flag() const;
  // An execute request is about to be reported busy: clears the flag (whatever an
  // earlier SIGINT left) and lets SIGINTs set it from now on.
  void arm();
  // That request is done: SIGINTs are ignored from now on, and the flag is clear when
  // this returns, even if a SIGINT that saw the watcher armed is still being handled.
  void disarm();
  // Ends the waiting thread (idempotent); called at shutdown.
  void stop();

 private:
  void run();

  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace relay::kernel
