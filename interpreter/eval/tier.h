// The interpreter's one seam to a compiler: the tier-up interface. The machine asks it at
// each call of a global function whether native code for the call's arguments is ready;
// the compiler (compiler/, which the interpreter never includes) answers, counts calls per
// argument signature and compiles hot ones in the background. With no tier installed the
// machine interprets everything, so the interpreter builds and runs without the JIT.
//
// Mixed mode: a function with control flow, ADTs, closures or references is not compiled
// whole, but its tensor regions may be (`at_region`). The interpreter finds them when it
// compiles a function to Nodes (interpreter/eval/regions.h): maximal runs of a block's
// bindings that are pure dataflow over tensors. It describes each one (RegionInfo) in
// terms of the program as written, so the compiler needs nothing of the machine's.
//
// The machine keeps the interpreter's answers exact: when native code throws (an index
// out of range, an integer division by zero) the call is run again by the interpreter, so
// the error is the interpreter's own diagnostic with its span and stack; and when
// observers are attached (`--check-numerics`) and the native result holds NaN or Inf, the
// call is interpreted again so the numerics checker names the operator that produced it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

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
  // Asked before each call: false hands this one to the interpreter without trying the
  // native code, as code that backs off after a failure the replay would repeat (deep
  // recursion) does. Cheap: the machine asks it on every call, and throwing per declined
  // call cost more than the interpretation it led to.
  virtual bool takes_next_call() { return true; }
  // What the code measured while it ran, for the tier report (e.g. the time spent in a
  // kernel library and its rate); one line each, none by default.
  virtual std::vector<std::string> run_notes() const { return {}; }
};

// A tensor region of a function: consecutive bindings of one block whose values are
// operator calls, tuples, projections and constants over variables, with at least two
// operator calls. Run natively, it takes the values of `inputs` (each a tensor) and
// returns a tuple with one field per `outputs` entry, in order.
struct RegionInfo {
  const FuncDef* enclosing = nullptr;  // the global whose body (or a closure in it) holds it
  uint32_t id = 0;                     // 1, 2, ... in source order within `enclosing`
  std::vector<const Binding*> bindings;
  std::vector<const VarDecl*> inputs;   // free variables the bindings read, first use first
  std::vector<const VarDecl*> outputs;  // variables bound here and read after the region
  Span span;                            // from the first binding to the last
};

class TierUp {
 public:
  virtual ~TierUp() = default;
  // At a call of the global `def` on `args`: the native code to run, or null to interpret
  // this call. Called for every call of a global, so it must be cheap when it says no.
  virtual CompiledCall* at_call(const FuncDef& def, std::span<const Value> args) = 0;
  // When the machine reaches `region` with `inputs` (all tensors): native code returning
  // the outputs as a tuple, or null to interpret the bindings. Like at_call, cheap on no.
  virtual CompiledCall* at_region(const RegionInfo& /*region*/, std::span<const Value> /*inputs*/) {
    return nullptr;
  }
  // What was compiled and what stayed interpreted, for people (`--jit-report`, `:jit`).
  virtual std::string describe() const { return {}; }
  // The module was checked again (an interactive session's next input): the FuncDef
  // objects of later calls are new ones, and earlier ones may be freed. A tier that keys
  // its code by definition content forgets what it knew of the old objects here.
  virtual void module_rechecked() {}
};

}  // namespace relay::rt
