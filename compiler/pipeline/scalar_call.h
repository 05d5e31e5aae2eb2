// A scalar function's native code (compiler/llvm/scalar_codegen.h) as the interpreter's
// CompiledCall: the rank-0 arguments unboxed, the native entry called, the result boxed
// as a rank-0 NDArray. A non-zero native status (a division by zero, recursion past the
// native bound) throws rt::RuntimeError, and the interpreter replays the call.
//
// The replay calls the function's recursive calls through the tier again: each would run
// natively as deep as the first did and fail the same way, n attempts for n levels. So
// after a failure the next `skip` calls are declined (takes_next_call: the interpreter
// takes them), and `skip` doubles with each further failure: a recursion 150,000 deep
// runs its top levels interpreted and the last 100,000 native after a few attempts, not
// 50,000.
#pragma once

#include <atomic>
#include <cstdint>

#include "compiler/llvm/scalar_codegen.h"
#include "interpreter/eval/tier.h"

namespace relay::compiler {

class ScalarCall final : public rt::CompiledCall {
 public:
  explicit ScalarCall(ScalarFunction f) : f_(std::move(f)) {}
  rt::Value call(std::span<const rt::Value> args) override;
  bool takes_next_call() override;
  const ScalarFunction& function() const { return f_; }

 private:
  ScalarFunction f_;
  std::atomic<uint64_t> skip_{0};     // calls left to hand to the interpreter at once
  std::atomic<uint64_t> backoff_{0};  // the next skip after a failure
};

// The lowest address native frames may reach on this thread: a margin above the end of
// its stack (cached per thread).
uintptr_t native_stack_limit();

}  // namespace relay::compiler
