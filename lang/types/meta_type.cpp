#include "lang/types/meta_type.h"

#include <cstring>
#include <string>
#include <vector>

namespace relay {

namespace {

using json = nlohmann::json;

std::optional<int64_t> to_int(const json& v) {
  try {
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_string()) return std::stoll(v.get<std::string>());
  } catch (...) {
  }
  return std::nullopt;
}

const json* node_at(const Metadata& m, const json& ref) {
  auto idx = to_int(ref);
  const json& nodes = json_field(m.document, "nodes");
  if (!idx || *idx < 0 || !nodes.is_array() || static_cast<size_t>(*idx) >= nodes.size()) return nullptr;
  return &nodes[static_cast<size_t>(*idx)];
}

// A string field, or "" when it is missing or not a string (metadata is untrusted).
std::string string_field(const json& obj, std::string_view key) {
  const json& v = json_field(obj, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

// relay.TensorType node -> type.
Ty from_checked_type(const Metadata& m, const json& node, TypeArena& arena) {
  if (string_field(node, "type_key") != "relay.TensorType") return nullptr;
  const json& attrs = json_field(node, "attrs");
  auto dtype = parse_dtype(string_field(attrs, "dtype"));
  const json* shape = node_at(m, json_field(attrs, "shape"));
  if (!dtype || !shape || !json_field(*shape, "data").is_array()) return nullptr;
  std::vector<Dim> dims;
  for (const json& d : json_field(*shape, "data")) {
    const json* dim = node_at(m, d);
    if (!dim) return nullptr;
    if (string_field(*dim, "type_key") == "relay.Any") {
      dims.push_back(Dim::any());
      continue;
    }
    auto v = to_int(json_field(json_field(*dim, "attrs"), "value"));
    if (!v || *v < 0) return nullptr;
    dims.push_back(Dim::constant(*v));
  }
  return arena.tensor(std::span<const Dim>(dims.data(), dims.size()), *dtype);
}

// TVM's NDArray::Save header.
Ty from_blob(const std::string& b64, TypeArena& arena) {
  constexpr uint64_t kMagic = 0xDD5E40F096B4A13FULL;
  std::string head = decode_base64(b64, 8 + 8 + 8 + 4 + 4 + 8 * 64);
  size_t pos = 0;
  auto read = [&](void* dst, size_t n) {
    if (pos + n > head.size()) return false;
    std::memcpy(dst, head.data() + pos, n);
    pos += n;
    return true;
  };
  uint64_t magic = 0, reserved = 0;
  int32_t device[2], ndim = 0;
  uint8_t code = 0, bits = 0;
  uint16_t lanes = 0;
  if (!read(&magic, 8) || magic != kMagic || !read(&reserved, 8) || !read(device, 8) ||
      !read(&ndim, 4) || ndim < 0 || ndim > 64 || !read(&code, 1) || !read(&bits, 1) || !read(&lanes, 2))
    return nullptr;
  std::vector<Dim> dims;
  for (int i = 0; i < ndim; ++i) {
    int64_t d = 0;
    if (!read(&d, 8) || d < 0) return nullptr;
    dims.push_back(Dim::constant(d));
  }
  if (code > DataType::BFloat) return nullptr;
  DataType dt{static_cast<DataType::Code>(code), bits, lanes};
  return arena.tensor(std::span<const Dim>(dims.data(), dims.size()), dt);
}

}  // namespace

Ty meta_constant_type(const Metadata& m, const MetaEntry& entry, TypeArena& arena) {
  if (entry.type_key != "relay.Constant") return nullptr;
  const json& nodes = json_field(m.document, "nodes");
  if (!nodes.is_array() || entry.node >= nodes.size()) return nullptr;
  const json& node = nodes[entry.node];
  if (!node.contains("attrs")) return nullptr;
  const json& attrs = node["attrs"];
  if (attrs.contains("_checked_type_"))
    if (const json* t = node_at(m, attrs["_checked_type_"]))
      if (Ty ty = from_checked_type(m, *t, arena)) return ty;
  auto data = to_int(json_field(attrs, "data"));
  const json& blobs = json_field(m.document, "b64ndarrays");
  if (!data || !blobs.is_array() || *data < 0 || static_cast<size_t>(*data) >= blobs.size() ||
      !blobs[static_cast<size_t>(*data)].is_string())
    return nullptr;
  return from_blob(blobs[static_cast<size_t>(*data)].get<std::string>(), arena);
}

}  // namespace relay
