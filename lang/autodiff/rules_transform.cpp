// Gradients of the shape-changing operators: reshapes take the gradient back to the
// input's shape, transposes apply the inverse permutation, broadcasts sum back
// (reference §6.4).
#include "lang/autodiff/rules_util.h"

namespace relay::autodiff {
namespace {

using C = const GradientCall&;

// reshape, squeeze, expand_dims, nn.batch_flatten, ...: same elements, other shape.
GradientResult reshape_grad(C c) { return grads({call("reshape_like", {c.grad, c.inputs[0]})}); }

// reshape_like / broadcast_to_like / collapse_sum_like(data, like): `like` only
// contributes its shape.
GradientResult reshape_like_grad(C c) {
  return grads({call("reshape_like", {c.grad, c.inputs[0]}), zeros_like(c.inputs[1])});
}
GradientResult broadcast_to_grad(C c) { return grads({unbroadcast(c, c.grad, 0)}); }
GradientResult broadcast_to_like_grad(C c) { return grads({unbroadcast(c, c.grad, 0), zeros_like(c.inputs[1])}); }
GradientResult collapse_sum_like_grad(C c) {
  return grads({call("broadcast_to_like", {c.grad, c.inputs[0]}), zeros_like(c.inputs[1])});
}

GradientResult transpose_grad(C c) {
  size_t rank = c.input_tensor(0).rank();
  std::vector<int64_t> axes = c.attrs.get_ints("axes");
  if (axes.empty())  // None: the axes reversed, its own inverse
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(rank - 1 - i));
  if (axes.size() != rank) return refuse("`axes` does not name every axis");
  std::vector<int64_t> inverse(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = axes[i] < 0 ? axes[i] + static_cast<int64_t>(rank) : axes[i];
    inverse[a] = static_cast<int64_t>(i);
  }
  return grads({call("transpose", {c.grad}, "axes=" + int_list(inverse))});
}

}  // namespace

void register_transform_gradients(GradientTable& t) {
  for (const char* op : {"reshape", "squeeze", "expand_dims", "nn.batch_flatten", "contrib_reverse_reshape"})
    register_gradient(t, op, reshape_grad);
  register_gradient(t, "reshape_like", reshape_like_grad);
  register_gradient(t, "broadcast_to", broadcast_to_grad);
  register_gradient(t, "broadcast_to_like", broadcast_to_like_grad);
  register_gradient(t, "collapse_sum_like", collapse_sum_like_grad);
  register_gradient(t, "transpose", transpose_grad);
}

}  // namespace relay::autodiff
