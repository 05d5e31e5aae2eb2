// A scalar function's native code (compiler/llvm/scalar_codegen.h) as the interpreter's
// CompiledCall: the rank-0 arguments unboxed, the native entry called, the result boxed
// as a rank-0 NDArray. A non-zero native status (a division by zero, recursion past the
// native bound) throws rt::RuntimeError, and the interpreter replays the call.
#pragma once

#include "compiler/llvm/scalar_codegen.h"
#include "interpreter/eval/tier.h"

namespace relay::compiler {

class ScalarCall final : public rt::CompiledCall {
 public:
  explicit ScalarCall(ScalarFunction f) : f_(std::move(f)) {}
  rt::Value call(std::span<const rt::Value> args) override;
  const ScalarFunction& function() const { return f_; }

 private:
  ScalarFunction f_;
};

// The lowest address native frames may reach on this thread: a margin above the end of
// its stack (cached per thread).
uintptr_t native_stack_limit();

}  // namespace relay::compiler
