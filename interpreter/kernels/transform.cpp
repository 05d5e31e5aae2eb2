// §3.5 tensor transforms: the family's registration, the helpers shared by its parts
// (transform_internal.h), and the casts and tensor constructors.
#include <cmath>
#include <type_traits>

#include "interpreter/kernels/transform_internal.h"

namespace relay::rt {

namespace transform {

void fail(const KernelCall& call, const std::string& message) {
  throw RuntimeError("`" + std::string(call.op.name) + "`: " + message);
}

void gather_elements(const NDArray& in, const NDArray& out, const std::vector<int64_t>& src) {
  dispatch_width(in.dtype(), [&]<class W>(TypeTag<W>) {
    const W* s = in.data<W>();
    W* d = out.data<W>();
    for (size_t i = 0; i < src.size(); ++i) d[i] = s[src[i]];
  });
}

NDArray strided_copy(const NDArray& in, const Shape& shape, const std::vector<int64_t>& strides, int64_t offset,
                     const KernelCall* into) {
  NDArray out = into ? into->output(shape, in.dtype()) : NDArray::empty(shape, in.dtype());
  dispatch_width(in.dtype(), [&]<class W>(TypeTag<W>) {
    const W* s = in.data<W>() + offset;
    W* d = out.data<W>();
    const std::vector<int64_t> st[1] = {strides};
    for_each_strided(shape, st, [&](int64_t i, const int64_t* off) { d[i] = s[off[0]]; });
  });
  return out;
}

std::vector<int64_t> int_values(const NDArray& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.size()));
  dispatch_dtype(t.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = t.data<T>();
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (is_floating_v<T>) v[i] = cast_to<int64_t>(static_cast<double>(static_cast<Compute<T>>(p[i])));
      else v[i] = static_cast<int64_t>(p[i]);
    }
  });
  return v;
}

int64_t axis_attr(const KernelCall& call, std::string_view name, size_t rank) {
  return normalize_axis(call.attrs.get_int(name), rank, call.op.name);
}

void require_integer(const KernelCall& call, const NDArray& t, std::string_view what) {
  DataType d = t.dtype();
  if (!d.is_int() && !d.is_uint())
    fail(call, "`" + std::string(what) + "` must have an integer dtype, found " + dtype_name(d));
}

}  // namespace transform

namespace {

using namespace transform;

// One element converted as TVM's Cast does; float -> integer saturates (see cast_to) where
// C++ and LLVM leave the result undefined.
template <class D, class S> D convert(S v) {
  if constexpr (std::is_same_v<D, S>) {
    return v;
  } else if constexpr (std::is_same_v<D, bool>) {
    return static_cast<Compute<S>>(v) != 0;
  } else if constexpr (std::is_integral_v<D> && std::is_integral_v<S>) {
    return static_cast<D>(v);  // two's-complement wrap, as TVM's integer casts
  } else if constexpr (std::is_integral_v<D>) {
    return cast_to<D>(static_cast<double>(static_cast<Compute<S>>(v)));
  } else if constexpr (std::is_integral_v<S>) {
    return static_cast<D>(static_cast<Compute<D>>(v));
  } else {
    return static_cast<D>(static_cast<Compute<D>>(static_cast<Compute<S>>(v)));
  }
}

NDArray cast_to_dtype(const NDArray& in, DataType dtype) {
  NDArray out = NDArray::empty(in.shape(), dtype);
  dispatch_dtype(in.dtype(), [&]<class S>(TypeTag<S>) {
    dispatch_dtype(dtype, [&]<class D>(TypeTag<D>) {
      const S* s = in.data<S>();
      D* d = out.data<D>();
      const int64_t n = in.size();
      for (int64_t i = 0; i < n; ++i) d[i] = convert<D>(s[i]);
    });
  });
  return out;
}

DataType dtype_attr(const KernelCall& call, std::string_view name, DataType fallback) {
  return call.attrs.get_dtype(name).value_or(result_dtype(call, fallback));
}

Value cast_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  return cast_to_dtype(data, dtype_attr(call, "dtype", data.dtype()));
}

Value cast_like_kernel(const KernelCall& call) { return cast_to_dtype(call.tensor(0), call.tensor(1).dtype()); }

Value reinterpret_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  DataType to = dtype_attr(call, "dtype", data.dtype());
  if (dtype_bytes(to) != dtype_bytes(data.dtype()) || to.is_bool() != data.dtype().is_bool())
    fail(call, "cannot reinterpret " + dtype_name(data.dtype()) + " as " + dtype_name(to) +
                   ": the element sizes differ");
  NDArray out = NDArray::empty(data.shape(), to);
  if (data.nbytes()) std::memcpy(out.raw(), data.raw(), data.nbytes());
  return out;
}

// A tensor of `shape` and `dtype` with every element equal to element 0 of `value`.
NDArray filled(const Shape& shape, DataType dtype, const NDArray& value) {
  NDArray one = cast_to_dtype(value.reshaped({}), dtype);
  NDArray out = NDArray::empty(shape, dtype);
  dispatch_width(dtype, [&]<class W>(TypeTag<W>) {
    const W v = *one.data<W>();
    W* d = out.data<W>();
    for (int64_t i = 0, n = out.size(); i < n; ++i) d[i] = v;
  });
  return out;
}

Shape shape_attr(const KernelCall& call) {
  Shape s = call.attrs.get_ints("shape");
  for (int64_t d : s)
    if (d < 0) fail(call, "`shape` " + str(s) + " has a negative dimension");
  return s;
}

NDArray scalar_operand(const KernelCall& call, size_t i, std::string_view what) {
  NDArray v = call.tensor(i);
  if (v.size() != 1)
    fail(call, "`" + std::string(what) + "` must be a scalar, found shape " + str(v.shape()));
  return v;
}

Value full_kernel(const KernelCall& call) {
  NDArray fill = scalar_operand(call, 0, "fill_value");
  return filled(shape_attr(call), dtype_attr(call, "dtype", fill.dtype()), fill);
}

Value full_like_kernel(const KernelCall& call) {
  NDArray data = call.tensor(0);
  return filled(data.shape(), data.dtype(), scalar_operand(call, 1, "fill_value"));
}

template <int V> Value constant_kernel(const KernelCall& call) {
  return filled(shape_attr(call), dtype_attr(call, "dtype", DataType::float_(32)), NDArray::scalar_int(V, DataType::int_(64)));
}

// arange(start, stop, step): ceil((stop - start) / step) elements start + i * step, each
// computed in the result dtype as topi does.
Value arange_kernel(const KernelCall& call) {
  NDArray start = scalar_operand(call, 0, "start"), stop = scalar_operand(call, 1, "stop"),
          step = scalar_operand(call, 2, "step");
  DataType dtype = dtype_attr(call, "dtype", start.dtype());
  const double a = start.get_double(0), b = stop.get_double(0), s = step.get_double(0);
  if (s == 0 || std::isnan(a) || std::isnan(b) || std::isnan(s)) fail(call, "`step` must be non-zero and the bounds numbers");
  const double count = std::ceil((b - a) / s);
  if (count > static_cast<double>(std::numeric_limits<int32_t>::max()))
    fail(call, "start " + std::to_string(a) + ", stop " + std::to_string(b) + ", step " + std::to_string(s) +
                   " give too many elements");
  const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  NDArray out = NDArray::empty({n}, dtype);
  dispatch_dtype(dtype, [&]<class T>(TypeTag<T>) {
    T* d = out.data<T>();
    if constexpr (is_floating_v<T>) {
      using C = Compute<T>;
      const C c0 = static_cast<C>(a), cs = static_cast<C>(s);
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<T>(c0 + static_cast<C>(i) * cs);
    } else {
      const int64_t c0 = start.get_int(0), cs = step.get_int(0);
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<T>(c0 + i * cs);
    }
  });
  return out;
}

}  // namespace

void register_transform_init_kernels(KernelTable& t) {
  register_kernel(t, "cast", cast_kernel);
  register_kernel(t, "reinterpret", reinterpret_kernel);
  register_kernel(t, "cast_like", cast_like_kernel);
  register_kernel(t, "full", full_kernel);
  register_kernel(t, "full_like", full_like_kernel);
  register_kernel(t, "zeros", constant_kernel<0>);
  register_kernel(t, "ones", constant_kernel<1>);
  register_kernel(t, "arange", arange_kernel);
}

void register_transform_kernels(KernelTable& t) {
  register_transform_init_kernels(t);
  register_transform_shape_kernels(t);
  register_transform_layout_kernels(t);
  register_transform_slice_kernels(t);
  register_transform_index_kernels(t);
  register_transform_sparse_kernels(t);
  register_transform_signal_kernels(t);
}

}  // namespace relay::rt
