// Test helper: type-checks a Relay module and runs its @main on tensors.
//
//   RunResult r = run_main(program_text, {x, w});
//   r.error    ""  or the first diagnostic / run-time error message
//   r.value    the result
//
// The kernel golden tests (kernel_golden_test.cpp) and evaluator tests use it.
#pragma once

#include <string>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "interpreter/value.h"

namespace relay::testing {

struct RunResult {
  rt::Value value;
  std::string error;
};

RunResult run_main(const std::string& program, const std::vector<rt::NDArray>& inputs);

}  // namespace relay::testing
