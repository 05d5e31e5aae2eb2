// Shared by elementwise_lower.cpp (the loop nest, broadcasting, the status flag),
// elementwise_ops.cpp (each operator's scalar semantics as loop-IR expressions),
// elementwise_program.cpp (checking and emitting a whole program at one element) and
// reduction_lower.cpp (which evaluates an element-wise program as a reduction's prologue).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/loops/elementwise.h"
#include "compiler/loops/index_math.h"

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

// ---- whole programs (elementwise_program.cpp) ------------------------------------------

// Every step typed against its operator's rule; `error` set on the first mismatch or a
// dangling operand, or when the last step's dtype is not the program's out_dtype.
struct CheckedProgram {
  std::vector<DataType> step_types;
  bool can_fail = false;  // some step can fail at run time (needs the status flag)
  std::string error;
};
CheckedProgram check_program(const ElementwiseProgram& p);

// The program's value at one element: every step bound to a let in em.block, inputs
// loaded on first use through `load_input(i)` (so an input the steps never read is never
// loaded). Precondition: check_program succeeded.
Expr emit_program(Emitter& em, const ElementwiseProgram& p, const std::function<Expr(int)>& load_input);

// Appends `flag[0] |= any(failures)` to `block` (nothing when there are none): the
// per-chunk failure flag a kernel keeps in a local and reports once through `status`.
void record_failures(Block& block, const Kernel& k, int flag, const std::vector<Expr>& failures);

// ---- loop nests over broadcast operands ------------------------------------------------

using Strides = std::vector<int64_t>;
Strides contiguous(const std::vector<int64_t>& shape);
// Strides of `shape` read at the index of `out` (numpy's right-aligned broadcasting;
// broadcast dimensions get stride 0). False when `shape` does not broadcast to `out`.
bool broadcast_strides(const std::vector<int64_t>& shape, const std::vector<int64_t>& out, Strides& result);

// A loop nest over `dims`, with each operand's stride per loop dimension.
struct Nest {
  std::vector<int64_t> dims;
  std::vector<Strides> strides;  // per operand, per dim
  std::vector<int> classes;      // per dim: the class it came from (see collapse)
};
// Drops extent-1 dimensions of `shape` and merges adjacent ones where every operand's
// strides allow (so the nest walks the same elements in the same order with fewer loops).
// With `classes` (one per dimension of `shape`), only dimensions of the same class merge:
// a reduction keeps reduced and kept dimensions apart. Never empty: a scalar is one
// dimension of extent 1.
Nest collapse(const std::vector<int64_t>& shape, const std::vector<Strides>& operands,
              const std::vector<int>* classes = nullptr);

// Index arithmetic (compiler/loops/index_math.h).
using loops::index_add;
using loops::index_scale;

}  // namespace relay::loops::ew
