#include "lang/syntax/metadata.h"

#include <algorithm>

namespace relay {

const MetaEntry* Metadata::find(std::string_view type_key, uint32_t index) const {
  for (const auto& e : entries) {
    if (e.type_key == type_key && e.index == index) return &e;
  }
  return nullptr;
}

uint32_t Metadata::count(std::string_view type_key) const {
  uint32_t n = 0;
  for (const auto& e : entries) n += e.type_key == type_key;
  return n;
}

namespace {

// Reads a JSON node index that TVM stores either as a number or as a decimal string.
std::optional<uint32_t> node_index(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return v.get<uint32_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint32_t>(v.get<int64_t>());
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return static_cast<uint32_t>(std::stoul(s));
  }
  return std::nullopt;
}

}  // namespace

std::optional<Metadata> parse_metadata(std::string_view json_text, std::string* error,
                                       size_t* error_offset) {
  Metadata md;
  *error_offset = 0;
  try {
    md.document = nlohmann::json::parse(json_text.begin(), json_text.end());
  } catch (const nlohmann::json::parse_error& e) {
    *error = "the JSON does not parse";
    *error_offset = e.byte > 0 ? e.byte - 1 : 0;
    return std::nullopt;
  }
  auto fail = [&](const char* why) {
    *error = why;
    return std::nullopt;
  };
  const auto& doc = md.document;
  if (!doc.is_object() || !doc.contains("root") || !doc.contains("nodes") || !doc["nodes"].is_array())
    return fail("expected an object with `root` and `nodes`, as TVM's SaveJSON writes");
  const auto& nodes = doc["nodes"];
  auto root = node_index(doc["root"]);
  if (!root || *root >= nodes.size()) return fail("`root` is not a node index");
  const auto& map = nodes[*root];
  if (!map.is_object() || !map.contains("data") || !map["data"].is_array())
    return fail("the root node is not a map from type keys to arrays");
  const auto& data = map["data"];

  // String-keyed maps store `keys` beside `data`; other maps alternate key, value.
  std::vector<std::pair<std::string, uint32_t>> pairs;
  if (map.contains("keys") && map["keys"].is_array()) {
    const auto& keys = map["keys"];
    if (keys.size() != data.size()) return fail("the root map's keys and data differ in length");
    for (size_t i = 0; i < keys.size(); ++i) {
      auto v = node_index(data[i]);
      if (!keys[i].is_string() || !v) return fail("malformed root map entry");
      pairs.emplace_back(keys[i].get<std::string>(), *v);
    }
  } else {
    if (data.size() % 2 != 0) return fail("the root map has an odd number of items");
    for (size_t i = 0; i < data.size(); i += 2) {
      auto k = node_index(data[i]);
      auto v = node_index(data[i + 1]);
      if (!k || !v || *k >= nodes.size()) return fail("malformed root map entry");
      const auto& key_node = nodes[*k];
      if (!key_node.contains("repr_str") || !key_node["repr_str"].is_string())
        return fail("a root map key is not a string node");
      pairs.emplace_back(key_node["repr_str"].get<std::string>(), *v);
    }
  }
  for (const auto& [key, array_index] : pairs) {
    if (array_index >= nodes.size()) return fail("a root map value is not a node index");
    const auto& array = nodes[array_index];
    if (!array.is_object() || !array.contains("data") || !array["data"].is_array())
      return fail("a root map value is not an array node");
    md.keys.push_back(key);
    std::string_view stored = md.keys.back();
    uint32_t i = 0;
    for (const auto& item : array["data"]) {
      auto n = node_index(item);
      if (!n || *n >= nodes.size()) return fail("an array item is not a node index");
      md.entries.push_back(MetaEntry{stored, i++, *n});
    }
  }
  return md;
}

const nlohmann::json& json_field(const nlohmann::json& obj, std::string_view key) {
  static const nlohmann::json null_value;
  if (!obj.is_object()) return null_value;
  auto it = obj.find(key);
  return it == obj.end() ? null_value : *it;
}

std::string decode_base64(std::string_view in, size_t max_bytes) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  out.reserve(std::min(in.size() / 4 * 3, max_bytes));
  uint32_t buf = 0;
  int bits = 0;
  for (char c : in) {
    int v = value(c);
    if (v < 0) continue;
    buf = (buf << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xFF));
      if (out.size() >= max_bytes) break;
    }
  }
  return out;
}

}  // namespace relay
