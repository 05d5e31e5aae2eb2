// Relations of the §3.4 reductions (reduce axes per reference §3.0.3).
#include <catch2/catch.hpp>

#include "tests/support/op_type.h"

using relay::testing::op_type;

namespace {
const char* const kData = "Tensor[(2, 3, 4), float32]";
}

TEST_CASE("reduce over listed axes", "[relations]") {
  CHECK(op_type("sum", {kData}, "axis=[1]") == "Tensor[(2, 4), float32]");
  CHECK(op_type("max", {kData}, "axis=[2, 0]") == "Tensor[(3), float32]");
  CHECK(op_type("mean", {kData}, "axis=[-1], keepdims=True") == "Tensor[(2, 3, 1), float32]");
  CHECK(op_type("prod", {kData}, "axis=[0, -1], keepdims=True") == "Tensor[(1, 3, 1), float32]");
  CHECK(op_type("all", {"Tensor[(5, 6), bool]"}, "axis=[0]") == "Tensor[(6), bool]");
  CHECK(op_type("min", {"Tensor[(5, 6), int8]"}, "axis=[1]") == "Tensor[(5), int8]");
}

TEST_CASE("reduce with axis None or empty reduces everything", "[relations]") {
  CHECK(op_type("sum", {kData}) == "float32");
  CHECK(op_type("any", {"Tensor[(2, 2), bool]"}, "axis=[]") == "bool");
  CHECK(op_type("sum", {kData}, "keepdims=True") == "Tensor[(1, 1, 1), float32]");
  // exclude is ignored when no axis is listed
  CHECK(op_type("sum", {kData}, "exclude=True") == "float32");
  CHECK(op_type("sum", {"float32"}) == "float32");
}

TEST_CASE("reduce with exclude reduces the axes not listed", "[relations]") {
  CHECK(op_type("sum", {kData}, "axis=[1], exclude=True") == "Tensor[(3), float32]");
  CHECK(op_type("sum", {kData}, "axis=[-2], keepdims=True, exclude=True") ==
        "Tensor[(1, 3, 1), float32]");
  // Excluding every axis leaves an empty reduce set: the shape is unchanged.
  CHECK(op_type("sum", {kData}, "axis=[0, 1, 2], exclude=True") == "Tensor[(2, 3, 4), float32]");
}

TEST_CASE("reduce keeps `?` and symbolic dims that are not reduced", "[relations]") {
  CHECK(op_type("sum", {"Tensor[(n, ?, 4), float32]"}, "axis=[0]") == "Tensor[(?, 4), float32]");
  CHECK(op_type("mean", {"Tensor[(n, ?, 4), float32]"}, "axis=[1], keepdims=True") ==
        "Tensor[(n, 1, 4), float32]");
  CHECK(op_type("sum", {"_"}, "axis=[1]") == "pending");
}

TEST_CASE("reduce reports bad axes", "[relations]") {
  CHECK(op_type("sum", {kData}, "axis=[3]") ==
        "error: axis 3 is out of range for a tensor of rank 3");
  CHECK(op_type("sum", {kData}, "axis=[-4]") ==
        "error: axis -4 is out of range for a tensor of rank 3");
  CHECK(op_type("sum", {"float32"}, "axis=[0]") ==
        "error: axis 0 is out of range for a tensor of rank 0");
  CHECK(op_type("sum", {kData}, "axis=[1, -2]") ==
        "error: `sum`: axes 1 and -2 both name dimension 1 of a rank-3 tensor");
  CHECK(op_type("max", {kData}, "axis=[0, 0], exclude=True") ==
        "error: `max`: axis 0 is listed twice");
  CHECK(op_type("sum", {"(float32, float32)"}).starts_with("error: `sum` expects a tensor"));
}

TEST_CASE("argmax and argmin give int32 positions", "[relations]") {
  CHECK(op_type("argmax", {"Tensor[(2, 3), float32]"}, "axis=[1]") == "Tensor[(2), int32]");
  CHECK(op_type("argmin", {"Tensor[(2, 3), float16]"}, "axis=[0], keepdims=True") ==
        "Tensor[(1, 3), int32]");
  CHECK(op_type("argmax", {"Tensor[(2, 3), float32]"}) == "int32");
  CHECK(op_type("argmax", {"Tensor[(n, 3, 5), int8]"}, "axis=[1], exclude=True, "
                                                        "select_last_index=True") ==
        "Tensor[(3), int32]");
  CHECK(op_type("argmax", {"float32"}) ==
        "error: `argmax` needs a tensor of rank at least 1, found `float32`");
  CHECK(op_type("argmin", {"Tensor[(2), float32]"}, "axis=[1]") ==
        "error: axis 1 is out of range for a tensor of rank 1");
  CHECK(op_type("argmin", {"_"}) == "pending");
}

TEST_CASE("variance reduces data and mean must have its rank", "[relations]") {
  CHECK(op_type("variance", {kData, "Tensor[(2, 1, 4), float32]"}, "axis=[1]") ==
        "Tensor[(2, 4), float32]");
  CHECK(op_type("variance", {kData, "Tensor[(1, 1, 1), float32]"},
                "keepdims=True, unbiased=True") == "Tensor[(1, 1, 1), float32]");
  CHECK(op_type("variance", {"Tensor[(n, 8), float32]", "Tensor[(n, 1), float32]"},
                "axis=[-1], keepdims=True") == "Tensor[(n, 1), float32]");
  CHECK(op_type("variance", {kData, "Tensor[(2, 4), float32]"}, "axis=[1]") ==
        "error: `variance`: data and mean must have the same rank: data has 3 dimensions "
        "(2, 3, 4), mean has 2 (2, 4)");
  CHECK(op_type("variance", {kData, "_"}, "axis=[1]") == "pending");
  CHECK(op_type("variance", {"_", "Tensor[(2, 1, 4), float32]"}) == "pending");
}
