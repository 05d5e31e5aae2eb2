// The standard prelude (TVM v0.14's python/tvm/relay/std/prelude.rly), as Relay source.
//
// The text lives in lang/prelude/prelude.relay and is compiled into the binary by the
// build (cmake/Embed.cmake, symbol relay::kStdLibraryFiles). It defines the ADTs List,
// Option and Tree and the list/tree utilities of reference §5.1 (@map, @foldl, ...).
#pragma once

#include <string_view>

namespace relay {

// The full text of prelude.relay, starting with `#[version = "0.0.5"]`. The view refers
// to static storage and stays valid for the life of the program.
std::string_view prelude_source();

}  // namespace relay
