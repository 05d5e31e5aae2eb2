/* RelayTensorView: the C ABI through which compiled kernels and reference kernels see a
 * tensor. A plain C struct (this header compiles as C), designed in the spirit of DLPack's
 * DLTensor: a data pointer plus a byte offset, the dtype as (code, bits, lanes), the number
 * of dimensions and pointers to its shape and strides, both counted in elements.
 *
 *   element (i0, ..., in-1) lives at
 *     (char*)data + byte_offset + (i0*strides[0] + ... + in-1*strides[n-1]) * bytes(dtype)
 *   strides == NULL means contiguous row-major (strides[k] = shape[k+1] * ... * shape[n-1]).
 *
 * A view owns nothing: `shape` and `strides` point into whoever made it (an NDArray's
 * shape vector, a compiled function's constant tables) and must outlive its use. The dtype
 * code is relay::DataType::Code (Int 0, UInt 1, Float 2, Handle 3, BFloat 4, DLPack's
 * order); bool is (UInt, 1, 1) stored in one byte.
 *
 * JIT-compiled kernels take `const RelayTensorView* views` (one per buffer parameter, in
 * the kernel's parameter order) and read `data + byte_offset` in their prologue
 * (compiler/llvm/codegen_stmt.cpp); the field offsets are fixed below because that
 * prologue addresses them by position. */
#ifndef RELAY_INTERPRETER_RUNTIME_TENSOR_VIEW_H_
#define RELAY_INTERPRETER_RUNTIME_TENSOR_VIEW_H_

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
extern "C" {
#else
#include <stddef.h>
#include <stdint.h>
#endif

typedef struct RelayDType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} RelayDType;

typedef struct RelayTensorView {
  void* data;             /* base of the allocation (or any pointer; see byte_offset) */
  int64_t byte_offset;    /* the first element is at (char*)data + byte_offset */
  const int64_t* shape;   /* ndim entries */
  const int64_t* strides; /* ndim entries, in elements; NULL: contiguous row-major */
  int32_t ndim;
  RelayDType dtype;
} RelayTensorView;

#ifdef __cplusplus
}  // extern "C"

// The generated prologue reads fields 0 and 1 of a 40-byte struct (codegen_stmt.cpp).
static_assert(offsetof(RelayTensorView, data) == 0);
static_assert(offsetof(RelayTensorView, byte_offset) == 8);
static_assert(offsetof(RelayTensorView, shape) == 16);
static_assert(offsetof(RelayTensorView, strides) == 24);
static_assert(offsetof(RelayTensorView, ndim) == 32);
static_assert(offsetof(RelayTensorView, dtype) == 36);
static_assert(sizeof(RelayTensorView) == 40);

#include "lang/base/dtype.h"

namespace relay::rt {

class NDArray;

inline DataType view_dtype(const RelayTensorView& v) {
  return DataType{static_cast<DataType::Code>(v.dtype.code), v.dtype.bits, v.dtype.lanes};
}
inline RelayDType relay_dtype(DataType t) { return RelayDType{static_cast<uint8_t>(t.code), t.bits, t.lanes}; }
// The first element's address.
inline void* view_data(const RelayTensorView& v) { return static_cast<char*>(v.data) + v.byte_offset; }

// A contiguous view of `a`'s storage; its shape points into `a`, which must outlive it.
RelayTensorView view_of(const NDArray& a);
// A view of raw storage with no shape (ndim 0): what a kernel that reads only the data
// pointer needs (tests and benchmarks that hold plain buffers).
inline RelayTensorView view_of_data(void* data) { return RelayTensorView{data, 0, nullptr, nullptr, 0, {}}; }

// Whether the view's elements are contiguous row-major (no strides, or the row-major ones).
bool view_is_contiguous(const RelayTensorView& v);
// Whether the view is exactly `a`'s storage: same first element, shape and dtype, contiguous.
bool view_is(const RelayTensorView& v, const NDArray& a);
// A fresh NDArray with the view's elements (strides honoured). RuntimeError for an
// unsupported dtype.
NDArray to_ndarray(const RelayTensorView& v);
// Writes `src`'s elements into the view (strides honoured). RuntimeError when the shapes or
// dtypes differ.
void copy_into(const RelayTensorView& dst, const NDArray& src);

}  // namespace relay::rt
#endif  // __cplusplus

#endif  // RELAY_INTERPRETER_RUNTIME_TENSOR_VIEW_H_
