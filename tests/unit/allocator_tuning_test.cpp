// rt::tune_allocator (interpreter/runtime/allocator_tuning.h): a block of a few hundred KiB
// comes from the heap, not a fresh mapping, and freeing it keeps the heap's pages.
#include <catch2/catch.hpp>

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "interpreter/runtime/allocator_tuning.h"

#if defined(__SANITIZE_ADDRESS__)
#define RELAY_TEST_OWN_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELAY_TEST_OWN_MALLOC 1
#endif
#endif

TEST_CASE("after tune_allocator a 512 KiB block is not a fresh mapping", "[runtime]") {
#if defined(__GLIBC__) && !defined(RELAY_TEST_OWN_MALLOC)
  if (const char* t = std::getenv("GLIBC_TUNABLES"); t && *t) {
    WARN("GLIBC_TUNABLES is set: the user's settings win, nothing to check");
    return;
  }
  relay::rt::tune_allocator();
  const size_t mapped_before = mallinfo2().hblks;
  void* p = std::malloc(512 << 10);
  REQUIRE(p);
  CHECK(mallinfo2().hblks == mapped_before);  // glibc's default would map it (128 KiB threshold)
  std::free(p);
#else
  SUCCEED("the sanitizers' allocator (or a libc other than glibc) serves malloc here");
#endif
}
