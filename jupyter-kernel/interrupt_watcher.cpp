#include "jupyter-kernel/interrupt_watcher.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

namespace relay::kernel {

namespace {

sigset_t sigint_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

InterruptWatcher::InterruptWatcher() {
  sigset_t set = sigint_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this] { run(); });
}

InterruptWatcher::~InterruptWatcher() { stop(); }

void InterruptWatcher::stop() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
}

void InterruptWatcher::run() {
  const sigset_t set = sigint_set();
  // The timeout only bounds how long `stop` waits for this thread; an interrupt is
  // seen as soon as it is delivered.
  const timespec timeout{0, 50'000'000};
  while (!stopping_.load()) {
    if (sigtimedwait(&set, nullptr, &timeout) == SIGINT) interrupted_.store(true);
  }
}

}  // namespace relay::kernel
