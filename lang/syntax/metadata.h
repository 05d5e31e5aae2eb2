// The `#[metadata]` section: TVM's node-JSON serialisation (SaveJSON) of a map from
// type key to an array of nodes. `meta[KEY][i]` refers to the i-th node listed under
// KEY. Tensor constants are stored base64-encoded in `b64ndarrays` (decoded by the
// interpreter, which owns tensors).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lang/syntax/ast.h"

namespace relay {

struct Metadata {
  nlohmann::json document;
  std::vector<MetaEntry> entries;
  std::deque<std::string> keys;  // owns the type-key strings MetaEntry points at

  const MetaEntry* find(std::string_view type_key, uint32_t index) const;
  // Number of entries listed under `type_key`.
  uint32_t count(std::string_view type_key) const;
  // The JSON node of an entry.
  const nlohmann::json& node(const MetaEntry& e) const { return document["nodes"][e.node]; }
};

// Parses the JSON text; on failure returns nullopt and sets `error` and `error_offset`
// (a byte offset into `json_text`).
std::optional<Metadata> parse_metadata(std::string_view json_text, std::string* error,
                                       size_t* error_offset);

}  // namespace relay
