// The open documents of a language-server session and the position conversions between
// LSP (0-based line + character in UTF-16 code units, or UTF-8 bytes when negotiated)
// and byte offsets.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "lang/base/source.h"

namespace relay::lsp {

// A request's parameters that name no valid place or value (InvalidParams, -32602).
struct BadParams : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class PositionEncoding { Utf16, Utf8 };

struct Document {
  std::string uri;
  std::string path;  // the file name used in the checking database
  std::string text;
  int64_t version = 0;

  // The line index of `text`, built on first use after each change: every request
  // converts positions, and rebuilding it per request cost more than a hover itself.
  const LineIndex& lines() const {
    if (!lines_cache) lines_cache = std::make_shared<const LineIndex>(text);
    return *lines_cache;
  }
  void set_text(std::string t) {
    text = std::move(t);
    lines_cache.reset();
  }

 private:
  mutable std::shared_ptr<const LineIndex> lines_cache;
};

// Byte offset of an LSP position in `text` (clamped to the line's end and the text).
uint32_t offset_of(const std::string& text, const LineIndex& lines, const nlohmann::json& position,
                   PositionEncoding enc);
nlohmann::json position_of(const std::string& text, const LineIndex& lines, uint32_t offset, PositionEncoding enc);
nlohmann::json range_of(const std::string& text, const LineIndex& lines, uint32_t begin, uint32_t end,
                        PositionEncoding enc);

// Applies one `TextDocumentContentChangeEvent` (with a range: incremental; without: the
// whole text). Returns false when the change is malformed.
bool apply_change(std::string& text, const nlohmann::json& change, PositionEncoding enc);

// `file:///a/b.relay` -> `/a/b.relay` (percent-decoded); other schemes are kept as is.
std::string path_of_uri(const std::string& uri);

}  // namespace relay::lsp
