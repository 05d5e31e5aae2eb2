// Protocol Buffers' binary wire format, read field by field (the encoding documented at
// protobuf.dev/programming-guides/encoding): a message is a sequence of (tag, value)
// pairs, tag = field_number << 3 | wire_type, with wire types 0 varint, 1 fixed64,
// 2 length-delimited (strings, bytes, sub-messages, packed repeated scalars), 5 fixed32.
//
// Model files are untrusted input: every read is bounds-checked and a malformed message
// is a WireError with the byte offset where decoding stopped, never a crash. No schema
// is compiled in; the ONNX decoder (onnx/onnx_model.cpp) names the fields it reads.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace relay::importer {

struct WireError : std::runtime_error {
  size_t offset;
  WireError(const std::string& what, size_t at) : std::runtime_error(what), offset(at) {}
};

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

// One field of a message. `varint` holds wire types 0, 1 and 5 (fixed values as their
// raw bits); `bytes` the payload of wire type 2 (a view into the message).
struct WireField {
  uint32_t number = 0;
  WireType type = WireType::Varint;
  uint64_t varint = 0;
  std::string_view bytes;
  size_t offset = 0;  // of the tag, from the start of the outermost buffer
};

class WireReader {
 public:
  // `base` is the offset of `data` in the outermost buffer, for error messages.
  explicit WireReader(std::string_view data, size_t base = 0) : data_(data), base_(base) {}
  // The next field, or false at the end of the message. Unknown wire types (3, 4: groups)
  // and truncated fields throw WireError.
  bool next(WireField& field);

 private:
  uint64_t read_varint();
  std::string_view data_;
  size_t pos_ = 0;
  size_t base_ = 0;
};

// A sub-message field's reader (its offsets stay relative to the outermost buffer).
WireReader sub_message(const WireField& f);

// Appends a repeated scalar field's values, packed (wire type 2) or one per field.
void append_int64s(const WireField& f, std::vector<int64_t>& out);
void append_floats(const WireField& f, std::vector<float>& out);
void append_doubles(const WireField& f, std::vector<double>& out);

// The value of a float / double field (wire types 5 / 1); WireError on another type.
float field_float(const WireField& f);
std::string_view field_bytes(const WireField& f);

}  // namespace relay::importer
