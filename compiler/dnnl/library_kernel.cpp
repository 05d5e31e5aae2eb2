#include "compiler/dnnl/library_kernel.h"

#include <algorithm>

#include <oneapi/dnnl/dnnl.hpp>

#include "compiler/dnnl/dnnl_kernels.h"
#include "compiler/dnnl/dnnl_support.h"

namespace relay::compiler {

namespace {

std::unique_ptr<LibraryKernel> make_kernel(const Graph& g, NodeId node, const FusedGroup* group, unsigned threads,
                                           std::string* why) {
  const Node& n = g[node];
  if (n.kind != NodeKind::Call || !n.op) {
    if (why) *why = "not an operator call";
    return nullptr;
  }
  try {
    // oneDNN splits a primitive's work for the thread count it is created with (its JIT
    // kernels fix the decomposition then), so it is created for the threads that run it:
    // created for one thread, ResNet-18's convolutions took as long at two threads as at one.
    dnnl_impl::use_threads(std::max(1u, threads));
    const std::string_view op = n.op->name;
    if (op == "nn.conv2d") return dnnl_impl::make_conv2d_kernel(g, node, group, why);
    if (op == "qnn.conv2d") return dnnl_impl::make_quantized_conv2d_kernel(g, node, why);
    if (op == "qnn.dense") return dnnl_impl::make_quantized_dense_kernel(g, node, why);
    if (op == "qnn.batch_matmul") return dnnl_impl::make_quantized_batch_matmul_kernel(g, node, why);
    if (op == "qnn.conv2d_transpose") return dnnl_impl::make_quantized_conv2d_transpose_kernel(g, node, why);
    if (op == "nn.conv2d_transpose") return dnnl_impl::make_conv2d_transpose_kernel(g, node, why);
    if (op == "nn.dense") return dnnl_impl::make_dense_kernel(g, node, group, why);
    if (op == "nn.batch_matmul") return dnnl_impl::make_batch_matmul_kernel(g, node, group, why);
    // Not a library operator (a pool, softmax, ...): no reason, so the report does not
    // mention a library the operator was never meant for.
  } catch (const dnnl::error& e) {
    // oneDNN refuses a descriptor it has no implementation for (status `unimplemented`).
    if (why) *why = std::string("oneDNN declined: ") + e.what();
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<LibraryKernel> make_library_kernel(const Graph& g, NodeId node, std::string* why) {
  return make_kernel(g, node, nullptr, 1, why);
}

std::unique_ptr<LibraryKernel> make_library_kernel(const Graph& g, const FusedGroup& group, unsigned threads,
                                                   std::string* why) {
  return make_kernel(g, group.master, &group, threads, why);
}

bool library_kernels_built() { return true; }

namespace dnnl_impl {

std::optional<FloatShapes> float32_shapes(const Graph& g, NodeId node, std::string* why) {
  const Node& n = g[node];
  FloatShapes shapes;
  auto take = [&](Ty t, std::vector<int64_t>& into) {
    auto shape = concrete_shape(t);
    if (!shape || static_cast<const TensorTy*>(t)->dtype != DataType::float_(32)) return false;
    into = std::move(*shape);
    return true;
  };
  for (NodeId in : n.inputs) {
    shapes.inputs.emplace_back();
    if (!take(g[in].type, shapes.inputs.back())) {
      if (why) *why = "oneDNN kernels here take float32 tensors only";
      return std::nullopt;
    }
  }
  if (!take(n.type, shapes.output)) {
    if (why) *why = "oneDNN kernels here produce float32 tensors only";
    return std::nullopt;
  }
  return shapes;
}

}  // namespace dnnl_impl
}  // namespace relay::compiler
