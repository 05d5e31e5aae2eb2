#include "jupyter-kernel/kernel_info.h"

#include <string>

#include "xeus/xhelper.hpp"

namespace relay::kernel {

nlohmann::json kernel_info_content() {
  // The editor's mode is the kernelspec's own (codemirror/kernel.js registers "relay" in
  // classic Notebook). Pygments has no Relay lexer, so exporters (nbconvert's HTML)
  // highlight with Rust's, the closest: the same keywords (`let`, `fn`, `match`, `type`,
  // `if`/`else`), `->` return types, `//` and `/* */` comments and `#[...]` attributes.
  // The language itself is named relay everywhere (name, mimetype, file extension), so
  // exports label the code as Relay.
  const std::string codemirror_mode = "relay";
  const std::string pygments_lexer = "rust";
  const std::string banner =
      "Relay " RELAY_KERNEL_VERSION " (TVM Relay IR, text format " + std::string(kRelayTextVersion) +
      ")\nDefinitions, `let` bindings and expressions; `:help` lists the commands.";
  nlohmann::json info = xeus::create_info_reply(/*protocol_version=*/"",  // xeus fills in its own
                                 /*implementation=*/"relay", RELAY_KERNEL_VERSION,
                                 /*language_name=*/"relay", kRelayTextVersion, kRelayMimetype,
                                 /*language_file_extension=*/".relay", pygments_lexer, codemirror_mode,
                                 /*language_nbconvert_exporter=*/"", banner);
  // No exporter of our own: `nbconvert --to script` then writes a plain `.relay` file.
  info["language_info"].erase("nbconvert_exporter");
  info["debugger"] = true;  // JupyterLab's debugger (notebook_debugger.h)
  return info;
}

}  // namespace relay::kernel
