// Relations of the §3.7 nn.* operators other than convolution, pooling and resampling
// (lang/types/relations/nn.cpp). Expected types are TVM 0.14's.
#include <catch2/catch.hpp>

#include "tests/support/op_type.h"

using relay::testing::op_type;
using relay::testing::run_op_type;

TEST_CASE("nn.dense", "[relations]") {
  SECTION("an MLP layer") {
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(128, 784), float32]"},
                  "units=128") == "Tensor[(1, 128), float32]");
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(128, 784), float32]"},
                  "units=None") == "Tensor[(1, 128), float32]");
  }
  SECTION("leading dims kept, out_dtype") {
    CHECK(op_type("nn.dense", {"Tensor[(2, 3, 16), int8]", "Tensor[(8, 16), int8]"},
                  "units=8, out_dtype=\"int32\"") == "Tensor[(2, 3, 8), int32]");
  }
  SECTION("units forces the weight") {
    auto r = run_op_type("nn.dense", {"Tensor[(1, 784), float32]", "_"}, "units=128");
    CHECK(r.output == "Tensor[(1, 128), float32]");
    CHECK(r.inputs == "Tensor[(1, 784), float32]; Tensor[(128, 784), float32]");
  }
  SECTION("without units the weight must be known") {
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "_"}, "units=None") == "pending");
    CHECK(op_type("nn.dense", {"_", "Tensor[(10, 784), float32]"}, "units=None") == "pending");
  }
  SECTION("? and symbolic dims") {
    CHECK(op_type("nn.dense", {"Tensor[(n, 784), float32]", "Tensor[(10, 784), float32]"},
                  "units=None") == "Tensor[(n, 10), float32]");
    CHECK(op_type("nn.dense", {"Tensor[(1, ?), float32]", "Tensor[(10, 784), float32]"},
                  "units=None") == "Tensor[(1, 10), float32]");
  }
  SECTION("reduction dimension mismatch") {
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(10, 512), float32]"},
                  "units=None") ==
          "error: `nn.dense`: the reduction dimension differs: data has 784 (its dim 1), weight "
          "has 512 (its dim 1)");
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(10, 512), float32]"},
                  "units=10") ==
          "error: `nn.dense`: the reduction dimension differs: data has 784 (its dim 1), weight "
          "has 512 (its dim 1)");
    CHECK(op_type("nn.dense", {"Tensor[(1, k), float32]", "Tensor[(10, m), float32]"},
                  "units=None") ==
          "error: `nn.dense`: the reduction dimension differs: data has k (its dim 1), weight "
          "has m (its dim 1)");
  }
  SECTION("units disagreeing with the weight") {
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(10, 784), float32]"},
                  "units=128") ==
          "error: `nn.dense`: `units` is 128 but weight has 10 (its dim 0)");
  }
  SECTION("bad ranks and dtypes") {
    CHECK(op_type("nn.dense", {"float32", "Tensor[(10, 784), float32]"}, "units=None") ==
          "error: `nn.dense` expects `data` of rank at least 1, found `float32`");
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "Tensor[(784), float32]"},
                  "units=None") ==
          "error: `nn.dense` expects `weight` of rank 2, found `Tensor[(784), float32]`");
    CHECK(op_type("nn.dense", {"Tensor[(1, 784), float32]", "(float32, float32)"}, "units=None") ==
          "error: `nn.dense` expects a tensor for `weight`, found `(float32, float32)`");
  }
}

TEST_CASE("nn.matmul", "[relations]") {
  CHECK(op_type("nn.matmul", {"Tensor[(4, 8), float32]", "Tensor[(8, 5), float32]"},
                "units=None") == "Tensor[(4, 5), float32]");
  CHECK(op_type("nn.matmul", {"Tensor[(4, 8), float32]", "Tensor[(5, 8), float32]"},
                "units=None, transpose_b=True") == "Tensor[(4, 5), float32]");
  CHECK(op_type("nn.matmul", {"Tensor[(8, 4), float32]", "Tensor[(8, 5), float32]"},
                "units=None, transpose_a=True") == "Tensor[(4, 5), float32]");
  auto forced =
      run_op_type("nn.matmul", {"Tensor[(8, 4), float32]", "_"}, "units=5, transpose_a=True");
  CHECK(forced.output == "Tensor[(4, 5), float32]");
  CHECK(forced.inputs == "Tensor[(8, 4), float32]; Tensor[(8, 5), float32]");
  CHECK(
      op_type("nn.matmul", {"Tensor[(4, 8), float32]", "Tensor[(5, 8), float32]"}, "units=None") ==
      "error: `nn.matmul`: the reduction dimension differs: tensor_a has 8 (its dim 1), "
      "tensor_b has 5 (its dim 0)");
  CHECK(op_type("nn.matmul", {"Tensor[(8), float32]", "Tensor[(8, 5), float32]"},
                "units=None, transpose_a=True") ==
        "error: `nn.matmul` expects `tensor_a` of rank at least 2, found `Tensor[(8), float32]`");
}

TEST_CASE("nn.batch_matmul", "[relations]") {
  // TVM's default is transpose_b=False in the attrs (the Python builder passes True).
  CHECK(op_type("nn.batch_matmul", {"Tensor[(2, 3, 4), float32]", "Tensor[(2, 5, 4), float32]"},
                "transpose_b=True") == "Tensor[(2, 3, 5), float32]");
  CHECK(op_type("nn.batch_matmul", {"Tensor[(2, 3, 4), float32]", "Tensor[(2, 4, 5), float32]"}) ==
        "Tensor[(2, 3, 5), float32]");
  CHECK(op_type("nn.batch_matmul", {"Tensor[(2, 4, 3), float32]", "Tensor[(2, 4, 5), float32]"},
                "transpose_a=True, out_dtype=\"float16\"") == "Tensor[(2, 3, 5), float16]");
  SECTION("batch broadcasting") {
    CHECK(
        op_type("nn.batch_matmul", {"Tensor[(1, 3, 4), float32]", "Tensor[(7, 4, 5), float32]"}) ==
        "Tensor[(7, 3, 5), float32]");
    CHECK(
        op_type("nn.batch_matmul", {"Tensor[(b, 3, 4), float32]", "Tensor[(1, 4, 5), float32]"}) ==
        "Tensor[(b, 3, 5), float32]");
    CHECK(
        op_type("nn.batch_matmul", {"Tensor[(?, 3, 4), float32]", "Tensor[(2, 4, 5), float32]"}) ==
        "Tensor[(?, 3, 5), float32]");
  }
  SECTION("errors") {
    CHECK(
        op_type("nn.batch_matmul", {"Tensor[(2, 3, 4), float32]", "Tensor[(3, 4, 5), float32]"}) ==
        "error: `nn.batch_matmul`: the batch dimension differs: tensor_a has 2 (its dim 0), "
        "tensor_b has 3 (its dim 0)");
    CHECK(
        op_type("nn.batch_matmul", {"Tensor[(2, 3, 4), float32]", "Tensor[(2, 6, 5), float32]"}) ==
        "error: `nn.batch_matmul`: the reduction dimension differs: tensor_a has 4 (its dim 2), "
        "tensor_b has 6 (its dim 1)");
    CHECK(op_type("nn.batch_matmul", {"Tensor[(3, 4), float32]", "Tensor[(2, 4, 5), float32]"}) ==
          "error: `nn.batch_matmul` expects `tensor_a` of rank 3, found `Tensor[(3, 4), float32]`");
    CHECK(op_type("nn.batch_matmul", {"_", "Tensor[(2, 4, 5), float32]"}) == "pending");
  }
}

TEST_CASE("nn.contrib_dense_pack", "[relations]") {
  CHECK(op_type("nn.contrib_dense_pack",
                {"Tensor[(1, 64), float32]", "Tensor[(4, 64, 8), float32]"},
                "units=None") == "Tensor[(1, 32), float32]");
  CHECK(op_type("nn.contrib_dense_pack", {"Tensor[(1, 64), float32]", "Tensor[(32, 64), float32]"},
                "units=None") ==
        "error: `nn.contrib_dense_pack` expects `weight` of rank 3 or 4, found "
        "`Tensor[(32, 64), float32]`");
}

TEST_CASE("nn.bias_add forces the bias", "[relations]") {
  auto r = run_op_type("nn.bias_add", {"Tensor[(1, 64, 56, 56), float32]", "_"});
  CHECK(r.output == "Tensor[(1, 64, 56, 56), float32]");
  CHECK(r.inputs == "Tensor[(1, 64, 56, 56), float32]; Tensor[(64), float32]");
  CHECK(run_op_type("nn.bias_add", {"Tensor[(1, 56, 56, 64), float16]", "_"}, "axis=-1").inputs ==
        "Tensor[(1, 56, 56, 64), float16]; Tensor[(64), float16]");
  CHECK(run_op_type("nn.bias_add", {"Tensor[(n, c), float32]", "_"}).inputs ==
        "Tensor[(n, c), float32]; Tensor[(c), float32]");
  CHECK(op_type("nn.bias_add", {"Tensor[(1, ?), float32]", "Tensor[(10), float32]"}) ==
        "Tensor[(1, ?), float32]");
  CHECK(op_type("nn.bias_add", {"Tensor[(1, 64), float32]", "Tensor[(32), float32]"}) ==
        "error: `nn.bias_add` expects `bias` of type `Tensor[(64), float32]` (one value per "
        "element of axis 1 of `data`, which has shape (1, 64)), found `Tensor[(32), float32]`");
  CHECK(op_type("nn.bias_add", {"Tensor[(1, 64), float32]", "Tensor[(64), float16]"})
            .starts_with("error: `nn.bias_add` expects `bias` of type `Tensor[(64), float32]`"));
  CHECK(op_type("nn.bias_add", {"Tensor[(1, 64), float32]", "_"}, "axis=2") ==
        "error: axis 2 is out of range for a tensor of rank 2");
  CHECK(op_type("nn.bias_add", {"_", "Tensor[(64), float32]"}) == "pending");
}

TEST_CASE("nn.prelu", "[relations]") {
  auto r = run_op_type("nn.prelu", {"Tensor[(1, 8, 4, 4), float32]", "_"});
  CHECK(r.output == "Tensor[(1, 8, 4, 4), float32]");
  CHECK(r.inputs == "Tensor[(1, 8, 4, 4), float32]; Tensor[(8), float32]");
  CHECK(run_op_type("nn.prelu", {"Tensor[(1, 4, 4, 8), float32]", "_"}, "axis=3").inputs ==
        "Tensor[(1, 4, 4, 8), float32]; Tensor[(8), float32]");
  // TVM's PReluRel indexes the shape with the raw axis: negative axes are not accepted.
  CHECK(op_type("nn.prelu", {"Tensor[(1, 8), float32]", "_"}, "axis=-1") ==
        "error: axis -1 is out of range for `nn.prelu` on a tensor of rank 2");
}

TEST_CASE("nn.batch_norm", "[relations]") {
  std::string params = "Tensor[(64), float32]";
  auto r = run_op_type("nn.batch_norm", {"Tensor[(1, 64, 112, 112), float32]", "_", "_", "_", "_"});
  CHECK(r.output ==
        "(Tensor[(1, 64, 112, 112), float32], Tensor[(64), float32], Tensor[(64), float32])");
  CHECK(r.inputs == "Tensor[(1, 64, 112, 112), float32]; " + params + "; " + params + "; " +
                        params + "; " + params);
  CHECK(op_type("nn.batch_norm", {"Tensor[(2, 5, 3), float32]", "_", "_", "_", "_"}, "axis=-1") ==
        "(Tensor[(2, 5, 3), float32], Tensor[(3), float32], Tensor[(3), float32])");
  CHECK(op_type("nn.batch_norm", {"Tensor[(n, c), float32]", "_", "_", "_", "_"}) ==
        "(Tensor[(n, c), float32], Tensor[(c), float32], Tensor[(c), float32])");
  SECTION("errors") {
    // TVM's BatchNormRel accepts -1 as the only negative axis.
    CHECK(op_type("nn.batch_norm", {"Tensor[(2, 5, 3), float32]", "_", "_", "_", "_"}, "axis=-2") ==
          "error: axis -2 is out of range for `nn.batch_norm` on a tensor of rank 3");
    CHECK(op_type("nn.batch_norm",
                  {"Tensor[(2, 5), float32]", "_", "_", "_", "Tensor[(4), float32]"}) ==
          "error: `nn.batch_norm` expects `moving_var` of type `Tensor[(5), float32]` (one value "
          "per element of axis 1 of `data`, which has shape (2, 5)), found `Tensor[(4), float32]`");
  }
}

TEST_CASE("layer, group and instance norm", "[relations]") {
  auto r = run_op_type("nn.layer_norm", {"Tensor[(2, 10, 768), float32]", "_", "_"});
  CHECK(r.output == "Tensor[(2, 10, 768), float32]");
  CHECK(r.inputs ==
        "Tensor[(2, 10, 768), float32]; Tensor[(768), float32]; Tensor[(768), float32]");
  CHECK(run_op_type("nn.group_norm", {"Tensor[(1, 32, 8, 8), float32]", "_", "_"}, "num_groups=4")
            .inputs ==
        "Tensor[(1, 32, 8, 8), float32]; Tensor[(32), float32]; Tensor[(32), float32]");
  CHECK(op_type("nn.instance_norm", {"Tensor[(1, 3, 8, 8), float32]", "_", "_"}, "axis=-3") ==
        "Tensor[(1, 3, 8, 8), float32]");
  CHECK(op_type("nn.instance_norm", {"Tensor[(1, 3), float32]", "_", "_"}) ==
        "error: `nn.instance_norm` expects `data` of rank at least 3, found "
        "`Tensor[(1, 3), float32]`");
  CHECK(op_type("nn.layer_norm", {"Tensor[(2, 10), float32]", "_", "_"}, "axis=-3") ==
        "error: axis -3 is out of range for a tensor of rank 2");
  CHECK(op_type("nn.layer_norm",
                {"Tensor[(2, 10), float32]", "Tensor[(10), float32]", "Tensor[(2), float32]"})
            .starts_with("error: `nn.layer_norm` expects `beta` of type `Tensor[(10), float32]`"));
}

TEST_CASE("softmax family and identity-typed nn ops", "[relations]") {
  for (const char* op : {"nn.softmax", "nn.log_softmax", "nn.fast_softmax"}) {
    CHECK(op_type(op, {"Tensor[(1, 1000), float32]"}) == "Tensor[(1, 1000), float32]");
    CHECK(op_type(op, {"Tensor[(2, 3), float32]"}, "axis=-2") == "Tensor[(2, 3), float32]");
    CHECK(op_type(op, {"Tensor[(2, 3), float32]"}, "axis=2") ==
          "error: axis 2 is out of range for a tensor of rank 2");
  }
  CHECK(op_type("nn.softmax", {"float32"}) ==
        "error: axis -1 is out of range for a tensor of rank 0");
  CHECK(op_type("nn.leaky_relu", {"Tensor[(n, ?), float32]"}, "alpha=0.1") ==
        "Tensor[(n, ?), float32]");
  CHECK(op_type("nn.lrn", {"Tensor[(1, 3, 8, 8), float32]"}, "size=3") ==
        "Tensor[(1, 3, 8, 8), float32]");
  CHECK(op_type("nn.l2_normalize", {"Tensor[(1, 3), float32]"}, "eps=1e-05, axis=[1]") ==
        "Tensor[(1, 3), float32]");
  CHECK(op_type("nn.leaky_relu", {"_"}) == "pending");
}

TEST_CASE("nn.dropout and nn.batch_flatten", "[relations]") {
  CHECK(op_type("nn.dropout", {"Tensor[(1, 128), float32]"}, "rate=0.5") ==
        "(Tensor[(1, 128), float32], Tensor[(1, 128), float32])");
  CHECK(op_type("nn.batch_flatten", {"Tensor[(1, 1, 28, 28), float32]"}) ==
        "Tensor[(1, 784), float32]");
  CHECK(op_type("nn.batch_flatten", {"Tensor[(n, 3, m), float32]"}) ==
        "Tensor[(n, 3 * m), float32]");
  CHECK(op_type("nn.batch_flatten", {"Tensor[(2, 3, ?), float32]"}) == "Tensor[(2, ?), float32]");
  CHECK(op_type("nn.batch_flatten", {"Tensor[(5), float32]"}) == "Tensor[(5, 1), float32]");
  CHECK(op_type("nn.batch_flatten", {"float32"}) ==
        "error: `nn.batch_flatten` expects `data` of rank at least 1, found `float32`");
}

TEST_CASE("nn.pad and nn.mirror_pad", "[relations]") {
  CHECK(op_type("nn.pad", {"Tensor[(1, 3, 224, 224), float32]", "float32"},
                "pad_width=[[0, 0], [0, 0], [1, 1], [2, 3]]") ==
        "Tensor[(1, 3, 226, 229), float32]");
  CHECK(op_type("nn.pad", {"Tensor[(n, ?), float32]", "float32"}, "pad_width=[[1, 1], [1, 1]]") ==
        "Tensor[(n + 2, ?), float32]");
  CHECK(op_type("nn.pad", {"Tensor[(4), float32]", "_"}, "pad_width=[[-1, -2]]") ==
        "Tensor[(1), float32]");
  CHECK(op_type("nn.mirror_pad", {"Tensor[(3, 4), float32]"}, "pad_width=[[1, 1], [0, 2]]") ==
        "Tensor[(5, 6), float32]");
  SECTION("errors") {
    CHECK(op_type("nn.pad", {"Tensor[(3, 4), float32]", "float32"}, "pad_width=[[1, 1]]") ==
          "error: `nn.pad`: `pad_width` has 1 pairs but `data` has rank 2");
    CHECK(op_type("nn.pad", {"Tensor[(3), float32]", "float32"}, "pad_width=[[1, 1, 1]]") ==
          "error: `nn.pad`: entry 0 of `pad_width` is [1, 1, 1], not a pair of integer constants");
    CHECK(op_type("nn.pad", {"Tensor[(3), float32]", "float32"}, "pad_width=[[2]]") ==
          "error: `nn.pad`: entry 0 of `pad_width` is [2], not a pair of integer constants");
    CHECK(op_type("nn.pad", {"Tensor[(3), float32]", "float32"}, "pad_width=[[-2, -2]]") ==
          "error: `nn.pad`: padding dimension 0 (3) by [-2, -2] leaves a negative size -1");
    CHECK(op_type("nn.mirror_pad", {"Tensor[(3), float32]"}, "pad_width=[[-1, 0]]") ==
          "error: `nn.mirror_pad`: mirror padding cannot be negative, but entry 0 of `pad_width` "
          "is [-1, 0]");
  }
}

TEST_CASE("nn.fifo_buffer", "[relations]") {
  CHECK(op_type("nn.fifo_buffer", {"Tensor[(1, 2, 3), float32]", "Tensor[(1, 8, 3), float32]"},
                "axis=1") == "Tensor[(1, 8, 3), float32]");
  CHECK(op_type("nn.fifo_buffer", {"Tensor[(1, 2, 3), float32]", "Tensor[(1, 8, 3), float32]"},
                "axis=-2") == "Tensor[(1, 8, 3), float32]");
  CHECK(op_type("nn.fifo_buffer", {"Tensor[(1, 2), float32]", "Tensor[(1, 8, 3), float32]"}) ==
        "error: `nn.fifo_buffer`: `data` and `buffer` must have the same rank");
  CHECK(op_type("nn.fifo_buffer", {"Tensor[(1, 2, 4), float32]", "Tensor[(1, 8, 3), float32]"},
                "axis=1") ==
        "error: `nn.fifo_buffer`: dimension 2 differs: data has 4 (its dim 2), buffer has 3 (its "
        "dim 2)");
  CHECK(op_type("nn.fifo_buffer", {"Tensor[(1, 8, 3), float32]", "Tensor[(1, 8, 3), float32]"},
                "axis=1") ==
        "error: `nn.fifo_buffer`: `data` must be shorter than `buffer` along axis 1, but has 8 "
        "against 8");
}

TEST_CASE("losses", "[relations]") {
  CHECK(op_type("nn.cross_entropy", {"Tensor[(4, 10), float32]", "Tensor[(4, 10), float32]"}) ==
        "float32");
  CHECK(op_type("nn.cross_entropy_with_logits",
                {"Tensor[(4, 10), float32]", "Tensor[(4, 9), float32]"}) ==
        "error: `nn.cross_entropy_with_logits`: dimension 1 differs: x has 10 (its dim 1), y has "
        "9 (its dim 1)");
  SECTION("nll_loss") {
    std::vector<std::string> ok = {"Tensor[(4, 10), float32]", "Tensor[(4), int32]",
                                   "Tensor[(10), float32]"};
    CHECK(op_type("nn.nll_loss", ok, "ignore_index=-100") == "float32");
    CHECK(op_type("nn.nll_loss", ok, "reduction=\"none\", ignore_index=-100") ==
          "Tensor[(4), float32]");
    CHECK(op_type("nn.nll_loss",
                  {"Tensor[(4, 10, 5), float32]", "Tensor[(4, 5), int64]", "Tensor[(10), float32]"},
                  "reduction=\"none\", ignore_index=0") == "Tensor[(4, 5), float32]");
    CHECK(op_type("nn.nll_loss",
                  {"Tensor[(4, 10), float32]", "Tensor[(4, 1), int32]", "Tensor[(10), float32]"},
                  "ignore_index=0") ==
          "error: `nn.nll_loss` expects `targets` of rank 1 (one less than `predictions`), found "
          "`Tensor[(4, 1), int32]`");
    CHECK(op_type("nn.nll_loss",
                  {"Tensor[(4, 10), float32]", "Tensor[(4), int32]", "Tensor[(9), float32]"},
                  "ignore_index=0") ==
          "error: `nn.nll_loss`: the number of classes differs: predictions has 10 (its dim 1), "
          "weights has 9 (its dim 0)");
    CHECK(op_type("nn.nll_loss",
                  {"Tensor[(4, 10), int32]", "Tensor[(4), int32]", "Tensor[(10), int32]"},
                  "ignore_index=0") ==
          "error: `nn.nll_loss`: `predictions` and `weights` must have the same float dtype, "
          "found int32 and int32");
    CHECK(op_type("nn.nll_loss",
                  {"Tensor[(4, 10), float32]", "Tensor[(4), float32]", "Tensor[(10), float32]"},
                  "ignore_index=0") ==
          "error: `nn.nll_loss`: `targets` must have an int dtype (class indices), found float32");
    CHECK(op_type("nn.nll_loss",
                  {"Tensor[(4, 10), float32]", "Tensor[(3), int32]", "Tensor[(10), float32]"},
                  "ignore_index=0") ==
          "error: `nn.nll_loss`: the batch dimension differs: predictions has 4 (its dim 0), "
          "targets has 3 (its dim 0)");
  }
}

TEST_CASE("sparse nn ops", "[relations]") {
  std::vector<std::string> csr = {"Tensor[(8, 16), float32]", "Tensor[(20), float32]",
                                  "Tensor[(20), int32]", "Tensor[(33), int32]"};
  CHECK(op_type("nn.sparse_dense", csr) == "Tensor[(8, 32), float32]");
  CHECK(op_type("nn.sparse_dense", csr, "sparse_lhs=True") == "Tensor[(32, 8), float32]");
  CHECK(op_type("nn.internal.sparse_dense_padded", csr) == "Tensor[(8, 32), float32]");
  std::vector<std::string> bsr = {"Tensor[(8, 16), float32]", "Tensor[(5, 4, 2), float32]",
                                  "Tensor[(5), int32]", "Tensor[(n), int32]"};
  CHECK(op_type("nn.sparse_dense", bsr) == "Tensor[(8, 4 * n - 4), float32]");
  CHECK(op_type("nn.sparse_dense", {"Tensor[(8, 16), float32]", "Tensor[(5, 4), float32]",
                                    "Tensor[(5), int32]", "Tensor[(3), int32]"}) ==
        "error: `nn.sparse_dense` expects `sparse_data` of rank 1 (CSR) or 3 (BSR), found "
        "`Tensor[(5, 4), float32]`");
  CHECK(op_type("nn.sparse_dense", {"Tensor[(8, 16), float32]", "_", "Tensor[(5), int32]",
                                    "Tensor[(3), int32]"}) == "pending");

  CHECK(op_type("nn.sparse_transpose",
                {"Tensor[(20), float32]", "Tensor[(20), int32]", "Tensor[(9), int32]"}) ==
        "(Tensor[(20), float32], Tensor[(20), int32], Tensor[(9), int32])");
  CHECK(op_type("nn.sparse_add", {"Tensor[(4, 4), float32]", "Tensor[(3), float32]",
                                  "Tensor[(3), int32]", "Tensor[(5), int32]"}) ==
        "Tensor[(4, 4), float32]");
  CHECK(op_type("nn.sparse_add", {"Tensor[(4, 4), float32]", "Tensor[(3), float16]",
                                  "Tensor[(3), int32]", "Tensor[(5), int32]"}) ==
        "error: `nn.sparse_add`: the dense and sparse data dtypes differ: float32 and float16");

  std::vector<std::string> conv = {"Tensor[(1, 8, 8, 16), float32]", "Tensor[(6, 4, 16), float32]",
                                   "Tensor[(6), int32]", "Tensor[(3), int32]"};
  CHECK(op_type("nn.sparse_conv2d", conv) == "Tensor[(1, 8, 8, 8), float32]");
  CHECK(op_type("nn.sparse_conv2d", conv, "layout=\"NCHW\"") == "Tensor[(1, 8, 8, 16), float32]");
  CHECK(op_type("nn.sparse_conv2d", conv, "layout=\"HWCN\"") ==
        "error: `nn.sparse_conv2d`: unsupported layout \"HWCN\"");
}

TEST_CASE("bit-serial nn ops", "[relations]") {
  CHECK(op_type("nn.bitpack", {"Tensor[(1, 64, 8, 8), float32]"},
                "bits=2, pack_axis=1, bit_axis=2, pack_type=\"uint32\"") ==
        "Tensor[(1, 2, 2, 8, 8), uint32]");
  CHECK(op_type("nn.bitpack", {"Tensor[(4, 64), float32]"},
                "bits=1, pack_axis=1, bit_axis=2, pack_type=\"uint8\"") ==
        "Tensor[(4, 8, 1), uint8]");
  CHECK(op_type("nn.bitpack", {"Tensor[(4, 64), float32]"}) ==
        "error: `nn.bitpack`: `pack_type` must be set (the packed integer dtype)");
  CHECK(op_type("nn.bitserial_dense", {"Tensor[(2, 64), int16]", "Tensor[(8, 2), uint32]"},
                "units=8") == "Tensor[(2, 8), int16]");
  CHECK(op_type("nn.bitserial_dense", {"Tensor[(2, 64), int16]", "_"},
                "units=8, out_dtype=\"int32\"") == "Tensor[(2, 8), int32]");
  CHECK(op_type("nn.bitserial_dense", {"Tensor[(2, 64), int16]", "_"}, "units=None") ==
        "error: `nn.bitserial_dense`: `units` must be given");
}

TEST_CASE("nn relations on rank-0 and all-? tensors", "[relations]") {
  CHECK(op_type("nn.dense", {"Tensor[(?, ?), float32]", "Tensor[(?, ?), float32]"},
                "units=None") == "Tensor[(?, ?), float32]");
  CHECK(op_type("nn.batch_matmul", {"Tensor[(?, ?, ?), float32]", "Tensor[(?, ?, ?), float32]"}) ==
        "Tensor[(?, ?, ?), float32]");
  CHECK(op_type("nn.bias_add", {"float32", "_"}) ==
        "error: axis 1 is out of range for a tensor of rank 0");
  CHECK(op_type("nn.batch_norm", {"float32", "_", "_", "_", "_"}, "axis=-1") ==
        "error: axis -1 is out of range for `nn.batch_norm` on a tensor of rank 0");
  CHECK(op_type("nn.pad", {"float32", "float32"}, "pad_width=[]") == "float32");
  // bit_axis = -1 (the attrs default) inserts no bit-plane dimension, as in TVM.
  CHECK(op_type("nn.bitpack", {"float32"}, "pack_type=\"uint32\"") == "uint32");
  CHECK(op_type("nn.bitpack", {"Tensor[(4, 64), float32]"}, "pack_type=\"uint32\"") ==
        "Tensor[(4, 2), uint32]");
}

TEST_CASE("nn relations answer every combination of odd inputs", "[relations]") {
  // Each relation must give a type, "pending" or an error for any inputs: never crash.
  struct Case {
    const char* op;
    size_t arity;
    std::vector<std::string> attrs;
  };
  const std::vector<Case> cases = {
      {"nn.dense", 2, {"units=None", "units=3", "units=0"}},
      {"nn.matmul", 2, {"units=None, transpose_a=True", "units=2, transpose_b=True"}},
      {"nn.batch_matmul", 2, {"", "transpose_a=True, transpose_b=True"}},
      {"nn.contrib_dense_pack", 2, {"units=None"}},
      {"nn.bias_add", 2, {"", "axis=-4", "axis=3"}},
      {"nn.prelu", 2, {"", "axis=2"}},
      {"nn.batch_norm", 5, {"", "axis=-1"}},
      {"nn.layer_norm", 3, {""}},
      {"nn.instance_norm", 3, {"axis=-3"}},
      {"nn.softmax", 1, {"", "axis=-3"}},
      {"nn.dropout", 1, {""}},
      {"nn.batch_flatten", 1, {""}},
      {"nn.pad", 2, {"pad_width=[]", "pad_width=[[1, 2], [-3, 0], [0, -5]]"}},
      {"nn.mirror_pad", 1, {"pad_width=[[1, 1], [1, 1]]"}},
      {"nn.fifo_buffer", 2, {"axis=-1", "axis=2"}},
      {"nn.cross_entropy", 2, {""}},
      {"nn.nll_loss", 3, {"ignore_index=0", "reduction=\"none\", ignore_index=0"}},
      {"nn.sparse_dense", 4, {"", "sparse_lhs=True"}},
      {"nn.sparse_transpose", 3, {""}},
      {"nn.sparse_add", 4, {""}},
      {"nn.sparse_conv2d", 4, {"", "layout=\"NCHW\""}},
      {"nn.bitpack", 1, {"pack_type=\"uint8\", pack_axis=0, bit_axis=1"}},
      {"nn.bitserial_dense", 2, {"units=4"}},
  };
  // The first two inputs range over every shape of trouble; later ones (parameters,
  // sparse components) over fewer, to keep the product small.
  const std::vector<std::string> wide = {"_",
                                         "float32",
                                         "Tensor[(?), int32]",
                                         "Tensor[(2, 3), float32]",
                                         "Tensor[(n, ?, 4), float32]",
                                         "(float32,)"};
  const std::vector<std::string> narrow = {"_", "Tensor[(?), int32]", "Tensor[(2, 3), float32]"};
  for (const Case& c : cases) {
    for (const std::string& attrs : c.attrs) {
      std::vector<size_t> pick(c.arity, 0);
      auto pool_of = [&](size_t i) -> const std::vector<std::string>& {
        return i < 2 ? wide : narrow;
      };
      while (true) {
        std::vector<std::string> inputs;
        for (size_t i = 0; i < pick.size(); ++i) inputs.push_back(pool_of(i)[pick[i]]);
        std::string out = op_type(c.op, inputs, attrs);
        INFO(c.op << " " << attrs << " -> " << out);
        CHECK(!out.starts_with("error: parse"));
        CHECK(!out.starts_with("error: (failed without a message)"));
        size_t k = 0;
        while (k < pick.size() && ++pick[k] == pool_of(k).size()) pick[k++] = 0;
        if (k == pick.size()) break;
      }
    }
  }
}
