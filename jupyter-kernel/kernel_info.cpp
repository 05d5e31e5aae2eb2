#include "jupyter-kernel/kernel_info.h"

#include <string>

#include "xeus/xhelper.hpp"

namespace relay::kernel {

nlohmann::json kernel_info_content() {
  // Neither Pygments nor CodeMirror has a Relay mode. Rust's is the closest fit: the
  // same keywords (`let`, `fn`, `match`, `type`, `if`/`else`), `->` return types, `//`
  // and `/* */` comments and `#[...]` attributes, so cells and nbconvert's HTML are
  // mostly highlighted right instead of not at all.
  const std::string highlighter = "rust";
  const std::string banner =
      "Relay " RELAY_KERNEL_VERSION " (TVM Relay IR, text format " + std::string(kRelayTextVersion) +
      ")\nDefinitions, `let` bindings and expressions; `:help` lists the commands.";
  nlohmann::json info = xeus::create_info_reply(/*protocol_version=*/"",  // xeus fills in its own
                                 /*implementation=*/"relay", RELAY_KERNEL_VERSION,
                                 /*language_name=*/"relay", kRelayTextVersion, kRelayMimetype,
                                 /*language_file_extension=*/".relay", highlighter, highlighter,
                                 /*language_nbconvert_exporter=*/"", banner);
  // No exporter of our own: `nbconvert --to script` then writes a plain `.relay` file.
  info["language_info"].erase("nbconvert_exporter");
  info["debugger"] = true;  // JupyterLab's debugger (notebook_debugger.h)
  return info;
}

}  // namespace relay::kernel
