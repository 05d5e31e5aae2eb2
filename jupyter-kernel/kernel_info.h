// The `kernel_info_reply` content: who the kernel is and what language it speaks.
#pragma once

#include <nlohmann/json.hpp>

namespace relay::kernel {

// The Relay text format version the kernel accepts (`#[version = "0.0.5"]`).
inline constexpr const char* kRelayTextVersion = "0.0.5";
// The MIME type notebooks use for Relay cells and `.relay` files.
inline constexpr const char* kRelayMimetype = "text/x-relay";

nlohmann::json kernel_info_content();

}  // namespace relay::kernel
