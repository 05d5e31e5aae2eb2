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
