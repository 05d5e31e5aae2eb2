#include "interpreter/runtime/tensor_view.h"

#include <cstring>

#include "interpreter/runtime/ndarray.h"

namespace relay::rt {

namespace {

Shape shape_of(const RelayTensorView& v) { return Shape(v.shape, v.shape + v.ndim); }

// Calls f(view element offset in elements, row-major index) for every element.
template <class F>
void for_each_element(const RelayTensorView& v, F&& f) {
  const Shape shape = shape_of(v);
  const int64_t n = shape_size(shape);
  if (n == 0) return;
  const std::vector<int64_t> strides =
      v.strides ? std::vector<int64_t>(v.strides, v.strides + v.ndim) : contiguous_strides(shape);
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(off, i);
    for (size_t d = shape.size(); d-- > 0;) {  // odometer: the last dimension fastest
      off += strides[d];
      if (++idx[d] < shape[d]) break;
      off -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

RelayTensorView view_of(const NDArray& a) {
  return RelayTensorView{a.raw(), 0, a.shape().data(), nullptr, static_cast<int32_t>(a.ndim()), relay_dtype(a.dtype())};
}

bool view_is_contiguous(const RelayTensorView& v) {
  if (!v.strides) return true;
  int64_t expect = 1;
  for (int32_t d = v.ndim; d-- > 0;) {
    if (v.shape[d] != 1 && v.strides[d] != expect) return false;
    expect *= v.shape[d];
  }
  return true;
}

bool view_is(const RelayTensorView& v, const NDArray& a) {
  return a.defined() && view_data(v) == a.raw() && view_dtype(v) == a.dtype() && shape_of(v) == a.shape() &&
         view_is_contiguous(v);
}

NDArray to_ndarray(const RelayTensorView& v) {
  NDArray out = NDArray::empty(shape_of(v), view_dtype(v));
  const size_t elem = dtype_bytes(out.dtype());
  const char* src = static_cast<const char*>(view_data(v));
  if (view_is_contiguous(v)) {
    if (out.nbytes()) std::memcpy(out.raw(), src, out.nbytes());
    return out;
  }
  char* dst = static_cast<char*>(out.raw());
  for_each_element(v, [&](int64_t off, int64_t i) { std::memcpy(dst + i * elem, src + off * elem, elem); });
  return out;
}

void copy_into(const RelayTensorView& dst, const NDArray& src) {
  if (view_dtype(dst) != src.dtype() || shape_of(dst) != src.shape())
    throw RuntimeError("cannot copy a tensor of shape " + shape_to_string(src.shape()) + " and dtype " +
                       dtype_name(src.dtype()) + " into a view of shape " + shape_to_string(shape_of(dst)) +
                       " and dtype " + dtype_name(view_dtype(dst)));
  const size_t elem = dtype_bytes(src.dtype());
  char* out = static_cast<char*>(view_data(dst));
  const char* in = static_cast<const char*>(src.raw());
  if (view_is_contiguous(dst)) {
    if (src.nbytes() && out != in) std::memmove(out, in, src.nbytes());
    return;
  }
  for_each_element(dst, [&](int64_t off, int64_t i) { std::memcpy(out + off * elem, in + i * elem, elem); });
}

}  // namespace relay::rt
