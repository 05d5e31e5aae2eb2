// Threefry-4x64 and the splittable key of TVM's random.* operators (TVM v0.14.0,
// python/tvm/topi/random/kernel.py), bit for bit. A key is 10 uint64 words:
//   words 0-3 the Threefry key, 4-5 the path (a 1 bit per right split), 6-7 the counter
//   (only word 7 counts), 8-9 a 128-bit one-hot marker of the next free path bit.
// Kept apart from the kernels so tests can check the block function against the
// Random123 known-answer vectors.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace relay::rt::threefry {

using Block = std::array<uint64_t, 4>;
using Key = std::array<uint64_t, 10>;

// The Threefry-4x64 block function with 20 rounds on `counter` under `key`.
// `final_injection` adds the sixth key injection after round 20 that Random123 (and the
// Skein paper) apply; TVM's generator omits it (it injects the key before each group of
// four rounds only), so the operators call this with false. True is for the KAT tests.
Block block(const Block& key, const Block& counter, bool final_injection = false);

// TVM's _threefry over `n` consecutive blocks: block l hashes counter words c[j] + l
// (every one of the four words is advanced, as TVM does) and writes out[4l .. 4l+3].
void blocks(const Block& key, const Block& counter, uint64_t n, uint64_t* out);

// random.threefry_generate: fills `out` (its length is the output's element count) and
// returns the next key.
Key generate(const Key& key, std::span<uint64_t> out);

// random.threefry_split: the left and right child keys.
std::array<Key, 2> split(const Key& key);

}  // namespace relay::rt::threefry
