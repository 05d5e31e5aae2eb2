// The interpreter's one seam to a compiler: the tier-up interface. The machine asks it at
// each call of a global function whether native code for the call's arguments is ready;
// the compiler (compiler/, which the interpreter never includes) answers, counts calls per
// argument signature and compiles hot ones in the background. With no tier installed the
// machine interprets everything, so the interpreter builds and runs without the JIT.
//
// The machine keeps the interpreter's answers exact: when native code throws (an index
// out of range, an integer division by zero) the call is run again by the interpreter, so
// the error is the interpreter's own diagnostic with its span and stack; and when
// observers are attached (`--check-numerics`) and the native result holds NaN or Inf, the
// call is interpreted again so the numerics checker names the operator that produced it.
#pragma once

#include <span>
#include <string>

#include "interpreter/value.h"
#include "lang/syntax/ast.h"

namespace relay::rt {

// Native code for one function at one argument signature.
class CompiledCall {
 public:
  virtual ~CompiledCall() = default;
  // Runs on `args` (their shapes and dtypes are the signature it was compiled for).
  // Throws RuntimeError on a run-time error; the machine then interprets the call.
  virtual Value call(std::span<const Value> args) = 0;
};

class TierUp {
 public:
  virtual ~TierUp() = default;
  // At a call of the global `def` on `args`: the native code to run, or null to interpret
  // this call. Called for every call of a global, so it must be cheap when it says no.
  virtual CompiledCall* at_call(const FuncDef& def, std::span<const Value> args) = 0;
  // What was compiled and what stayed interpreted, for people (`--jit-report`, `:jit`).
  virtual std::string describe() const { return {}; }
};

}  // namespace relay::rt
