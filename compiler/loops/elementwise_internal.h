// Shared by elementwise_lower.cpp (the loop nest, broadcasting, the status flag) and
// elementwise_ops.cpp (each operator's scalar semantics as loop-IR expressions).
#pragma once

#include <string>
#include <vector>

#include "compiler/loops/elementwise.h"

namespace relay::loops::ew {

// Where an operator's expansion goes: lets are appended to `block`, and conditions under
// which the reference kernel throws (a zero divisor) to `failures`.
struct Emitter {
  Kernel& kernel;
  Block& block;
  std::vector<Expr> failures;

  // Binds e to a fresh let variable and returns a reference to it (so a value used twice
  // is computed once).
  Expr bind(Expr e, const char* name = "t");
};

// The result dtype of `step` applied to operands of these dtypes, or an error.
struct Typing {
  DataType result;
  std::string error;
};
Typing type_step(const EwStep& step, const std::vector<DataType>& operand_types);

// The step's value at one element: `args` are the operands' values (storage dtypes).
// Precondition: type_step succeeded.
Expr emit_step(Emitter& em, const EwStep& step, const std::vector<Expr>& args);

// Whether the step can fail at run time (its emission then adds to `failures`).
bool step_can_fail(const EwStep& step, DataType operand_type);

}  // namespace relay::loops::ew
