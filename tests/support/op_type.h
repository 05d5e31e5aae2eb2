// Test helper: the type an operator's relation gives for written input types and
// attributes, without a whole program:
//
//   op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(128, 784), float32]"},
//           "units=128")  ==  "Tensor[(1, 128), float32]"
//
// An input written "_" is unknown. On failure the result is "error: <message>" (the
// first error: attribute check or relation). `op_type_inputs` returns the input types
// after the relation ran (to test forced inputs, e.g. conv2d weights), joined by "; ".
#pragma once

#include <string>
#include <vector>

#include "lang/base/source.h"
#include "lang/ops/op_schema.h"
#include "lang/syntax/parser.h"
#include "lang/types/call_attrs.h"
#include "lang/types/lower.h"
#include "lang/types/relation_eval.h"

namespace relay::testing {

struct OpTypeResult {
  std::string output;  // type text, "pending" or "error: ..."
  std::string inputs;  // input types after the relation, "; "-separated
};

inline OpTypeResult run_op_type(const std::string& op, const std::vector<std::string>& input_types,
                                const std::string& attrs = "") {
  std::string text = "fn (";
  std::string args;
  for (size_t i = 0; i < input_types.size(); ++i) {
    if (i) {
      text += ", ";
      args += ", ";
    }
    text += "%i" + std::to_string(i) + ": " + input_types[i];
    args += "%i" + std::to_string(i);
  }
  if (!attrs.empty()) args += (args.empty() ? "" : ", ") + attrs;
  text += ") { " + op + "(" + args + ") }";
  SourceManager sources;
  FileId id = sources.add("op_type.relay", text);
  DiagnosticBag diags;
  auto module = parse_expression(sources.get(id), diags);
  if (diags.has_errors()) return {"error: parse: " + diags.items().front().message, ""};
  auto* fn = as<FunctionExpr>(module->expr);
  auto* call = fn ? as<CallExpr>(fn->body) : nullptr;
  if (!call) return {"error: not a call", ""};
  const OpSignature* sig = find_op_signature(op);
  if (!sig) return {"error: no signature for " + op, ""};
  CallAttrs call_attrs;
  if (!check_call_attrs(*sig, *call, call_attrs, diags))
    return {"error: " + diags.items().front().message, ""};
  TypeArena arena;
  std::vector<Ty> inputs;
  uint32_t hole = 0;
  for (size_t i = 0; i < fn->params.size(); ++i) {
    const Type* t = fn->params[i]->annotation;
    if (t && t->kind == TypeKind::Incomplete) inputs.push_back(arena.hole(hole++));
    else inputs.push_back(lower_type(t, arena, LowerScope{}));
  }
  RelationOutcome r = eval_relation(op, inputs, call_attrs, arena);
  OpTypeResult out;
  for (size_t i = 0; i < r.inputs.size(); ++i) {
    if (i) out.inputs += "; ";
    out.inputs += r.inputs[i]->kind == TyKind::Hole ? "_" : type_to_string(r.inputs[i]);
  }
  if (!r.errors.empty()) out.output = "error: " + r.errors.front().message;
  else if (r.status == RelStatus::Pending) out.output = "pending";
  else if (r.status == RelStatus::Failed) out.output = "error: (failed without a message)";
  else out.output = r.output->kind == TyKind::Hole ? "no output" : type_to_string(r.output);
  return out;
}

inline std::string op_type(const std::string& op, const std::vector<std::string>& input_types,
                           const std::string& attrs = "") {
  return run_op_type(op, input_types, attrs).output;
}

}  // namespace relay::testing
