#include <catch2/catch.hpp>

#include "tests/support/op_type.h"

using relay::testing::op_type;
using relay::testing::run_op_type;

TEST_CASE("identity relation keeps the input type", "[relations]") {
  CHECK(op_type("exp", {"Tensor[(2, 3), float32]"}) == "Tensor[(2, 3), float32]");
  CHECK(op_type("nn.relu", {"Tensor[(n, ?), float16]"}) == "Tensor[(n, ?), float16]");
  CHECK(op_type("exp", {"_"}) == "pending");
  CHECK(op_type("exp", {"(float32, float32)"}).starts_with("error: `exp` expects a tensor"));
}

TEST_CASE("broadcast relation", "[relations]") {
  CHECK(op_type("add", {"Tensor[(1, 3), float32]", "Tensor[(4, 1), float32]"}) ==
        "Tensor[(4, 3), float32]");
  CHECK(op_type("add", {"Tensor[(5, 1, 3), float32]", "Tensor[(3), float32]"}) ==
        "Tensor[(5, 1, 3), float32]");
  CHECK(op_type("add", {"Tensor[(?), float32]", "Tensor[(5), float32]"}) == "Tensor[(5), float32]");
  CHECK(op_type("add", {"Tensor[(1), float32]", "Tensor[(?), float32]"}) == "Tensor[(?), float32]");
  CHECK(op_type("add", {"Tensor[(n, 3), float32]", "Tensor[(n, 1), float32]"}) ==
        "Tensor[(n, 3), float32]");
  CHECK(op_type("less", {"Tensor[(2), int32]", "int32"}) == "Tensor[(2), bool]");
  CHECK(op_type("add", {"Tensor[(3), float32]", "Tensor[(4), float32]"}) ==
        "error: incompatible broadcast: dimension 0 is 3 in `Tensor[(3), float32]` and 4 in "
        "`Tensor[(4), float32]`");
  CHECK(op_type("add", {"Tensor[(n), float32]", "Tensor[(m), float32]"}).starts_with(
      "error: incompatible broadcast: dimension 0 is n"));
  CHECK(op_type("add", {"float32", "int32"}) ==
        "error: data types float32 and int32 do not match in `add`");
}

TEST_CASE("ops whose attributes only matter at run time keep the input type", "[relations]") {
  CHECK(op_type("clip", {"Tensor[(1, 16, ?), float32]"}, "a_min=0f, a_max=6f") ==
        "Tensor[(1, 16, ?), float32]");
  CHECK(op_type("clip", {"Tensor[(2), float32]"}, "a_min=0f").starts_with("error:"));
  CHECK(op_type("fixed_point_multiply", {"Tensor[(n, 8), int32]"},
                "multiplier=1073741824, shift=-1") == "Tensor[(n, 8), int32]");
  CHECK(op_type("ones_like", {"Tensor[(2, 3), int8]"}) == "Tensor[(2, 3), int8]");
  CHECK(op_type("zeros_like", {"float64"}) == "float64");
  CHECK(op_type("invert_permutation", {"Tensor[(5), int32]"}) == "Tensor[(5), int32]");
  CHECK(op_type("clip", {"_"}, "a_min=0f, a_max=1f") == "pending");
}

TEST_CASE("isfinite, isinf and isnan give a bool tensor of the input's shape", "[relations]") {
  CHECK(op_type("isnan", {"Tensor[(2, ?), float32]"}) == "Tensor[(2, ?), bool]");
  CHECK(op_type("isinf", {"Tensor[(n), float16]"}) == "Tensor[(n), bool]");
  CHECK(op_type("isfinite", {"float64"}) == "bool");
  CHECK(op_type("isnan", {"_"}) == "pending");
  CHECK(op_type("isnan", {"(float32,)"}).starts_with("error: `isnan` expects a tensor"));
}

TEST_CASE("shape_of gives a 1-D tensor of the rank, ndarray_size a scalar", "[relations]") {
  CHECK(op_type("shape_of", {"Tensor[(n, 3, ?), float32]"}, "dtype=\"int32\"") ==
        "Tensor[(3), int32]");
  CHECK(op_type("shape_of", {"Tensor[(7), float32]"}, "dtype=\"int64\"") == "Tensor[(1), int64]");
  // RankShape of a rank-0 shape is empty: the result is a scalar, not a (0) tensor.
  CHECK(op_type("shape_of", {"float32"}, "dtype=\"int32\"") == "int32");
  // Without a dtype TVM's attrs hold void, and its relation uses it as it is.
  CHECK(op_type("shape_of", {"Tensor[(2, 2), float32]"}) == "Tensor[(2), void]");
  CHECK(op_type("ndarray_size", {"Tensor[(n, 4), float32]"}, "dtype=\"int32\"") == "int32");
  CHECK(op_type("ndarray_size", {"int8"}, "dtype=\"int64\"") == "int64");
  CHECK(op_type("shape_of", {"_"}, "dtype=\"int32\"") == "pending");
  CHECK(op_type("ndarray_size", {"_"}, "dtype=\"int32\"") == "pending");
}

TEST_CASE("every §3.2 and §3.3 operator has a relation", "[relations]") {
  for (const char* op :
       {"abs", "ceil", "trunc", "bitwise_not", "copy", "ones_like", "zeros_like",
        "invert_permutation", "logical_not", "isfinite", "isinf", "isnan", "clip",
        "fixed_point_multiply", "shape_of", "ndarray_size", "add", "right_shift", "logical_xor",
        "greater_equal"}) {
    INFO(op);
    CHECK(relay::find_relation(op) != nullptr);
  }
}
