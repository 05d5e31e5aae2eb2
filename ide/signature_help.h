// Signature help inside a call: an operator's positional inputs then its attributes
// (with defaults), or a global function's parameters (with their annotated types). The
// active parameter comes from the commas before the cursor, or from the `key=` being
// typed. Works on text that does not parse (ide/context.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/types/database.h"

namespace relay::ide {

struct SignatureParameter {
  uint32_t begin, end;  // byte range of the parameter in `label`
  std::string documentation;
};

struct SignatureInfo {
  std::string label;  // `nn.dense(data, weight, units, out_dtype="")`
  std::string documentation;
  std::vector<SignatureParameter> parameters;
  uint32_t active_parameter = 0;
};

std::optional<SignatureInfo> signature_help(const FileCheck& check, std::string_view text, uint32_t offset);

}  // namespace relay::ide
