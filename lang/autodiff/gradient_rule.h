// Operator gradients (TVM's FPrimalGradient): for a call `op(x1, ..., xn)` with output `y`
// and the incoming gradient `g` (d result / d y, of y's type), a rule builds one gradient
// expression per input (d result / d xi, of xi's type) out of Relay operators.
//
// Rules attach per operator in an OpTable<const GradientRule*> (registry.cpp), like the
// type relations, reference kernels and lowerings. They are written in Relay itself: a
// rule returns Relay expression text over the atoms it is given, which the
// differentiation pass (first_order.h) binds with `let` and the front end then parses and
// type-checks like any other program, so a rule cannot produce an ill-formed program
// without the checker saying so.
//
// The coverage test (tests/unit/op_table_coverage_test.cpp) reports how many supported
// operators have one; tests/unit/gradient_test.cpp checks every rule against central
// finite differences.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "lang/ops/op_registry.h"
#include "lang/types/call_attrs.h"
#include "lang/types/type.h"

namespace relay::autodiff {

// Relay expression text: an atom (a variable such as `%x` or a literal) or an operator
// call over terms.
struct Term {
  std::string text;
};

// `op(args..., attrs)`; `op` must be a registered operator (checked: a typo in a rule is
// a programming error, caught by the first test that uses the rule).
Term call(std::string_view op, const std::vector<Term>& args, std::string_view attrs = "");

// `key=value, ...` of `attrs` but those named in `except`.
std::string join_attrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                       std::initializer_list<std::string_view> except = {});

// What a rule may read about the call it differentiates. Types are the checker's
// (ground: the pass refuses a function whose types are not fully known).
struct GradientCall {
  const OpInfo& op;
  const CallAttrs& attrs;
  // The attributes as written, (key, value text), for rules whose gradient operator
  // takes the same attrs struct.
  std::vector<std::pair<std::string, std::string>> written_attrs;
  std::vector<Term> inputs;    // the call's arguments, as atoms
  std::vector<Ty> input_types;
  Term output;                 // the call's value, an atom
  Ty output_type;
  Term grad;                   // the incoming gradient, an atom of the output's type
  // Binds a term used more than once with `let`, returning its atom, so the generated
  // code computes it once (the identity when the pass only asks whether the rule applies).
  std::function<Term(const Term&)> bind;

  // The i-th input's tensor type (rules are only registered for tensor inputs).
  const TensorTy& input_tensor(size_t i) const;
  const TensorTy& output_tensor() const;
  // `key=value, ...` of the written attributes but those named in `except`.
  std::string attrs_text(std::initializer_list<std::string_view> except = {}) const {
    return join_attrs(written_attrs, except);
  }
  // A scalar literal of the output's dtype (`0.5f`, `0.5f64`, ...); the first input's
  // when the output is a tuple.
  Term literal(double value) const;
};

// One gradient per input, in input order, or (when `error` is not empty) why this call
// cannot be differentiated, e.g. an attribute value the rule does not cover. The pass
// reports the error at the call.
struct GradientResult {
  std::vector<Term> grads;
  std::string error;
};

struct GradientRule {
  GradientResult (*build)(const GradientCall& call);
};

// nullptr: the operator has no gradient.
const GradientRule* find_gradient(const OpInfo& op);

// Registration, one function per operator family (rules_*.cpp).
class GradientTable;
void register_gradient(GradientTable& table, std::string_view op, GradientResult (*build)(const GradientCall&));
void register_elementwise_gradients(GradientTable& table);
void register_reduction_gradients(GradientTable& table);
void register_transform_gradients(GradientTable& table);
void register_nn_gradients(GradientTable& table);
void register_nn_more_gradients(GradientTable& table);

}  // namespace relay::autodiff
