#include "jupyter-kernel/interrupt_watcher.h"

#include <pthread.h>
#include <signal.h>

namespace relay::kernel {

namespace {

// Process-wide, as signal dispositions are; lock-free, so a handler may use them.
std::atomic<bool> g_interrupted{false};
std::atomic<bool> g_armed{false};
// How many SIGINTs are between reading `g_armed` and setting `g_interrupted`.
// `disarm` waits for it to drop to zero, so a SIGINT that saw the watcher armed for
// one request cannot set the flag after the request is over (and after the next one
// has been armed): without it, a thread descheduled between its check and its store
// would interrupt an input the user never meant to stop.
std::atomic<int> g_in_flight{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

// What every SIGINT does, on the waiting thread or in the handler. The default
// (sequentially consistent) ordering is what `disarm`'s argument relies on.
void on_interrupt() {
  g_in_flight.fetch_add(1);
  if (g_armed.load()) g_interrupted.store(true);
  g_in_flight.fetch_sub(1);
}

extern "C" void on_sigint(int) { on_interrupt(); }

sigset_t sigint_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

InterruptWatcher::InterruptWatcher() {
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigset_t set = sigint_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this] { run(); });
}

InterruptWatcher::~InterruptWatcher() { stop(); }

const std::atomic<bool>* InterruptWatcher::flag() const { return &g_interrupted; }

void InterruptWatcher::arm() {
  // Cleared before arming: a SIGINT from before this point belongs to no request.
  g_interrupted.store(false);
  g_armed.store(true);
}

void InterruptWatcher::disarm() {
  g_armed.store(false);
  // A SIGINT that read `g_armed` as true has either stored the flag already or is about
  // to; wait for it (a few instructions, unless its thread is descheduled), then clear.
  // Never called on a thread that runs the handler: SIGINT is blocked here.
  while (g_in_flight.load() != 0) std::this_thread::yield();
  g_interrupted.store(false);
}

void InterruptWatcher::stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true);
  // A SIGINT of our own, directed at the waiting thread, wakes it to see `stopping_`.
  pthread_kill(thread_.native_handle(), SIGINT);
  thread_.join();
}

void InterruptWatcher::run() {
  const sigset_t set = sigint_set();
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0 || sig != SIGINT) continue;
    if (stopping_.load()) return;
    on_interrupt();
  }
}

}  // namespace relay::kernel
