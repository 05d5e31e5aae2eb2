#include "interpreter/runtime/buffer_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <list>
#include <mutex>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define RELAY_BUFFER_CACHE_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELAY_BUFFER_CACHE_OFF 1
#endif
#endif

namespace relay::rt::buffer_cache {

namespace {

struct Block {
  void* data;
  size_t bytes;
};

size_t default_limit() {
#ifdef RELAY_BUFFER_CACHE_OFF
  return 0;
#else
  if (const char* env = std::getenv("RELAY_BUFFER_CACHE_MB")) {
    char* end = nullptr;
    const unsigned long long mb = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0') return static_cast<size_t>(std::min<unsigned long long>(mb, 1ull << 40)) << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const size_t physical = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
  return std::min<size_t>(physical / 16, size_t{2} << 30);
#endif
}

// Freed blocks, oldest first. A few hundred at most (the limit over kMinCachedBytes), so
// a linear search costs nothing beside the megabyte of memory it saves faulting in.
struct Cache {
  std::mutex mutex;
  std::list<Block> blocks;
  size_t cached = 0;
  size_t limit = default_limit();
  uint64_t reused = 0, allocated = 0;

  // Frees the oldest blocks until `incoming` more bytes fit. Under the mutex.
  void make_room(size_t incoming) {
    while (!blocks.empty() && cached + incoming > limit) {
      std::free(blocks.front().data);
      cached -= blocks.front().bytes;
      blocks.pop_front();
    }
  }
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: tensors may be freed during exit
  return *c;
}

}  // namespace

void* acquire(size_t bytes, size_t alignment) {
  if (bytes >= kMinCachedBytes) {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    // The newest block of this size: the likeliest still to be in the caches.
    for (auto it = c.blocks.rbegin(); it != c.blocks.rend(); ++it)
      if (it->bytes == bytes && reinterpret_cast<uintptr_t>(it->data) % alignment == 0) {
        void* p = it->data;
        c.cached -= bytes;
        c.blocks.erase(std::next(it).base());
        ++c.reused;
        return p;
      }
    ++c.allocated;
  }
  return std::aligned_alloc(alignment, bytes);
}

void release(void* p, size_t bytes) {
  if (!p) return;
  if (bytes >= kMinCachedBytes) {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (bytes <= c.limit) {
      c.make_room(bytes);
      c.blocks.push_back({p, bytes});
      c.cached += bytes;
      return;
    }
  }
  std::free(p);
}

Stats stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return {c.cached, c.limit, c.reused, c.allocated};
}

void trim() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (const Block& b : c.blocks) std::free(b.data);
  c.blocks.clear();
  c.cached = 0;
}

void set_limit(size_t bytes) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.limit = bytes;
  c.make_room(0);
}

}  // namespace relay::rt::buffer_cache
