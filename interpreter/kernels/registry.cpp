// The operator -> kernel table (an OpTable indexed by OpId), filled once from every
// family file.
#include <string>

#include "interpreter/kernels/kernel.h"
#include "interpreter/runtime/tensor_view.h"
#include "lang/ops/op_table.h"

namespace relay::rt {

struct KernelTable {
  OpTable<KernelFn> by_op;
  OpTable<bool> destination;  // the kernel honours KernelCall::dest
};

void register_kernel(KernelTable& table, std::string_view op, KernelFn fn) { table.by_op[required_op(op)] = fn; }

void register_destination_kernel(KernelTable& table, std::string_view op, KernelFn fn) {
  register_kernel(table, op, fn);
  table.destination[required_op(op)] = true;
}

namespace {
const KernelTable& table() {
  static const KernelTable t = [] {
    KernelTable k;
    register_elementwise_kernels(k);
    register_reduction_kernels(k);
    register_transform_kernels(k);
    register_sorting_kernels(k);
    register_nn_kernels(k);
    register_conv_pool_kernels(k);
    register_qnn_kernels(k);
    register_random_kernels(k);
    register_dyn_kernels(k);
    register_annotation_kernels(k);
    register_image_kernels(k);
    register_vision_kernels(k);
    return k;
  }();
  return t;
}
}  // namespace

KernelFn find_kernel(const OpInfo& op) { return table().by_op[op]; }

bool writes_destination(const OpInfo& op) { return table().destination[op]; }

NDArray KernelCall::output(const Shape& shape, DataType dtype) const {
  if (dest.defined() && dest.dtype() == dtype && dest.shape() == shape) return dest;
  return NDArray::empty(shape, dtype);
}

Value KernelCall::finish(const NDArray& result) const {
  if (!dest.defined() || result.raw() == dest.raw()) return Value(result);
  copy_into(view_of(dest), result);  // checks shape and dtype
  return Value(dest);
}

KernelFn find_kernel(std::string_view op) {
  const OpInfo* info = find_op(op);
  return info ? find_kernel(*info) : nullptr;
}

NDArray KernelCall::tensor(size_t i) const {
  if (i >= args.size() || !args[i].is_tensor())
    throw RuntimeError("`" + std::string(op.name) + "` expects a tensor for input " + std::to_string(i + 1));
  return args[i].tensor();
}

std::vector<NDArray> KernelCall::tensors(size_t i) const {
  if (i >= args.size()) throw RuntimeError("`" + std::string(op.name) + "` is missing input " + std::to_string(i + 1));
  if (args[i].is_tensor()) return {args[i].tensor()};
  if (!args[i].is_tuple())
    throw RuntimeError("`" + std::string(op.name) + "` expects a tuple of tensors for input " + std::to_string(i + 1));
  std::vector<NDArray> out;
  for (const Value& v : args[i].tuple().fields) {
    if (!v.is_tensor())
      throw RuntimeError("`" + std::string(op.name) + "` expects a tuple of tensors for input " + std::to_string(i + 1));
    out.push_back(v.tensor());
  }
  return out;
}

}  // namespace relay::rt
