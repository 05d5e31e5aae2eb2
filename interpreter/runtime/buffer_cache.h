// Storage for large tensors, kept for reuse after they are freed.
//
// A freshly mapped buffer costs a page fault per 4 KiB page the first time it is
// written. Programs allocate the same sizes call after call (an entry's result, a
// compiled function's arena), and the kernel would hand each one fresh pages: a layer_norm
// over a 12 MiB tensor computes in 4 ms and then spends 40 ms faulting in its result's
// pages on the virtual machines this project is measured on. So blocks of at least
// kMinCachedBytes go to a cache when freed and an allocation of the same size takes one
// back, its pages already mapped.
//
// The cache is bounded (RELAY_BUFFER_CACHE_MB, default a sixteenth of physical memory,
// at most 2 GiB; 0 turns it off): a block that would overflow it evicts the oldest ones.
// Sanitizer builds keep no blocks, so AddressSanitizer still sees every use after free.
// Thread-safe: tensors are freed on the compile path's worker threads too.
#pragma once

#include <cstddef>
#include <cstdint>

namespace relay::rt::buffer_cache {

// Blocks smaller than this go straight to the allocator (its own free lists serve them).
inline constexpr size_t kMinCachedBytes = size_t{1} << 20;

// `bytes` (a multiple of `alignment`) of storage aligned to `alignment`, or null when out
// of memory. Pair with release(p, bytes).
void* acquire(size_t bytes, size_t alignment);
// Frees a block from acquire, or keeps it for the next acquire of the same size.
void release(void* p, size_t bytes);

struct Stats {
  size_t cached_bytes = 0;    // held now, free for reuse
  size_t limit_bytes = 0;     // the bound
  uint64_t reused = 0;        // acquires served from the cache
  uint64_t allocated = 0;     // acquires of cacheable size that were not
};
Stats stats();
// Frees every cached block (the process's memory use drops back to its live tensors).
void trim();
// Sets the bound (0: keep nothing), trimming to it. For tests and embedders.
void set_limit(size_t bytes);

}  // namespace relay::rt::buffer_cache
