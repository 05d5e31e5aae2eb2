// §3.7 `nn.*` kernels other than convolution and pooling. The operators live in the
// nn_*.cpp files by kind; this file only gathers them and holds their shared helpers.
#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {

AxisView axis_view(const Shape& shape, size_t axis) {
  AxisView v;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis) v.outer *= shape[d];
    else if (d == axis) v.n = shape[d];
    else v.inner *= shape[d];
  }
  return v;
}

std::string op_name(const KernelCall& call) { return std::string(call.op.name); }

DataType attr_out_dtype(const KernelCall& call, DataType fallback) {
  std::optional<DataType> t = call.attrs.get_dtype("out_dtype");
  return t && t->bits != 0 ? *t : fallback;
}

std::vector<double> to_doubles(const NDArray& a) {
  std::vector<double> out(static_cast<size_t>(a.size()));
  dispatch_dtype(a.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = a.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(static_cast<Compute<T>>(p[i]));
  });
  return out;
}

std::vector<int64_t> to_int64s(const NDArray& a) {
  std::vector<int64_t> out(static_cast<size_t>(a.size()));
  dispatch_dtype(a.dtype(), [&]<class T>(TypeTag<T>) {
    const T* p = a.data<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      if constexpr (is_floating_v<T>) out[i] = cast_to<int64_t>(static_cast<double>(static_cast<Compute<T>>(p[i])));
      else out[i] = static_cast<int64_t>(p[i]);
    }
  });
  return out;
}

NDArray from_doubles(const Shape& shape, DataType dtype, const std::vector<double>& v) {
  NDArray out = NDArray::empty(shape, dtype);
  dispatch_dtype(dtype, [&]<class T>(TypeTag<T>) {
    T* p = out.data<T>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = cast_to<T>(v[i]);
  });
  return out;
}

NDArray from_int64s(const Shape& shape, DataType dtype, const std::vector<int64_t>& v) {
  NDArray out = NDArray::empty(shape, dtype);
  dispatch_dtype(dtype, [&]<class T>(TypeTag<T>) {
    T* p = out.data<T>();
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>) p[i] = v[i] != 0;
      else if constexpr (is_floating_v<T>) p[i] = cast_to<T>(static_cast<double>(v[i]));
      else p[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<uint64_t>(v[i])));
    }
  });
  return out;
}

void require(const KernelCall& call, bool cond, const std::string& message) {
  if (!cond) throw RuntimeError("`" + op_name(call) + "`: " + message);
}

void register_nn_kernels(KernelTable& table) {
  register_nn_dense_kernels(table);
  register_nn_activation_kernels(table);
  register_nn_norm_kernels(table);
  register_nn_layout_kernels(table);
  register_nn_resample_kernels(table);
  register_nn_loss_kernels(table);
  register_nn_sparse_kernels(table);
  register_nn_bitserial_kernels(table);
}

}  // namespace relay::rt
