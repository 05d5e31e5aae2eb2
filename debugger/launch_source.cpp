// The engine's second way in: a program given as text rather than read from a file, run
// on argument values rather than .npy files. The Jupyter kernel debugs a cell this way:
// the session hands over its module text with the cell's input function (whose
// parameters are the session's bindings) and the bindings' values (repl/session_debug.h).
#include "debugger/debugger.h"

namespace relay::dbg {

bool Debugger::launch_source(const SourceConfig& config, std::string* error) {
  LaunchConfig launch;
  launch.program = config.name;
  launch.entry = config.entry;
  launch.max_depth = config.max_depth;
  launch.check_numerics = config.check_numerics;
  return load(launch, config.text, nullptr, config.interrupt, error);
}

rt::Value Debugger::result() const {
  if (!machine_ || state_ != State::Exited || exit_code_ != 0) return rt::Value();
  return machine_->result();
}

std::optional<rt::Value> Debugger::frame_value(int64_t frame_id, std::string_view name, std::string* type) const {
  auto i = frame_index(frame_id);
  if (!i) return std::nullopt;
  if (!name.empty() && name[0] == '%') name.remove_prefix(1);
  // The innermost binder of that name: a later variable of the frame shadows an earlier one.
  std::optional<rt::FrameVariable> found;
  for (const rt::FrameVariable& v : machine_->frame_variables(*i))
    if (v.decl->name == name) found = v;
  if (!found) return std::nullopt;
  if (type) *type = static_type(found->decl, *i);
  return found->value;
}

}  // namespace relay::dbg
