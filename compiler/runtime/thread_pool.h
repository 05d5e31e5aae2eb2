// The compiled code's parallel runtime: a small pool of worker threads and parallel_for.
//
// Workers sleep on a condition variable between jobs (no spinning), so an idle pool costs
// nothing and never competes with another library's threads for the cores. The calling
// thread works too: a pool of N threads starts N - 1 workers. One job runs at a time;
// parallel_for called from inside a job (or while another thread's job runs) runs the
// loop on the calling thread, so nested and concurrent calls are safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace relay::compiler {

// std::thread::hardware_concurrency(), at least 1.
unsigned default_threads();

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads = default_threads());
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const { return threads_; }

  // Calls fn(begin, end) over disjoint chunks covering [0, n), in parallel; returns when
  // all have run. Chunks hold at least `grain` iterations; there are about 4 per thread,
  // so a slow chunk does not hold the others up. Exceptions thrown by fn are rethrown
  // here (the first one; the remaining chunks are skipped).
  void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& fn, int64_t grain = 1);

 private:
  struct Job;
  void worker_loop();
  void run_chunks(Job& job);

  unsigned threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;  // workers: a new job (or shutdown)
  std::condition_variable done_;  // the caller: every worker has left the job
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  unsigned busy_ = 0;  // workers inside the current job
  bool stop_ = false;
  std::mutex submit_;  // one job at a time
};

}  // namespace relay::compiler
