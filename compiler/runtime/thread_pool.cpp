// ThreadPool (thread_pool.h). A job is a shared chunk counter: every participant (the
// caller and the woken workers) takes the next chunk until none are left; the caller then
// waits until every worker has left the job before the job (on its stack) goes away.
#include "compiler/runtime/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>

namespace relay::compiler {

namespace {
thread_local bool inside_job = false;
}

unsigned default_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

struct ThreadPool::Job {
  const std::function<void(int64_t, int64_t)>* fn;
  int64_t n, chunk;
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written once, by the thread that set `failed`
};

ThreadPool::ThreadPool(unsigned threads) : threads_(std::max(1u, threads)) {
  for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run_chunks(Job& job) {
  const bool was_inside = inside_job;
  inside_job = true;
  for (;;) {
    const int64_t begin = job.next.fetch_add(job.chunk);
    if (begin >= job.n || job.failed.load()) break;
    try {
      (*job.fn)(begin, std::min(job.n, begin + job.chunk));
    } catch (...) {
      if (!job.failed.exchange(true)) job.error = std::current_exception();
    }
  }
  inside_job = was_inside;
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || (job_ && generation_ != seen); });
    if (stop_) return;
    seen = generation_;
    Job* job = job_;
    ++busy_;
    lock.unlock();
    run_chunks(*job);
    lock.lock();
    if (--busy_ == 0) done_.notify_one();
  }
}

void ThreadPool::parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& fn, int64_t grain) {
  if (n <= 0) return;
  grain = std::max<int64_t>(1, grain);
  const int64_t chunks_wanted = static_cast<int64_t>(threads_) * 4;
  const int64_t chunk = std::max(grain, (n + chunks_wanted - 1) / chunks_wanted);
  std::unique_lock<std::mutex> submit(submit_, std::defer_lock);
  // Serial: one thread, one chunk, a nested call, or another thread's job running.
  if (threads_ == 1 || chunk >= n || inside_job || !submit.try_lock()) {
    fn(0, n);
    return;
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  job.chunk = chunk;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    ++generation_;
  }
  wake_.notify_all();
  run_chunks(job);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = nullptr;  // late workers see no job and go back to sleep
    done_.wait(lock, [&] { return busy_ == 0; });
  }
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace relay::compiler
