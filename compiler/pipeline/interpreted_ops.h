// The operators compiled code runs on their reference kernels, each with the reason
// (interpreted_ops.def). Together with the lowered operators (compiler/loops) they cover
// every supported operator; a test holds them to that.
#pragma once

#include <string_view>
#include <vector>

namespace relay::compiler {

// Why `op` runs its reference kernel in compiled code; empty when it is not listed.
std::string_view interpreted_reason(std::string_view op);
// Whether `op` is a marker: an annotation that computes nothing (its value is its input).
bool is_marker(std::string_view op);
// Every listed operator.
std::vector<std::string_view> interpreted_ops();

}  // namespace relay::compiler
