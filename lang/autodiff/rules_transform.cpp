// Gradients of the shape-changing operators: reshapes take the gradient back to the
// input's shape, transposes apply the inverse permutation, broadcasts sum back
// (reference §6.4).
#include <algorithm>

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

// zeros, ones: no inputs, so no gradients.
GradientResult creation_grad(C) { return grads({}); }

// concatenate((x1, ..., xn), axis): the gradient split at the inputs' boundaries.
GradientResult concatenate_grad(C c) {
  const TupleTy* parts = ty_as<TupleTy>(c.input_types[0]);
  if (!parts || parts->fields.empty()) return refuse("needs a tuple of tensors");
  const TensorTy* first = ty_as<TensorTy>(parts->fields[0]);
  int64_t axis = axis_from_front(c.attrs.get_int("axis", 0), first->rank());
  if (parts->fields.size() == 1) return grads({Term{"(" + c.grad.text + ",)"}});
  std::vector<int64_t> boundaries;
  int64_t at = 0;
  for (size_t i = 0; i + 1 < parts->fields.size(); ++i) {
    std::optional<int64_t> size = ty_as<TensorTy>(parts->fields[i])->shape[axis].constant_value();
    if (!size) return refuse("needs the inputs' sizes along `axis` to be static");
    boundaries.push_back(at += *size);
  }
  return grads({call("split", {c.grad},
                     "indices_or_sections=" + int_list(boundaries) + ", axis=" + std::to_string(axis))});
}

// split(x, ...): its pieces' gradients joined again (zeros for a piece nobody used).
GradientResult split_grad(C c) {
  return grads({call("concatenate", {c.grad}, "axis=" + std::to_string(c.attrs.get_int("axis", 0)))});
}

// stack((x1, ..., xn), axis): each input's gradient is its slice of g along `axis`.
GradientResult stack_grad(C c) {
  const TupleTy* parts = ty_as<TupleTy>(c.input_types[0]);
  if (!parts) return refuse("needs a tuple of tensors");
  int64_t axis = axis_from_front(c.attrs.get_int("axis", 0), c.output_tensor().rank());
  std::string text = "(";
  for (size_t i = 0; i < parts->fields.size(); ++i)
    text += (i ? ", " : "") +
            call("take", {c.grad, Term{std::to_string(i)}}, "axis=" + std::to_string(axis)).text;
  return grads({Term{text + (parts->fields.size() == 1 ? ",)" : ")")}});
}

// strided_slice with unit strides: g padded back to the input's shape with zeros. The
// window is worked out from the attributes and must agree with the output's type.
GradientResult strided_slice_grad(C c) {
  std::optional<std::vector<int64_t>> in = static_shape(c.input_tensor(0));
  std::optional<std::vector<int64_t>> out = static_shape(c.output_tensor());
  if (!in || !out) return refuse("needs static shapes");
  for (int64_t s : c.attrs.get_ints("strides"))
    if (s != 1) return refuse("only with unit strides");
  std::vector<int64_t> begin = c.attrs.get_ints("begin"), end = c.attrs.get_ints("end");
  std::vector<int64_t> axes = c.attrs.get_ints("axes");
  bool by_size = c.attrs.get_string("slice_mode") == "size";
  size_t rank = in->size();
  if (axes.empty())
    for (size_t i = 0; i < std::min(rank, begin.size()); ++i) axes.push_back(static_cast<int64_t>(i));
  std::vector<int64_t> lo(rank, 0), hi(*in);
  for (size_t k = 0; k < axes.size() && k < begin.size(); ++k) {
    int64_t a = axes[k] < 0 ? axes[k] + static_cast<int64_t>(rank) : axes[k];
    if (a < 0 || a >= static_cast<int64_t>(rank)) return refuse("has an axis out of range");
    int64_t dim = (*in)[a];
    int64_t b = begin[k] < 0 ? begin[k] + dim : begin[k];
    b = std::clamp<int64_t>(b, 0, dim);
    int64_t e = dim;
    if (k < end.size()) {
      if (by_size) e = end[k] < 0 ? dim : b + end[k];
      else e = end[k] < 0 ? end[k] + dim : end[k];
    }
    lo[a] = b;
    hi[a] = std::clamp<int64_t>(e, b, dim);
  }
  std::string widths = "[";
  for (size_t i = 0; i < rank; ++i) {
    if (hi[i] - lo[i] != (*out)[i]) return refuse("not for this slice (its window could not be worked out)");
    widths += (i ? ", [" : "[") + std::to_string(lo[i]) + ", " + std::to_string((*in)[i] - hi[i]) + "]";
  }
  Term zero = c.literal(0);
  return grads({call("nn.pad", {c.grad, zero}, "pad_width=" + widths + "]")});
}

GradientResult cast_like_grad(C c) {
  return grads({call("cast_like", {c.grad, c.inputs[0]}), zeros_like(c.inputs[1])});
}

// shape_of: the result depends on the shape only.
GradientResult shape_of_grad(C c) { return grads({zeros_like(c.inputs[0])}); }

}  // namespace

void register_transform_gradients(GradientTable& t) {
  for (const char* op : {"reshape", "squeeze", "expand_dims", "nn.batch_flatten", "contrib_reverse_reshape"})
    register_gradient(t, op, reshape_grad);
  register_gradient(t, "reshape_like", reshape_like_grad);
  register_gradient(t, "broadcast_to", broadcast_to_grad);
  register_gradient(t, "broadcast_to_like", broadcast_to_like_grad);
  register_gradient(t, "collapse_sum_like", collapse_sum_like_grad);
  register_gradient(t, "transpose", transpose_grad);
  register_gradient(t, "zeros", creation_grad);
  register_gradient(t, "ones", creation_grad);
  register_gradient(t, "concatenate", concatenate_grad);
  register_gradient(t, "split", split_grad);
  register_gradient(t, "stack", stack_grad);
  register_gradient(t, "strided_slice", strided_slice_grad);
  register_gradient(t, "cast_like", cast_like_grad);
  register_gradient(t, "shape_of", shape_of_grad);
}

}  // namespace relay::autodiff
