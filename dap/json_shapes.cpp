#include "dap/json_shapes.h"

namespace relay::dap {

using nlohmann::json;

json variable_json(const dbg::VariableView& v) {
  json out = {{"name", v.name}, {"value", v.value}, {"variablesReference", v.reference}};
  if (!v.type.empty()) out["type"] = v.type;
  if (v.named) out["namedVariables"] = v.named;
  if (v.indexed) out["indexedVariables"] = v.indexed;
  if (!v.memory_reference.empty()) out["memoryReference"] = v.memory_reference;
  if (!v.evaluate_name.empty()) out["evaluateName"] = v.evaluate_name;
  return out;
}

json scope_json(const dbg::ScopeView& s) {
  json j = {{"name", s.name}, {"variablesReference", s.reference}, {"namedVariables", s.named}, {"expensive", s.expensive}};
  if (s.name == "Arguments") j["presentationHint"] = "arguments";
  else if (s.name == "Locals") j["presentationHint"] = "locals";
  else if (s.name == "Return value") j["presentationHint"] = "returnValue";
  return j;
}

json evaluate_body(const dbg::VariableView& v) {
  json body = {{"result", v.value}, {"variablesReference", v.reference}};
  if (!v.type.empty()) body["type"] = v.type;
  if (v.named) body["namedVariables"] = v.named;
  if (v.indexed) body["indexedVariables"] = v.indexed;
  if (!v.memory_reference.empty()) body["memoryReference"] = v.memory_reference;
  return body;
}

dbg::Debugger::EvalContext eval_context(const std::string& c) {
  if (c == "watch") return dbg::Debugger::EvalContext::Watch;
  if (c == "hover") return dbg::Debugger::EvalContext::Hover;
  if (c == "clipboard") return dbg::Debugger::EvalContext::Clipboard;
  return dbg::Debugger::EvalContext::Repl;
}

rt::ChildFilter child_filter(const std::string& filter) {
  return filter == "indexed" ? rt::ChildFilter::Indexed
         : filter == "named" ? rt::ChildFilter::Named
                             : rt::ChildFilter::All;
}

dbg::Granularity step_granularity(const json& arguments) {
  return arguments.value("granularity", "statement") == "instruction" ? dbg::Granularity::Instruction
                                                                      : dbg::Granularity::Statement;
}

}  // namespace relay::dap
