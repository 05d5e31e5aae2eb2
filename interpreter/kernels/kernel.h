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

  // args[i] as a tensor (RuntimeError naming the operand otherwise).
  NDArray tensor(size_t i) const;
  // args[i] as a tuple of tensors (a lone tensor counts as a 1-tuple).
  std::vector<NDArray> tensors(size_t i) const;
  size_t arity() const { return args.size(); }
};

using KernelFn = Value (*)(const KernelCall&);

// nullptr when the operator has no kernel. O(1): an index.
KernelFn find_kernel(const OpInfo& op);
// The same by name (find_op first), for the CLI and tests; nullptr for an unknown name.
KernelFn find_kernel(std::string_view op);

struct KernelTable;
void register_kernel(KernelTable& table, std::string_view op, KernelFn fn);
void register_elementwise_kernels(KernelTable& table);  // §3.2, §3.3
void register_reduction_kernels(KernelTable& table);    // §3.4
void register_transform_kernels(KernelTable& table);    // §3.5
void register_sorting_kernels(KernelTable& table);      // §3.6
void register_nn_kernels(KernelTable& table);           // §3.7 (not convolution/pooling)
void register_conv_pool_kernels(KernelTable& table);    // §3.7 convolution, pooling

}  // namespace relay::rt
