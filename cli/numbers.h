// Whole numbers given on the command line (`--bench 10`, `--threads 4`): decimal digits
// only. strtoull alone would take "-3" as 2^64 - 3 (a benchmark that never ends, four
// billion threads) and "10abc" as 10.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace relay::cli {

// The value of `text` when it is 1 to 19 decimal digits (below 10^19: no overflow).
inline std::optional<uint64_t> parse_whole_number(std::string_view text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  uint64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

}  // namespace relay::cli
