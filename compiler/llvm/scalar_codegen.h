// Scalar functions to native control flow: a global whose parameters and result are
// rank-0 tensors (bool, int8..int64, uint8..uint64, float32, float64) and whose body is
// made of scalar literals, parameters, lets, `if`, element-wise operators and calls of
// globals of the same kind (recursion and mutual recursion included) becomes one LLVM
// module with one native function per global, real branches and native calls.
//
// Each operator's semantics is the element-wise lowering's (compiler/loops, ew::emit_step),
// the same loop-IR expressions the kernels use, so results equal the reference kernels'
// bitwise (wrapping integers, total division with the reference's failures detected,
// saturating float-to-int casts, the reference's NaN rule for maximum/minimum).
//
// No C++ exception crosses JIT frames: every native function takes a status pointer and
// a depth; a failure (a division by zero, where the reference throws; recursion deeper
// than kMaxNativeDepth or closer than the stack budget to the thread's stack end) stores a
// code there and returns, and every caller checks it after each call and returns at once.
// The caller of the entry turns a non-zero status into rt::RuntimeError, and the
// interpreter replays the call (interpreter/eval/tier.h): its answer or diagnostic wins.
//
// This header includes no LLVM header.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lang/syntax/ast.h"
#include "lang/types/infer.h"

namespace relay::compiler {

class Jit;

// Native recursion deeper than this aborts the native call (the interpreter replays it
// with its explicit stack and its own depth limit).
inline constexpr int64_t kMaxNativeDepth = 100000;

// int32_t entry(void* const* args, void* out, uintptr_t stack_limit): args[i] points at
// parameter i's value (bool as one byte), the result is stored at `out`; returns 0, or a
// ScalarStatus. Native frames stop recursing below `stack_limit` (an address).
using ScalarEntryFn = int32_t (*)(void* const* args, void* out, uintptr_t stack_limit);

enum ScalarStatus : int32_t {
  kScalarOk = 0,
  kScalarFailed = 1,    // an operator's reference kernel would throw (division by zero)
  kScalarTooDeep = 2,   // the depth bound or the stack budget
};

struct ScalarFunction {
  std::string symbol;
  ScalarEntryFn fn = nullptr;
  std::vector<DataType> params;
  DataType result;
  size_t functions = 0;  // globals in the compiled call graph
  double compile_ms = 0;
  std::string llvm_ir;   // the optimised module, when asked for
  std::string reason;    // non-empty: refused (fn is null), and why
  bool ok() const { return fn != nullptr; }
};

using TypesOf = std::function<const InferredTypes*(const FuncDef*)>;

// Compiles `def` and every global it calls. Refuses (reason set, short) a function or
// callee that is not a scalar function as defined above. Thread-safe.
ScalarFunction compile_scalar_function(const FuncDef& def, const TypesOf& types, Jit& jit,
                                       bool keep_llvm_ir = false);

}  // namespace relay::compiler
