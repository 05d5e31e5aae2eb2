// collapse_sum_like / collapse_sum_to are TVM's topi::collapse_sum: a `sum` over the axes
// broadcasting created, folded in the data's dtype (float32 here, not a wider type), each
// output over its elements in row-major order. The compiled code lowers them as that sum
// (tests/compiler/pipeline_test.cpp holds it to these results bit for bit).
#include <catch2/catch.hpp>

#include <string>

#include "tests/support/run_program.h"

namespace t = relay::testing;
using relay::rt::NDArray;

namespace {

NDArray row(const std::vector<float>& v, relay::rt::Shape shape) {
  NDArray a = NDArray::empty(shape, relay::DataType::float_(32));
  for (size_t i = 0; i < v.size(); ++i) a.set_double(static_cast<int64_t>(i), v[i]);
  return a;
}

}  // namespace

TEST_CASE("collapse_sum folds in float32 as TVM's sum does, and equals sum over the collapsed axes", "[kernels]") {
  // 2^24 + 1 rounds back to 2^24 in float32, twice; a wider accumulator would give 2^24 + 2
  const NDArray x = row({16777216.0f, 1.0f, 1.0f, 3.0f, 5.0f, 7.0f}, {2, 3});
  auto like = t::run_main(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(2, 1), float32]) {\n"
      "  (collapse_sum_like(%x, %y), sum(%x, axis=[1], keepdims=True))\n}\n",
      std::vector<NDArray>{x, NDArray::zeros({2, 1}, relay::DataType::float_(32))});
  REQUIRE(like.error == "");
  const NDArray got = like.value.tuple().fields[0].tensor();
  const NDArray summed = like.value.tuple().fields[1].tensor();
  REQUIRE(got.shape() == relay::rt::Shape{2, 1});
  CHECK(got.get_double(0) == 16777216.0);
  CHECK(got.get_double(1) == 15.0);
  CHECK(summed.get_double(0) == got.get_double(0));

  // leading axes and a kept 1: (2, 3) to (1, 3) and to ()
  auto to = t::run_main(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), float32], %s: Tensor[(2), int64], %e: Tensor[(0), int64]) {\n"
      "  (collapse_sum_to(%x, %s, shape=[1, 3]), collapse_sum_to(%x, %e, shape=[]))\n}\n",
      std::vector<NDArray>{x, NDArray::zeros({2}, relay::DataType::int_(64)), NDArray::zeros({0}, relay::DataType::int_(64))});
  REQUIRE(to.error == "");
  const NDArray cols = to.value.tuple().fields[0].tensor();
  const NDArray all = to.value.tuple().fields[1].tensor();
  REQUIRE(cols.shape() == relay::rt::Shape{1, 3});
  CHECK(cols.get_double(0) == 16777220.0);  // 2^24 + 3, rounded to even
  CHECK(cols.get_double(2) == 8.0);
  CHECK(all.shape().empty());
  float folded = 0.0f;  // row-major, rounding to float32 after each step
  for (float v : {16777216.0f, 1.0f, 1.0f, 3.0f, 5.0f, 7.0f}) folded += v;
  CHECK(all.get_double(0) == static_cast<double>(folded));
}
