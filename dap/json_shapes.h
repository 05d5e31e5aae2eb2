// The JSON shapes of the debugging engine's answers in the Debug Adapter Protocol, shared
// by `relay dap` and the Jupyter kernel's debugger (which speaks the same protocol inside
// Jupyter's debug_request / debug_reply / debug_event messages). Only this directory
// knows DAP JSON; the kernel adds what is Jupyter's own.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "debugger/debugger.h"

namespace relay::dap {

// A `Variable` (also what `setVariable` and `evaluate` build on).
nlohmann::json variable_json(const dbg::VariableView& v);
// A `Scope`.
nlohmann::json scope_json(const dbg::ScopeView& s);
// The body of an `evaluate` response.
nlohmann::json evaluate_body(const dbg::VariableView& v);

// Request arguments in engine terms.
dbg::Debugger::EvalContext eval_context(const std::string& context);  // `evaluate`'s `context`
rt::ChildFilter child_filter(const std::string& filter);             // `variables`' `filter`
dbg::Granularity step_granularity(const nlohmann::json& arguments);    // stepping requests

// Protocol frame ids start at 1 (0 reads as "none" to some clients); the engine's at 0.
inline int64_t protocol_frame_id(int64_t engine_id) { return engine_id + 1; }
// Ids at or below 0 name no frame (-1: also for INT64_MIN, which would overflow).
inline int64_t engine_frame_id(int64_t protocol_id) { return protocol_id > 0 ? protocol_id - 1 : -1; }

}  // namespace relay::dap
