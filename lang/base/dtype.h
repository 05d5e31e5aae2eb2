// Data types of tensor elements, as TVM spells them (`float32`, `int8x4`, `bool`, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relay {

struct DataType {
  enum Code : uint8_t { Int = 0, UInt = 1, Float = 2, Handle = 3, BFloat = 4 };
  Code code = Float;
  uint8_t bits = 32;
  uint16_t lanes = 1;

  static DataType int_(int bits) { return {Int, static_cast<uint8_t>(bits), 1}; }
  static DataType uint_(int bits) { return {UInt, static_cast<uint8_t>(bits), 1}; }
  static DataType float_(int bits) { return {Float, static_cast<uint8_t>(bits), 1}; }
  static DataType bool_() { return {UInt, 1, 1}; }
  static DataType void_() { return {Handle, 0, 0}; }

  bool is_bool() const { return code == UInt && bits == 1; }
  bool is_float() const { return code == Float || code == BFloat; }
  bool is_int() const { return code == Int; }
  bool is_uint() const { return code == UInt && bits != 1; }
  bool is_void() const { return code == Handle && bits == 0; }
  bool operator==(const DataType&) const = default;
};

// Parses TVM's dtype spelling: int/uint/float + bits (default 32) + optional xLANES,
// `bool`, `handle`, `bfloat16`, `void` or the empty string. nullopt when invalid.
std::optional<DataType> parse_dtype(std::string_view s);
std::string dtype_name(DataType t);

// The smallest and largest value of integer dtype `t` (int or uint, 1 to 64 bits; bool is
// uint1, 0 and 1). uint64's largest does not fit: integer_max gives int64's largest there.
int64_t integer_min(DataType t);
int64_t integer_max(DataType t);

}  // namespace relay
