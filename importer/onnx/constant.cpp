#include "importer/onnx/constant.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace relay::importer::onnx {

size_t element_bytes(DataType t) { return t.is_bool() ? 1 : t.bits / 8; }

int64_t saturating_product(const std::vector<int64_t>& v, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < std::min(to, v.size()); ++i)
    if (v[i] < 0 || __builtin_mul_overflow(n, v[i], &n)) return INT64_MAX;
  return n;
}

int64_t Constant::size() const { return saturating_product(shape); }

namespace {

uint16_t half_bits_of(float f);
float float_of_half(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

namespace {
void check_index(const Constant& c, int64_t i) {
  if (i < 0 || static_cast<size_t>(i + 1) * element_bytes(c.dtype) > c.bytes.size())
    throw ImportError("a constant input has no element " + std::to_string(i) + " (it holds " +
                      std::to_string(c.bytes.size() / std::max<size_t>(1, element_bytes(c.dtype))) + ")");
}
}  // namespace

double Constant::get_double(int64_t i) const {
  check_index(*this, i);
  const char* p = bytes.data() + i * element_bytes(dtype);
  if (dtype.code == DataType::Float || dtype.code == DataType::BFloat) {
    if (dtype.bits == 64) { double v; std::memcpy(&v, p, 8); return v; }
    if (dtype.bits == 32) { float v; std::memcpy(&v, p, 4); return v; }
    uint16_t h;
    std::memcpy(&h, p, 2);
    if (dtype.code == DataType::BFloat) {
      uint32_t bits = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    return float_of_half(h);
  }
  return static_cast<double>(get_int(i));
}

int64_t Constant::get_int(int64_t i) const {
  check_index(*this, i);
  if (dtype.is_float()) {
    double d = get_double(i);
    if (!(d > -9.2e18 && d < 9.2e18)) throw ImportError("a constant input holds " + std::to_string(d) + ", not an integer");
    return static_cast<int64_t>(d);
  }
  size_t w = element_bytes(dtype);
  const char* p = bytes.data() + i * w;
  switch (w) {
    case 1: return dtype.code == DataType::Int ? static_cast<int64_t>(static_cast<int8_t>(*p)) : static_cast<uint8_t>(*p);
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return dtype.code == DataType::Int ? static_cast<int16_t>(v) : v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return dtype.code == DataType::Int ? static_cast<int32_t>(v) : static_cast<int64_t>(v); }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

std::vector<int64_t> Constant::ints() const {
  std::vector<int64_t> out(static_cast<size_t>(size()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = get_int(static_cast<int64_t>(i));
  return out;
}

std::vector<double> Constant::doubles() const {
  std::vector<double> out(static_cast<size_t>(size()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = get_double(static_cast<int64_t>(i));
  return out;
}

Constant Constant::from_ints(const std::vector<int64_t>& values, std::vector<int64_t> shape, DataType dtype) {
  if (dtype.is_float()) {
    std::vector<double> d(values.begin(), values.end());
    return from_doubles(d, std::move(shape), dtype);
  }
  Constant c{dtype, std::move(shape), {}};
  size_t w = element_bytes(dtype);
  c.bytes.resize(values.size() * w);
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t v = dtype.is_bool() ? values[i] != 0 : values[i];
    std::memcpy(c.bytes.data() + i * w, &v, w);  // little-endian truncation
  }
  return c;
}

Constant Constant::from_doubles(const std::vector<double>& values, std::vector<int64_t> shape, DataType dtype) {
  if (!dtype.is_float()) {
    std::vector<int64_t> v;
    // Truncated, clamped to int64 (NaN is 0): values from the file may be anything.
    for (double d : values)
      v.push_back(std::isnan(d) ? 0 : d <= -9.2e18 ? INT64_MIN : d >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(d));
    return from_ints(v, std::move(shape), dtype);
  }
  Constant c{dtype, std::move(shape), {}};
  size_t w = element_bytes(dtype);
  c.bytes.resize(values.size() * w);
  for (size_t i = 0; i < values.size(); ++i) {
    char* p = c.bytes.data() + i * w;
    if (w == 8) {
      std::memcpy(p, &values[i], 8);
    } else {
      // Out of float's range is infinity (a plain conversion would be undefined).
      const double d = values[i];
      float f = std::isnan(d) ? NAN : d > FLT_MAX ? INFINITY : d < -FLT_MAX ? -INFINITY : static_cast<float>(d);
      if (w == 4) {
        std::memcpy(p, &f, 4);
      } else if (dtype.code == DataType::BFloat) {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        uint16_t h = static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
        std::memcpy(p, &h, 2);
      } else {
        uint16_t h = half_bits_of(f);
        std::memcpy(p, &h, 2);
      }
    }
  }
  return c;
}

namespace {

// Round-to-nearest-even float -> IEEE half.
uint16_t half_bits_of(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return static_cast<uint16_t>(half);
}

}  // namespace

std::string encode_base64(const std::string& in) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (static_cast<uint8_t>(in[i]) << 16) | (static_cast<uint8_t>(in[i + 1]) << 8) | static_cast<uint8_t>(in[i + 2]);
    for (int k = 3; k >= 0; --k) out.push_back(table[(v >> (6 * k)) & 63]);
  }
  if (i < in.size()) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<uint8_t>(in[i + 1]) << 8;
    out.push_back(table[(v >> 18) & 63]);
    out.push_back(table[(v >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? table[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::string ndarray_blob_base64(const Constant& c) {
  std::string blob;
  auto put = [&](const void* p, size_t n) { blob.append(static_cast<const char*>(p), n); };
  const uint64_t magic = 0xDD5E40F096B4A13FULL, reserved = 0;
  const int32_t device[2] = {1, 0};  // kDLCPU, device 0
  const int32_t ndim = static_cast<int32_t>(c.shape.size());
  const uint8_t code = static_cast<uint8_t>(c.dtype.code), bits = c.dtype.bits;
  const uint16_t lanes = c.dtype.lanes;
  const int64_t nbytes = static_cast<int64_t>(c.bytes.size());
  put(&magic, 8);
  put(&reserved, 8);
  put(device, 8);
  put(&ndim, 4);
  put(&code, 1);
  put(&bits, 1);
  put(&lanes, 2);
  for (int64_t d : c.shape) put(&d, 8);
  put(&nbytes, 8);
  blob += c.bytes;
  return encode_base64(blob);
}

}  // namespace relay::importer::onnx
