#include "jupyter-kernel/interrupt_watcher.h"

#include <pthread.h>
#include <signal.h>

namespace relay::kernel {

namespace {

// Process-wide, as signal dispositions are; lock-free, so a handler may store to it.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) { g_interrupted.store(true); }

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

void InterruptWatcher::reset() { g_interrupted.store(false); }

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
    g_interrupted.store(true);
  }
}

}  // namespace relay::kernel
