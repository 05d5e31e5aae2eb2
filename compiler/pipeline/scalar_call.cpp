#include "compiler/pipeline/scalar_call.h"

#include <pthread.h>

#include <algorithm>
#include <vector>

namespace relay::compiler {

namespace {
// Room left below the native frames for what runs after them on this thread (signal
// handlers, the C library): native recursion stops this far from the stack's end.
constexpr uintptr_t kStackMargin = 256 * 1024;
// When the thread's stack cannot be queried, native frames may use this much below here.
constexpr uintptr_t kFallbackBudget = 1024 * 1024;
}  // namespace

uintptr_t native_stack_limit() {
  thread_local uintptr_t limit = 0;
  if (limit) return limit;
  char here = 0;
  const auto sp = reinterpret_cast<uintptr_t>(&here);
  limit = sp > kFallbackBudget ? sp - kFallbackBudget : 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* lo = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0 && lo) {
      const uintptr_t bottom = reinterpret_cast<uintptr_t>(lo) + kStackMargin;
      // An unlimited main-thread stack reports a huge size: never trust more than 64 MiB.
      const uintptr_t cap = sp > (uintptr_t{64} << 20) ? sp - (uintptr_t{64} << 20) : 0;
      if (bottom < sp) limit = std::max(bottom, cap);
    }
    pthread_attr_destroy(&attr);
  }
  return limit;
}

bool ScalarCall::takes_next_call() {
  if (skip_.load(std::memory_order_relaxed) == 0) return true;
  skip_.fetch_sub(1, std::memory_order_relaxed);
  return false;
}

rt::Value ScalarCall::call(std::span<const rt::Value> args) {
  if (args.size() != f_.params.size()) throw rt::RuntimeError("native code: wrong number of arguments");
  std::vector<rt::NDArray> held;
  std::vector<void*> pointers;
  held.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_tensor()) throw rt::RuntimeError("native code: an argument is not a tensor");
    held.push_back(args[i].tensor());
    const rt::NDArray& t = held.back();
    if (t.ndim() != 0 || !(t.dtype() == f_.params[i]))
      throw rt::RuntimeError("native code: an argument is not the scalar it was compiled for");
    pointers.push_back(t.data<void>());
  }
  rt::NDArray out = rt::NDArray::empty({}, f_.result);
  const int32_t status = f_.fn(pointers.data(), out.data<void>(), native_stack_limit());
  if (status == kScalarOk) {
    backoff_.store(0, std::memory_order_relaxed);
    return rt::Value(out);
  }
  const uint64_t b = backoff_.load(std::memory_order_relaxed);
  const uint64_t next = b == 0 ? 1024 : std::min<uint64_t>(b * 2, uint64_t{1} << 22);
  backoff_.store(next, std::memory_order_relaxed);
  skip_.store(next, std::memory_order_relaxed);
  if (status == kScalarFailed) throw rt::RuntimeError("native code: an operator failed (the interpreter reports it)");
  if (status == kScalarTooDeep)
    throw rt::RuntimeError("native code: recursion deeper than the native bound (the interpreter runs it)");
  throw rt::RuntimeError("native code: unknown status");
}

}  // namespace relay::compiler
