// The operator -> gradient rule table, filled once from every family file, and the few
// helpers every rule uses.
#include <cassert>
#include <deque>

#include "lang/autodiff/gradient_rule.h"
#include "lang/ops/op_table.h"
#include "lang/syntax/printer.h"

namespace relay::autodiff {

class GradientTable {
 public:
  OpTable<const GradientRule*> by_op;
  std::deque<GradientRule> rules;  // stable addresses
};

void register_gradient(GradientTable& table, std::string_view op, GradientResult (*build)(const GradientCall&)) {
  table.rules.push_back(GradientRule{build});
  table.by_op[required_op(op)] = &table.rules.back();
}

namespace {
const GradientTable& table() {
  static const GradientTable t = [] {
    GradientTable r;
    register_elementwise_gradients(r);
    register_reduction_gradients(r);
    register_transform_gradients(r);
    register_nn_gradients(r);
    register_nn_more_gradients(r);
    return r;
  }();
  return t;
}
}  // namespace

const GradientRule* find_gradient(const OpInfo& op) { return table().by_op[op]; }

Term call(std::string_view op, const std::vector<Term>& args, std::string_view attrs) {
  (void)required_op(op);  // aborts on an unknown name
  std::string text(op);
  text += '(';
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) text += ", ";
    text += args[i].text;
  }
  if (!attrs.empty()) {
    if (!args.empty()) text += ", ";
    text += attrs;
  }
  text += ')';
  return Term{std::move(text)};
}

const TensorTy& GradientCall::input_tensor(size_t i) const {
  const TensorTy* t = ty_as<TensorTy>(input_types.at(i));
  assert(t && "rules are registered for tensor inputs only");
  return *t;
}

const TensorTy& GradientCall::output_tensor() const {
  const TensorTy* t = ty_as<TensorTy>(output_type);
  assert(t && "rules are registered for tensor outputs only");
  return *t;
}

std::string join_attrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                       std::initializer_list<std::string_view> except) {
  std::string text;
  for (const auto& [key, value] : attrs) {
    bool skipped = false;
    for (std::string_view e : except) skipped |= key == e;
    if (skipped) continue;
    if (!text.empty()) text += ", ";
    text += key + "=" + value;
  }
  return text;
}

Term GradientCall::literal(double value) const {
  const TensorTy* out = ty_as<TensorTy>(output_type);
  DataType dtype = out ? out->dtype : input_tensor(0).dtype;
  // Relay has no bfloat16 literal: a float32 one, cast.
  if (dtype.code == DataType::BFloat)
    return call("cast", {Term{format_float_literal(value, DataType::float_(32))}}, "dtype=\"bfloat16\"");
  return Term{format_float_literal(value, dtype)};
}

}  // namespace relay::autodiff
