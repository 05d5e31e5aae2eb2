// RelayTensorView (interpreter/runtime/tensor_view.h): the C ABI view of a tensor shared by
// compiled kernels and reference kernels, and its conversions from and to NDArray.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "interpreter/runtime/ndarray.h"
#include "interpreter/runtime/tensor_view.h"

using namespace relay;
using namespace relay::rt;

namespace {
NDArray iota(const Shape& shape) {
  NDArray a = NDArray::empty(shape, DataType::float_(32));
  for (int64_t i = 0; i < a.size(); ++i) a.data<float>()[i] = static_cast<float>(i);
  return a;
}
}  // namespace

TEST_CASE("a view of an NDArray describes its storage", "[runtime][tensor_view]") {
  NDArray a = iota({2, 3});
  RelayTensorView v = view_of(a);
  CHECK(view_data(v) == a.raw());
  CHECK(v.ndim == 2);
  CHECK(v.shape[0] == 2);
  CHECK(v.shape[1] == 3);
  CHECK(v.strides == nullptr);
  CHECK(view_dtype(v) == DataType::float_(32));
  CHECK(view_is_contiguous(v));
  CHECK(view_is(v, a));
  CHECK_FALSE(view_is(v, a.copy()));
  NDArray b = to_ndarray(v);
  CHECK(b.raw() != a.raw());
  CHECK(b.shape() == a.shape());
  for (int64_t i = 0; i < a.size(); ++i) CHECK(b.data<float>()[i] == a.data<float>()[i]);
}

TEST_CASE("a strided view with a byte offset reads and writes the elements it names", "[runtime][tensor_view]") {
  NDArray a = iota({3, 4});
  // The transpose of rows 1..2: shape (4, 2), strides (1, 4), starting at element (1, 0).
  const int64_t shape[] = {4, 2}, strides[] = {1, 4};
  RelayTensorView t{a.raw(), 4 * sizeof(float), shape, strides, 2, relay_dtype(DataType::float_(32))};
  CHECK_FALSE(view_is_contiguous(t));
  NDArray b = to_ndarray(t);
  REQUIRE(b.shape() == Shape{4, 2});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 2; ++j) CHECK(b.data<float>()[i * 2 + j] == static_cast<float>((1 + j) * 4 + i));
  NDArray neg = NDArray::empty({4, 2}, DataType::float_(32));
  for (int64_t i = 0; i < 8; ++i) neg.data<float>()[i] = -b.data<float>()[i];
  copy_into(t, neg);
  for (int64_t i = 0; i < 12; ++i) CHECK(a.data<float>()[i] == (i < 4 ? static_cast<float>(i) : -static_cast<float>(i)));
  CHECK_THROWS_AS(copy_into(t, iota({2, 4})), RuntimeError);
}

TEST_CASE("unit dimensions do not break contiguity", "[runtime][tensor_view]") {
  const int64_t shape[] = {1, 5}, strides[] = {99, 1};
  RelayTensorView v{nullptr, 0, shape, strides, 2, relay_dtype(DataType::int_(32))};
  CHECK(view_is_contiguous(v));
  CHECK(view_dtype(v) == DataType::int_(32));
}
