// Relations of §3.5 (tensor transforms), through op_type: the calls are written the way
// TVM prints them.
#include <catch2/catch.hpp>

#include "lang/ops/op_registry.h"
#include "tests/support/op_type.h"

using relay::testing::op_type;
using relay::testing::run_op_type;

namespace {

const char* const kF = "Tensor[(2, 3, 4), float32]";

bool is_error(const std::string& result, const std::string& fragment) {
  return result.starts_with("error: ") && result.find(fragment) != std::string::npos;
}

// Runs `op`'s relation with a tuple input whose second field is still unknown.
std::string with_unknown_field(const std::string& op) {
  using namespace relay;
  TypeArena arena;
  Ty known = arena.tensor({Dim::constant(2)}, DataType::float_(32));
  Ty input = arena.tuple({known, arena.hole(7)});
  CallAttrs attrs = CallAttrs::from_values(find_op_signature(op)->attrs, {});
  RelationOutcome r = eval_relation(op, std::span<const Ty>(&input, 1), attrs, arena);
  return r.status == RelStatus::Pending ? "pending" : "not pending";
}

}  // namespace

TEST_CASE("cast, reinterpret and cast_like", "[relations]") {
  CHECK(op_type("cast", {kF}, "dtype=\"int8\"") == "Tensor[(2, 3, 4), int8]");
  CHECK(op_type("reinterpret", {"Tensor[(n), float32]"}, "dtype=\"int32\"") ==
        "Tensor[(n), int32]");
  CHECK(op_type("cast_like", {"Tensor[(2, ?), float32]", "Tensor[(5), float16]"}) ==
        "Tensor[(2, ?), float16]");
  CHECK(op_type("cast", {"_"}, "dtype=\"int8\"") == "pending");
}

TEST_CASE("reshape: positive sizes and -1", "[relations]") {
  CHECK(op_type("reshape", {kF}, "newshape=[6, 4]") == "Tensor[(6, 4), float32]");
  CHECK(op_type("reshape", {kF}, "newshape=[-1, 4]") == "Tensor[(6, 4), float32]");
  CHECK(op_type("reshape", {kF}, "newshape=[-1]") == "Tensor[(24), float32]");
  CHECK(op_type("reshape", {"Tensor[(1, 1), float32]"}, "newshape=[]") == "float32");
  // symbolic: the placeholder is computed with Dim arithmetic
  CHECK(op_type("reshape", {"Tensor[(n, 4), float32]"}, "newshape=[-1]") ==
        "Tensor[(4 * n), float32]");
  CHECK(op_type("reshape", {"Tensor[(n, 4), float32]"}, "newshape=[-1, 2]") ==
        "Tensor[(2 * n, 2), float32]");
  // `?` makes the placeholder `?`
  CHECK(op_type("reshape", {"Tensor[(?, 4), float32]"}, "newshape=[-1, 2]") ==
        "Tensor[(?, 2), float32]");
}

TEST_CASE("reshape: 0, -2, -3, -4 and allowzero", "[relations]") {
  // 0 copies the input dim under the cursor; -1 also advances the cursor
  CHECK(op_type("reshape", {kF}, "newshape=[0, -1]") == "Tensor[(2, 12), float32]");
  CHECK(op_type("reshape", {kF}, "newshape=[-1, 0]") == "Tensor[(8, 3), float32]");
  CHECK(op_type("reshape", {"Tensor[(n, 3, 4), float32]"}, "newshape=[0, -1]") ==
        "Tensor[(n, 12), float32]");
  // -2 copies the rest; a positive size also moves the cursor
  CHECK(op_type("reshape", {kF}, "newshape=[-2]") == "Tensor[(2, 3, 4), float32]");
  CHECK(op_type("reshape", {kF}, "newshape=[2, -2]") == "Tensor[(2, 3, 4), float32]");
  CHECK(op_type("reshape", {kF}, "newshape=[0, 0, -2]") == "Tensor[(2, 3, 4), float32]");
  CHECK(op_type("reshape", {kF}, "newshape=[-1, -2]") == "Tensor[(2, 3, 4), float32]");
  // -3 merges two dims
  CHECK(op_type("reshape", {kF}, "newshape=[-3, 4]") == "Tensor[(6, 4), float32]");
  CHECK(op_type("reshape", {"Tensor[(n, m, 4), float32]"}, "newshape=[-3, -2]") ==
        "Tensor[(m * n, 4), float32]");
  CHECK(op_type("reshape", {"Tensor[(?, 3, 4), float32]"}, "newshape=[-3, 0]") ==
        "Tensor[(?, 4), float32]");
  // -4 splits one dim, one part may be -1
  CHECK(op_type("reshape", {kF}, "newshape=[-4, 1, 2, -2]") == "Tensor[(1, 2, 3, 4), float32]");
  CHECK(op_type("reshape", {"Tensor[(8, 3), float32]"}, "newshape=[-4, -1, 2, 0]") ==
        "Tensor[(4, 2, 3), float32]");
  CHECK(op_type("reshape", {"Tensor[(8, 3), float32]"}, "newshape=[-4, 4, -1, 0]") ==
        "Tensor[(4, 2, 3), float32]");
  CHECK(op_type("reshape", {"Tensor[(?, 3), float32]"}, "newshape=[-4, 4, -1, 0]") ==
        "Tensor[(4, ?, 3), float32]");
  // allowzero: 0 is a literal zero-sized dim
  CHECK(op_type("reshape", {"Tensor[(0, 3), float32]"}, "newshape=[3, 0], allowzero=True") ==
        "Tensor[(3, 0), float32]");
  // without it, 0 copies dim 1 of the input
  CHECK(is_error(op_type("reshape", {"Tensor[(0, 3), float32]"}, "newshape=[3, 0]"),
                 "(0 elements) into (3, 3) (9 elements)"));
}

TEST_CASE("reshape errors", "[relations]") {
  CHECK(op_type("reshape", {kF}, "newshape=[4, 5]") ==
        "error: `reshape`: cannot reshape data of shape (2, 3, 4) (24 elements) into (4, 5) "
        "(20 elements)");
  CHECK(is_error(op_type("reshape", {kF}, "newshape=[5, -1]"), "(24 elements) into (5, 4)"));
  CHECK(is_error(op_type("reshape", {"Tensor[(n, 4), float32]"}, "newshape=[0, 2]"),
                 "(4 * n elements) into (n, 2) (2 * n elements)"));
  CHECK(op_type("reshape", {kF}, "newshape=[-1, -1]") ==
        "error: `reshape`: only one dim can be inferred, but -1 appears at positions 0 and 1");
  CHECK(op_type("reshape", {kF}, "newshape=[-5]") ==
        "error: `reshape`: unsupported special value -5 at position 0 of `newshape`");
  CHECK(op_type("reshape", {"Tensor[(2), float32]"}, "newshape=[0, 0]") ==
        "error: `reshape`: 0 at position 1 copies a dim of data, but data has no dims left (it "
        "has rank 1)");
  CHECK(op_type("reshape", {"Tensor[(6), float32]"}, "newshape=[-3]") ==
        "error: `reshape`: -3 at position 0 merges two dims of data, but data has only 1 dim left");
  CHECK(op_type("reshape", {"Tensor[(6), float32]"}, "newshape=[-4, 2]") ==
        "error: `reshape`: -4 at position 0 must be followed by two sizes");
  CHECK(op_type("reshape", {"Tensor[(6), float32]"}, "newshape=[-4, -1, -1]") ==
        "error: `reshape`: -4 at position 0: only one of the two split sizes can be -1");
  CHECK(op_type("reshape", {"Tensor[(6), float32]"}, "newshape=[-4, 2, 2]") ==
        "error: `reshape`: -4 at position 0 splits a dim of size 6 into 2 * 2");
  CHECK(op_type("reshape", {"Tensor[(7), float32]"}, "newshape=[-4, 2, -1]") ==
        "error: `reshape`: -4 at position 0: a dim of size 7 is not divisible by 2");
  CHECK(op_type("reshape", {"Tensor[(0, 3), float32]"}, "newshape=[0, -1], allowzero=True") ==
        "error: `reshape`: cannot infer the -1 at position 1: the other new dims multiply to 0");
  CHECK(op_type("reshape", {kF}, "newshape=None") ==
        "error: `reshape`: `newshape` must be a list of integers, found None");
}

TEST_CASE("contrib_reverse_reshape works from the right", "[relations]") {
  // TVM's example: (10, 5, 4) with [-1, 0] -> (50, 4)
  CHECK(op_type("contrib_reverse_reshape", {"Tensor[(10, 5, 4), float32]"}, "newshape=[-1, 0]") ==
        "Tensor[(50, 4), float32]");
  CHECK(op_type("reshape", {"Tensor[(10, 5, 4), float32]"}, "newshape=[-1, 0]") ==
        "Tensor[(40, 5), float32]");
  CHECK(op_type("contrib_reverse_reshape", {kF}, "newshape=[0, -3]") == "Tensor[(2, 12), float32]");
  CHECK(is_error(op_type("contrib_reverse_reshape", {kF}, "newshape=[-1, -1, 0]"),
                 "-1 appears at positions 0 and 1"));
}

TEST_CASE("reshape_like", "[relations]") {
  CHECK(op_type("reshape_like", {kF, "Tensor[(6, 4), int8]"}) == "Tensor[(6, 4), float32]");
  CHECK(op_type("reshape_like", {kF, "Tensor[(6, 9), int8]"},
                "lhs_begin=0, lhs_end=2, rhs_begin=0, rhs_end=1") == "Tensor[(6, 4), float32]");
  CHECK(op_type("reshape_like", {kF, "Tensor[(7, 6), int8]"},
                "lhs_begin=-3, lhs_end=-1, rhs_begin=1") == "Tensor[(6, 4), float32]");
  CHECK(op_type("reshape_like", {kF, "Tensor[(5, 5), int8]"}) ==
        "error: `reshape_like`: cannot reshape data of shape (2, 3, 4) (24 elements) into (5, 5) "
        "(25 elements)");
  CHECK(is_error(op_type("reshape_like", {kF, "Tensor[(24), int8]"}, "lhs_begin=2, lhs_end=1"),
                 "lhs_begin..lhs_end does not select a range of the 3 dims of data"));
}

TEST_CASE("expand_dims", "[relations]") {
  CHECK(op_type("expand_dims", {kF}, "axis=1") == "Tensor[(2, 1, 3, 4), float32]");
  CHECK(op_type("expand_dims", {kF}, "axis=-1, num_newaxis=2") ==
        "Tensor[(2, 3, 4, 1, 1), float32]");
  CHECK(op_type("expand_dims", {kF}, "axis=3") == "Tensor[(2, 3, 4, 1), float32]");
  CHECK(op_type("expand_dims", {"float32"}, "axis=0") == "Tensor[(1), float32]");
  CHECK(op_type("expand_dims", {kF}, "axis=4") ==
        "error: axis 4 is out of range for a tensor of rank 3");
  CHECK(is_error(op_type("expand_dims", {kF}, "axis=0, num_newaxis=-1"),
                 "`num_newaxis` must be between 0 and"));
}

TEST_CASE("squeeze", "[relations]") {
  CHECK(op_type("squeeze", {"Tensor[(1, 3, 1), float32]"}, "axis=None") == "Tensor[(3), float32]");
  CHECK(op_type("squeeze", {"Tensor[(1, 3, 1), float32]"}, "axis=[-1]") ==
        "Tensor[(1, 3), float32]");
  CHECK(op_type("squeeze", {"Tensor[(1, n, ?), float32]"}, "axis=[0, 2]") ==
        "Tensor[(n), float32]");
  CHECK(op_type("squeeze", {"Tensor[(1, 3, 1), float32]"}, "axis=[1]") ==
        "error: `squeeze`: cannot squeeze dim 1 of data: it is 3, not 1");
  CHECK(op_type("squeeze", {"Tensor[(1, n), float32]"}, "axis=None") ==
        "error: `squeeze`: without `axis`, every dim must be a constant, but dim 1 is n");
  CHECK(op_type("squeeze", {"Tensor[(1, 1), float32]"}, "axis=[0, -2]") ==
        "error: `squeeze`: axis 0 appears twice in `axis`");
}

TEST_CASE("transpose", "[relations]") {
  CHECK(op_type("transpose", {kF}, "axes=[0, 2, 1]") == "Tensor[(2, 4, 3), float32]");
  CHECK(op_type("transpose", {kF}, "axes=[-1, 0, 1]") == "Tensor[(4, 2, 3), float32]");
  CHECK(op_type("transpose", {"Tensor[(n, ?, 4), float32]"}, "axes=None") ==
        "Tensor[(4, ?, n), float32]");
  CHECK(op_type("transpose", {kF}, "axes=[0, 1]") ==
        "error: `transpose`: `axes` has 2 entries but data has rank 3");
  CHECK(op_type("transpose", {kF}, "axes=[0, 1, 1]") ==
        "error: `transpose`: axis 1 appears twice in `axes`");
  CHECK(op_type("transpose", {kF}, "axes=[0, 1, 3]") ==
        "error: axis 3 is out of range for a tensor of rank 3");
}

TEST_CASE("concatenate", "[relations]") {
  CHECK(op_type("concatenate", {"(Tensor[(2, 3), float32], Tensor[(5, 3), float32])"}) ==
        "Tensor[(7, 3), float32]");
  CHECK(op_type("concatenate", {"(Tensor[(2, 3), float32], Tensor[(2, 1), float32])"}, "axis=-1") ==
        "Tensor[(2, 4), float32]");
  CHECK(op_type("concatenate", {"(Tensor[(n, 3), float32], Tensor[(n, 3), float32])"}) ==
        "Tensor[(2 * n, 3), float32]");
  // `?` on the axis makes the sum `?`; then static non-axis dims are kept
  CHECK(op_type("concatenate", {"(Tensor[(?, 3), float32], Tensor[(?, ?), float32])"}) ==
        "Tensor[(?, 3), float32]");
  // with a static axis a mix of `?` and constants stays `?` (TVM, §3.5)
  CHECK(op_type("concatenate", {"(Tensor[(1, 3), float32], Tensor[(1, ?), float32])"}) ==
        "Tensor[(2, ?), float32]");
  CHECK(op_type("concatenate", {"(Tensor[(1, ?), float32], Tensor[(1, ?), float32])"}) ==
        "Tensor[(2, ?), float32]");
  CHECK(op_type("concatenate", {"_"}) == "pending");
  CHECK(with_unknown_field("concatenate") == "pending");
}

TEST_CASE("concatenate errors", "[relations]") {
  CHECK(op_type("concatenate",
                {"(Tensor[(2, 3), float32], Tensor[(2, 3), float32], Tensor[(2, 4), float32])"}) ==
        "error: `concatenate`: the tensors differ at dim 1, which is not the concatenation axis "
        "(0): field 0 has 3, field 2 has 4");
  CHECK(is_error(
      op_type("concatenate", {"(Tensor[(n, 3), float32], Tensor[(m, 3), float32])"}, "axis=1"),
      "differ at dim 0, which is not the concatenation axis (1): field 0 has n, "
      "field 1 has m"));
  CHECK(op_type("concatenate", {"(Tensor[(2, 3), float32], Tensor[(2), float32])"}) ==
        "error: `concatenate`: all tensors must have the same rank, but field 0 has rank 2 and "
        "field 1 has rank 1");
  CHECK(op_type("concatenate", {"(Tensor[(2), float32], Tensor[(2), int32])"}) ==
        "error: `concatenate`: all tensors must have the same dtype, but field 0 has float32 and "
        "field 1 has int32");
  CHECK(op_type("concatenate", {"(Tensor[(2), float32], Tensor[(2), float32])"}, "axis=1") ==
        "error: axis 1 is out of range for a tensor of rank 1");
  CHECK(op_type("concatenate", {"Tensor[(2), float32]"}) ==
        "error: `concatenate`: `data` must be a tuple of tensors, found `Tensor[(2), float32]`");
  CHECK(op_type("concatenate", {"()"}) ==
        "error: `concatenate`: `data` must hold at least one tensor, found an empty tuple");
}

TEST_CASE("stack", "[relations]") {
  CHECK(op_type("stack", {"(Tensor[(2, 3), float32], Tensor[(2, 3), float32])"}) ==
        "Tensor[(2, 2, 3), float32]");
  CHECK(op_type("stack", {"(Tensor[(2, 3), float32], Tensor[(2, ?), float32])"}, "axis=-1") ==
        "Tensor[(2, 3, 2), float32]");
  CHECK(op_type("stack", {"(Tensor[(2, 3), float32], Tensor[(2, 3), float32])"}, "axis=3") ==
        "error: axis 3 is out of range for a tensor of rank 2");
  CHECK(is_error(op_type("stack", {"(Tensor[(2, 3), float32], Tensor[(2, 4), float32])"}),
                 "all tensors must have the same shape"));
  CHECK(with_unknown_field("stack") == "pending");
}

TEST_CASE("split", "[relations]") {
  CHECK(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=3") ==
        "(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])");
  CHECK(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=[1, 4], axis=0") ==
        "(Tensor[(1, 4), float32], Tensor[(3, 4), float32], Tensor[(2, 4), float32])");
  CHECK(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=[1], axis=-1") ==
        "(Tensor[(6, 1), float32], Tensor[(6, 3), float32])");
  CHECK(op_type("split", {"Tensor[(n, 4), float32]"}, "indices_or_sections=2") ==
        "(Tensor[(n / 2, 4), float32], Tensor[(n / 2, 4), float32])");
  CHECK(op_type("split", {"Tensor[(n, 4), float32]"}, "indices_or_sections=[1]") ==
        "(Tensor[(1, 4), float32], Tensor[(n - 1, 4), float32])");
  CHECK(op_type("split", {"Tensor[(?, 4), float32]"}, "indices_or_sections=2") ==
        "(Tensor[(?, 4), float32], Tensor[(?, 4), float32])");
  CHECK(op_type("split", {"Tensor[(?, 4), float32]"}, "indices_or_sections=[2]") ==
        "(Tensor[(2, 4), float32], Tensor[(?, 4), float32])");
}

TEST_CASE("split errors", "[relations]") {
  CHECK(op_type("split", {"Tensor[(7, 4), float32]"}, "indices_or_sections=3") ==
        "error: `split`: dim 0 of data (7) cannot be split into 3 equal sections");
  CHECK(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=[3, 2]") ==
        "error: `split`: split indices must be positive and strictly ascending, but entry 1 is 2");
  CHECK(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=[2, 6]") ==
        "error: `split`: split index 6 is not inside dim 0 of data (6)");
  CHECK(is_error(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=0"),
                 "the number of sections must be between 1 and"));
  CHECK(op_type("split", {"Tensor[(6, 4), float32]"}, "indices_or_sections=2, axis=2") ==
        "error: axis 2 is out of range for a tensor of rank 2");
}

TEST_CASE("strided_slice, end mode", "[relations]") {
  const char* x = "Tensor[(10, 8, 6), float32]";
  // TVM pads begin/end/strides to the rank
  CHECK(op_type("strided_slice", {x}, "begin=[2], end=[7], strides=[1], axes=None") ==
        "Tensor[(5, 8, 6), float32]");
  CHECK(op_type("strided_slice", {x}, "begin=[0, 1], end=[10, 7], strides=[3, 2], axes=None") ==
        "Tensor[(4, 3, 6), float32]");
  // negative indices wrap; indices clamp to the extent
  CHECK(op_type("strided_slice", {x}, "begin=[-3], end=[100], strides=[1], axes=None") ==
        "Tensor[(3, 8, 6), float32]");
  // negative strides: clamp to [-1, d-1]; a missing begin starts at the end
  CHECK(op_type("strided_slice", {x}, "begin=[9], end=[-11], strides=[-1], axes=None") ==
        "Tensor[(10, 8, 6), float32]");
  CHECK(op_type("strided_slice", {x}, "begin=[-1], end=[0], strides=[-2], axes=None") ==
        "Tensor[(5, 8, 6), float32]");
  // a padded end with a negative stride is 0 (TVM's padding), so index 0 is left out
  CHECK(op_type("strided_slice", {x}, "begin=[], end=[], strides=[-1], axes=None") ==
        "Tensor[(9, 8, 6), float32]");
  // explicit axes (negative ones wrap)
  CHECK(op_type("strided_slice", {x}, "begin=[1, 2], end=[4, 6], strides=[1, 2], axes=[2, -3]") ==
        "Tensor[(2, 8, 3), float32]");
  // `?` and symbolic extents: `?`, except a symbolic axis left whole
  CHECK(op_type("strided_slice", {"Tensor[(?, n, 6), float32]"},
                "begin=[0, 0, 1], end=[2, 9223372036854775807, 3], strides=[1, 1, 1], axes=None") ==
        "Tensor[(?, n, 2), float32]");
  CHECK(op_type("strided_slice", {"Tensor[(n, 6), float32]"},
                "begin=[1], end=[3], strides=[1], axes=None") == "Tensor[(?, 6), float32]");
}

TEST_CASE("strided_slice, size mode", "[relations]") {
  const char* x = "Tensor[(10, 8), float32]";
  CHECK(op_type("strided_slice", {x},
                "begin=[2, 1], end=[3, -1], strides=[5, 5], slice_mode=\"size\", axes=None") ==
        "Tensor[(3, 7), float32]");
  CHECK(op_type("strided_slice", {x},
                "begin=[-4], end=[2], strides=[1], slice_mode=\"size\", axes=[0]") ==
        "Tensor[(2, 8), float32]");
}

TEST_CASE("strided_slice errors", "[relations]") {
  const char* x = "Tensor[(10, 8), float32]";
  CHECK(op_type("strided_slice", {x}, "begin=[5], end=[2], strides=[1], axes=None") ==
        "error: `strided_slice`: on axis 0 (extent 10), begin 5 is past end 2 for stride 1");
  CHECK(op_type("strided_slice", {x}, "begin=[0], end=[2], strides=[0], axes=None") ==
        "error: `strided_slice`: the stride of axis 0 is 0");
  CHECK(op_type("strided_slice", {x}, "begin=[0, 0, 0], end=[1], strides=[1], axes=None") ==
        "error: `strided_slice`: `begin` has 3 entries but data has rank 2");
  CHECK(op_type("strided_slice", {x}, "begin=[0, 0], end=[1], strides=[1], axes=[0]") ==
        "error: `strided_slice`: `axes`, `begin`, `end` and `strides` must have the same "
        "length, found 1, 2, 1 and 1");
  CHECK(op_type("strided_slice", {x}, "begin=[0], end=[1], strides=[1], axes=[2]") ==
        "error: axis 2 is out of range for a tensor of rank 2");
  CHECK(is_error(op_type("strided_slice", {x},
                         "begin=[0], end=[1], strides=[1], slice_mode=\"start\", axes=None"),
                 "`slice_mode` must be one of \"end\", \"size\", found \"start\""));
}

TEST_CASE("slice_like, strided_set, sliding_window", "[relations]") {
  CHECK(op_type("slice_like", {kF, "Tensor[(1, 2), int8]"}, "axes=None") ==
        "Tensor[(1, 2, 4), float32]");
  CHECK(op_type("slice_like", {kF, "Tensor[(1, 2, 3), int8]"}, "axes=[-1]") ==
        "Tensor[(2, 3, 3), float32]");
  CHECK(op_type("slice_like", {kF, "Tensor[(1, 5), int8]"}, "axes=None") ==
        "error: `slice_like`: cannot slice dim 1 of data (3) to 5");
  CHECK(op_type("slice_like", {kF, "Tensor[(1, 2), int8]"}, "axes=[2]") ==
        "error: `slice_like`: axis 2 is not a dim of shape_like, which has rank 2");
  CHECK(op_type("strided_set", {kF, "Tensor[(1, 3, 4), float32]", "Tensor[(1), int64]",
                                "Tensor[(1), int64]", "Tensor[(1), int64]"}) == kF);
  CHECK(op_type("sliding_window", {"Tensor[(2, 10, 8), float32]"},
                "axis=1, window_shape=[3, 4], strides=[2, 4]") ==
        "Tensor[(2, 4, 2, 3, 4), float32]");
  CHECK(op_type("sliding_window", {"Tensor[(2, 10), float32]"},
                "axis=0, window_shape=[3], strides=[1]") ==
        "error: `sliding_window`: `window_shape` must have 2 entries, found 1");
}

TEST_CASE("take", "[relations]") {
  CHECK(op_type("take", {kF, "_"}) == "pending");
  // a bad input is reported even while another one is unknown
  CHECK(op_type("take", {"(float32,)", "_"}) ==
        "error: `take` expects a tensor for `data`, found `(float32,)`");
  CHECK(op_type("take", {kF, "Tensor[(5), int32]"}) == "Tensor[(5), float32]");
  CHECK(op_type("take", {kF, "Tensor[(5, 6), int64]"}, "axis=1") ==
        "Tensor[(2, 5, 6, 4), float32]");
  CHECK(op_type("take", {kF, "Tensor[(5), int32]"}, "axis=-1, mode=\"wrap\"") ==
        "Tensor[(2, 3, 5), float32]");
  CHECK(op_type("take", {kF, "int32"}, "axis=0, mode=\"fast\"") == "Tensor[(3, 4), float32]");
  // batch_dims: the leading dims of data and indices are shared
  CHECK(op_type("take", {kF, "Tensor[(2, 7), int32]"}, "batch_dims=1, axis=2") ==
        "Tensor[(2, 3, 7), float32]");
  CHECK(op_type("take", {kF, "Tensor[(2, 7), int32]"}, "batch_dims=-1, axis=1") ==
        "Tensor[(2, 7, 4), float32]");
  CHECK(op_type("take", {kF, "Tensor[(5), float32]"}) ==
        "error: `take`: `indices` must have an integer dtype, found float32");
  CHECK(op_type("take", {kF, "Tensor[(5), int32]"}, "axis=3") ==
        "error: axis 3 is out of range for a tensor of rank 3");
  CHECK(op_type("take", {kF, "Tensor[(5), int32]"}, "mode=\"nearest\"") ==
        "error: `take`: `mode` must be one of \"clip\", \"wrap\", \"fast\", found \"nearest\"");
  CHECK(op_type("take", {kF, "Tensor[(3, 7), int32]"}, "batch_dims=1, axis=2") ==
        "error: `take`: batch dim 0 differs: data has 2, indices has 3 (its dim 0)");
  CHECK(is_error(op_type("take", {kF, "Tensor[(2, 7), int32]"}, "batch_dims=2, axis=1"),
                 "`batch_dims` 2 must be between 0 and both the axis (1)"));
}

TEST_CASE("gather and gather_nd", "[relations]") {
  CHECK(op_type("gather", {kF, "Tensor[(2, 7, 4), int32]"}, "axis=1") ==
        "Tensor[(2, 7, 4), float32]");
  CHECK(op_type("gather", {kF, "Tensor[(2, 7, 5), int32]"}, "axis=1") ==
        "error: `gather`: dim 2 differs (it is not the gather axis 1): data has 4, indices has 5");
  CHECK(op_type("gather", {kF, "Tensor[(2, 7), int32]"}, "axis=1") ==
        "error: `gather`: `indices` must have rank 3, found rank 2");
  CHECK(op_type("gather_nd", {kF, "Tensor[(2, 5), int32]"}) == "Tensor[(5, 4), float32]");
  CHECK(op_type("gather_nd", {kF, "Tensor[(1, 2, 5), int32]"}, "batch_dims=1") ==
        "Tensor[(2, 5, 4), float32]");
  CHECK(op_type("gather_nd", {kF, "Tensor[(4, 5), int32]"}) ==
        "error: `gather_nd`: `indices` address 4 dims, but data has only 3 to index");
  CHECK(is_error(op_type("gather_nd", {kF, "Tensor[(?, 5), int32]"}),
                 "the first dim of `indices` (the number of indexed dims) must be a constant"));
  CHECK(op_type("gather_nd", {kF, "Tensor[(?, 5), int32]"}, "index_rank=2") ==
        "Tensor[(5, 4), float32]");
}

TEST_CASE("scatter_elements, scatter_nd, adv_index", "[relations]") {
  CHECK(op_type("scatter_elements", {kF, "Tensor[(1, 3, 4), int64]", "Tensor[(1, 3, 4), float32]"},
                "attrs_type_key=\"relay.attrs.ScatterElementsAttrs\", axis=0, reduction=\"add\"") ==
        kF);
  CHECK(
      is_error(op_type("scatter_elements", {kF, "Tensor[(3, 4), int64]", "Tensor[(3, 4), float32]"},
                       "attrs_type_key=\"relay.attrs.ScatterElementsAttrs\""),
               "`indices` must have rank 3"));
  CHECK(op_type("scatter_nd", {kF, "Tensor[(2, 5), int64]", "Tensor[(5, 4), float32]"},
                "attrs_type_key=\"relay.attrs.ScatterNDAttrs\"") == kF);
  CHECK(op_type("scatter_nd", {kF, "Tensor[(2, 5), int64]", "Tensor[(5, 3), float32]"},
                "attrs_type_key=\"relay.attrs.ScatterNDAttrs\"") ==
        "error: `scatter_nd`: `updates` must have shape (5, 4) (indices' dims after the first, "
        "then data's dims after the 2 indexed ones), found (5, 3)");
  CHECK(op_type("adv_index",
                {"(Tensor[(5, 6, 7), float32], Tensor[(2, 1), int64], Tensor[(3), int64])"}) ==
        "Tensor[(2, 3, 7), float32]");
  CHECK(is_error(
      op_type("adv_index", {"(Tensor[(5), float32], Tensor[(2), int64], Tensor[(3), int64])"}),
      "too many indices: 2 for data of rank 1"));
}

TEST_CASE("where and broadcasting ops", "[relations]") {
  CHECK(op_type("where", {"Tensor[(3, 1), bool]", "Tensor[(4), float32]", "float32"}) ==
        "Tensor[(3, 4), float32]");
  CHECK(op_type("where", {"bool", "Tensor[(4), float32]", "Tensor[(4), int32]"}) ==
        "error: `where`: data types float32 and int32 do not match");
  CHECK(op_type("where", {"Tensor[(3), bool]", "Tensor[(4), float32]", "float32"}) ==
        "error: `where`: incompatible broadcast of `condition` (3) and the shape of `x` and `y` "
        "(4) (at output dim 0)");
  CHECK(op_type("broadcast_to", {"Tensor[(3, 1), float32]"}, "shape=[2, 3, 4]") ==
        "Tensor[(2, 3, 4), float32]");
  CHECK(op_type("broadcast_to", {"Tensor[(3, 2), float32]"}, "shape=[3, 4]") ==
        "error: `broadcast_to`: data of shape (3, 2) cannot be broadcast to (3, 4): its dim 1 is "
        "2, which is neither 1 nor 4");
  CHECK(op_type("broadcast_to_like", {"Tensor[(1, 4), float32]", "Tensor[(3, 4), float32]"}) ==
        "Tensor[(3, 4), float32]");
  CHECK(op_type("collapse_sum_like", {"Tensor[(3, 4), float32]", "Tensor[(4), float32]"}) ==
        "Tensor[(4), float32]");
  CHECK(op_type("collapse_sum_like", {"Tensor[(3, 4), float32]", "Tensor[(5), float32]"}) ==
        "error: `collapse_sum_like`: collapse_type of shape (5) cannot be broadcast to (3, 4): its "
        "dim 0 is 5, which is neither 1 nor 4");
  CHECK(op_type("collapse_sum_to", {"Tensor[(3, 4), float32]", "Tensor[(2), int64]"},
                "attrs_type_key=\"relay.attrs.InitOpAttrs\", shape=[1, 4]") ==
        "Tensor[(1, 4), float32]");
  CHECK(op_type("collapse_sum_to", {"Tensor[(3, 4), float32]", "Tensor[(1), int64]"},
                "attrs_type_key=\"relay.attrs.InitOpAttrs\", shape=None") ==
        "Tensor[(?), float32]");
}

TEST_CASE("repeat and tile", "[relations]") {
  CHECK(op_type("repeat", {kF}, "repeats=2, axis=1") == "Tensor[(2, 6, 4), float32]");
  CHECK(op_type("repeat", {"Tensor[(n, ?), float32]"}, "repeats=3, axis=-2") ==
        "Tensor[(3 * n, ?), float32]");
  CHECK(op_type("repeat", {kF}, "repeats=0, axis=1") ==
        "error: `repeat`: `repeats` must be at least 1, found 0");
  CHECK(op_type("tile", {"Tensor[(2, 3), float32]"}, "reps=[2]") == "Tensor[(2, 6), float32]");
  CHECK(op_type("tile", {"Tensor[(n, ?), float32]"}, "reps=[2, 2, 3]") ==
        "Tensor[(2, 2 * n, ?), float32]");
  CHECK(op_type("tile", {"Tensor[(2), float32]"}, "reps=[0]") ==
        "error: `tile`: `reps` must hold positive integers, found 0");
}

TEST_CASE("constructors: full, zeros, ones, arange", "[relations]") {
  CHECK(op_type("full", {"float32"}, "shape=[2, 3], dtype=\"\"") == "Tensor[(2, 3), float32]");
  CHECK(op_type("full", {"int8"}, "shape=[2], dtype=\"float16\"") == "Tensor[(2), float16]");
  CHECK(op_type("full", {"Tensor[(1), float32]"}, "shape=[2]") ==
        "error: `full`: `fill_value` must be a scalar (rank 0), found shape (1)");
  CHECK(op_type("full_like", {kF, "float32"}) == kF);
  CHECK(op_type("zeros", {}, "shape=[1, 2], dtype=\"int64\"") == "Tensor[(1, 2), int64]");
  CHECK(op_type("ones", {}, "shape=[], dtype=\"float32\"") == "float32");
  CHECK(op_type("ones", {}, "shape=[-2], dtype=\"float32\"") ==
        "error: `ones`: `shape` must hold non-negative dims, found -2");
  auto r = run_op_type("arange", {"_", "_", "_"}, "start=0, stop=10, step=3, dtype=\"int32\"");
  CHECK(r.output == "Tensor[(4), int32]");
  CHECK(r.inputs == "int32; int32; int32");
  CHECK(op_type("arange", {"float32", "float32", "float32"},
                "start=0.5f, stop=2f, step=0.5f, dtype=\"float32\"") == "Tensor[(3), float32]");
  CHECK(op_type("arange", {"float32", "float32", "float32"},
                "start=meta[relay.Constant][0], stop=meta[relay.Constant][1], "
                "step=meta[relay.Constant][2], dtype=\"float32\"") == "Tensor[(?), float32]");
  CHECK(is_error(
      op_type("arange", {"int32", "int32", "int32"}, "start=5, stop=0, step=1, dtype=\"int32\""),
      "do not give between 1 and 2^31-1 elements"));
  CHECK(is_error(op_type("arange", {"float32", "float32", "float32"},
                         "start=0, stop=10, step=1, dtype=\"int32\""),
                 "mismatched types"));
}

TEST_CASE("layout_transform", "[relations]") {
  CHECK(op_type("layout_transform", {"Tensor[(1, 32, 7, 7), float32]"},
                "src_layout=\"NCHW\", dst_layout=\"NCHW16c\"") ==
        "Tensor[(1, 2, 7, 7, 16), float32]");
  CHECK(op_type("layout_transform", {"Tensor[(1, 2, 7, 7, 16), float32]"},
                "src_layout=\"NCHW16c\", dst_layout=\"NHWC\"") == "Tensor[(1, 7, 7, 32), float32]");
  CHECK(is_error(op_type("layout_transform", {"Tensor[(1, 32, 7, 7), float32]"},
                         "src_layout=\"NCHW\", dst_layout=\"NCDHW\""),
                 "cannot convert from \"NCHW\" to \"NCDHW\""));
  CHECK(op_type("layout_transform", {"Tensor[(1, 32, 7), float32]"},
                "src_layout=\"NCHW\", dst_layout=\"NHWC\"") ==
        "error: `layout_transform`: src_layout \"NCHW\" has 4 axes but data has rank 3");
  CHECK(op_type("layout_transform", {"Tensor[(1, 32, 7, 7), float32]"},
                "src_layout=\"NC2HW\", dst_layout=\"NHWC\"") ==
        "error: `layout_transform`: \"NC2HW\" is not a valid layout");
  CHECK(op_type("auto_scheduler_layout_transform", {"Tensor[(64, 64), float32]"},
                "src_layout=\"\", dst_layout=\"16i4j4i16j\"") == "Tensor[(16, 4, 4, 16), float32]");
}

TEST_CASE("one_hot, sequence_mask, reverse, reverse_sequence", "[relations]") {
  CHECK(op_type("one_hot", {"Tensor[(2, 3), int32]", "float32", "float32"},
                "depth=5, axis=-1, dtype=\"float32\"") == "Tensor[(2, 3, 5), float32]");
  CHECK(op_type("one_hot", {"Tensor[(2, 3), int32]", "int8", "int8"},
                "depth=5, axis=-3, dtype=\"int8\"") == "Tensor[(5, 2, 3), int8]");
  CHECK(op_type("one_hot", {"Tensor[(2), int32]", "int8", "int8"}, "depth=0") ==
        "error: `one_hot`: `depth` must be positive, found 0");
  auto r = run_op_type("sequence_mask", {"Tensor[(5, 4, 3), float32]", "_"}, "axis=0");
  CHECK(r.output == "pending");
  // valid_length is forced to (data.shape[1 - axis]) of its own dtype
  CHECK(op_type("sequence_mask", {"Tensor[(5, 4, 3), float32]", "Tensor[(?), int32]"},
                "mask_value=0f, axis=0") == "Tensor[(5, 4, 3), float32]");
  CHECK(is_error(op_type("sequence_mask", {"Tensor[(5, 4, 3), float32]", "Tensor[(5), int32]"},
                         "mask_value=0f, axis=0"),
                 "mismatched types for input 1: `Tensor[(5), int32]` and `Tensor[(4), int32]`"));
  CHECK(op_type("sequence_mask", {"Tensor[(5, 4, 3), float32]", "Tensor[(5), int32]"},
                "mask_value=0f, axis=1") == "Tensor[(5, 4, 3), float32]");
  CHECK(op_type("reverse", {kF}, "axis=-1") == kF);
  CHECK(op_type("reverse", {kF}, "axis=3") ==
        "error: axis 3 is out of range for a tensor of rank 3");
  CHECK(op_type("reverse_sequence", {kF, "Tensor[(2), int32]"}, "seq_axis=1, batch_axis=0") == kF);
  CHECK(op_type("reverse_sequence", {kF, "Tensor[(3), int32]"}, "seq_axis=1, batch_axis=0") ==
        "error: `reverse_sequence`: `seq_lengths` has 3 entries but the batch axis (0) of data "
        "has 2");
}

TEST_CASE("sparse ops, unravel_index, argwhere", "[relations]") {
  CHECK(op_type("sparse_to_dense", {"Tensor[(4, 2), int32]", "Tensor[(4), float32]", "float32"},
                "output_shape=[3, 5]") == "Tensor[(3, 5), float32]");
  CHECK(op_type("sparse_to_dense",
                {"Tensor[(4, 2), int32]", "Tensor[(4), float32]", "Tensor[(1), float32]"},
                "output_shape=[3, 5]") ==
        "error: `sparse_to_dense`: `default_value` must be a scalar (rank 0), found shape (1)");
  CHECK(op_type("sparse_fill_empty_rows", {"Tensor[(6, 3), int64]", "Tensor[(6), float32]",
                                           "Tensor[(3), int64]", "float32"}) ==
        "(Tensor[(?, 3), int64], Tensor[(?), int64], Tensor[(?), int64])");
  CHECK(op_type("sparse_reshape",
                {"Tensor[(6, 2), int64]", "Tensor[(2), int64]", "Tensor[(3), int64]"}) ==
        "(Tensor[(6, 3), int64], Tensor[(3), int64])");
  CHECK(op_type("unravel_index", {"Tensor[(7), int32]", "Tensor[(3), int32]"}) ==
        "Tensor[(3, 7), int32]");
  CHECK(op_type("unravel_index", {"int64", "Tensor[(3), int64]"}) == "Tensor[(3), int64]");
  CHECK(op_type("argwhere", {kF}) == "Tensor[(?, 3), int32]");
}

TEST_CASE("remaining §3.5 ops", "[relations]") {
  CHECK(op_type("matrix_set_diag", {"Tensor[(2, 3, 4), float32]", "Tensor[(2, 3), float32]"}) ==
        "Tensor[(2, 3, 4), float32]");
  CHECK(op_type("matrix_set_diag", {"Tensor[(3, 4), float32]", "Tensor[(2, 3), float32]"},
                "k1=-1, k2=0") == "Tensor[(3, 4), float32]");
  CHECK(op_type("matrix_set_diag", {"Tensor[(3, 4), float32]", "Tensor[(4), float32]"}) ==
        "error: `matrix_set_diag`: `diagonal` must have shape (3) for diagonals 0..0, found (4)");
  CHECK(op_type("cumsum", {kF}, "attrs_type_key=\"relay.attrs.ScanopAttrs\", axis=1") == kF);
  // TVM prints Python's defaults as `dtype=None, exclusive=None`: exclusive is a nullable
  // tvm::Bool (null = False); plain C++ bool fields still reject None.
  CHECK(op_type("cumsum", {kF}, "axis=1, dtype=None, exclusive=None") == kF);
  CHECK(op_type("cumprod", {kF}, "axis=None, dtype=None, exclusive=None") == "Tensor[(24), float32]");
  CHECK(op_type("sum", {kF}, "axis=None, keepdims=None").rfind("error:", 0) == 0);
  CHECK(op_type("cumprod", {kF}, "attrs_type_key=\"relay.attrs.ScanopAttrs\", dtype=\"int64\"") ==
        "Tensor[(24), int64]");
  CHECK(op_type("unique", {"Tensor[(n), int32]"},
                "attrs_type_key=\"relay.attrs.UniqueAttrs\", "
                "return_counts=True") ==
        "(Tensor[(n), int32], Tensor[(n), int32], Tensor[(n), int32], Tensor[(1), int32], "
        "Tensor[(n), int32])");
  CHECK(op_type("trilu", {kF, "int64"}, "attrs_type_key=\"relay.attrs.TriluAttrs\", upper=True") ==
        kF);
  CHECK(op_type("stft", {"Tensor[(2, 100), float32]", "Tensor[(16), float32]"},
                "attrs_type_key=\"relay.attrs.StftAttrs\", n_fft=16, hop_length=4, "
                "win_length=16, normalized=False, onesided=True") ==
        "Tensor[(2, 9, 22, 2), float32]");
  CHECK(op_type("dft", {"Tensor[(4), float32]", "Tensor[(4), float32]"},
                "attrs_type_key=\"relay.attrs.DFTAttrs\", inverse=False") ==
        "(Tensor[(4), float32], Tensor[(4), float32])");
  CHECK(op_type("meshgrid", {"(Tensor[(3), float32], Tensor[(5), float32], float32)"},
                "indexing=\"xy\"") ==
        "(Tensor[(5, 3, 1), float32], Tensor[(5, 3, 1), float32], Tensor[(5, 3, 1), float32])");
  CHECK(op_type("fixed_point_multiply_per_axis",
                {kF, "Tensor[(4), int32]", "Tensor[(4), int32]", "Tensor[(4), int32]"},
                "is_lshift_required=True, is_rshift_required=False, axes=[2]") == kF);
  CHECK(is_error(op_type("meta_schedule_layout_transform", {kF}, "index_map=meta[IndexMap][0]"),
                 "the type checker cannot evaluate"));
}

TEST_CASE("einsum", "[relations]") {
  CHECK(op_type("einsum", {"(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"},
                "equation=\"ij,jk->ik\"") == "Tensor[(2, 4), float32]");
  CHECK(op_type("einsum", {"(Tensor[(3, 3), float32],)"}, "equation=\"ii\"") == "float32");
  CHECK(op_type("einsum", {"(Tensor[(2, 3), float32], Tensor[(3, 4), float32])"},
                "equation=\"ij,jk\"") == "Tensor[(2, 4), float32]");
  CHECK(op_type("einsum", {"(Tensor[(5, 2, 3), float32], Tensor[(1, 3, 4), float32])"},
                "equation=\"...ij,...jk->...ik\"") == "Tensor[(5, 2, 4), float32]");
  CHECK(op_type("einsum", {"(Tensor[(2, 3), float32], Tensor[(4, 4), float32])"},
                "equation=\"ij,jk->ik\"") ==
        "error: `einsum`: label 'j' stands for 3 and, in operand 1, for 4");
  CHECK(op_type("einsum", {"(Tensor[(2, 3), float32],)"}, "equation=\"ij,jk->ik\"") ==
        "error: `einsum`: the equation has 2 operands but the tuple has 1 tensor");
  CHECK(op_type("einsum", {"(Tensor[(2, 3), float32],)"}, "equation=\"i$->i\"") ==
        "error: `einsum`: \"i$->i\" is not an einsum equation");
}

TEST_CASE("attributes the relation cannot see", "[relations]") {
  CHECK(is_error(op_type("reshape", {kF}, "meta[relay.attrs.ReshapeAttrs][0]"),
                 "the value of `newshape` is not known here"));
}

TEST_CASE("transform relations answer every combination of odd inputs", "[relations]") {
  // Each relation must give a type, "pending" or an error for any inputs: never crash.
  struct Case {
    const char* op;
    size_t arity;
    std::vector<std::string> attrs;
  };
  const std::string scan = "attrs_type_key=\"relay.attrs.ScanopAttrs\", ";
  const std::vector<Case> cases = {
      {"cast", 1, {"dtype=\"int8\"", "dtype=\"\""}},
      {"reinterpret", 1, {"dtype=\"int32\""}},
      {"cast_like", 2, {""}},
      {"expand_dims", 1, {"axis=-5", "axis=2, num_newaxis=3", "axis=0, num_newaxis=100000000"}},
      {"squeeze", 1, {"axis=None", "axis=[]", "axis=[-1, 5]"}},
      {"reshape",
       1,
       {"newshape=[-1]", "newshape=[0, -4, -1, 2, -2]", "newshape=[-3, -3, -1]", "newshape=[-4]",
        "newshape=[0, 0, 0, 0]", "newshape=[-1, 0], allowzero=True",
        "newshape=[9223372036854775807, 9223372036854775807]"}},
      {"contrib_reverse_reshape", 1, {"newshape=[-4, 2, -1, 0]", "newshape=[0, -3]"}},
      {"reshape_like", 2, {"", "lhs_begin=-9, lhs_end=9", "lhs_begin=1, rhs_end=-1"}},
      {"transpose", 1, {"axes=None", "axes=[]", "axes=[1, 0]", "axes=[-1, -2, -3]"}},
      {"concatenate", 1, {"axis=0", "axis=-1", "axis=5"}},
      {"stack", 1, {"axis=0", "axis=-1", "axis=5"}},
      {"split",
       1,
       {"indices_or_sections=2", "indices_or_sections=[1, 2], axis=-1", "indices_or_sections=[]",
        "indices_or_sections=-3", "indices_or_sections=1000000000", "indices_or_sections=\"x\""}},
      {"strided_slice",
       1,
       {"begin=[0], end=[1], strides=[1], axes=None",
        "begin=[-9223372036854775807], end=[9223372036854775807], "
        "strides=[-9223372036854775807], axes=None",
        "begin=[1, 0], end=[2, 1], strides=[1, 1], axes=[0, -1]",
        "begin=[1], end=[-1], strides=[0], slice_mode=\"size\", axes=None",
        "begin=[0, 0, 0, 0], end=[1], strides=[1], axes=None"}},
      {"strided_set", 5, {""}},
      {"slice_like", 2, {"axes=None", "axes=[]", "axes=[-1]", "axes=[7]"}},
      {"take", 2, {"", "axis=0", "axis=-1, batch_dims=-1", "axis=1, batch_dims=5"}},
      {"gather", 2, {"axis=0", "axis=None", "axis=-9"}},
      {"gather_nd", 2, {"", "batch_dims=1", "batch_dims=-1, index_rank=2"}},
      {"scatter_elements", 3, {"attrs_type_key=\"relay.attrs.ScatterElementsAttrs\""}},
      {"scatter_nd", 3, {"attrs_type_key=\"relay.attrs.ScatterNDAttrs\""}},
      {"where", 3, {""}},
      {"full", 1, {"shape=[2, 3], dtype=\"\"", "shape=None", "shape=[]"}},
      {"full_like", 2, {""}},
      {"zeros", 0, {"shape=[2], dtype=\"int8\"", "shape=[-1], dtype=\"int8\""}},
      {"ones", 0, {"shape=[], dtype=\"\""}},
      {"arange",
       3,
       {"start=0, stop=5, step=0, dtype=\"int32\"",
        "start=0f, stop=1e30f, step=1e-30f, dtype=\"float32\""}},
      {"repeat", 1, {"repeats=2, axis=-1", "repeats=2, axis=None", "repeats=-1, axis=0"}},
      {"tile", 1, {"reps=[]", "reps=[2, 3, 4, 5]", "reps=[-1]"}},
      {"reverse", 1, {"axis=None", "axis=0", "axis=-4"}},
      {"reverse_sequence", 2, {"", "seq_axis=-1, batch_axis=-2", "seq_axis=9"}},
      {"broadcast_to", 1, {"shape=[2, 3]", "shape=[]", "shape=None"}},
      {"broadcast_to_like", 2, {""}},
      {"collapse_sum_like", 2, {""}},
      {"collapse_sum_to",
       2,
       {"attrs_type_key=\"relay.attrs.InitOpAttrs\", shape=[3]",
        "attrs_type_key=\"relay.attrs.InitOpAttrs\", shape=None"}},
      {"layout_transform",
       1,
       {"src_layout=\"NCHW\", dst_layout=\"NHWC\"", "src_layout=\"NCW\", dst_layout=\"NCW4c\"",
        "src_layout=\"\", dst_layout=\"\""}},
      {"auto_scheduler_layout_transform",
       1,
       {"src_layout=\"\", dst_layout=\"2n3c\"", "src_layout=\"\", dst_layout=\"n2\"",
        "src_layout=\"\", dst_layout=\"99999999999999999999999a\""}},
      {"one_hot", 3, {"depth=3, axis=-1, dtype=\"\"", "depth=3, axis=-9, dtype=\"int8\""}},
      {"sequence_mask",
       2,
       {"mask_value=0f, axis=0", "mask_value=0f, axis=1", "mask_value=0f, axis=2"}},
      {"unravel_index", 2, {""}},
      {"sparse_to_dense", 3, {"output_shape=[2, 2]"}},
      {"sparse_fill_empty_rows", 4, {""}},
      {"sparse_reshape", 3, {""}},
      {"matrix_set_diag", 2, {"", "k1=-1, k2=1", "k1=2, k2=1", "k1=-9, k2=9"}},
      {"adv_index", 1, {""}},
      {"argwhere", 1, {""}},
      {"cumsum", 1, {scan + "axis=None", scan + "axis=-1", scan + "axis=9"}},
      {"cumprod", 1, {scan + "axis=0, dtype=\"int64\""}},
      {"unique", 1, {"attrs_type_key=\"relay.attrs.UniqueAttrs\", return_counts=True"}},
      {"trilu", 2, {"attrs_type_key=\"relay.attrs.TriluAttrs\""}},
      {"fixed_point_multiply_per_axis", 4, {"axes=[0]"}},
      {"sliding_window",
       1,
       {"axis=0, window_shape=[1], strides=[1]", "axis=-1, window_shape=[2], strides=[2]",
        "axis=1, window_shape=[9, 9], strides=[1, 0]"}},
      {"stft",
       2,
       {"attrs_type_key=\"relay.attrs.StftAttrs\", n_fft=2, hop_length=1",
        "attrs_type_key=\"relay.attrs.StftAttrs\""}},
      {"dft", 2, {"attrs_type_key=\"relay.attrs.DFTAttrs\""}},
      {"meshgrid", 1, {"indexing=\"ij\"", "indexing=\"xy\"", "indexing=\"yx\""}},
      {"einsum",
       1,
       {"equation=\"ij->ji\"", "equation=\"...,...->...\"", "equation=\"i...i\"",
        "equation=\"ij,jk\"", "equation=\"->\"", "equation=\"\""}},
  };
  const std::vector<std::string> pool = {"_",
                                         "float32",
                                         "Tensor[(?), int32]",
                                         "Tensor[(2, 3), float32]",
                                         "Tensor[(n, ?, 4), int64]",
                                         "()",
                                         "(Tensor[(2, 3), float32], Tensor[(n, 3), float32])",
                                         "(float32, Tensor[(1), int8])"};
  for (const Case& c : cases) {
    // Keep the product small for the ops with many inputs.
    size_t choices = c.arity >= 4 ? 4 : pool.size();
    for (const std::string& attrs : c.attrs) {
      std::vector<size_t> pick(c.arity, 0);
      while (true) {
        std::vector<std::string> inputs;
        for (size_t p : pick) inputs.push_back(pool[p]);
        std::string out = op_type(c.op, inputs, attrs);
        INFO(c.op << " " << attrs << " -> " << out);
        CHECK(!out.empty());
        CHECK(!out.starts_with("error: parse"));
        CHECK(!out.starts_with("error: (failed without a message)"));
        CHECK(out != "no output");
        size_t k = 0;
        while (k < pick.size() && ++pick[k] == choices) pick[k++] = 0;
        if (k == pick.size()) break;
      }
    }
  }
}
