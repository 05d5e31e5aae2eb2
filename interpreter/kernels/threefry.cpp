// Threefry-4x64-20 and TVM's key schedule for random.* (see threefry.h). Written from the
// Skein/Random123 definition and the behaviour of TVM v0.14.0's kernel.py, including its
// quirks, which a seeded program depends on:
//  * no key injection after the last round (see block());
//  * block l of a batch adds l to all four counter words (path words included);
//  * "is the path full" tests word 8 only: TVM writes `gen[8] == 0 and gen[9] == 0` in
//    Python, where `and` keeps just the first comparison (a PrimExpr is falsy), so a key
//    whose marker has moved into word 9 re-keys at the next full counter instead of
//    using word 9's path bits.
#include "interpreter/kernels/threefry.h"

namespace relay::rt::threefry {
namespace {

// Rotation constants of Threefish-256 (Skein paper, table 4), by round mod 8.
constexpr int kRotations[8][2] = {{14, 16}, {52, 57}, {23, 40}, {5, 37},
                                  {25, 33}, {46, 12}, {58, 22}, {32, 32}};
// The Skein key-schedule parity constant C240.
constexpr uint64_t kParity = 0x1BD11BDAA9FC1A22ULL;

uint64_t rotl(uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }

// 128-bit right shift by one of the marker (hi = word 8, lo = word 9), as TVM's
// _shift_right: a marker at the lowest bit of word 8 moves to the top of word 9.
void shift_marker(uint64_t hi, uint64_t lo, uint64_t& out_hi, uint64_t& out_lo) {
  if (hi == 1) {
    out_hi = 0;
    out_lo = 0x8000000000000000ULL;
  } else if (hi == 0) {
    out_hi = 0;
    out_lo = lo >> 1;
  } else {
    out_hi = hi >> 1;
    out_lo = 0;
  }
}

Block key_words(const Key& k) { return {k[0], k[1], k[2], k[3]}; }
Block counter_words(const Key& k) { return {k[4], k[5], k[6], k[7]}; }

}  // namespace

Block block(const Block& key, const Block& counter, bool final_injection) {
  uint64_t ks[5] = {key[0], key[1], key[2], key[3], kParity};
  for (int i = 0; i < 4; ++i) ks[4] ^= key[i];
  auto inject = [&](Block& x, uint64_t s) {
    for (uint64_t j = 0; j < 4; ++j) x[j] += ks[(s + j) % 5];
    x[3] += s;  // no tweak: only the injection counter is added, to the last word
  };
  Block x = counter;
  for (uint64_t s = 0; s < 5; ++s) {
    inject(x, s);
    for (int r = 0; r < 4; ++r) {
      const int* rot = kRotations[(s * 4 + r) % 8];
      x[0] += x[1];
      x[1] = rotl(x[1], rot[0]) ^ x[0];
      x[2] += x[3];
      x[3] = rotl(x[3], rot[1]) ^ x[2];
      x = {x[0], x[3], x[2], x[1]};  // Threefish-256's word permutation (0 3 2 1)
    }
  }
  if (final_injection) inject(x, 5);
  return x;
}

void blocks(const Block& key, const Block& counter, uint64_t n, uint64_t* out) {
  for (uint64_t l = 0; l < n; ++l) {
    Block c = {counter[0] + l, counter[1] + l, counter[2] + l, counter[3] + l};
    Block r = block(key, c);
    for (int j = 0; j < 4; ++j) out[4 * l + j] = r[j];
  }
}

Key generate(const Key& gen, std::span<uint64_t> out) {
  const uint64_t len = out.size();
  Key tmp = gen;
  // The counter must stay below 2^64 - 1 (that value marks a used-up counter).
  if (!(gen[7] < ~uint64_t{0} - len)) {
    if (gen[8] == 0) {
      // Out of path bits: re-key by hashing the key with an all-ones counter. (TVM's
      // all-ones counter buffer has two words but four are read; all four are taken as
      // ones here.)
      Block k = block(key_words(gen), {~0ULL, ~0ULL, ~0ULL, ~0ULL});
      tmp = {k[0], k[1], k[2], k[3], 0, 0, 0, 0, 1ULL << 63, 0};
    } else {
      tmp[4] = gen[4] | gen[8];  // take a right step on the path
      tmp[5] = gen[5] | gen[9];
      tmp[6] = tmp[7] = 0;
      shift_marker(gen[8], gen[9], tmp[8], tmp[9]);
    }
  }
  const uint64_t whole = len / 4;
  blocks(key_words(tmp), counter_words(tmp), whole, out.data());
  uint64_t advance = len;
  if (len % 4 != 0) {
    // A last partial block: one more block at the counter just past the whole ones.
    tmp[7] += whole * 4;
    uint64_t rest[4];
    blocks(key_words(tmp), counter_words(tmp), 1, rest);
    for (uint64_t i = 0; i < len % 4; ++i) out[whole * 4 + i] = rest[i];
    advance = 4;
  }
  Key next = tmp;
  next[6] = 0;
  next[7] = tmp[7] + advance;
  return next;
}

std::array<Key, 2> split(const Key& gen) {
  if (gen[8] == 0) {
    // Out of path bits: both children get a key hashed from the key, path and counter.
    Block k = block(key_words(gen), counter_words(gen));
    Key left = {k[0], k[1], k[2], k[3], 0, 0, 0, 0, 1ULL << 62, 0};
    Key right = {k[0], k[1], k[2], k[3], 1ULL << 63, 0, 0, 0, 1ULL << 62, 0};
    return {left, right};
  }
  Key left = gen, right = gen;
  right[4] = gen[4] | gen[8];
  right[5] = gen[5] | gen[9];
  shift_marker(gen[8], gen[9], left[8], left[9]);
  shift_marker(gen[8], gen[9], right[8], right[9]);
  return {left, right};
}

}  // namespace relay::rt::threefry
