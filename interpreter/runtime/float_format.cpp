#include "interpreter/runtime/float_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

namespace relay::rt {

namespace {

// Non-negative arbitrary-precision integer, little-endian 32-bit limbs without leading
// zero limbs. The values here stay under ~1200 bits (float64's widest range times a
// power of ten), so schoolbook arithmetic is plenty.
class BigNum {
 public:
  BigNum() = default;
  explicit BigNum(uint64_t v) {
    while (v) {
      limbs_.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    }
  }
  static BigNum pow2(int n) {
    BigNum r(1);
    r.shift_left(n);
    return r;
  }
  static BigNum pow10(int n) {
    BigNum r(1);
    for (; n >= 9; n -= 9) r.mul_small(1000000000u);
    static constexpr uint32_t kSmall[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    r.mul_small(kSmall[n]);
    return r;
  }

  bool zero() const { return limbs_.empty(); }

  void shift_left(int n) {
    if (zero() || n == 0) return;
    const size_t words = static_cast<size_t>(n) / 32;
    const unsigned bits = static_cast<unsigned>(n) % 32;
    limbs_.insert(limbs_.begin(), words, 0u);
    if (bits) {
      uint32_t carry = 0;
      for (size_t i = words; i < limbs_.size(); ++i) {
        const uint32_t v = limbs_[i];
        limbs_[i] = (v << bits) | carry;
        carry = v >> (32 - bits);
      }
      if (carry) limbs_.push_back(carry);
    }
  }

  void mul_small(uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t& l : limbs_) {
      const uint64_t p = static_cast<uint64_t>(l) * m + carry;
      l = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
    trim();
  }

  void mul(const BigNum& o) {
    if (zero() || o.zero()) {
      limbs_.clear();
      return;
    }
    std::vector<uint32_t> r(limbs_.size() + o.limbs_.size(), 0u);
    for (size_t i = 0; i < limbs_.size(); ++i) {
      uint64_t carry = 0;
      for (size_t j = 0; j < o.limbs_.size(); ++j) {
        const uint64_t p = static_cast<uint64_t>(limbs_[i]) * o.limbs_[j] + r[i + j] + carry;
        r[i + j] = static_cast<uint32_t>(p);
        carry = p >> 32;
      }
      r[i + o.limbs_.size()] = static_cast<uint32_t>(carry);
    }
    limbs_ = std::move(r);
    trim();
  }

  void add(const BigNum& o) {
    if (o.limbs_.size() > limbs_.size()) limbs_.resize(o.limbs_.size(), 0u);
    uint64_t carry = 0;
    for (size_t i = 0; i < limbs_.size(); ++i) {
      const uint64_t s = static_cast<uint64_t>(limbs_[i]) + (i < o.limbs_.size() ? o.limbs_[i] : 0u) + carry;
      limbs_[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
  }

  // Requires *this >= o.
  void sub(const BigNum& o) {
    int64_t borrow = 0;
    for (size_t i = 0; i < limbs_.size(); ++i) {
      int64_t d = static_cast<int64_t>(limbs_[i]) - (i < o.limbs_.size() ? o.limbs_[i] : 0u) - borrow;
      borrow = d < 0;
      if (d < 0) d += int64_t{1} << 32;
      limbs_[i] = static_cast<uint32_t>(d);
    }
    trim();
  }

  friend int compare(const BigNum& a, const BigNum& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
    for (size_t i = a.limbs_.size(); i-- > 0;)
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    return 0;
  }

  // Replaces *this by *this mod d and returns the quotient, which the caller guarantees
  // is below 10.
  uint32_t divmod_digit(const BigNum& d) {
    uint32_t q = 0;
    while (compare(*this, d) >= 0) {
      sub(d);
      ++q;
    }
    return q;
  }

 private:
  void trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }
  std::vector<uint32_t> limbs_;
};

struct Digits {
  std::string digits;
  int exponent = 0;  // power of ten of the first digit
};

// Cut-offs count digits after the point (fraction_cutoff) or digits in total; a
// negative cut-off means none.
Digits dragon4(const FloatParts& x, bool unique, bool fraction_cutoff, int cutoff_max, int cutoff_min) {
  Digits out;
  if (x.mantissa == 0) {
    out.digits = "0";
    return out;
  }
  // value = scaled / scale; the margins are half the distance to the neighbouring
  // floats, scaled the same way (everything doubled so the halves stay integers).
  BigNum scaled(x.mantissa), scale, margin_low, margin_high;
  const int e = x.exponent;
  const bool unequal = x.unequal_margins;
  if (e > 0) {
    scaled.shift_left(e + (unequal ? 2 : 1));
    scale = BigNum(unequal ? 4 : 2);
    margin_low = BigNum::pow2(e);
  } else {
    scaled.shift_left(unequal ? 2 : 1);
    scale = BigNum::pow2(-e + (unequal ? 2 : 1));
    margin_low = BigNum(1);
  }
  auto update_high = [&] {
    margin_high = margin_low;
    if (unequal) margin_high.shift_left(1);
  };
  update_high();

  // An estimate of floor(log10(value)) + 1 that is exact or one too small (numpy's,
  // including its clamp, which decides where fraction cut-offs start counting).
  int digit_exp = static_cast<int>(
      std::ceil(static_cast<double>(x.mantissa_bit + e) * 0.30102999566398119521373889472449 - 0.69));
  if (cutoff_max >= 0 && fraction_cutoff && digit_exp <= -cutoff_max) digit_exp = -cutoff_max + 1;
  if (digit_exp > 0) {
    scale.mul(BigNum::pow10(digit_exp));
  } else if (digit_exp < 0) {
    const BigNum p = BigNum::pow10(-digit_exp);
    scaled.mul(p);
    margin_low.mul(p);
    update_high();
  }
  if (compare(scaled, scale) >= 0) {
    ++digit_exp;
  } else {
    scaled.mul_small(10);
    margin_low.mul_small(10);
    update_high();
  }

  constexpr int kBufferDigits = 16384;  // numpy's output buffer bounds the digit count
  int cut_max_exp = digit_exp - kBufferDigits;
  if (cutoff_max >= 0) cut_max_exp = std::max(cut_max_exp, fraction_cutoff ? -cutoff_max : digit_exp - cutoff_max);
  int cut_min_exp = digit_exp;
  if (cutoff_min >= 0) cut_min_exp = std::min(cut_min_exp, fraction_cutoff ? -cutoff_min : digit_exp - cutoff_min);
  out.exponent = digit_exp - 1;

  const bool even = (x.mantissa & 1) == 0;
  bool low = false, high = false;
  uint32_t digit = 0;
  if (unique) {
    for (;;) {
      --digit_exp;
      digit = scaled.divmod_digit(scale);
      BigNum scaled_high = scaled;
      scaled_high.add(margin_high);
      // Within half an ulp of the truncated or the rounded-up digits: any further
      // digit would be noise. Ties count when the mantissa is even (round-half-even
      // reading of the boundary).
      const int cl = compare(scaled, margin_low);
      const int ch = compare(scaled_high, scale);
      low = even ? cl <= 0 : cl < 0;
      high = even ? ch >= 0 : ch > 0;
      if (((low || high) && digit_exp <= cut_min_exp) || digit_exp == cut_max_exp) break;
      out.digits += static_cast<char>('0' + digit);
      scaled.mul_small(10);
      margin_low.mul_small(10);
      update_high();
    }
  } else {
    for (;;) {
      --digit_exp;
      digit = scaled.divmod_digit(scale);
      if (scaled.zero() || digit_exp <= cut_max_exp) break;
      out.digits += static_cast<char>('0' + digit);
      scaled.mul_small(10);
    }
  }

  bool round_down = low;
  if (low == high) {  // both directions allowed (or neither): round to nearest, ties to even
    scaled.shift_left(1);
    const int c = compare(scaled, scale);
    round_down = c < 0 || (c == 0 && (digit & 1) == 0);
  }
  if (round_down) {
    out.digits += static_cast<char>('0' + digit);
  } else if (digit < 9) {
    out.digits += static_cast<char>('0' + digit + 1);
  } else {
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

std::string non_finite(const FloatParts& x, bool sign) {
  if (x.nan) return "nan";
  return (x.negative ? "-" : sign ? "+" : "") + std::string("inf");
}

}  // namespace

FloatParts decompose_float(uint64_t bits, int mant_bits, int exp_bits) {
  FloatParts p;
  const uint64_t mant = bits & ((uint64_t{1} << mant_bits) - 1);
  const uint32_t exp_mask = (1u << exp_bits) - 1;
  const uint32_t exp = static_cast<uint32_t>(bits >> mant_bits) & exp_mask;
  const int bias = static_cast<int>(exp_mask >> 1);
  p.negative = (bits >> (mant_bits + exp_bits)) & 1;
  if (exp == exp_mask) {
    p.nan = mant != 0;
    p.inf = mant == 0;
    return p;
  }
  if (exp != 0) {
    p.mantissa = (uint64_t{1} << mant_bits) | mant;
    p.exponent = static_cast<int>(exp) - bias - mant_bits;
    p.mantissa_bit = mant_bits;
    p.unequal_margins = exp != 1 && mant == 0;
  } else {
    p.mantissa = mant;
    p.exponent = 1 - bias - mant_bits;
    p.mantissa_bit = mant ? std::bit_width(mant) - 1 : 0;
  }
  return p;
}

std::string format_positional(const FloatParts& x, const FloatFormat& f) {
  if (x.nan || x.inf) return non_finite(x, f.sign);
  const std::string sign = x.negative ? "-" : f.sign ? "+" : "";
  const Digits d = dragon4(x, f.unique, /*fraction_cutoff=*/true, f.precision, f.min_digits);
  std::string whole, frac;
  if (d.exponent >= 0) {
    const size_t n_whole = static_cast<size_t>(d.exponent) + 1;
    if (d.digits.size() <= n_whole) {
      whole = d.digits + std::string(n_whole - d.digits.size(), '0');
    } else {
      whole = d.digits.substr(0, n_whole);
      frac = d.digits.substr(n_whole);
    }
  } else {
    whole = "0";
    frac = std::string(static_cast<size_t>(-(d.exponent + 1)), '0') + d.digits;
  }
  bool point = !frac.empty() || f.trim != Trim::DptZeros;
  const int add_digits = std::max(f.unique ? f.min_digits : f.precision, 0);
  if (f.trim == Trim::LeaveOneZero) {
    if (frac.empty()) frac = "0";
  } else if (f.trim == Trim::Keep && add_digits > static_cast<int>(frac.size())) {
    frac.append(add_digits - frac.size(), '0');
  }
  // Rounding at a cut-off can leave trailing zeros.
  if (f.trim != Trim::Keep && !frac.empty()) {
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    if (frac.empty()) {
      if (f.trim == Trim::LeaveOneZero) frac = "0";
      else if (f.trim == Trim::DptZeros) point = false;
    }
  }
  std::string out = sign + whole + (point ? "." : "") + frac;
  if (f.pad_right >= static_cast<int>(frac.size())) {
    if (f.trim == Trim::DptZeros && frac.empty()) out += ' ';
    out.append(f.pad_right - frac.size(), ' ');
  }
  const int left = static_cast<int>(whole.size() + sign.size());
  if (f.pad_left > left) out.insert(0, static_cast<size_t>(f.pad_left - left), ' ');
  return out;
}

std::string format_scientific(const FloatParts& x, const FloatFormat& f) {
  if (x.nan || x.inf) return non_finite(x, f.sign);
  const std::string sign = x.negative ? "-" : f.sign ? "+" : "";
  const Digits d = dragon4(x, f.unique, /*fraction_cutoff=*/false, f.precision < 0 ? -1 : f.precision + 1,
                           f.min_digits < 0 ? -1 : f.min_digits + 1);
  std::string frac = d.digits.substr(1);
  const bool point = !frac.empty() || f.trim != Trim::DptZeros;
  const int add_digits = std::max(f.unique ? f.min_digits : f.precision, 0);
  if (f.trim == Trim::LeaveOneZero) {
    if (frac.empty()) frac = "0";
  } else if (f.trim == Trim::Keep && add_digits > static_cast<int>(frac.size())) {
    frac.append(add_digits - frac.size(), '0');
  }
  if (f.trim != Trim::Keep && !frac.empty()) {
    // numpy keeps the point here even in '-' mode.
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    if (frac.empty() && f.trim == Trim::LeaveOneZero) frac = "0";
  }
  std::string out;
  const int left = 1 + static_cast<int>(sign.size());
  if (f.pad_left > left) out.append(static_cast<size_t>(f.pad_left - left), ' ');
  out += sign;
  out += d.digits[0];
  if (point) out += '.';
  out += frac;
  int exp = d.exponent;
  out += exp < 0 ? "e-" : "e+";
  exp = std::abs(exp);
  std::string exp_str = std::to_string(exp);
  const size_t min_len = static_cast<size_t>(f.exp_digits < 0 ? 2 : std::min(f.exp_digits, 5));
  if (exp_str.size() < min_len) exp_str.insert(0, min_len - exp_str.size(), '0');
  return out + exp_str;
}

}  // namespace relay::rt
