// Relations of the §3.6 sorting and search operators.
#include <catch2/catch.hpp>

#include "tests/support/op_type.h"

using relay::testing::op_type;

TEST_CASE("sort keeps the type, argsort gives indices of the requested dtype", "[relations]") {
  CHECK(op_type("sort", {"Tensor[(3, ?), float32]"}) == "Tensor[(3, ?), float32]");
  CHECK(op_type("sort", {"Tensor[(3, 4), int8]"}, "axis=0, is_ascend=False") ==
        "Tensor[(3, 4), int8]");
  CHECK(op_type("argsort", {"Tensor[(n, 4), float32]"}, "axis=1, dtype=\"int32\"") ==
        "Tensor[(n, 4), int32]");
  CHECK(op_type("argsort", {"Tensor[(5), float32]"}, "dtype=\"int64\"") == "Tensor[(5), int64]");
  // TVM's attrs default the dtype to void, and its relation uses it as it is.
  CHECK(op_type("argsort", {"Tensor[(5), float32]"}) == "Tensor[(5), void]");
  CHECK(op_type("sort", {"_"}) == "pending");
  CHECK(op_type("argsort", {"_"}, "dtype=\"int32\"") == "pending");
}

TEST_CASE("sort and argsort check their axis", "[relations]") {
  CHECK(op_type("sort", {"Tensor[(3, 4), float32]"}, "axis=2") ==
        "error: axis 2 is out of range for a tensor of rank 2");
  CHECK(op_type("argsort", {"Tensor[(3, 4), float32]"}, "axis=-3, dtype=\"int32\"") ==
        "error: axis -3 is out of range for a tensor of rank 2");
  CHECK(op_type("sort", {"float32"}) == "error: axis -1 is out of range for a tensor of rank 0");
}

TEST_CASE("topk replaces the axis dimension by k", "[relations]") {
  const char* data = "Tensor[(3, 5), float32]";
  CHECK(op_type("topk", {data}, "k=2, axis=1, dtype=\"int32\"") ==
        "(Tensor[(3, 2), float32], Tensor[(3, 2), int32])");
  CHECK(op_type("topk", {data}, "k=2, axis=-2, ret_type=\"values\", dtype=\"int32\"") ==
        "Tensor[(2, 5), float32]");
  CHECK(op_type("topk", {data}, "k=1, ret_type=\"indices\", dtype=\"int64\"") ==
        "Tensor[(3, 1), int64]");
  // k < 1 keeps the whole dimension; k None is decided at run time.
  CHECK(op_type("topk", {data}, "k=0, ret_type=\"values\", dtype=\"int32\"") ==
        "Tensor[(3, 5), float32]");
  CHECK(op_type("topk", {"Tensor[(n, ?), float32]"},
                "k=-1, ret_type=\"indices\", dtype=\"int32\"") == "Tensor[(n, ?), int32]");
  CHECK(op_type("topk", {data}, "k=None, ret_type=\"values\", dtype=\"int32\"") ==
        "Tensor[(3, ?), float32]");
  CHECK(op_type("topk", {"Tensor[(n, 5), float32]"}, "k=3, axis=0, dtype=\"int32\"") ==
        "(Tensor[(3, 5), float32], Tensor[(3, 5), int32])");
  CHECK(op_type("topk", {"_"}, "k=2, dtype=\"int32\"") == "pending");
}

TEST_CASE("topk reports a bad axis or ret_type", "[relations]") {
  CHECK(op_type("topk", {"Tensor[(3, 5), float32]"}, "k=2, axis=2, dtype=\"int32\"") ==
        "error: axis 2 is out of range for a tensor of rank 2");
  CHECK(op_type("topk", {"float32"}, "k=1, dtype=\"int32\"") ==
        "error: axis -1 is out of range for a tensor of rank 0");
  CHECK(op_type("topk", {"Tensor[(3, 5), float32]"}, "k=2, ret_type=\"all\", dtype=\"int32\"") ==
        "error: `topk`: unknown ret_type \"all\"");
  CHECK(op_type("topk", {"Tensor[(3, 5), float32]"}).starts_with("error:"));  // k is required
}

TEST_CASE("searchsorted gives positions shaped like values", "[relations]") {
  CHECK(op_type("searchsorted", {"Tensor[(10), float32]", "Tensor[(2, 3), float32]"}) ==
        "Tensor[(2, 3), int32]");
  CHECK(op_type("searchsorted", {"Tensor[(2, 10), float32]", "Tensor[(2, 3), float32]"},
                "right=True, dtype=\"int64\"") == "Tensor[(2, 3), int64]");
  CHECK(op_type("searchsorted", {"Tensor[(?, n, 10), float32]", "Tensor[(4, n, 3), float32]"}) ==
        "Tensor[(4, n, 3), int32]");
  CHECK(op_type("searchsorted", {"_", "Tensor[(3), float32]"}) == "pending");
  CHECK(op_type("searchsorted", {"Tensor[(3), float32]", "_"}) == "pending");
}

TEST_CASE("searchsorted checks ranks and leading dimensions", "[relations]") {
  CHECK(op_type("searchsorted", {"Tensor[(10), float32]", "float32"}) ==
        "error: `searchsorted` expects `values` of rank at least 1, found `float32`");
  CHECK(op_type("searchsorted", {"float32", "Tensor[(3), float32]"}) ==
        "error: `searchsorted` expects `sorted_sequence` of rank at least 1, found `float32`");
  CHECK(op_type("searchsorted", {"Tensor[(2, 10), float32]", "Tensor[(2, 3, 4), float32]"}) ==
        "error: `searchsorted` expects `sorted_sequence` of rank 1 or the rank of `values` (3), "
        "found `Tensor[(2, 10), float32]`");
  CHECK(op_type("searchsorted", {"Tensor[(2, 10), float32]", "Tensor[(3, 4), float32]"}) ==
        "error: `searchsorted`: leading dimension 0 differs: sorted_sequence has 2, values has 3");
  CHECK(op_type("searchsorted", {"Tensor[(n, 10), float32]", "Tensor[(m, 4), float32]"}) ==
        "error: `searchsorted`: leading dimension 0 differs: sorted_sequence has n, values has m");
}
