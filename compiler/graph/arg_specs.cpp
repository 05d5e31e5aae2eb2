// Argument specs from a function's checked parameter types (`relay compile` and tests).
#include "compiler/graph/graph.h"

namespace relay::compiler {

std::optional<std::vector<ArgSpec>> arg_specs_from_types(
    const FuncDef& def, const InferredTypes* types,
    const std::vector<std::pair<std::string, std::vector<int64_t>>>& overrides, std::string& error) {
  std::vector<ArgSpec> out;
  std::vector<bool> used(overrides.size(), false);
  for (const VarDecl* p : def.fn->params) {
    const std::string name(p->name);
    Ty t = types ? types->type_of(p) : nullptr;
    const auto* tt = ty_as<TensorTy>(t);
    if (!tt) {
      error = "parameter %" + name + " is not a tensor" + (t ? " (" + type_to_string(t) + ")" : "");
      return std::nullopt;
    }
    ArgSpec spec;
    spec.dtype = tt->dtype;
    const std::vector<int64_t>* given = nullptr;
    for (size_t k = 0; k < overrides.size(); ++k)
      if (overrides[k].first == name) {
        given = &overrides[k].second;
        used[k] = true;
      }
    if (given) {
      if (given->size() != tt->rank()) {
        error = "--shape for %" + name + " has " + std::to_string(given->size()) + " dims but its type " +
                type_to_string(t) + " has " + std::to_string(tt->rank());
        return std::nullopt;
      }
      spec.shape = *given;
    } else {
      for (const Dim& d : tt->shape) {
        auto v = d.constant_value();
        if (!v) {
          error = "parameter %" + name + " has type " + type_to_string(t) + ": give its shape with --shape " + name + "=...";
          return std::nullopt;
        }
        spec.shape.push_back(*v);
      }
    }
    out.push_back(std::move(spec));
  }
  for (size_t k = 0; k < overrides.size(); ++k)
    if (!used[k]) {
      error = "--shape names %" + overrides[k].first + ", which is not a parameter of @" + std::string(def.name);
      return std::nullopt;
    }
  return out;
}

}  // namespace relay::compiler
