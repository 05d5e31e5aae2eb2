// IEEE half precision and bfloat16 storage types. Arithmetic converts to float:
// kernels compute in float and round once when storing, as TVM's float16 kernels do on
// CPUs without native half arithmetic.
#pragma once

#include <cstdint>
#include <cstring>

namespace relay::rt {

struct float16 {
  uint16_t bits = 0;
  float16() = default;
  float16(float f) : bits(from_float(f)) {}
  operator float() const { return to_float(bits); }

  static float to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ff;
    uint32_t out;
    if (exp == 0) {
      if (man == 0) {
        out = sign;
      } else {  // subnormal: renormalise
        exp = 127 - 15 + 1;
        while (!(man & 0x400)) man <<= 1, --exp;
        out = sign | (exp << 23) | ((man & 0x3ff) << 13);
      }
    } else if (exp == 0x1f) {
      out = sign | 0x7f800000u | (man << 13);  // inf or nan (payload kept)
    } else {
      out = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    std::memcpy(&f, &out, 4);
    return f;
  }

  // Round to nearest even, with overflow to infinity and gradual underflow.
  static uint16_t from_float(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    uint32_t abs = x & 0x7fffffff;
    if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00);  // nan
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00);  // overflow (>= 65520)
    if (abs < 0x38800000u) {  // below the smallest normal half: subnormal or zero
      if (abs < 0x33000000u) return static_cast<uint16_t>(sign);  // rounds to zero
      // value = m * 2^(e - 150) with the implicit bit in m; a half subnormal is
      // q * 2^-24, so q = m >> (126 - e), rounded to nearest even.
      uint32_t e = abs >> 23;
      uint32_t m = (abs & 0x7fffff) | 0x800000;
      uint32_t s = 126 - e;  // in [14, 24]
      uint32_t q = m >> s;
      uint32_t rem = m & ((1u << s) - 1);
      uint32_t halfway = 1u << (s - 1);
      if (rem > halfway || (rem == halfway && (q & 1))) ++q;
      return static_cast<uint16_t>(sign | q);
    }
    uint32_t rounded = abs + 0xfff + ((abs >> 13) & 1);  // round to nearest even at bit 13
    return static_cast<uint16_t>(sign | (((rounded >> 13) - ((127 - 15) << 10)) & 0x7fff));
  }
};

struct bfloat16 {
  uint16_t bits = 0;
  bfloat16() = default;
  bfloat16(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffff) > 0x7f800000u) {
      bits = static_cast<uint16_t>((x >> 16) | 0x40);  // quiet nan
    } else {
      x += 0x7fff + ((x >> 16) & 1);  // round to nearest even
      bits = static_cast<uint16_t>(x >> 16);
    }
  }
  operator float() const {
    uint32_t x = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
};

}  // namespace relay::rt
