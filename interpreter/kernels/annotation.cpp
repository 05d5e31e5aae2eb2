// Kernels of the markers that only annotate (reference §3.9): they evaluate to their
// argument, whatever it is (on_device may wrap a tuple). device_copy copies between
// virtual devices in TVM; the interpreter has one device, so it is an identity too. A
// tensor argument is copied: callers (compiled code's memory plan) take a kernel's tensor
// result as a fresh array that no other value aliases.
#include "interpreter/kernels/kernel.h"

namespace relay::rt {
namespace {

Value identity(const KernelCall& call) {
  const Value& v = call.args[0];
  return v.is_tensor() ? Value(call.tensor(0).copy()) : v;
}

}  // namespace

void register_annotation_kernels(KernelTable& t) {
  for (const char* op : {"annotation.bitpack_start", "annotation.bitpack_end", "annotation.checkpoint",
                         "annotation.stop_fusion", "annotation.cast_hint", "annotation.compiler_begin",
                         "annotation.compiler_end", "on_device", "device_copy"})
    register_kernel(t, op, identity);
}

}  // namespace relay::rt
