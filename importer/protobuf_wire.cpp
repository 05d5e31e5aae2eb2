#include "importer/protobuf_wire.h"

#include <cstring>

namespace relay::importer {

uint64_t WireReader::read_varint() {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) throw WireError("truncated varint", base_ + pos_);
    uint8_t b = static_cast<uint8_t>(data_[pos_++]);
    value |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return value;
  }
  throw WireError("varint longer than 10 bytes", base_ + pos_);
}

bool WireReader::next(WireField& field) {
  if (pos_ >= data_.size()) return false;
  field.offset = base_ + pos_;
  uint64_t tag = read_varint();
  field.number = static_cast<uint32_t>(tag >> 3);
  if (field.number == 0 || (tag >> 3) > 0x1fffffff) throw WireError("invalid field number", field.offset);
  switch (tag & 7) {
    case 0:
      field.type = WireType::Varint;
      field.varint = read_varint();
      return true;
    case 1:
    case 5: {
      size_t n = (tag & 7) == 1 ? 8 : 4;
      if (data_.size() - pos_ < n) throw WireError("truncated fixed-width field", field.offset);
      uint64_t v = 0;
      std::memcpy(&v, data_.data() + pos_, n);  // little-endian host (x86-64, aarch64)
      pos_ += n;
      field.type = n == 8 ? WireType::Fixed64 : WireType::Fixed32;
      field.varint = v;
      return true;
    }
    case 2: {
      uint64_t len = read_varint();
      if (len > data_.size() - pos_) throw WireError("length-delimited field runs past the end of its message", field.offset);
      field.type = WireType::Bytes;
      field.bytes = data_.substr(pos_, len);
      pos_ += len;
      return true;
    }
    default:
      throw WireError("unsupported wire type " + std::to_string(tag & 7), field.offset);
  }
}

WireReader sub_message(const WireField& f) {
  if (f.type != WireType::Bytes) throw WireError("expected a message in field " + std::to_string(f.number), f.offset);
  // The payload starts after the tag and the length; its exact offset only matters for
  // messages, so approximate with the tag's.
  return WireReader(f.bytes, f.offset);
}

std::string_view field_bytes(const WireField& f) {
  if (f.type != WireType::Bytes) throw WireError("expected bytes in field " + std::to_string(f.number), f.offset);
  return f.bytes;
}

namespace {

// Calls `one(raw)` per element of a repeated field of fixed width `width` (0: varint).
template <class F>
void each_scalar(const WireField& f, size_t width, F one) {
  if (f.type != WireType::Bytes) {
    one(f.varint);
    return;
  }
  if (width == 0) {
    // A packed varint list is a bare run of varints (no tags).
    size_t pos = 0;
    while (pos < f.bytes.size()) {
      uint64_t value = 0;
      int shift = 0;
      for (;;) {
        if (pos >= f.bytes.size() || shift >= 64) throw WireError("malformed packed varint", f.offset);
        uint8_t b = static_cast<uint8_t>(f.bytes[pos++]);
        value |= static_cast<uint64_t>(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) break;
      }
      one(value);
    }
    return;
  }
  if (f.bytes.size() % width) throw WireError("packed field length is not a multiple of its element size", f.offset);
  for (size_t i = 0; i < f.bytes.size(); i += width) {
    uint64_t v = 0;
    std::memcpy(&v, f.bytes.data() + i, width);
    one(v);
  }
}

}  // namespace

void append_int64s(const WireField& f, std::vector<int64_t>& out) {
  if (f.type == WireType::Fixed32 || f.type == WireType::Fixed64)
    throw WireError("expected integers in field " + std::to_string(f.number), f.offset);
  each_scalar(f, 0, [&](uint64_t v) { out.push_back(static_cast<int64_t>(v)); });
}

void append_floats(const WireField& f, std::vector<float>& out) {
  if (f.type != WireType::Bytes && f.type != WireType::Fixed32)
    throw WireError("expected floats in field " + std::to_string(f.number), f.offset);
  each_scalar(f, 4, [&](uint64_t v) {
    uint32_t bits = static_cast<uint32_t>(v);
    float x;
    std::memcpy(&x, &bits, 4);
    out.push_back(x);
  });
}

void append_doubles(const WireField& f, std::vector<double>& out) {
  if (f.type != WireType::Bytes && f.type != WireType::Fixed64)
    throw WireError("expected doubles in field " + std::to_string(f.number), f.offset);
  each_scalar(f, 8, [&](uint64_t v) {
    double x;
    std::memcpy(&x, &v, 8);
    out.push_back(x);
  });
}

float field_float(const WireField& f) {
  if (f.type != WireType::Fixed32) throw WireError("expected a float in field " + std::to_string(f.number), f.offset);
  uint32_t bits = static_cast<uint32_t>(f.varint);
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}

}  // namespace relay::importer
