// The `#[metadata]` section: TVM's node-JSON serialisation (SaveJSON) of a map from
// type key to an array of nodes. `meta[KEY][i]` refers to the i-th node listed under
// KEY. Tensor constants are stored base64-encoded in `b64ndarrays` (decoded by the
// interpreter, which owns tensors).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lang/syntax/ast.h"

namespace relay {

// obj[key], or a null value when `obj` is not an object or has no such key. The const
// operator[] of nlohmann::json is undefined for a missing key; metadata is untrusted
// input, so every lookup of an optional field goes through here.
const nlohmann::json& json_field(const nlohmann::json& obj, std::string_view key);

// Decodes base64 text (the `b64ndarrays` blobs), skipping padding and line breaks; stops
// after `max_bytes` output bytes (a caller reading only a header need not decode more).
std::string decode_base64(std::string_view in, size_t max_bytes = SIZE_MAX);

struct Metadata {
  nlohmann::json document;
  std::vector<MetaEntry> entries;
  std::deque<std::string> keys;  // owns the type-key strings MetaEntry points at

  const MetaEntry* find(std::string_view type_key, uint32_t index) const;
  // Number of entries listed under `type_key`.
  uint32_t count(std::string_view type_key) const;
  // The JSON node of an entry.
  // Entries are validated when parsed: their node exists.
  const nlohmann::json& node(const MetaEntry& e) const { return json_field(document, "nodes").at(e.node); }
};

// Parses the JSON text; on failure returns nullopt and sets `error` and `error_offset`
// (a byte offset into `json_text`).
std::optional<Metadata> parse_metadata(std::string_view json_text, std::string* error,
                                       size_t* error_offset);

}  // namespace relay
