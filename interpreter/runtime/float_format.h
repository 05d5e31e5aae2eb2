// Decimal formatting of binary floating-point values exactly as numpy 1.24 does it
// (numpy/core/src/multiarray/dragon4.c): Dragon4 digit generation on exact big
// integers, in "unique" mode (the shortest digits that read back as the same value,
// breaking ties the IEEE way) or "exact" mode, with optional cutoffs, and numpy's
// format_float_positional / format_float_scientific layout (trim modes, padding,
// exponent digits). Printing arrays (print.h) builds on these.
//
// The format of a value is described by its bit pattern and the widths of its fields,
// so float16, bfloat16, float32 and float64 all print with their own shortest digits.
#pragma once

#include <cstdint>
#include <string>

namespace relay::rt {

// A finite value is mantissa * 2^exponent; `mantissa_bit` is the index of its highest
// set bit and `unequal_margins` says the gap to the next value below is half the gap
// above (a power of two that is not the smallest normal).
struct FloatParts {
  bool negative = false;
  bool nan = false;
  bool inf = false;
  uint64_t mantissa = 0;
  int32_t exponent = 0;
  int32_t mantissa_bit = 0;
  bool unequal_margins = false;
};

// Splits an IEEE-style bit pattern with `mant_bits` stored mantissa bits and `exp_bits`
// exponent bits (float16: 10/5, bfloat16: 7/8, float32: 23/8, float64: 52/11).
FloatParts decompose_float(uint64_t bits, int mant_bits, int exp_bits);

// numpy's trim argument: 'k' keep trailing zeros, '.' trim zeros but keep the point,
// '0' trim zeros but leave one after the point, '-' trim zeros and the point.
enum class Trim : uint8_t { Keep, Zeros, LeaveOneZero, DptZeros };

struct FloatFormat {
  bool unique = true;    // shortest round-trip digits; false: exact digits up to precision
  int precision = -1;    // positional: digits after the point; scientific: after the first digit
  int min_digits = -1;   // print at least this many (same counting as precision)
  Trim trim = Trim::Keep;
  bool sign = false;     // '+' on non-negative values
  int pad_left = -1;     // pad with spaces to this many characters left of the point
  int pad_right = -1;    // positional: pad with spaces to this many characters right of it
  int exp_digits = -1;   // scientific: at least this many exponent digits (default 2)
};

// format_float_positional(x, fractional=True, ...) and format_float_scientific(x, ...).
// NaN and infinities print as `nan`, `inf`, `-inf` (without padding).
std::string format_positional(const FloatParts& x, const FloatFormat& f);
std::string format_scientific(const FloatParts& x, const FloatFormat& f);

}  // namespace relay::rt
