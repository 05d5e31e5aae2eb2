#include "lang/base/dtype.h"

#include <charconv>
#include <limits>

namespace relay {

static bool parse_uint(std::string_view s, unsigned* out) {
  if (s.empty() || s.size() > 5) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::optional<DataType> parse_dtype(std::string_view s) {
  if (s.empty() || s == "void") return DataType::void_();
  if (s == "bool") return DataType::bool_();
  if (s == "handle") return DataType{DataType::Handle, 64, 1};
  DataType t;
  std::string_view rest;
  if (s.starts_with("uint")) {
    t.code = DataType::UInt;
    rest = s.substr(4);
  } else if (s.starts_with("int")) {
    t.code = DataType::Int;
    rest = s.substr(3);
  } else if (s.starts_with("float")) {
    t.code = DataType::Float;
    rest = s.substr(5);
  } else if (s.starts_with("bfloat")) {
    t.code = DataType::BFloat;
    rest = s.substr(6);
  } else {
    return std::nullopt;
  }
  std::string_view bits = rest, lanes;
  if (auto x = rest.find('x'); x != std::string_view::npos) {
    bits = rest.substr(0, x);
    lanes = rest.substr(x + 1);
  }
  unsigned b = 32, l = 1;
  if (!bits.empty() && !parse_uint(bits, &b)) return std::nullopt;
  if (!lanes.empty() || rest.find('x') != std::string_view::npos) {
    if (!parse_uint(lanes, &l) || l == 0 || l > 65535) return std::nullopt;
  }
  if (t.code == DataType::BFloat && b != 16) return std::nullopt;
  switch (b) {
    case 1:
      if (t.code != DataType::UInt && t.code != DataType::Int) return std::nullopt;
      break;
    case 4: case 8: case 16: case 32: case 64: break;
    default: return std::nullopt;
  }
  if (t.code == DataType::Float && b < 16) return std::nullopt;
  t.bits = static_cast<uint8_t>(b);
  t.lanes = static_cast<uint16_t>(l);
  return t;
}

std::string dtype_name(DataType t) {
  if (t.is_void()) return "void";
  if (t.is_bool()) return t.lanes == 1 ? "bool" : "boolx" + std::to_string(t.lanes);
  std::string s;
  switch (t.code) {
    case DataType::Int: s = "int"; break;
    case DataType::UInt: s = "uint"; break;
    case DataType::Float: s = "float"; break;
    case DataType::BFloat: s = "bfloat"; break;
    case DataType::Handle: return "handle";
  }
  s += std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

int64_t integer_min(DataType t) {
  if (t.code == DataType::UInt) return 0;
  return t.bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (t.bits - 1));
}

int64_t integer_max(DataType t) {
  const int value_bits = t.code == DataType::UInt ? t.bits : t.bits - 1;
  return value_bits >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << value_bits) - 1;
}

}  // namespace relay
