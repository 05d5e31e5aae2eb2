// NDArray: a dense, contiguous (row-major) tensor with a dtype, a shape and a device.
//
// Storage is 64-byte aligned (cache lines, AVX-512 loads, OpenBLAS). Tensors of at most
// kInlineBytes live inside the object itself, so a scalar costs one allocation: scalar
// Relay code (a loop counter, fib on int32) allocates a tensor per operator call.
// NDArray is a handle: copies share storage; `copy()` makes a deep copy. Kernels write
// only into tensors they have just allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "interpreter/runtime/object.h"
#include "lang/base/dtype.h"

namespace relay::rt {

// Where a tensor's data lives. Only the CPU exists today; a GPU device attaches later.
struct Device {
  enum Kind : uint8_t { CPU = 1, CUDA = 2 } kind = CPU;
  int32_t id = 0;
  bool operator==(const Device&) const = default;
};

// A user-facing run-time failure inside the runtime or a kernel (a bad shape, an index
// out of range, a tensor too large to allocate). The evaluator turns it into a
// diagnostic at the call's span with the Relay stack; it is never a crash.
class RuntimeError : public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& message, std::vector<std::string> notes = {})
      : std::runtime_error(message), notes_(std::move(notes)) {}
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::vector<std::string> notes_;
};

using Shape = std::vector<int64_t>;

class TensorObj final : public Object {
 public:
  static constexpr size_t kInlineBytes = 64;
  static constexpr size_t kAlignment = 64;
  // Upper bound on one tensor (16 GiB): larger requests are user errors, not bad_alloc.
  static constexpr uint64_t kMaxBytes = uint64_t{16} << 30;

  TensorObj(DataType dtype, Shape shape, Device device);
  // A tensor over bytes [byte_offset, byte_offset + its size) of `storage`'s buffer, which
  // it keeps alive (RuntimeError when they do not fit): compiled code's arena slots.
  TensorObj(DataType dtype, Shape shape, Ref<TensorObj> storage, size_t byte_offset);
  ~TensorObj() override;

  DataType dtype;
  Shape shape;
  Device device;
  int64_t size = 1;   // number of elements
  size_t nbytes = 0;
  void* data = nullptr;
  // Unique per tensor object for the life of the process, never reused (an address is):
  // tensors are immutable once they are values, so a cache of something derived from one
  // (compiled code's reordered weights) is valid while the serial matches.
  const uint64_t serial;

 private:
  Ref<TensorObj> storage_;  // set for a tensor over another's buffer
  alignas(kAlignment) unsigned char inline_[kInlineBytes];
};

// Bytes per element (bool is stored in one byte, as numpy and TVM do).
size_t dtype_bytes(DataType t);
// Whether the runtime can store tensors of this dtype (scalar lanes; bool, int8..64,
// uint8..64, float16/32/64, bfloat16).
bool dtype_supported(DataType t);

class NDArray {
 public:
  NDArray() = default;
  explicit NDArray(Ref<TensorObj> obj) : obj_(std::move(obj)) {}

  // Uninitialised storage. Throws RuntimeError for an unsupported dtype, a negative
  // dimension or a tensor over TensorObj::kMaxBytes.
  static NDArray empty(const Shape& shape, DataType dtype, Device device = {});
  static NDArray zeros(const Shape& shape, DataType dtype, Device device = {});
  // A 0-d tensor holding `v` converted to `dtype`.
  static NDArray scalar(double v, DataType dtype);
  static NDArray scalar_int(int64_t v, DataType dtype);
  // Uninitialised storage `byte_offset` bytes into `storage`'s buffer (shared, kept
  // alive): one slot of a memory plan's arena. RuntimeError when it does not fit.
  static NDArray view(const NDArray& storage, size_t byte_offset, const Shape& shape, DataType dtype);

  bool defined() const { return static_cast<bool>(obj_); }
  DataType dtype() const { return obj_->dtype; }
  const Shape& shape() const { return obj_->shape; }
  size_t ndim() const { return obj_->shape.size(); }
  int64_t dim(size_t i) const { return obj_->shape[i]; }
  int64_t size() const { return obj_->size; }
  size_t nbytes() const { return obj_->nbytes; }
  Device device() const { return obj_->device; }
  void* raw() const { return obj_->data; }
  template <class T> T* data() const { return static_cast<T*>(obj_->data); }
  const Ref<TensorObj>& object() const { return obj_; }
  uint64_t serial() const { return obj_->serial; }

  NDArray copy() const;
  // Same data, another shape with the same element count (shares storage).
  NDArray reshaped(const Shape& shape) const;
  // Element i (row-major) converted to double / int64, whatever the dtype.
  double get_double(int64_t i) const;
  int64_t get_int(int64_t i) const;
  void set_double(int64_t i, double v) const;
  void set_int(int64_t i, int64_t v) const;

 private:
  Ref<TensorObj> obj_;
};

// Product of the dims (1 for a scalar); RuntimeError on a negative dim, or when the
// product of the non-zero dims overflows (numpy's rule: such a shape has no strides).
int64_t shape_size(const Shape& shape);
// Row-major strides in elements; RuntimeError when one overflows.
std::vector<int64_t> contiguous_strides(const Shape& shape);
// `(2, 3)`, as Relay prints shapes.
std::string shape_to_string(const Shape& shape);

}  // namespace relay::rt
