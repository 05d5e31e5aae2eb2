// Kernels of dyn.* (reference §3.9): the static operator's kernel, with the attributes
// that the dyn form takes as tensor inputs read from those tensors at run time. The
// values come from data, so everything made of them is checked before the static kernel
// sees it: dims must be non-negative, counts and byte sizes must fit (a RuntimeError that
// names the dyn operator, never an overflow, a giant allocation or a crash).
#include <algorithm>
#include <cmath>
#include <limits>

#include "interpreter/kernels/kernel_util.h"

namespace relay::rt {
namespace {

using Attrs = std::vector<std::pair<std::string, AttrVal>>;

std::string tag(const KernelCall& call) { return "`" + std::string(call.op.name) + "`"; }

[[noreturn]] void fail_dyn(const KernelCall& call, const std::string& message) {
  throw RuntimeError(tag(call) + ": " + message);
}

NDArray integer_input(const KernelCall& call, size_t i) {
  NDArray t = call.tensor(i);
  if (!(t.dtype().is_int() || t.dtype().is_uint()))
    fail_dyn(call, "`" + std::string(call.op.args[i]) + "` must have an integer dtype, found " + dtype_name(t.dtype()));
  return t;
}

// A 1-D (or 0-D) integer input's values.
std::vector<int64_t> int_values(const KernelCall& call, size_t i) {
  NDArray t = integer_input(call, i);
  if (t.ndim() > 1)
    fail_dyn(call, "`" + std::string(call.op.args[i]) + "` must be 1-D, found shape " + shape_to_string(t.shape()));
  std::vector<int64_t> out;
  for (int64_t k = 0; k < t.size(); ++k) out.push_back(t.get_int(k));
  return out;
}

// A one-element input (rank 0, or (1,) as TVM's frontends pass) as an integer / a double.
int64_t int_scalar(const KernelCall& call, size_t i) {
  NDArray t = integer_input(call, i);
  if (t.size() != 1)
    fail_dyn(call, "`" + std::string(call.op.args[i]) + "` must hold one value, found shape " + shape_to_string(t.shape()));
  return t.get_int(0);
}
double float_scalar(const KernelCall& call, size_t i) {
  NDArray t = call.tensor(i);
  if (t.size() != 1)
    fail_dyn(call, "`" + std::string(call.op.args[i]) + "` must hold one value, found shape " + shape_to_string(t.shape()));
  return t.get_double(0);
}

// A shape made of data: non-negative dims whose element count and byte size fit.
void check_shape(const KernelCall& call, const Shape& shape, DataType dtype, const char* what) {
  for (int64_t d : shape)
    if (d < 0) fail_dyn(call, std::string(what) + " " + shape_to_string(shape) + " has a negative dimension");
  int64_t n = 0;
  try {
    n = shape_size(shape);
  } catch (const RuntimeError&) {
    fail_dyn(call, std::string(what) + " " + shape_to_string(shape) + " has more elements than fit in 64 bits");
  }
  const uint64_t elem = dtype.bits == 0 ? 1 : dtype_bytes(dtype);
  if (n > 0 && static_cast<uint64_t>(n) > TensorObj::kMaxBytes / elem)
    fail_dyn(call, std::string(what) + " " + shape_to_string(shape) + " of " + dtype_name(dtype) +
                       " is over the 16 GiB limit for one tensor");
}

AttrVal int_attr(int64_t v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Int;
  a.int_value = v;
  return a;
}
AttrVal ints_attr(const std::vector<int64_t>& v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Array;
  for (int64_t x : v) a.items.push_back(int_attr(x));
  return a;
}
AttrVal float_attr(double v) {
  AttrVal a;
  a.kind = AttrVal::Kind::Float;
  a.float_value = v;
  return a;
}

// Runs the static operator `name` on `args` with the dyn call's own attributes plus
// `extra` (the values read from tensor inputs). Its errors are re-raised naming the dyn
// operator, as the user wrote it.
Value run_static(const KernelCall& call, std::string_view name, std::vector<Value> args, Attrs extra) {
  const OpInfo& op = required_op(name);
  KernelFn fn = find_kernel(op);
  if (!fn) fail_dyn(call, "needs the kernel of `" + std::string(name) + "`, which is not available");
  Attrs values;
  if (call.op.attrs && op.attrs)
    for (const AttrField& f : call.op.attrs->fields)
      if (call.attrs.given(f.name) && op.attrs->find_field(f.name)) values.emplace_back(std::string(f.name), *call.attrs.get(f.name));
  for (auto& [k, v] : extra) {
    std::erase_if(values, [&](const auto& kv) { return kv.first == k; });
    values.emplace_back(k, v);
  }
  CallAttrs attrs = CallAttrs::from_values(op.attrs, std::move(values));
  KernelCall inner{op, std::span<const Value>(args.data(), args.size()), attrs};
  try {
    return fn(inner);
  } catch (const RuntimeError& e) {
    throw RuntimeError(tag(call) + " (run as `" + std::string(name) + "`): " + e.what());
  }
}

// An output with no elements is made here, not by the static kernel: one of its dims may
// be huge (made of data), and kernels build per-axis tables (pad, resampling) before
// they look at the element count.
bool empty_shape(const Shape& s) {
  return std::any_of(s.begin(), s.end(), [](int64_t d) { return d == 0; });
}

DataType attr_dtype(const KernelCall& call, DataType fallback) {
  return call.attrs.get_dtype("dtype").value_or(fallback);
}

Value dyn_reshape(const KernelCall& call) {
  NDArray data = call.tensor(0);
  std::vector<int64_t> spec = int_values(call, 1);
  return run_static(call, "reshape", {data}, {{"newshape", ints_attr(spec)}});
}

Value dyn_broadcast_to(const KernelCall& call) {
  NDArray data = call.tensor(0);
  std::vector<int64_t> shape = int_values(call, 1);
  check_shape(call, shape, data.dtype(), "the shape");
  return run_static(call, "broadcast_to", {data}, {{"shape", ints_attr(shape)}});
}

template <bool One> Value dyn_constant(const KernelCall& call) {
  std::vector<int64_t> shape = int_values(call, 0);
  check_shape(call, shape, attr_dtype(call, DataType::float_(32)), "the shape");
  return run_static(call, One ? "ones" : "zeros", {}, {{"shape", ints_attr(shape)}});
}

Value dyn_full(const KernelCall& call) {
  NDArray fill = call.tensor(0);
  std::vector<int64_t> shape = int_values(call, 1);
  check_shape(call, shape, attr_dtype(call, fill.dtype()), "the shape");
  return run_static(call, "full", {fill}, {{"shape", ints_attr(shape)}});
}

Value dyn_expand_dims(const KernelCall& call) {
  NDArray data = call.tensor(0);
  const int64_t axis = int_scalar(call, 1);
  return run_static(call, "expand_dims", {data}, {{"axis", int_attr(axis)}});
}

Value dyn_squeeze(const KernelCall& call) {
  NDArray data = call.tensor(0);
  return run_static(call, "squeeze", {data}, {{"axis", ints_attr(int_values(call, 1))}});
}

Value dyn_tile(const KernelCall& call) {
  NDArray data = call.tensor(0);
  std::vector<int64_t> reps = int_values(call, 1);
  Shape in = data.shape(), out;
  const size_t rank = std::max(in.size(), reps.size());
  in.insert(in.begin(), rank - in.size(), 1);
  std::vector<int64_t> r = reps;
  r.insert(r.begin(), rank - r.size(), 1);
  for (size_t i = 0; i < rank; ++i) {
    if (r[i] < 0) fail_dyn(call, "`reps` must not be negative, found " + std::to_string(r[i]));
    int64_t d;
    if (__builtin_mul_overflow(in[i], r[i], &d)) fail_dyn(call, "`reps` make a dimension that does not fit in 64 bits");
    out.push_back(d);
  }
  check_shape(call, out, data.dtype(), "the tiled shape");
  if (empty_shape(out)) return NDArray::empty(out, data.dtype());
  return run_static(call, "tile", {data}, {{"reps", ints_attr(reps)}});
}

Value dyn_strided_slice(const KernelCall& call) {
  NDArray data = call.tensor(0);
  std::vector<int64_t> begin = int_values(call, 1), end = int_values(call, 2), strides = int_values(call, 3);
  return run_static(call, "strided_slice", {data},
                    {{"begin", ints_attr(begin)}, {"end", ints_attr(end)}, {"strides", ints_attr(strides)}});
}

Value dyn_one_hot(const KernelCall& call) {
  NDArray indices = call.tensor(0);
  const int64_t depth = int_scalar(call, 3);
  if (depth < 0) fail_dyn(call, "`depth` must not be negative, found " + std::to_string(depth));
  Shape s = indices.shape();
  s.push_back(depth);
  check_shape(call, s, attr_dtype(call, call.tensor(1).dtype()), "the one-hot shape");
  return run_static(call, "one_hot", {indices, call.args[1], call.args[2]}, {{"depth", int_attr(depth)}});
}

Value dyn_topk(const KernelCall& call) {
  NDArray data = call.tensor(0);
  return run_static(call, "topk", {data}, {{"k", int_attr(int_scalar(call, 1))}});
}

Value dyn_pad(const KernelCall& call) {
  NDArray data = call.tensor(0), widths = integer_input(call, 1);
  if (widths.ndim() != 2 || widths.dim(1) != 2 || widths.dim(0) != static_cast<int64_t>(data.ndim()))
    fail_dyn(call, "`pad_width` must have shape (" + std::to_string(data.ndim()) + ", 2) for data of shape " +
                       shape_to_string(data.shape()) + ", found " + shape_to_string(widths.shape()));
  AttrVal matrix;
  matrix.kind = AttrVal::Kind::Array;
  Shape out;
  for (size_t d = 0; d < data.ndim(); ++d) {
    const int64_t before = widths.get_int(2 * d), after = widths.get_int(2 * d + 1);
    int64_t n;
    if (__builtin_add_overflow(data.dim(d), before, &n) || __builtin_add_overflow(n, after, &n) || n < 0)
      fail_dyn(call, "padding dimension " + std::to_string(d) + " of " + std::to_string(data.dim(d)) + " by [" +
                         std::to_string(before) + ", " + std::to_string(after) + "] gives no valid size");
    out.push_back(n);
    matrix.items.push_back(ints_attr({before, after}));
  }
  check_shape(call, out, data.dtype(), "the padded shape");
  if (empty_shape(out)) return NDArray::empty(out, data.dtype());
  return run_static(call, "nn.pad", {data, call.args[2]}, {{"pad_width", matrix}});
}

// round(d * scale) (scale as float32, as the static kernel), checked before it is made.
void check_scale(const KernelCall& call, int64_t d, double scale, const char* name) {
  const double s = static_cast<double>(static_cast<float>(scale));
  const double n = std::nearbyint(static_cast<double>(d) * s);
  if (!std::isfinite(s) || s < 0 || !(n < 9.0e15))
    fail_dyn(call, "`" + std::string(name) + "` = " + std::to_string(scale) + " gives no valid size for a dimension of " +
                       std::to_string(d));
}

std::vector<size_t> spatial(const KernelCall& call, const NDArray& x, const std::string& letters) {
  const std::string layout = call.attrs.get_string("layout");
  if (layout.size() != x.ndim())
    fail_dyn(call, "data shape " + shape_to_string(x.shape()) + " does not match layout " + layout);
  std::vector<size_t> pos;
  for (char c : letters) {
    size_t p = layout.find(c);
    if (p == std::string::npos) fail_dyn(call, "layout " + layout + " has no " + std::string(1, c) + " dimension");
    pos.push_back(p);
  }
  return pos;
}

Value dyn_upsampling(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const double h = float_scalar(call, 1), w = float_scalar(call, 2);
  auto pos = spatial(call, x, "HW");
  check_scale(call, x.dim(pos[0]), h, "scale_h");
  check_scale(call, x.dim(pos[1]), w, "scale_w");
  Shape out = x.shape();
  out[pos[0]] = static_cast<int64_t>(std::nearbyint(x.dim(pos[0]) * static_cast<double>(static_cast<float>(h))));
  out[pos[1]] = static_cast<int64_t>(std::nearbyint(x.dim(pos[1]) * static_cast<double>(static_cast<float>(w))));
  check_shape(call, out, x.dtype(), "the upsampled shape");
  if (empty_shape(out)) return NDArray::empty(out, x.dtype());
  return run_static(call, "nn.upsampling", {x}, {{"scale_h", float_attr(h)}, {"scale_w", float_attr(w)}});
}

Value dyn_upsampling3d(const KernelCall& call) {
  NDArray x = call.tensor(0);
  const double s[3] = {float_scalar(call, 1), float_scalar(call, 2), float_scalar(call, 3)};
  const char* names[3] = {"scale_d", "scale_h", "scale_w"};
  auto pos = spatial(call, x, "DHW");
  Shape out = x.shape();
  for (int i = 0; i < 3; ++i) {
    check_scale(call, x.dim(pos[i]), s[i], names[i]);
    out[pos[i]] = static_cast<int64_t>(std::nearbyint(x.dim(pos[i]) * static_cast<double>(static_cast<float>(s[i]))));
  }
  check_shape(call, out, x.dtype(), "the upsampled shape");
  if (empty_shape(out)) return NDArray::empty(out, x.dtype());
  return run_static(call, "nn.upsampling3d", {x},
                    {{"scale_d", float_attr(s[0])}, {"scale_h", float_attr(s[1])}, {"scale_w", float_attr(s[2])}});
}

Value dyn_sparse_to_dense(const KernelCall& call) {
  std::vector<int64_t> shape = int_values(call, 3);
  check_shape(call, shape, call.tensor(1).dtype(), "`output_shape`");
  return run_static(call, "sparse_to_dense", {call.args[0], call.args[1], call.args[2]},
                    {{"output_shape", ints_attr(shape)}});
}

// dyn.image.resize2d: size (2 integers) and roi (4 floats) from tensors.
Value dyn_resize2d(const KernelCall& call) {
  NDArray x = call.tensor(0), roi = call.tensor(2);
  std::vector<int64_t> size = int_values(call, 1);
  if (size.size() != 2) fail_dyn(call, "`size` must hold 2 values, found " + std::to_string(size.size()));
  auto pos = spatial(call, x, "HW");
  Shape out = x.shape();
  out[pos[0]] = size[0], out[pos[1]] = size[1];
  check_shape(call, out, x.dtype(), "the resized shape");
  if (empty_shape(out)) return NDArray::empty(out, call.attrs.get_dtype("out_dtype").value_or(x.dtype()));
  AttrVal r;
  r.kind = AttrVal::Kind::Array;
  for (int64_t k = 0; k < roi.size(); ++k) r.items.push_back(float_attr(roi.get_double(k)));
  return run_static(call, "image.resize2d", {x}, {{"size", ints_attr(size)}, {"roi", r}});
}

}  // namespace

void register_dyn_kernels(KernelTable& t) {
  register_kernel(t, "dyn.reshape", dyn_reshape);
  register_kernel(t, "dyn.broadcast_to", dyn_broadcast_to);
  register_kernel(t, "dyn.zeros", dyn_constant<false>);
  register_kernel(t, "dyn.ones", dyn_constant<true>);
  register_kernel(t, "dyn.full", dyn_full);
  register_kernel(t, "dyn.expand_dims", dyn_expand_dims);
  register_kernel(t, "dyn.squeeze", dyn_squeeze);
  register_kernel(t, "dyn.tile", dyn_tile);
  register_kernel(t, "dyn.strided_slice", dyn_strided_slice);
  register_kernel(t, "dyn.one_hot", dyn_one_hot);
  register_kernel(t, "dyn.topk", dyn_topk);
  register_kernel(t, "dyn.nn.pad", dyn_pad);
  register_kernel(t, "dyn.nn.upsampling", dyn_upsampling);
  register_kernel(t, "dyn.nn.upsampling3d", dyn_upsampling3d);
  register_kernel(t, "dyn.sparse_to_dense", dyn_sparse_to_dense);
  register_kernel(t, "dyn.image.resize2d", dyn_resize2d);
}

}  // namespace relay::rt
