// Normalisations: nn.batch_norm (inference), nn.layer_norm, nn.group_norm,
// nn.instance_norm, nn.l2_normalize, nn.lrn. Semantics are those of TVM's
// SimplifyInference rewrites (the interpreter runs them before lowering): statistics are
// the mean and the population variance over the reduced axes.
#include <cmath>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

// A per-channel parameter vector: shape (C) and the data's dtype.
void check_channel_param(const KernelCall& call, const NDArray& data, const NDArray& p, int64_t C, const char* name) {
  require(call, p.ndim() == 1 && p.dim(0) == C && p.dtype() == data.dtype(),
          std::string("`") + name + "` must have shape (" + std::to_string(C) + ") and dtype " + dtype_name(data.dtype()) +
              " for data of shape " + shape_to_string(data.shape()) + ", found " + shape_to_string(p.shape()) + " " +
              dtype_name(p.dtype()));
}

// out = data * scale[c] + shift[c] with scale = gamma / sqrt(var + eps) and shift =
// beta - mean * scale (gamma, beta dropped when scale/center are false), as
// SimplifyInference rewrites it; the statistics pass through unchanged.
Value batch_norm(const KernelCall& call) {
  NDArray x = call.tensor(0), gamma = call.tensor(1), beta = call.tensor(2), mean = call.tensor(3), var = call.tensor(4);
  const int64_t raw_axis = call.attrs.get_int("axis", 1);
  require(call, raw_axis >= -1, "axis " + std::to_string(raw_axis) + " is not supported (only -1 counts from the end)");
  const size_t axis = static_cast<size_t>(normalize_axis(raw_axis, x.ndim(), call.op.name));
  const AxisView v = axis_view(x.shape(), axis);
  const char* names[] = {"gamma", "beta", "moving_mean", "moving_var"};
  const NDArray* params[] = {&gamma, &beta, &mean, &var};
  for (int i = 0; i < 4; ++i) check_channel_param(call, x, *params[i], v.n, names[i]);
  const double eps = call.attrs.get_double("epsilon", 1e-5);
  const bool center = call.attrs.get_bool("center", true), scale = call.attrs.get_bool("scale", true);
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  dispatch_float(call, x.dtype(), [&]<class T>(TypeTag<T>) {
    using C = Compute<T>;
    std::vector<C> sc(static_cast<size_t>(v.n)), sh(static_cast<size_t>(v.n));
    for (int64_t c = 0; c < v.n; ++c) {
      C s = C{1} / std::sqrt(static_cast<C>(var.data<T>()[c]) + static_cast<C>(eps));
      if (scale) s *= static_cast<C>(gamma.data<T>()[c]);
      sc[c] = s;
      sh[c] = -static_cast<C>(mean.data<T>()[c]) * s + (center ? static_cast<C>(beta.data<T>()[c]) : C{0});
    }
    const T* p = x.data<T>();
    T* o = out.data<T>();
    for (int64_t outer = 0, i = 0; outer < v.outer; ++outer)
      for (int64_t c = 0; c < v.n; ++c) {
        const C s = sc[c], b = sh[c];
        for (int64_t j = 0; j < v.inner; ++j, ++i) o[i] = static_cast<T>(static_cast<C>(p[i]) * s + b);
      }
  });
  return make_tuple({out, mean.copy(), var.copy()});
}

// Statistics over the axes of `shape` not marked in `kept`, one group per combination
// of kept indices; `channel_strides` finds gamma/beta's element for each data element.
struct Grouping {
  Shape shape;
  std::vector<bool> kept;
  std::vector<int64_t> channel_strides;
};

std::vector<int64_t> group_strides(const Grouping& g, int64_t& groups) {
  std::vector<int64_t> s(g.shape.size(), 0);
  groups = 1;
  for (size_t d = g.shape.size(); d-- > 0;)
    if (g.kept[d]) s[d] = groups, groups *= g.shape[d];
  return s;
}

// (x - mean) / sqrt(var + eps) * gamma + beta per group, in double.
NDArray normalize(const KernelCall& call, const NDArray& x, const Grouping& g, const NDArray* gamma, const NDArray* beta,
                  double eps) {
  if (!x.dtype().is_float())
    throw RuntimeError("`" + op_name(call) + "` needs a floating-point tensor, found dtype `" + dtype_name(x.dtype()) + "`");
  int64_t groups = 1;
  const std::vector<int64_t> strides[2] = {group_strides(g, groups), g.channel_strides};
  const std::vector<double> in = to_doubles(x);
  const std::vector<double> ga = gamma ? to_doubles(*gamma) : std::vector<double>{};
  const std::vector<double> be = beta ? to_doubles(*beta) : std::vector<double>{};
  std::vector<double> mean(static_cast<size_t>(groups), 0.0), var(static_cast<size_t>(groups), 0.0), out(in.size());
  const double count = groups ? static_cast<double>(in.size()) / static_cast<double>(groups) : 0;
  for_each_strided(g.shape, strides, [&](int64_t i, const int64_t* off) { mean[off[0]] += in[i]; });
  for (double& m : mean) m /= count;
  for_each_strided(g.shape, strides, [&](int64_t i, const int64_t* off) {
    const double d = in[i] - mean[off[0]];
    var[off[0]] += d * d;
  });
  for (double& s : var) s = 1.0 / std::sqrt(s / count + eps);
  for_each_strided(g.shape, strides, [&](int64_t i, const int64_t* off) {
    double y = (in[i] - mean[off[0]]) * var[off[0]];
    if (gamma) y *= ga[off[1]];
    if (beta) y += be[off[1]];
    out[i] = y;
  });
  return from_doubles(x.shape(), x.dtype(), out);
}

std::vector<int64_t> stride_along(size_t rank, size_t axis) {
  std::vector<int64_t> s(rank, 0);
  s[axis] = 1;
  return s;
}

// Reduces over `axis` only.
Value layer_norm(const KernelCall& call) {
  NDArray x = call.tensor(0), gamma = call.tensor(1), beta = call.tensor(2);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", -1), x.ndim(), call.op.name));
  check_channel_param(call, x, gamma, x.dim(axis), "gamma");
  check_channel_param(call, x, beta, x.dim(axis), "beta");
  Grouping g{x.shape(), std::vector<bool>(x.ndim(), true), stride_along(x.ndim(), axis)};
  g.kept[axis] = false;
  return normalize(call, x, g, call.attrs.get_bool("scale", true) ? &gamma : nullptr,
                   call.attrs.get_bool("center", true) ? &beta : nullptr, call.attrs.get_double("epsilon", 1e-5));
}

// Reduces over every axis but the first (batch) and `axis`.
Value instance_norm(const KernelCall& call) {
  NDArray x = call.tensor(0), gamma = call.tensor(1), beta = call.tensor(2);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", 1), x.ndim(), call.op.name));
  check_channel_param(call, x, gamma, x.dim(axis), "gamma");
  check_channel_param(call, x, beta, x.dim(axis), "beta");
  Grouping g{x.shape(), std::vector<bool>(x.ndim(), false), stride_along(x.ndim(), axis)};
  g.kept[0] = g.kept[axis] = true;
  return normalize(call, x, g, call.attrs.get_bool("scale", true) ? &gamma : nullptr,
                   call.attrs.get_bool("center", true) ? &beta : nullptr, call.attrs.get_double("epsilon", 1e-5));
}

// The channel axis splits into (num_groups, C / num_groups); statistics over the
// in-group channels and every axis after the channel axis.
Value group_norm(const KernelCall& call) {
  NDArray x = call.tensor(0), gamma = call.tensor(1), beta = call.tensor(2);
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", 1), x.ndim(), call.op.name));
  const int64_t C = x.dim(axis), G = call.attrs.get_int("num_groups", 0);
  check_channel_param(call, x, gamma, C, "gamma");
  check_channel_param(call, x, beta, C, "beta");
  require(call, G > 0 && C % G == 0,
          "num_groups " + std::to_string(G) + " must be positive and divide the " + std::to_string(C) +
              " channels of data shape " + shape_to_string(x.shape()));
  Grouping g;
  for (size_t d = 0; d < x.ndim(); ++d) {
    if (d == axis) {
      g.shape.push_back(G);
      g.shape.push_back(C / G);
      g.kept.push_back(true);
      g.kept.push_back(false);
      g.channel_strides.push_back(C / G);
      g.channel_strides.push_back(1);
      continue;
    }
    g.shape.push_back(x.dim(d));
    g.kept.push_back(d < axis);
    g.channel_strides.push_back(0);
  }
  return normalize(call, x, g, call.attrs.get_bool("scale", true) ? &gamma : nullptr,
                   call.attrs.get_bool("center", true) ? &beta : nullptr, call.attrs.get_double("epsilon", 1e-5));
}

// x / sqrt(max(sum(x^2 over axes), eps)).
Value l2_normalize(const KernelCall& call) {
  NDArray x = call.tensor(0);
  if (!x.dtype().is_float())
    throw RuntimeError("`nn.l2_normalize` needs a floating-point tensor, found dtype `" + dtype_name(x.dtype()) + "`");
  std::vector<bool> reduced(x.ndim(), false);
  for (int64_t a : call.attrs.get_ints("axis")) reduced[static_cast<size_t>(normalize_axis(a, x.ndim(), call.op.name))] = true;
  Grouping g{x.shape(), {}, {}};
  for (bool r : reduced) g.kept.push_back(!r);
  int64_t groups = 1;
  const std::vector<int64_t> strides[1] = {group_strides(g, groups)};
  const std::vector<double> in = to_doubles(x);
  std::vector<double> sum(static_cast<size_t>(groups), 0.0), out(in.size());
  for_each_strided(g.shape, strides, [&](int64_t i, const int64_t* off) { sum[off[0]] += in[i] * in[i]; });
  const double eps = call.attrs.get_double("eps");
  for (double& s : sum) s = std::sqrt(std::max(s, eps));
  for_each_strided(g.shape, strides, [&](int64_t i, const int64_t* off) { out[i] = in[i] / sum[off[0]]; });
  return from_doubles(x.shape(), x.dtype(), out);
}

// TOPI's lrn: the window along `axis` starts size/2 before the element and has `size`
// elements (zero-padded); out = x / (bias + alpha * sum(x^2 in window) / size)^beta.
Value lrn(const KernelCall& call) {
  NDArray x = call.tensor(0);
  if (!x.dtype().is_float())
    throw RuntimeError("`nn.lrn` needs a floating-point tensor, found dtype `" + dtype_name(x.dtype()) + "`");
  const size_t axis = static_cast<size_t>(normalize_axis(call.attrs.get_int("axis", 1), x.ndim(), call.op.name));
  const int64_t size = call.attrs.get_int("size", 5);
  require(call, size > 0, "size must be positive, found " + std::to_string(size));
  const double bias = call.attrs.get_double("bias", 2), alpha = call.attrs.get_double("alpha", 1e-4),
               beta = call.attrs.get_double("beta", 0.75);
  const AxisView v = axis_view(x.shape(), axis);
  const std::vector<double> in = to_doubles(x);
  std::vector<double> out(in.size());
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.n; ++i)
      for (int64_t j = 0; j < v.inner; ++j) {
        double s = 0;
        const int64_t lo = std::max<int64_t>(0, i - size / 2), hi = std::min<int64_t>(v.n, i - size / 2 + size);
        for (int64_t k = lo; k < hi; ++k) {
          const double e = in[static_cast<size_t>((o * v.n + k) * v.inner + j)];
          s += e * e;
        }
        const size_t at = static_cast<size_t>((o * v.n + i) * v.inner + j);
        out[at] = in[at] / std::pow(bias + alpha * s / static_cast<double>(size), beta);
      }
  return from_doubles(x.shape(), x.dtype(), out);
}

}  // namespace

void register_nn_norm_kernels(KernelTable& table) {
  register_kernel(table, "nn.batch_norm", batch_norm);
  register_kernel(table, "nn.layer_norm", layer_norm);
  register_kernel(table, "nn.group_norm", group_norm);
  register_kernel(table, "nn.instance_norm", instance_norm);
  register_kernel(table, "nn.l2_normalize", l2_normalize);
  register_kernel(table, "nn.lrn", lrn);
}

}  // namespace relay::rt
