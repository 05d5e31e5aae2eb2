#include "lang/prelude/prelude.h"

#include "lang/base/embedded.h"

namespace relay {

extern const EmbeddedFile kStdLibraryFiles[];

std::string_view prelude_source() {
  static const std::string_view text = find_embedded(kStdLibraryFiles, "prelude.relay");
  return text;
}

}  // namespace relay
