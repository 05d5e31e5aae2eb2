// The large-tensor storage cache (interpreter/runtime/buffer_cache.h): a freed block is
// handed back for the next tensor of its size, the bound holds, and small tensors never
// enter it.
#include <catch2/catch.hpp>
#include <cstring>

#include "interpreter/runtime/buffer_cache.h"
#include "interpreter/runtime/ndarray.h"

namespace bc = relay::rt::buffer_cache;
using relay::DataType;
using relay::rt::NDArray;

namespace {

// Sets the cache's bound for one test and puts the process's own back after it (sanitizer
// builds run with none, and must again after the test).
struct CacheLimit {
  size_t saved;
  explicit CacheLimit(size_t bytes) : saved(bc::stats().limit_bytes) {
    bc::trim();
    bc::set_limit(bytes);
  }
  ~CacheLimit() {
    bc::trim();
    bc::set_limit(saved);
  }
};

}  // namespace

TEST_CASE("buffer cache: a freed large tensor's storage serves the next tensor of that size", "[runtime][buffer_cache]") {
  CacheLimit limit(size_t{64} << 20);
  const size_t n = (4 << 20) / 4;  // 4 MiB of float32
  void* first = nullptr;
  {
    NDArray a = NDArray::empty({static_cast<int64_t>(n)}, DataType::float_(32));
    first = a.raw();
    std::memset(a.raw(), 0x5a, a.nbytes());
  }
  CHECK(bc::stats().cached_bytes == 4 << 20);
  const uint64_t reused = bc::stats().reused;
  NDArray b = NDArray::empty({static_cast<int64_t>(n)}, DataType::float_(32));
  CHECK(b.raw() == first);
  CHECK(bc::stats().reused == reused + 1);
  CHECK(bc::stats().cached_bytes == 0);
  CHECK(reinterpret_cast<uintptr_t>(b.raw()) % 64 == 0);
  // zeros() still zeroes a reused block
  b = NDArray();
  NDArray z = NDArray::zeros({static_cast<int64_t>(n)}, DataType::float_(32));
  CHECK(z.raw() == first);
  CHECK(z.get_double(0) == 0.0);
  CHECK(z.get_double(static_cast<int64_t>(n) - 1) == 0.0);
}

TEST_CASE("buffer cache: another size allocates, small tensors bypass it and the bound evicts the oldest", "[runtime][buffer_cache]") {
  CacheLimit limit(size_t{6} << 20);
  { NDArray small = NDArray::empty({1000}, DataType::float_(32)); }
  CHECK(bc::stats().cached_bytes == 0);
  { NDArray a = NDArray::empty({(2 << 20) / 4}, DataType::float_(32)); }
  { NDArray b = NDArray::empty({(3 << 20) / 4}, DataType::float_(32)); }
  CHECK(bc::stats().cached_bytes == 5 << 20);
  const uint64_t allocated = bc::stats().allocated;
  { NDArray c = NDArray::empty({(1 << 20) / 4 * 3}, DataType::float_(32)); }  // 3 MiB: reuses b's
  CHECK(bc::stats().allocated == allocated);
  // 4 MiB more: 2 + 3 + 4 > 6, so the oldest (2 MiB) goes, then the 3 MiB one
  { NDArray d = NDArray::empty({(4 << 20) / 4}, DataType::float_(32)); }
  CHECK(bc::stats().allocated == allocated + 1);
  CHECK(bc::stats().cached_bytes == 4 << 20);
  // over the bound alone: freed at once
  { NDArray e = NDArray::empty({(7 << 20) / 4}, DataType::float_(32)); }
  CHECK(bc::stats().cached_bytes == 4 << 20);
  bc::trim();
  CHECK(bc::stats().cached_bytes == 0);
}

TEST_CASE("buffer cache: a bound of zero keeps nothing", "[runtime][buffer_cache]") {
  CacheLimit limit(0);
  { NDArray a = NDArray::empty({(2 << 20) / 4}, DataType::float_(32)); }
  CHECK(bc::stats().cached_bytes == 0);
}
