#include "interpreter/runtime/ndarray.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "interpreter/runtime/buffer_cache.h"
#include "interpreter/runtime/dispatch.h"

namespace relay::rt {

size_t dtype_bytes(DataType t) {
  if (t.is_bool()) return 1;
  return static_cast<size_t>(t.bits / 8) * t.lanes;
}

bool dtype_supported(DataType t) {
  if (t.lanes != 1) return false;
  if (t.is_bool()) return true;
  switch (t.code) {
    case DataType::Int:
    case DataType::UInt: return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
    case DataType::Float: return t.bits == 16 || t.bits == 32 || t.bits == 64;
    case DataType::BFloat: return t.bits == 16;
    default: return false;
  }
}

int64_t shape_size(const Shape& shape) {
  // The product of the non-zero dimensions must fit too, as numpy requires: a shape such
  // as (0, 2^40, 2^40) holds no elements, but its row-major strides (the product of the
  // later dimensions) would overflow, and so would any index arithmetic over it.
  int64_t nonzero = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) throw RuntimeError("negative dimension " + std::to_string(d) + " in shape " + shape_to_string(shape));
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(nonzero, d, &nonzero))
      throw RuntimeError("the shape " + shape_to_string(shape) + " has more elements than fit in 64 bits");
  }
  return empty ? 0 : nonzero;
}

std::vector<int64_t> contiguous_strides(const Shape& shape) {
  // Checked although shape_size() has usually vetted the shape: strides of a shape that
  // never became a tensor (a type's shape, a shape computed from data) must not overflow.
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    const int64_t d = shape[i];
    if (d < 0 || __builtin_mul_overflow(s[i], d, &s[i - 1]))
      throw RuntimeError("the shape " + shape_to_string(shape) + " has strides that do not fit in 64 bits");
  }
  return s;
}

std::string shape_to_string(const Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

namespace {
// The storage behind a tensor of `nbytes` (beyond the inline bytes): whole alignment units.
size_t allocated_bytes(size_t nbytes) {
  return (nbytes + TensorObj::kAlignment - 1) / TensorObj::kAlignment * TensorObj::kAlignment;
}

uint64_t next_serial() {
  static std::atomic<uint64_t> counter{1};
  return counter.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

TensorObj::TensorObj(DataType dt, Shape sh, Device dev)
    : Object(ObjectKind::Tensor), dtype(dt), shape(std::move(sh)), device(dev), serial(next_serial()) {
  if (!dtype_supported(dtype)) throw RuntimeError("tensors of dtype `" + dtype_name(dtype) + "` are not supported");
  size = shape_size(shape);
  const uint64_t elem = dtype_bytes(dtype);
  if (size != 0 && static_cast<uint64_t>(size) > kMaxBytes / elem)
  {
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f", static_cast<double>(size) * static_cast<double>(elem) / (1 << 30));
    throw RuntimeError("cannot allocate a tensor of shape " + shape_to_string(shape) + " and dtype " +
                       dtype_name(dtype) + ": it needs " + gib + " GiB, over the 16 GiB limit for one tensor");
  }
  nbytes = static_cast<size_t>(size) * elem;
  if (nbytes <= kInlineBytes) {
    data = inline_;
  } else {
    data = buffer_cache::acquire(allocated_bytes(nbytes), kAlignment);
    if (!data)
      throw RuntimeError("out of memory allocating a tensor of shape " + shape_to_string(shape) + " (" +
                         std::to_string(nbytes) + " bytes)");
  }
}

TensorObj::TensorObj(DataType dt, Shape sh, Ref<TensorObj> storage, size_t byte_offset)
    : Object(ObjectKind::Tensor),
      dtype(dt),
      shape(std::move(sh)),
      device(storage->device),
      serial(next_serial()),
      storage_(std::move(storage)) {
  if (!dtype_supported(dtype)) throw RuntimeError("tensors of dtype `" + dtype_name(dtype) + "` are not supported");
  size = shape_size(shape);
  nbytes = static_cast<size_t>(size) * dtype_bytes(dtype);
  if (byte_offset > storage_->nbytes || nbytes > storage_->nbytes - byte_offset)
    throw RuntimeError("a tensor of shape " + shape_to_string(shape) + " does not fit " +
                       std::to_string(storage_->nbytes) + " bytes of storage at offset " + std::to_string(byte_offset));
  data = static_cast<unsigned char*>(storage_->data) + byte_offset;
}

TensorObj::~TensorObj() {
  if (data != inline_ && !storage_) buffer_cache::release(data, allocated_bytes(nbytes));
}

NDArray NDArray::empty(const Shape& shape, DataType dtype, Device device) {
  return NDArray(make_ref<TensorObj>(dtype, shape, device));
}

NDArray NDArray::view(const NDArray& storage, size_t byte_offset, const Shape& shape, DataType dtype) {
  return NDArray(make_ref<TensorObj>(dtype, shape, storage.object(), byte_offset));
}

NDArray NDArray::zeros(const Shape& shape, DataType dtype, Device device) {
  NDArray a = empty(shape, dtype, device);
  std::memset(a.raw(), 0, a.nbytes());
  return a;
}

NDArray NDArray::scalar(double v, DataType dtype) {
  NDArray a = empty({}, dtype);
  a.set_double(0, v);
  return a;
}

NDArray NDArray::scalar_int(int64_t v, DataType dtype) {
  NDArray a = empty({}, dtype);
  a.set_int(0, v);
  return a;
}

NDArray NDArray::copy() const {
  NDArray a = empty(shape(), dtype(), device());
  if (nbytes()) std::memcpy(a.raw(), raw(), nbytes());
  return a;
}

NDArray NDArray::reshaped(const Shape& new_shape) const {
  if (shape_size(new_shape) != size())
    throw RuntimeError("cannot reshape a tensor of shape " + shape_to_string(shape()) + " into " +
                       shape_to_string(new_shape));
  // A view object sharing the storage would need a second owner; copying keeps one
  // owner per buffer and is cheap next to any kernel that produced the data.
  NDArray a = empty(new_shape, dtype(), device());
  if (nbytes()) std::memcpy(a.raw(), raw(), nbytes());
  return a;
}

double NDArray::get_double(int64_t i) const {
  return dispatch_dtype(dtype(), [&]<class T>(TypeTag<T>) { return static_cast<double>(data<T>()[i]); });
}

int64_t NDArray::get_int(int64_t i) const {
  return dispatch_dtype(dtype(), [&]<class T>(TypeTag<T>) -> int64_t {
    if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(data<T>()[i]);
    else return static_cast<int64_t>(static_cast<double>(data<T>()[i]));
  });
}

void NDArray::set_double(int64_t i, double v) const {
  dispatch_dtype(dtype(), [&]<class T>(TypeTag<T>) { data<T>()[i] = cast_to<T>(v); });
}

void NDArray::set_int(int64_t i, int64_t v) const {
  dispatch_dtype(dtype(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, bool>) data<T>()[i] = v != 0;
    else if constexpr (std::is_integral_v<T>) data<T>()[i] = static_cast<T>(v);
    else data<T>()[i] = cast_to<T>(static_cast<double>(v));
  });
}

}  // namespace relay::rt
