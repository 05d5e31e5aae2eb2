// The Threefry-4x64-20 block function against Random123's known-answer vectors
// (kat_vectors, "threefry4x64 20"), and the TVM-specific parts of the generator that the
// golden data (tests/kernels/families/random.py) exercises only through whole programs.
#include <catch2/catch.hpp>

#include "interpreter/kernels/threefry.h"

namespace tf = relay::rt::threefry;

TEST_CASE("threefry: Random123 known answers for threefry4x64 with 20 rounds", "[random]") {
  const uint64_t ones = ~0ULL;
  struct Kat {
    tf::Block counter, key, expected;
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0, 0, 0}, {0x09218ebde6c85537, 0x55941f5266d86105, 0x4bd25e16282434dc, 0xee29ec846bd2e40b}},
      {{ones, ones, ones, ones},
       {ones, ones, ones, ones},
       {0x29c24097942bba1b, 0x0371bbfb0f6f4e11, 0x3c231ffa33f83a1c, 0xcd29113fde32d168}},
      {{0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89},
       {0x452821e638d01377, 0xbe5466cf34e90c6c, 0xbe5466cf34e90c6c, 0xc0ac29b7c97c50dd},
       {0xa7e8fde591651bd9, 0xbaafd0c30138319b, 0x84a5c1a729e685b9, 0x901d406ccebc1ba4}},
  };
  for (const Kat& k : kats) CHECK(tf::block(k.key, k.counter, /*final_injection=*/true) == k.expected);
}

TEST_CASE("threefry: TVM's generator omits the final key injection", "[random]") {
  // With an all-zero key the sixth injection adds only the round number 5 to word 3.
  tf::Block tvm = tf::block({0, 0, 0, 0}, {0, 0, 0, 0});
  tf::Block full = tf::block({0, 0, 0, 0}, {0, 0, 0, 0}, true);
  CHECK(tvm[0] == full[0]);
  CHECK(tvm[3] + 5 == full[3]);
}

TEST_CASE("threefry: generate advances the counter, split steps the path", "[random]") {
  const tf::Key seed = {0, 0, 0, 0, 0, 0, 0, 0, 1ULL << 63, 0};
  uint64_t out[6];
  tf::Key next = tf::generate(seed, out);
  CHECK(next[7] == 8);  // a partial last block still uses a whole block of four
  uint64_t first[4];
  tf::generate(seed, std::span<uint64_t>(first, 4));
  for (int i = 0; i < 4; ++i) CHECK(out[i] == first[i]);
  auto [left, right] = tf::split(seed);
  CHECK(left[4] == 0);
  CHECK(right[4] == 1ULL << 63);
  CHECK(left[8] == 1ULL << 62);
  CHECK(right[8] == 1ULL << 62);
  // Splitting 64 times moves the path marker into word 9; TVM re-keys when word 8 is 0.
  tf::Key k = seed;
  for (int i = 0; i < 64; ++i) k = tf::split(k)[1];
  CHECK(k[8] == 0);
  CHECK(k[9] == 1ULL << 63);
  auto [l2, r2] = tf::split(k);
  CHECK(l2[8] == 1ULL << 62);  // a fresh key: the path starts again
  CHECK(l2[4] == 0);
  CHECK(r2[4] == 1ULL << 63);
}
