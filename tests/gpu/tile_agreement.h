// The tile benchmarks' check of correctness (tests/gpu/README.md): the tiles of a family
// (one convolution or product timed with each candidate tile, tile_audit.h) compute the
// same outputs, so relay_gpu_check gives a family's benchmarks the same seeded random
// inputs and compares each one's output with the family's first, the rule's tile. A tile
// that indexes wrongly is off by the order of the outputs' scale; tiles that only fold
// the terms in another order (a warp's lanes, the tensor cores) differ by roundings. So
// every candidate the tuner may pick (compiler/pipeline/tile_tuner.h) has computed the
// right thing on the GPU, not only been timed there.
// Header-only C++17: it is compiled on the GPU machine with relay_gpu_check.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace relay::gpu_check {

// Elements of the bundle's tensors.
inline float half_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) bits = sign;
    else {  // subnormal: normalise
      int e = -1;
      uint32_t m = mant;
      do { m <<= 1; ++e; } while (!(m & 0x400));
      bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((m & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline double element(const std::string& dtype, const char* p, size_t i) {
  if (dtype == "float32") { float v; std::memcpy(&v, p + 4 * i, 4); return v; }
  if (dtype == "float64") { double v; std::memcpy(&v, p + 8 * i, 8); return v; }
  uint16_t h;
  std::memcpy(&h, p + 2 * i, 2);
  if (dtype == "float16") return half_to_float(h);
  uint32_t bits = static_cast<uint32_t>(h) << 16;  // bfloat16
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

inline size_t element_bytes(const std::string& dtype) {
  if (dtype == "float64" || dtype == "int64" || dtype == "uint64") return 8;
  if (dtype == "float32" || dtype == "int32" || dtype == "uint32") return 4;
  if (dtype == "float16" || dtype == "bfloat16" || dtype == "int16" || dtype == "uint16") return 2;
  return 1;
}

// `bytes` of seeded values in `dtype` (float32, float16 or bfloat16; other dtypes get
// zeros): random signs and mantissas, magnitudes in [2^-5, 1), all normal numbers, so
// products' sums stay far from overflow and no kernel meets a subnormal.
inline std::string random_input(const std::string& dtype, size_t bytes, uint64_t seed) {
  std::string out(bytes, '\0');
  uint64_t state = seed;
  auto next = [&state] {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  if (dtype == "float32") {
    for (size_t i = 0; i + 4 <= bytes; i += 4) {
      const uint64_t r = next();
      const uint32_t bits = static_cast<uint32_t>(r >> 63) << 31 | static_cast<uint32_t>(122 + (r >> 32) % 5) << 23 |
                            static_cast<uint32_t>(r & 0x7fffff);
      std::memcpy(&out[i], &bits, 4);
    }
  } else if (dtype == "float16" || dtype == "bfloat16") {
    const bool half = dtype == "float16";
    for (size_t i = 0; i + 2 <= bytes; i += 2) {
      const uint64_t r = next();
      const uint16_t sign = static_cast<uint16_t>((r >> 63) << 15);
      const uint16_t bits =
          half ? static_cast<uint16_t>(sign | (10 + (r >> 32) % 5) << 10 | (r & 0x3ff))     // 2^-5 .. 1
               : static_cast<uint16_t>(sign | (122 + (r >> 32) % 5) << 7 | (r & 0x7f));  // the same
      std::memcpy(&out[i], &bits, 2);
    }
  }
  return out;
}

// The tolerance of tiles agreeing, as a fraction of the outputs' scale (their largest
// |value|): float32 outputs differ by their folds' roundings (about sqrt(terms) * 2^-24
// of the scale); float16/bfloat16 ones by a rounding of the output besides (2^-11, 2^-8
// of the element). A wrong index is off by the order of the scale.
inline double agreement_tolerance(const std::string& dtype) { return dtype == "float32" ? 1e-4 : 1e-2; }

// "" when every element of `got` is within agreement_tolerance(dtype) times want's scale
// of `want` (NaN only where want has NaN), else the first element that is not.
inline std::string agree(const std::string& dtype, const char* want, const char* got, size_t bytes) {
  const size_t n = bytes / element_bytes(dtype);
  double scale = 0;
  for (size_t i = 0; i < n; ++i) {
    const double w = element(dtype, want, i);
    if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
  }
  const double bound = agreement_tolerance(dtype) * std::max(scale, 1e-30);
  for (size_t i = 0; i < n; ++i) {
    const double w = element(dtype, want, i), g = element(dtype, got, i);
    if (std::isnan(w) && std::isnan(g)) continue;
    if (w == g) continue;
    if (std::isnan(w) || std::isnan(g) || !(std::fabs(w - g) <= bound))
      return "element " + std::to_string(i) + ": the rule's tile " + std::to_string(w) + ", this one " +
             std::to_string(g) + " (scale " + std::to_string(scale) + ")";
  }
  return "";
}

}  // namespace relay::gpu_check
