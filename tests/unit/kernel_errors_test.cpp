// Run-time failures of the elementwise, reduction and sorting kernels: each is a
// RuntimeError with a message naming the operator and the offending values, never a trap
// (the golden data only covers successful calls).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "interpreter/runtime/ndarray.h"
#include "tests/support/run_program.h"

using relay::rt::NDArray;
using relay::testing::run_main;

namespace {

NDArray ints(std::initializer_list<int64_t> v, relay::DataType t = relay::DataType::int_(32)) {
  NDArray a = NDArray::empty({static_cast<int64_t>(v.size())}, t);
  int64_t i = 0;
  for (int64_t x : v) a.set_int(i++, x);
  return a;
}

std::string binary(const std::string& op, const std::string& dtype, int64_t n) {
  std::string t = "Tensor[(" + std::to_string(n) + "), " + dtype + "]";
  return "#[version = \"0.0.5\"]\ndef @main(%a: " + t + ", %b: " + t + ") {\n  " + op + "(%a, %b)\n}\n";
}

std::string unary(const std::string& op, const std::string& type, const std::string& attrs) {
  return "#[version = \"0.0.5\"]\ndef @main(%a: " + type + ") {\n  " + op + "(%a" + (attrs.empty() ? "" : ", " + attrs) +
         ")\n}\n";
}

}  // namespace

TEST_CASE("kernels: integer division by zero is a RuntimeError", "[kernels]") {
  for (const char* op : {"divide", "floor_divide", "trunc_divide", "mod", "floor_mod", "trunc_mod"}) {
    for (const char* dtype : {"int32", "int8", "uint64"}) {
      relay::DataType t = *relay::parse_dtype(dtype);
      auto r = run_main(binary(op, dtype, 3), {ints({1, 2, 3}, t), ints({1, 0, 2}, t)});
      INFO(op << " " << dtype);
      CHECK(r.error.find("integer division by zero in `" + std::string(op) + "`") == 0);
      CHECK(r.error.find("flat index 1") != std::string::npos);
    }
  }
  // Broadcast against a zero scalar, and an empty output (nothing is divided: no error).
  auto r = run_main(
      "#[version = \"0.0.5\"]\ndef @main(%a: Tensor[(2), int64], %b: Tensor[(), int64]) {\n  divide(%a, %b)\n}\n",
      {ints({4, 5}, relay::DataType::int_(64)), NDArray::scalar_int(0, relay::DataType::int_(64))});
  CHECK(r.error.find("integer division by zero in `divide`: rhs is 0") == 0);
  r = run_main(binary("floor_mod", "int32", 0), {ints({}), ints({})});
  CHECK(r.error == "");
  // Float division by zero is IEEE arithmetic, not an error.
  NDArray one = NDArray::scalar(1.0, relay::DataType::float_(32)).reshaped({1});
  NDArray zero = NDArray::scalar(0.0, relay::DataType::float_(32)).reshaped({1});
  r = run_main(binary("divide", "float32", 1), {one, zero});
  REQUIRE(r.error == "");
  CHECK(std::isinf(r.value.tensor().get_double(0)));
}

TEST_CASE("kernels: integer mean and variance over nothing are divisions by zero", "[kernels]") {
  NDArray x = NDArray::empty({0, 2}, relay::DataType::int_(32));
  auto r = run_main(unary("mean", "Tensor[(0, 2), int32]", "axis=[0]"), {x});
  CHECK(r.error.find("integer division by zero in `mean`") == 0);
  NDArray y = ints({1, 2});
  r = run_main("#[version = \"0.0.5\"]\ndef @main(%a: Tensor[(2), int32], %m: Tensor[(1), int32]) {\n"
               "  variance(%a, %m, axis=[0], unbiased=True)\n}\n",
               {y.reshaped({2}), ints({1})});
  CHECK(r.error == "");
  r = run_main("#[version = \"0.0.5\"]\ndef @main(%a: Tensor[(1), int32], %m: Tensor[(1), int32]) {\n"
               "  variance(%a, %m, axis=[0], unbiased=True)\n}\n",
               {ints({1}), ints({1})});
  CHECK(r.error.find("integer division by zero in `variance`") == 0);
}

TEST_CASE("kernels: bad elementwise inputs are RuntimeErrors", "[kernels]") {
  auto r = run_main(unary("invert_permutation", "Tensor[(3), int32]", ""), {ints({0, 3, 1})});
  CHECK(r.error.find("`invert_permutation`: data is not a permutation of 0..2: element 1 is 3, out of range") == 0);
  r = run_main(unary("invert_permutation", "Tensor[(3), int32]", ""), {ints({0, 1, 1})});
  CHECK(r.error.find("which occurs twice") != std::string::npos);
  r = run_main(unary("exp", "Tensor[(3), int32]", ""), {ints({0, 1, 1})});
  CHECK(r.error == "`exp` is defined for floating-point tensors, not int32");
  NDArray f = NDArray::scalar(1.0, relay::DataType::float_(32)).reshaped({1});
  r = run_main(binary("bitwise_and", "float32", 1), {f, f});
  CHECK(r.error == "`bitwise_and` is defined for integer and bool tensors, not float32");
  r = run_main(binary("power", "int32", 2), {ints({0, 2}), ints({-1, 1})});
  CHECK(r.error.find("integer division by zero in `power`") == 0);
}

TEST_CASE("kernels: topk with k beyond the axis is a RuntimeError", "[kernels]") {
  NDArray x = NDArray::zeros({2, 3}, relay::DataType::float_(32));
  auto r = run_main(unary("topk", "Tensor[(2, 3), float32]", "k=4, dtype=\"int32\""), {x});
  CHECK(r.error.find("`topk`: k = 4 exceeds the size 3 of axis 1") == 0);
}
