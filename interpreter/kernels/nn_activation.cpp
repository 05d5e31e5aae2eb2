// Activations and per-channel elementwise operators: nn.relu, nn.leaky_relu, nn.prelu,
// nn.bias_add, the softmax family, plus the shape-only nn.batch_flatten and nn.dropout.
#include <cmath>
#include <cstring>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// Integer arithmetic wraps as in TVM's generated code (signed overflow is UB in C++).
template <class T> T wrap_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a || b;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else return static_cast<T>(static_cast<Compute<T>>(a) + static_cast<Compute<T>>(b));
}
template <class T> T wrap_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a && b;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else return static_cast<T>(static_cast<Compute<T>>(a) * static_cast<Compute<T>>(b));
}

Value relu(const KernelCall& call) {
  NDArray x = call.tensor(0);
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = x.data<T>();
    T* o = out.data<T>();
    const Compute<T> zero{0};
    for (int64_t i = 0; i < x.size(); ++i) {
      const Compute<T> v = static_cast<Compute<T>>(p[i]);
      // max(x, 0) as a select on x > 0: NaN gives 0, like LLVM's maxnum
      o[i] = v > zero ? p[i] : static_cast<T>(zero);
    }
  });
  return out;
}

// alpha is converted to the data dtype first, as TOPI's make_const does (0 for integers
// when |alpha| < 1).
Value leaky_relu(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const double alpha = call.attrs.get_double("alpha", 0.25);
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = x.data<T>();
    T* o = out.data<T>();
    const T a = cast_to<T>(alpha);
    for (int64_t i = 0; i < x.size(); ++i)
      o[i] = static_cast<Compute<T>>(p[i]) > Compute<T>{0} ? p[i] : wrap_mul(p[i], a);
  });
  return out;
}

// out = x > 0 ? x : x * alpha[c], c the index along `axis`.
Value prelu(const KernelCall& call) {
  NDArray x = call.tensor(0), alpha = call.tensor(1);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", 1), x.ndim(), call.op.name));
  const AxisView v = axis_view(x.shape(), axis);
  require(call, alpha.ndim() == 1 && alpha.dim(0) == v.n && alpha.dtype() == x.dtype(),
          "alpha must have shape (" + std::to_string(v.n) + ") and the data's dtype, found " + shape_to_string(alpha.shape()));
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = x.data<T>();
    const T* a = alpha.data<T>();
    T* o = out.data<T>();
    for (int64_t outer = 0, i = 0; outer < v.outer; ++outer)
      for (int64_t c = 0; c < v.n; ++c)
        for (int64_t j = 0; j < v.inner; ++j, ++i)
          o[i] = static_cast<Compute<T>>(p[i]) > Compute<T>{0} ? p[i] : wrap_mul(p[i], a[c]);
  });
  return out;
}

Value bias_add(const KernelCall& call) {
  NDArray x = call.tensor(0), bias = call.tensor(1);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", 1), x.ndim(), call.op.name));
  const AxisView v = axis_view(x.shape(), axis);
  require(call, bias.ndim() == 1 && bias.dim(0) == v.n && bias.dtype() == x.dtype(),
          "bias must have shape (" + std::to_string(v.n) + ") and dtype " + dtype_name(x.dtype()) + " for data of shape " +
              shape_to_string(x.shape()) + " and axis " + std::to_string(axis) + ", found " +
              shape_to_string(bias.shape()));
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = x.data<T>();
    const T* b = bias.data<T>();
    T* o = out.data<T>();
    for (int64_t outer = 0, i = 0; outer < v.outer; ++outer)
      for (int64_t c = 0; c < v.n; ++c) {
        const T bc = b[c];
        for (int64_t j = 0; j < v.inner; ++j, ++i) o[i] = wrap_add(p[i], bc);
      }
  });
  return out;
}

enum class SoftmaxKind { Plain, Log };

// Softmax along `axis`, max-subtracted. The lane loop runs over `inner` so a
// non-last axis still reads memory contiguously.
Value softmax_impl(const KernelCall& call, SoftmaxKind kind) {
  NDArray x = call.tensor(0);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", -1), x.ndim(), call.op.name));
  const AxisView v = axis_view(x.shape(), axis);
  NDArray out = call.output(x.shape(), x.dtype());  // every element is written
  dispatch_float(call, x.dtype(), [&]<class T>(TypeTag<T>) {
    using C = Compute<T>;
    const T* p = x.data<T>();
    T* o = out.data<T>();
    std::vector<C> mx(static_cast<size_t>(v.inner)), sum(static_cast<size_t>(v.inner));
    for (int64_t outer = 0; outer < v.outer; ++outer) {
      const T* in = p + outer * v.n * v.inner;
      T* res = o + outer * v.n * v.inner;
      if (v.n == 0) continue;
      for (int64_t j = 0; j < v.inner; ++j) mx[j] = static_cast<C>(in[j]), sum[j] = 0;
      for (int64_t i = 1; i < v.n; ++i)
        for (int64_t j = 0; j < v.inner; ++j) mx[j] = std::max(mx[j], static_cast<C>(in[i * v.inner + j]));
      if (v.inner == 1) {
        // the common case (last axis): keep the exponentials in the output, scale once
        const C m = mx[0];
        C s = 0;
        if (kind == SoftmaxKind::Plain) {
          for (int64_t i = 0; i < v.n; ++i) {
            const C e = std::exp(static_cast<C>(in[i]) - m);
            s += e;
            res[i] = static_cast<T>(e);
          }
          const C inv = C{1} / s;
          for (int64_t i = 0; i < v.n; ++i) res[i] = static_cast<T>(static_cast<C>(res[i]) * inv);
        } else {
          for (int64_t i = 0; i < v.n; ++i) s += std::exp(static_cast<C>(in[i]) - m);
          const C ls = std::log(s);
          for (int64_t i = 0; i < v.n; ++i) res[i] = static_cast<T>(static_cast<C>(in[i]) - m - ls);
        }
        continue;
      }
      for (int64_t i = 0; i < v.n; ++i)
        for (int64_t j = 0; j < v.inner; ++j) sum[j] += std::exp(static_cast<C>(in[i * v.inner + j]) - mx[j]);
      for (int64_t i = 0; i < v.n; ++i)
        for (int64_t j = 0; j < v.inner; ++j) {
          const C d = static_cast<C>(in[i * v.inner + j]) - mx[j];
          res[i * v.inner + j] = static_cast<T>(kind == SoftmaxKind::Plain ? std::exp(d) / sum[j] : d - std::log(sum[j]));
        }
    }
  });
  return call.finish(out);
}

// Also nn.fast_softmax: TOPI's version differs only by an approximate exp (relative
// error ~1e-7), within any float tolerance of the exact one.
Value softmax(const KernelCall& call) { return softmax_impl(call, SoftmaxKind::Plain); }
Value log_softmax(const KernelCall& call) { return softmax_impl(call, SoftmaxKind::Log); }

Value batch_flatten(const KernelCall& call) {
  NDArray x = call.tensor(0);
  require(call, x.ndim() >= 1, "needs a tensor of rank at least 1");
  int64_t rest = 1;
  for (size_t d = 1; d < x.ndim(); ++d) rest *= x.dim(d);
  return x.copy().reshaped({x.dim(0), rest});
}

// Inference-mode dropout is the identity (TVM's SimplifyInference removes it); the mask
// keeps every element, so it is all ones.
Value dropout(const KernelCall& call) {
  NDArray x = call.tensor(0);
  NDArray mask = NDArray::empty(x.shape(), x.dtype());
  dispatch_dtype(x.dtype(), [&]<class T>(TypeTag<T>) {
    T* m = mask.data<T>();
    const T one = cast_to<T>(1.0);
    for (int64_t i = 0; i < x.size(); ++i) m[i] = one;
  });
  return make_tuple({x.copy(), mask});
}

}  // namespace

void register_nn_activation_kernels(KernelTable& table) {
  register_kernel(table, "nn.relu", relu);
  register_kernel(table, "nn.leaky_relu", leaky_relu);
  register_kernel(table, "nn.prelu", prelu);
  register_kernel(table, "nn.bias_add", bias_add);
  register_destination_kernel(table, "nn.softmax", softmax);
  register_destination_kernel(table, "nn.fast_softmax", softmax);
  register_destination_kernel(table, "nn.log_softmax", log_softmax);
  register_kernel(table, "nn.batch_flatten", batch_flatten);
  register_kernel(table, "nn.dropout", dropout);
}

}  // namespace relay::rt
