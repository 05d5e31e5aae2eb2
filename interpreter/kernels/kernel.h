// Reference kernels: one per operator, registered by operator name by family in
// kernels/*.cpp and found by the operator's dense id (an OpTable, lang/ops/op_table.h),
// like the type relations in lang/types/relations/.
//
// A kernel receives the evaluated arguments (tensors, or tuples of tensors for ops such
// as concatenate), the call's checked attributes with TVM's defaults, and the call's
// inferred result type when it is fully known. It computes the output shape itself
// (types may hold `?`), allocates fresh outputs and returns them: a tensor, or a tuple
// for multi-output ops (split, topk, batch_norm, ...). Semantics are those of the op's
// TOPI compute (reference §3, §4.4). A bad input at run time throws RuntimeError with a
// message that names the operand and the shapes; the evaluator adds span and stack.
//
// Destination passing: a caller that has storage for the result (compiled code's memory
// plan, compiler/pipeline/memory_plan.h) sets KernelCall::dest to an array of the output's
// shape and dtype. A kernel registered with register_destination_kernel writes its result
// there and returns `dest` (it allocates its output through call.output() and returns
// through call.finish(), which copies into `dest` on a path that produced a fresh array, a
// layout change for instance). Every other kernel ignores `dest` and returns a fresh array:
// the generic fallback; the caller adopts that array (the plan gives such outputs no slot).
// A destination never overlaps the kernel's inputs.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "interpreter/value.h"
#include "lang/ops/op_registry.h"
#include "lang/types/call_attrs.h"
#include "lang/types/type.h"

namespace relay::rt {

struct KernelCall {
  const OpInfo& op;
  std::span<const Value> args;
  const CallAttrs& attrs;
  Ty out_type = nullptr;  // the inferred result type when it has no holes or parameters
  NDArray dest = {};      // optional: where to write the (single tensor) result

  // Where to write an output of this shape and dtype: `dest` when it has them, else a fresh
  // array.
  NDArray output(const Shape& shape, DataType dtype) const;
  // The kernel's result: `result` itself without a destination; with one, `dest` holding
  // the result (copied there unless `result` is `dest`). RuntimeError when `dest` does not
  // have the result's shape and dtype.
  Value finish(const NDArray& result) const;

  // args[i] as a tensor (RuntimeError naming the operand otherwise).
  NDArray tensor(size_t i) const;
  // args[i] as a tuple of tensors (a lone tensor counts as a 1-tuple).
  std::vector<NDArray> tensors(size_t i) const;
  size_t arity() const { return args.size(); }
};

using KernelFn = Value (*)(const KernelCall&);

// nullptr when the operator has no kernel. O(1): an index.
KernelFn find_kernel(const OpInfo& op);
// Whether the operator's kernel writes into KernelCall::dest (else it ignores it). O(1).
bool writes_destination(const OpInfo& op);
// The same by name (find_op first), for the CLI and tests; nullptr for an unknown name.
KernelFn find_kernel(std::string_view op);

struct KernelTable;
void register_kernel(KernelTable& table, std::string_view op, KernelFn fn);
// The same for a kernel that honours KernelCall::dest.
void register_destination_kernel(KernelTable& table, std::string_view op, KernelFn fn);
void register_elementwise_kernels(KernelTable& table);  // §3.2, §3.3
void register_reduction_kernels(KernelTable& table);    // §3.4
void register_transform_kernels(KernelTable& table);    // §3.5
void register_sorting_kernels(KernelTable& table);      // §3.6
void register_nn_kernels(KernelTable& table);           // §3.7 (not convolution/pooling)
void register_conv_pool_kernels(KernelTable& table);    // §3.7 convolution, pooling
void register_qnn_kernels(KernelTable& table);          // §3.10 qnn.*
void register_random_kernels(KernelTable& table);       // §3.8 random.*
void register_dyn_kernels(KernelTable& table);          // §3.9 dyn.*
void register_annotation_kernels(KernelTable& table);   // §3.9 markers: annotation.*, on_device, device_copy
void register_image_kernels(KernelTable& table);        // §3.8 image.*
void register_vision_kernels(KernelTable& table);       // §3.8 vision.*

}  // namespace relay::rt
