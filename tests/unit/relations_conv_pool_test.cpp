// Relations of the convolution, pooling and spatial operators (reference §3.0.6, §3.0.7,
// §3.7). Calls are written the way TVM prints them.
#include <catch2/catch.hpp>

#include "tests/support/op_type.h"

using relay::testing::op_type;
using relay::testing::run_op_type;

namespace {
const std::string kImage = "Tensor[(1, 3, 224, 224), float32]";
}

TEST_CASE("conv2d: ResNet-18 stem, weight forced from channels and kernel_size", "[relations]") {
  auto r = run_op_type("nn.conv2d", {kImage, "_"},
                       "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7]");
  CHECK(r.output == "Tensor[(1, 64, 112, 112), float32]");
  CHECK(r.inputs == kImage + "; Tensor[(64, 3, 7, 7), float32]");
  // The weight's own dtype wins over data's when known.
  r = run_op_type("nn.conv2d", {"Tensor[(1, 3, 8, 8), int8]", "Tensor[(4, 3, 3, 3), int16]"},
                  "channels=4, kernel_size=[3, 3], out_dtype=\"int32\"");
  CHECK(r.output == "Tensor[(1, 4, 6, 6), int32]");
  CHECK(r.inputs == "Tensor[(1, 3, 8, 8), int8]; Tensor[(4, 3, 3, 3), int16]");
}

TEST_CASE("conv2d: shapes from a known weight", "[relations]") {
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7, 7), float32]"},
                "strides=[2, 2], padding=[3, 3, 3, 3]") == "Tensor[(1, 64, 112, 112), float32]");
  // padding with 1 value (all sides) and 2 values (each doubled); dilation.
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 8, 32, 32), float32]", "Tensor[(16, 8, 3, 3), float32]"},
                "padding=[1]") == "Tensor[(1, 16, 32, 32), float32]");
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 8, 32, 32), float32]", "Tensor[(16, 8, 3, 3), float32]"},
                "padding=[1, 0], dilation=[2, 2]") == "Tensor[(1, 16, 30, 28), float32]");
  CHECK(op_type("nn.conv2d", {"_", "Tensor[(16, 8, 3, 3), float32]"}) == "pending");
  CHECK(op_type("nn.conv2d", {kImage, "_"}, "kernel_size=[3, 3]") == "pending");
}

TEST_CASE("conv2d: NHWC / HWIO layouts and out_layout", "[relations]") {
  auto r = run_op_type("nn.conv2d", {"Tensor[(1, 224, 224, 3), float32]", "_"},
                       "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7], "
                       "data_layout=\"NHWC\", kernel_layout=\"HWIO\"");
  CHECK(r.output == "Tensor[(1, 112, 112, 64), float32]");
  CHECK(r.inputs == "Tensor[(1, 224, 224, 3), float32]; Tensor[(7, 7, 3, 64), float32]");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7, 7), float32]"},
                "strides=[2, 2], padding=[3, 3, 3, 3], out_layout=\"NHWC\"") ==
        "Tensor[(1, 112, 112, 64), float32]");
  // Split channel axes: NCHW16c data and output, OIHW16i16o weight.
  CHECK(op_type("nn.conv2d",
                {"Tensor[(1, 2, 8, 8, 16), float32]", "Tensor[(4, 2, 3, 3, 16, 16), float32]"},
                "padding=[1, 1], data_layout=\"NCHW16c\", kernel_layout=\"OIHW16i16o\"") ==
        "Tensor[(1, 4, 8, 8, 16), float32]");
}

TEST_CASE("conv2d: groups and depthwise", "[relations]") {
  // Depthwise (groups = C_in = weight's O), multiplier 1 and 2.
  auto r = run_op_type("nn.conv2d",
                       {"Tensor[(1, 32, 112, 112), float32]", "Tensor[(32, 1, 3, 3), float32]"},
                       "padding=[1, 1, 1, 1], groups=32, channels=32, kernel_size=[3, 3]");
  CHECK(r.output == "Tensor[(1, 32, 112, 112), float32]");
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 8, 10, 10), float32]", "Tensor[(8, 2, 3, 3), float32]"},
                "groups=8, channels=16, kernel_size=[3, 3]") == "Tensor[(1, 16, 8, 8), float32]");
  // NHWC depthwise with an HWOI weight.
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 10, 10, 8), float32]", "Tensor[(3, 3, 8, 1), float32]"},
                "groups=8, channels=8, kernel_size=[3, 3], data_layout=\"NHWC\", "
                "kernel_layout=\"HWOI\"") == "Tensor[(1, 8, 8, 8), float32]");
  // Plain grouped convolution.
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 8, 10, 10), float32]", "Tensor[(16, 2, 3, 3), float32]"},
                "groups=4") == "Tensor[(1, 16, 8, 8), float32]");
  // With groups > 1 the weight decides depthwise-ness, so an unknown weight waits.
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 8, 10, 10), float32]", "_"},
                "groups=8, channels=8, kernel_size=[3, 3]") == "pending");
  // Grouped layout with an explicit G axis (GOIHW): (groups, channels/groups, C_in/groups, k).
  r = run_op_type("nn.conv2d",
                  {"Tensor[(1, 8, 10, 10), float32]", "Tensor[(2, 8, 4, 3, 3), float32]"},
                  "groups=2, channels=16, kernel_size=[3, 3], kernel_layout=\"GOIHW\"");
  CHECK(r.output == "Tensor[(1, 16, 8, 8), float32]");
}

TEST_CASE("conv2d: ? and symbolic dims", "[relations]") {
  CHECK(op_type("nn.conv2d", {"Tensor[(?, 3, ?, 224), float32]", "Tensor[(64, 3, 7, 7), float32]"},
                "strides=[2, 2], padding=[3, 3, 3, 3]") == "Tensor[(?, 64, ?, 112), float32]");
  CHECK(op_type("nn.conv2d", {"Tensor[(n, 3, h, w), float32]", "Tensor[(8, 3, 3, 3), float32]"},
                "padding=[1, 1]") == "Tensor[(n, 8, h, w), float32]");
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 3, h, 8), float32]", "Tensor[(8, 3, 3, 3), float32]"},
                "strides=[2, 2]") == "Tensor[(1, 8, (h + 1) / 2 - 1, 3), float32]");
  // A `?` weight input-channel dim is not checked against data.
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(8, ?, 3, 3), float32]"}) ==
        "Tensor[(1, 8, 222, 222), float32]");
  // Symbolic channels are forced into the weight.
  auto r = run_op_type("nn.conv2d", {"Tensor[(1, c, 8, 8), float32]", "_"},
                       "channels=4, kernel_size=[1, 1]");
  CHECK(r.inputs == "Tensor[(1, c, 8, 8), float32]; Tensor[(4, c, 1, 1), float32]");
}

TEST_CASE("conv2d: error messages", "[relations]") {
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 4, 7, 7), float32]"}) ==
        "error: `nn.conv2d`: the weight's `I` dimension (dim 1 of `kernel_layout` OIHW) is 4, "
        "but it must be 3: data has 3 channels (`C`, dim 1 of `data_layout` NCHW) and groups=1");
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 8, 10, 10), float32]", "Tensor[(16, 4, 3, 3), float32]"},
                "groups=4") ==
        "error: `nn.conv2d`: the weight's `I` dimension (dim 1 of `kernel_layout` OIHW) is 4, "
        "but it must be 2: data has 8 channels (`C`, dim 1 of `data_layout` NCHW) and groups=4");
  CHECK(op_type("nn.conv2d",
                {"Tensor[(1, 224, 224, 3), float32]", "Tensor[(7, 7, 4, 64), float32]"},
                "data_layout=\"NHWC\", kernel_layout=\"HWIO\"") ==
        "error: `nn.conv2d`: the weight's `I` dimension (dim 2 of `kernel_layout` HWIO) is 4, "
        "but it must be 3: data has 3 channels (`C`, dim 3 of `data_layout` NHWC) and groups=1");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 3, 3), float32]"}, "kernel_size=[7, 7]") ==
        "error: `nn.conv2d`: the weight's `H` dimension (dim 2 of `kernel_layout` OIHW) is 3, "
        "but it must be 7: `kernel_size` is [7, 7]");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(32, 3, 7, 7), float32]"},
                "channels=64, kernel_size=[7, 7]") ==
        "error: `nn.conv2d`: the weight's `O` dimension (dim 0 of `kernel_layout` OIHW) is "
        "32, but it must be 64: `channels` is 64");
  CHECK(op_type("nn.conv2d", {"Tensor[(1, c, 8, 8), float32]", "Tensor[(4, d, 1, 1), float32]"})
            .starts_with("error: `nn.conv2d`: the weight's `I` dimension (dim 1 of "
                         "`kernel_layout` OIHW) is d, but it must be c"));
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 3, 224), float32]", "Tensor[(64, 3, 7, 7), float32]"}) ==
        "error: `nn.conv2d`: data has rank 3, but `data_layout` \"NCHW\" has 4 axes");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7), float32]"}) ==
        "error: `nn.conv2d`: weight has rank 3, but `kernel_layout` \"OIHW\" has 4 axes");
  CHECK(op_type("nn.conv2d", {kImage, "_"}, "data_layout=\"NCHX\"") ==
        "error: `nn.conv2d`: `data_layout` \"NCHX\" cannot be converted to NCHW: it needs "
        "exactly the axes NCHW");
  CHECK(op_type("nn.conv2d", {kImage, "_"}, "kernel_layout=\"OIH4\"") ==
        "error: `nn.conv2d`: `kernel_layout` \"OIH4\" is not a valid layout");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7, 7), float32]"}, "strides=[2]") ==
        "error: `nn.conv2d`: `strides` needs 2 values, one per spatial axis (H, W), but has 1");
  CHECK(op_type("nn.conv2d", {kImage, "_"}, "channels=64, kernel_size=[7]") ==
        "error: `nn.conv2d`: `kernel_size` needs 2 values, one per spatial axis (H, W), but has 1");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7, 7), float32]"}, "strides=[0, 1]") ==
        "error: `nn.conv2d`: `strides` must be positive, but is [0, 1]");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7, 7), float32]"}, "padding=[1, 2, 3]") ==
        "error: `nn.conv2d`: `padding` needs 1, 2 or 4 values, but has 3");
  CHECK(op_type("nn.conv2d", {kImage, "Tensor[(64, 3, 7, 7), float32]"}, "groups=0") ==
        "error: `nn.conv2d`: `groups` must be positive, but is 0");
  CHECK(op_type("nn.conv2d", {"Tensor[(1, 3, 4, 4), float32]", "Tensor[(8, 3, 7, 7), float32]"}) ==
        "error: `nn.conv2d`: the output `H` would be -2, which is not positive (input 4, padding "
        "0, dilated window 7, stride 1)");
  CHECK(
      op_type("nn.conv2d", {"(float32,)", "_"}).starts_with("error: `nn.conv2d` expects a tensor"));
}

TEST_CASE("conv1d and conv3d share the conv2d rule", "[relations]") {
  auto r = run_op_type("nn.conv1d", {"Tensor[(4, 16, 100), float32]", "_"},
                       "strides=[2], padding=[1, 1], channels=32, kernel_size=[3]");
  CHECK(r.output == "Tensor[(4, 32, 50), float32]");
  CHECK(r.inputs == "Tensor[(4, 16, 100), float32]; Tensor[(32, 16, 3), float32]");
  CHECK(op_type("nn.conv1d", {"Tensor[(4, 16, 100), float32]", "Tensor[(32, 16, 3), float32]"},
                "padding=[1]") == "Tensor[(4, 32, 100), float32]");
  CHECK(op_type("nn.conv1d", {"Tensor[(4, 16, 100), float32]", "Tensor[(32, 16, 3), float32]"},
                "dilation=[1, 1]") ==
        "error: `nn.conv1d`: `dilation` needs 1 value, one per spatial axis (W), but has 2");
  CHECK(op_type("nn.conv1d", {"Tensor[(4, 100, 16), float32]", "Tensor[(3, 16, 32), float32]"},
                "data_layout=\"NWC\", kernel_layout=\"WIO\"") == "Tensor[(4, 98, 32), float32]");
  r = run_op_type("nn.conv3d", {"Tensor[(1, 3, 16, 112, 112), float32]", "_"},
                  "strides=[1, 2, 2], padding=[1, 3, 3], channels=64, kernel_size=[3, 7, 7]");
  CHECK(r.output == "Tensor[(1, 64, 16, 56, 56), float32]");
  CHECK(r.inputs == "Tensor[(1, 3, 16, 112, 112), float32]; Tensor[(64, 3, 3, 7, 7), float32]");
  CHECK(op_type("nn.conv3d",
                {"Tensor[(1, 8, 8, 8, 3), float32]", "Tensor[(3, 3, 3, 3, 4), float32]"},
                "padding=[1, 1, 1, 1, 1, 1], data_layout=\"NDHWC\", kernel_layout=\"DHWIO\"") ==
        "Tensor[(1, 8, 8, 8, 4), float32]");
  CHECK(op_type(
            "nn.conv3d", {"Tensor[(1, 3, 8, 8, 8), float32]", "Tensor[(4, 3, 3, 3, 3), float32]"},
            "padding=[1, 1]") == "error: `nn.conv3d`: `padding` needs 1, 3 or 6 values, but has 2");
}

TEST_CASE("transposed convolutions", "[relations]") {
  // out = stride*(in-1) + ((k-1)*dilation+1) - pad_total + output_padding
  auto r = run_op_type("nn.conv2d_transpose", {"Tensor[(1, 64, 14, 14), float32]", "_"},
                       "channels=32, kernel_size=[4, 4], strides=[2, 2], padding=[1, 1, 1, 1]");
  CHECK(r.output == "Tensor[(1, 32, 28, 28), float32]");
  CHECK(r.inputs == "Tensor[(1, 64, 14, 14), float32]; Tensor[(64, 32, 4, 4), float32]");
  CHECK(op_type("nn.conv2d_transpose",
                {"Tensor[(1, 64, 14, 14), float32]", "Tensor[(64, 32, 3, 3), float32]"},
                "strides=[2, 2], padding=[1, 1], output_padding=[1, 1]") ==
        "Tensor[(1, 32, 28, 28), float32]");
  // Grouped: the weight is (C_in, channels/groups, k); from the weight alone TVM gives
  // weight.shape[1] output channels, not multiplied by groups.
  r = run_op_type("nn.conv2d_transpose", {"Tensor[(1, 8, 5, 5), float32]", "_"},
                  "channels=8, kernel_size=[3, 3], groups=2");
  CHECK(r.inputs == "Tensor[(1, 8, 5, 5), float32]; Tensor[(8, 4, 3, 3), float32]");
  CHECK(r.output == "Tensor[(1, 8, 7, 7), float32]");
  CHECK(op_type("nn.conv2d_transpose",
                {"Tensor[(1, 8, 5, 5), float32]", "Tensor[(8, 4, 3, 3), float32]"},
                "groups=2") == "Tensor[(1, 4, 7, 7), float32]");
  CHECK(op_type("nn.conv2d_transpose",
                {"Tensor[(1, 8, 5, 5), float32]", "Tensor[(6, 4, 3, 3), float32]"}) ==
        "error: `nn.conv2d_transpose`: the weight's `I` dimension (dim 0 of `kernel_layout` "
        "IOHW) is 6, but it must be 8: data has 8 channels (`C`, dim 1 of `data_layout` NCHW)");
  CHECK(op_type("nn.conv1d_transpose",
                {"Tensor[(1, 4, 10), float32]", "Tensor[(4, 2, 3), float32]"},
                "strides=[2], padding=[1]") == "Tensor[(1, 2, 19), float32]");
  // conv3d_transpose from the weight: H and W use each other's dilated kernel (TVM quirk).
  CHECK(op_type("nn.conv3d_transpose",
                {"Tensor[(1, 4, 5, 5, 5), float32]", "Tensor[(4, 2, 3, 3, 5), float32]"}) ==
        "Tensor[(1, 2, 7, 9, 7), float32]");
  CHECK(op_type("nn.conv3d_transpose", {"Tensor[(1, 4, 5, 5, 5), float32]", "_"},
                "channels=2, kernel_size=[3, 3, 5]") == "Tensor[(1, 2, 7, 7, 9), float32]");
}

TEST_CASE("contrib convolutions with pre-transformed weights", "[relations]") {
  CHECK(op_type("nn.contrib_conv2d_NCHWc",
                {"Tensor[(1, 8, 56, 56, 8), float32]", "Tensor[(8, 8, 3, 3, 8, 8), float32]"},
                "padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3], data_layout=\"NCHW8c\", "
                "kernel_layout=\"OIHW8i8o\", out_layout=\"NCHW8c\"") ==
        "Tensor[(1, 8, 56, 56, 8), float32]");
  CHECK(op_type("nn.contrib_conv2d_winograd_without_weight_transform",
                {"Tensor[(1, 64, 56, 56), float32]", "Tensor[(6, 6, 64, 64), float32]"},
                "tile_size=4, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]") ==
        "Tensor[(1, 64, 56, 56), float32]");
  CHECK(op_type("nn.contrib_conv2d_winograd_without_weight_transform",
                {"Tensor[(1, 64, 56, 56), float32]", "_"},
                "tile_size=4, padding=[1, 1, 1, 1], kernel_size=[3, 3]") ==
        "error: `nn.contrib_conv2d_winograd_without_weight_transform`: needs both `channels` "
        "and `kernel_size`: its weight is pre-transformed or bit-packed, so they cannot be read "
        "from it");
  CHECK(op_type("nn.contrib_conv3d_winograd_without_weight_transform",
                {"Tensor[(1, 8, 8, 8, 8), float32]", "_"},
                "tile_size=4, padding=[1, 1, 1], channels=16, kernel_size=[3, 3, 3]") ==
        "Tensor[(1, 16, 8, 8, 8), float32]");
  CHECK(op_type("nn.contrib_conv2d_gemm_without_weight_transform",
                {"Tensor[(1, 56, 56, 64), int8]", "Tensor[(4, 144, 16, 4), int8]"},
                "padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3], data_layout=\"NHWC\", "
                "kernel_layout=\"HWIO\", out_dtype=\"int32\"") == "Tensor[(1, 56, 56, 64), int32]");
  CHECK(op_type("nn.contrib_depthwise_conv2d_NCHWc",
                {"Tensor[(1, 4, 28, 28, 8), float32]", "Tensor[(4, 1, 3, 3, 1, 8), float32]"},
                "padding=[1, 1], groups=32, channels=32, kernel_size=[3, 3], "
                "data_layout=\"NCHW8c\", kernel_layout=\"OIHW1i8o\", out_layout=\"NCHW8c\"") ==
        "Tensor[(1, 4, 28, 28, 8), float32]");
  CHECK(op_type("nn.bitserial_conv2d", {"Tensor[(1, 64, 56, 56), int16]", "_"},
                "padding=[1, 1], channels=64, out_dtype=\"int16\"") ==
        "Tensor[(1, 64, 56, 56), int16]");
}

TEST_CASE("deformable_conv2d forces the offset and the weight", "[relations]") {
  auto r = run_op_type("nn.deformable_conv2d", {"Tensor[(1, 4, 16, 16), float32]", "_", "_"},
                       "padding=[1, 1], deformable_groups=2, channels=8, kernel_size=[3, 3]");
  CHECK(r.output == "Tensor[(1, 8, 16, 16), float32]");
  CHECK(r.inputs ==
        "Tensor[(1, 4, 16, 16), float32]; Tensor[(1, 36, 16, 16), float32]; "
        "Tensor[(8, 4, 3, 3), float32]");
  r = run_op_type("nn.deformable_conv2d",
                  {"Tensor[(1, 4, 16, 16), float32]", "_", "Tensor[(8, 4, 3, 3), float32]"},
                  "strides=[2, 2]");
  CHECK(r.output == "Tensor[(1, 8, 7, 7), float32]");
  CHECK(r.inputs.find("Tensor[(1, 18, 7, 7), float32]") != std::string::npos);
}

TEST_CASE("conv2d_backward_weight", "[relations]") {
  CHECK(op_type("nn.conv2d_backward_weight",
                {"Tensor[(1, 16, 8, 8), float32]", "Tensor[(1, 4, 10, 10), float32]"},
                "channels=16, kernel_size=[3, 3], kernel_layout=\"NCHW\", out_layout=\"OIHW\"") ==
        "Tensor[(16, 4, 3, 3), float32]");
  CHECK(op_type("nn.conv2d_backward_weight",
                {"Tensor[(1, 8, 8, 8), float32]", "Tensor[(1, 8, 10, 10), float32]"},
                "groups=8, channels=8, kernel_size=[3, 3], kernel_layout=\"NCHW\", "
                "out_layout=\"OIHW\"") == "Tensor[(8, 1, 3, 3), float32]");
  CHECK(op_type("nn.conv2d_backward_weight",
                {"Tensor[(1, 16, 8, 8), float32]", "Tensor[(1, 4, 10, 10), float32]"},
                "channels=16, kernel_layout=\"NCHW\"") ==
        "error: `nn.conv2d_backward_weight`: needs `kernel_size`");
}

TEST_CASE("convolution weight transforms", "[relations]") {
  CHECK(op_type("nn.contrib_conv2d_winograd_weight_transform", {"Tensor[(64, 32, 3, 3), float32]"},
                "tile_size=4") == "Tensor[(6, 6, 64, 32), float32]");
  CHECK(op_type("nn.contrib_conv2d_winograd_weight_transform", {"Tensor[(64, 32, 3), float32]"},
                "tile_size=4") ==
        "error: `nn.contrib_conv2d_winograd_weight_transform`: expects a 4-D weight in OIHW "
        "layout, but it has rank 3");
  CHECK(op_type("nn.contrib_conv3d_winograd_weight_transform", {"Tensor[(8, 4, 3, 3, 3), float32]"},
                "tile_size=4") == "Tensor[(6, 6, 6, 8, 4), float32]");
  CHECK(op_type("nn.contrib_conv3d_winograd_weight_transform", {"Tensor[(8, 4, 1, 3, 3), float32]"},
                "tile_size=4") == "Tensor[(6, 6, 1, 8, 4), float32]");
  CHECK(op_type("nn.contrib_conv2d_winograd_nnpack_weight_transform",
                {"Tensor[(64, 32, 3, 3), float32]"},
                "convolution_algorithm=0") == "Tensor[(64, 32, 8, 8), float32]");
  // HWIO (3, 3, 16, 30): N = 30 padded to 32; K = 144 padded to 192, a multiple of
  // 4 * tile_cols (TVM's Conv2DGemmWeightTransformRel), not just of tile_cols (which gave 9).
  CHECK(op_type("nn.contrib_conv2d_gemm_weight_transform", {"Tensor[(3, 3, 16, 30), int8]"},
                "tile_rows=4, tile_cols=16") == "Tensor[(8, 12, 4, 16), int8]");
  // K = 8 is whole tiles of 4 but still pads to 16.
  CHECK(op_type("nn.contrib_conv2d_gemm_weight_transform", {"Tensor[(2, 2, 2, 4), float32]"},
                "tile_rows=4, tile_cols=4") == "Tensor[(1, 4, 4, 4), float32]");
}

TEST_CASE("pooling: TVM-printed calls", "[relations]") {
  // ResNet-18: conv7x7/2 output (1, 64, 112, 112) -> maxpool3x3/2 pad 1 -> (1, 64, 56, 56).
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 64, 112, 112), float32]"},
                "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]") ==
        "Tensor[(1, 64, 56, 56), float32]");
  CHECK(op_type("nn.global_avg_pool2d", {"Tensor[(1, 512, 7, 7), float32]"}) ==
        "Tensor[(1, 512, 1, 1), float32]");
  CHECK(op_type("nn.global_max_pool2d", {"Tensor[(1, 7, 7, 512), float16]"}, "layout=\"NHWC\"") ==
        "Tensor[(1, 1, 1, 512), float16]");
  CHECK(op_type("nn.avg_pool2d", {"Tensor[(1, 64, 56, 56), float32]"},
                "pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0]") ==
        "Tensor[(1, 64, 28, 28), float32]");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 112, 112, 64), float32]"},
                "pool_size=[3, 3], strides=[2, 2], padding=[1, 1], layout=\"NHWC\"") ==
        "Tensor[(1, 56, 56, 64), float32]");
  // ceil_mode rounds the window count up; dilation widens the window.
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 1, 6, 6), float32]"},
                "pool_size=[3, 3], strides=[2, 2], ceil_mode=True") ==
        "Tensor[(1, 1, 3, 3), float32]");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 1, 6, 6), float32]"},
                "pool_size=[3, 3], strides=[2, 2]") == "Tensor[(1, 1, 2, 2), float32]");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 1, 9, 9), float32]"},
                "pool_size=[3, 3], dilation=[2, 2]") == "Tensor[(1, 1, 5, 5), float32]");
  // A split channel axis is fine; the output keeps data's layout.
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 4, 56, 56, 16), float32]"},
                "pool_size=[2, 2], strides=[2, 2], layout=\"NCHW16c\"") ==
        "Tensor[(1, 4, 28, 28, 16), float32]");
  CHECK(op_type("nn.max_pool2d", {"_"}, "pool_size=[2, 2]") == "pending");
}

TEST_CASE("pooling: 1-D, 3-D, ? and symbolic dims", "[relations]") {
  CHECK(op_type("nn.max_pool1d", {"Tensor[(1, 8, 100), float32]"},
                "pool_size=[3], strides=[2], padding=[1]") == "Tensor[(1, 8, 50), float32]");
  CHECK(op_type("nn.avg_pool1d", {"Tensor[(1, 8, 100), float32]"},
                "pool_size=[3], strides=[2], padding=[0, 1]") == "Tensor[(1, 8, 50), float32]");
  CHECK(op_type("nn.avg_pool3d", {"Tensor[(1, 8, 16, 16, 16), float32]"},
                "pool_size=[2, 2, 2], strides=[2, 2, 2], padding=[0, 0, 0]") ==
        "Tensor[(1, 8, 8, 8, 8), float32]");
  CHECK(op_type("nn.max_pool3d", {"Tensor[(1, 8, 16, 16, 16), float32]"},
                "pool_size=[3, 3, 3], padding=[1, 1, 1, 1, 1, 1]") ==
        "Tensor[(1, 8, 16, 16, 16), float32]");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(n, 64, ?, 112), float32]"},
                "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]") ==
        "Tensor[(n, 64, ?, 56), float32]");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 64, h, 8), float32]"},
                "pool_size=[2, 2], strides=[2, 2]") == "Tensor[(1, 64, h / 2, 4), float32]");
}

TEST_CASE("pooling: error messages", "[relations]") {
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 64, 56, 56), float32]"},
                "pool_size=[3, 3], layout=\"NCH\"") ==
        "error: `nn.max_pool2d`: `layout` \"NCH\" must contain the axes HW, none of them split");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 64, 56, 56, 2), float32]"},
                "pool_size=[3, 3], layout=\"NCHW2w\"") ==
        "error: `nn.max_pool2d`: `layout` \"NCHW2w\" must contain the axes HW, none of them split");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 56, 56), float32]"}, "pool_size=[3, 3]") ==
        "error: `nn.max_pool2d`: data has rank 3, but `layout` \"NCHW\" has 4 axes");
  CHECK(
      op_type("nn.max_pool2d", {"Tensor[(1, 64, 56, 56), float32]"}, "pool_size=[3]") ==
      "error: `nn.max_pool2d`: `pool_size` needs 2 values, one per spatial axis (H, W), but has 1");
  CHECK(op_type("nn.avg_pool2d", {"Tensor[(1, 64, 56, 56), float32]"},
                "pool_size=[3, 3], padding=[1, 1, 1]") ==
        "error: `nn.avg_pool2d`: `padding` needs 1, 2 or 4 values, but has 3");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 64, 2, 2), float32]"}, "pool_size=[3, 3]") ==
        "error: `nn.max_pool2d`: the output `H` would be 0, which is not positive (input 2, "
        "padding 0, dilated window 3, stride 1)");
  CHECK(op_type("nn.max_pool2d", {"Tensor[(1, 64, 56, 56), float32]"},
                "pool_size=[3, 3], layout=\"NC?W\"") ==
        "error: `nn.max_pool2d`: `layout` \"NC?W\" is not a valid layout");
}

TEST_CASE("adaptive pooling and pooling gradients", "[relations]") {
  CHECK(op_type("nn.adaptive_avg_pool2d", {"Tensor[(1, 512, 7, 7), float32]"},
                "output_size=[1, 1]") == "Tensor[(1, 512, 1, 1), float32]");
  CHECK(op_type("nn.adaptive_max_pool2d", {"Tensor[(1, 512, 13, 9), float32]"},
                "output_size=[7]") == "Tensor[(1, 512, 7, 7), float32]");
  CHECK(op_type("nn.adaptive_avg_pool2d", {"Tensor[(1, 512, 13, 9), float32]"}) ==
        "Tensor[(1, 512, 13, 9), float32]");
  CHECK(op_type("nn.adaptive_avg_pool1d", {"Tensor[(1, 5, 20), float32]"}, "output_size=[4]") ==
        "Tensor[(1, 5, 4), float32]");
  CHECK(op_type("nn.adaptive_avg_pool3d", {"Tensor[(1, 4, 8, 8, 8), float32]"},
                "output_size=[2, 3, 4], layout=\"NDHWC\"") == "Tensor[(1, 2, 3, 4, 8), float32]");
  CHECK(op_type("nn.adaptive_max_pool3d", {"Tensor[(1, 4, 8, 8, 8), float32]"},
                "output_size=[2, 3]") ==
        "error: `nn.adaptive_max_pool3d`: `output_size` needs 0, 1 or 3 values, but has 2");
  CHECK(op_type("nn.max_pool2d_grad",
                {"Tensor[(1, 64, 56, 56), float32]", "Tensor[(1, 64, 112, 112), float32]"},
                "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]") ==
        "Tensor[(1, 64, 112, 112), float32]");
  CHECK(op_type("nn.avg_pool2d_grad", {"Tensor[(1, 64, 56, 56), float32]", "_"},
                "pool_size=[2, 2]") == "pending");
}

TEST_CASE("space/depth/batch rearrangements and upsampling", "[relations]") {
  CHECK(op_type("nn.space_to_depth", {"Tensor[(1, 3, 8, 8), float32]"}, "block_size=2") ==
        "Tensor[(1, 12, 4, 4), float32]");
  CHECK(op_type("nn.depth_to_space", {"Tensor[(1, 4, 4, 12), float32]"},
                "block_size=2, layout=\"NHWC\", mode=\"CRD\"") == "Tensor[(1, 8, 8, 3), float32]");
  CHECK(op_type("nn.depth_to_space", {"Tensor[(1, 12, ?, h), float32]"}, "block_size=2") ==
        "Tensor[(1, 3, ?, 2 * h), float32]");
  CHECK(op_type("nn.space_to_depth", {"Tensor[(1, 3, 8, 8), float32]"}, "block_size=0") ==
        "error: `nn.space_to_depth`: `block_size` must be positive, but is 0");
  CHECK(op_type("nn.upsampling", {"Tensor[(1, 64, 7, 7), float32]"}, "scale_h=2f, scale_w=2f") ==
        "Tensor[(1, 64, 14, 14), float32]");
  CHECK(op_type("nn.upsampling", {"Tensor[(1, 7, 7, 64), float32]"},
                "scale_h=1.5f, scale_w=2.5f, layout=\"NHWC\"") ==
        "Tensor[(1, 10, 18, 64), float32]");
  CHECK(op_type("nn.upsampling", {"Tensor[(1, 64, h, ?), float32]"}, "scale_h=2f, scale_w=2f") ==
        "Tensor[(1, 64, 2 * h, ?), float32]");
  CHECK(op_type("nn.upsampling", {"Tensor[(1, 64, h, 7), float32]"}, "scale_h=1.5f, scale_w=1f") ==
        "Tensor[(1, 64, ?, 7), float32]");
  CHECK(op_type("nn.upsampling3d", {"Tensor[(1, 4, 2, 3, 4), float32]"},
                "scale_d=2f, scale_h=2f, scale_w=0.5f") == "Tensor[(1, 4, 4, 6, 2), float32]");
  CHECK(op_type("nn.space_to_batch_nd", {"Tensor[(2, 5, 6, 3), float32]"},
                "block_shape=[2, 2], paddings=[[1, 0], [0, 0]]") ==
        "Tensor[(8, 3, 3, 3), float32]");
  CHECK(op_type("nn.batch_to_space_nd", {"Tensor[(8, 3, 3, 3), float32]"},
                "block_shape=[2, 2], crops=[[1, 0], [0, 0]]") == "Tensor[(2, 5, 6, 3), float32]");
  CHECK(op_type("nn.space_to_batch_nd", {"Tensor[(2, 5, 6, 3), float32]"},
                "block_shape=[2, 2], paddings=[[1, 0]]") ==
        "error: `nn.space_to_batch_nd`: `paddings` needs one [before, after] pair per "
        "`block_shape` value (2)");
  CHECK(op_type("nn.batch_to_space_nd", {"Tensor[(8, 3), float32]"},
                "block_shape=[2, 2], crops=[[0, 0], [0, 0]]") ==
        "error: `nn.batch_to_space_nd`: data has rank 2, but `block_shape` needs 3 axes or more "
        "(a batch axis first)");
}

TEST_CASE("dilate and correlation", "[relations]") {
  CHECK(op_type("nn.dilate", {"Tensor[(1, 3, 4, ?), float32]"},
                "strides=[1, 1, 2, 2], attrs_type_key=\"relay.attrs.DilateAttrs\"") ==
        "Tensor[(1, 3, 7, ?), float32]");
  CHECK(op_type("nn.dilate", {"Tensor[(3, 4), float32]"},
                "strides=[1, 1, 2], attrs_type_key=\"relay.attrs.DilateAttrs\"") ==
        "error: `nn.dilate`: `strides` needs 2 values, one per axis of data, but has 3");
  CHECK(op_type("nn.correlation",
                {"Tensor[(1, 32, 48, 64), float32]", "Tensor[(1, 32, 48, 64), float32]"},
                "kernel_size=1, max_displacement=4, stride1=1, stride2=2, padding=[4, 4]") ==
        "Tensor[(1, 25, 48, 64), float32]");
  CHECK(op_type("nn.correlation",
                {"Tensor[(1, 48, 64, 32), float32]", "Tensor[(1, 48, 64, 32), float32]"},
                "layout=\"NHWC\"") == "error: `nn.correlation`: supports only layout \"NCHW\"");
}
