// Where operator gradients will attach: an OpTable<const GradientRule*> indexed by OpId,
// like the type relations and reference kernels. No operator has a gradient yet, so the
// table is empty (every entry nullptr) and GradientRule is declared, not defined: the
// automatic-differentiation pass will define it (a function from the call, its output
// gradient and its inputs to the inputs' gradients, as TVM's FPrimalGradient) and fill the
// table from a registration file per operator family, as relations/registry.cpp does.
//
// The coverage test (tests/unit/op_table_coverage_test.cpp) reports how many supported
// operators have one; it does not require any until the pass exists.
#pragma once

#include "lang/ops/op_registry.h"

namespace relay {

struct GradientRule;

// nullptr: the operator has no gradient (today: every operator).
const GradientRule* find_gradient(const OpInfo& op);

}  // namespace relay
