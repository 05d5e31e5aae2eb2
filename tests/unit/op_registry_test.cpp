// The operator table (lang/ops/ops.def): names, groups and supported flags against
// reference §3, fusion patterns against TVM 0.14's TOpPattern registrations.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "lang/ops/internal_ops.h"
#include "lang/ops/op_registry.h"

using relay::all_ops;
using relay::find_op;
using relay::FusionPattern;
using relay::OpGroup;

namespace {

void check_op(std::string_view name, OpGroup group, bool supported) {
  INFO("operator " << std::string(name));
  const relay::OpInfo* op = find_op(name);
  REQUIRE(op != nullptr);
  CHECK(op->name == name);
  CHECK(op->group == group);
  CHECK(op->supported == supported);
}

FusionPattern pattern_of(std::string_view name) {
  INFO("operator " << std::string(name));
  const relay::OpInfo* op = find_op(name);
  REQUIRE(op != nullptr);
  return op->pattern;
}

size_t count_pattern(FusionPattern p) {
  size_t n = 0;
  for (const auto& op : all_ops()) n += op.pattern == p;
  return n;
}

size_t count_group(OpGroup g) {
  size_t n = 0;
  for (const auto& op : all_ops()) n += op.group == g;
  return n;
}

}  // namespace

TEST_CASE("op table has no duplicate names", "[ops]") {
  std::set<std::string_view> seen;
  for (const auto& op : all_ops()) {
    INFO("operator " << std::string(op.name));
    CHECK(!op.name.empty());
    CHECK(seen.insert(op.name).second);
  }
}

TEST_CASE("op table holds the 304 operators of reference section 3", "[ops]") {
  // §3.0: 272 general operators (tables 3.2-3.9, torch_op included) + 26 qnn.* + 6 ethosu.
  CHECK(all_ops().size() == 304);
  CHECK(count_group(OpGroup::Elementwise) == 43);
  CHECK(count_group(OpGroup::Broadcast) == 26);
  CHECK(count_group(OpGroup::Reduction) == 10);
  CHECK(count_group(OpGroup::Transform) == 56);
  CHECK(count_group(OpGroup::Sorting) == 4);
  CHECK(count_group(OpGroup::NN) == 74);
  CHECK(count_group(OpGroup::ImageVisionRandom) == 22);
  CHECK(count_group(OpGroup::Dynamic) == 16);
  CHECK(count_group(OpGroup::Internal) == 21);
  CHECK(count_group(OpGroup::Quantized) == 32);
}

TEST_CASE("sections 3.2-3.7 are supported and TVM-internal operators never are", "[ops]") {
  for (const auto& op : all_ops()) {
    INFO("operator " << std::string(op.name));
    bool general = op.group == OpGroup::Elementwise || op.group == OpGroup::Broadcast ||
                   op.group == OpGroup::Reduction || op.group == OpGroup::Transform ||
                   op.group == OpGroup::Sorting || op.group == OpGroup::NN;
    if (general) CHECK(op.supported);
    // An operator with a reason to stay unsupported (lang/ops/internal_ops.h) must be.
    if (!internal_op_reason(op).empty()) CHECK_FALSE(op.supported);
  }
  // Every operator of §3.8-§3.10 is supported now (issue 17): the only unsupported ones left
  // are those with a reason to stay so, and the diagnostic says it.
  for (const auto& op : all_ops())
    if (!op.supported) {
      INFO("operator " << std::string(op.name));
      CHECK_FALSE(internal_op_reason(op).empty());
    }
  // Every Internal-group operator is either a marker that is supported or has a reason.
  for (const auto& op : all_ops())
    if (op.group == OpGroup::Internal && !op.supported) {
      INFO("operator " << std::string(op.name));
      CHECK_FALSE(internal_op_reason(op).empty());
    }
}

TEST_CASE("find_op finds every table entry", "[ops]") {
  for (const auto& op : all_ops()) {
    INFO("operator " << std::string(op.name));
    CHECK(find_op(op.name) == &op);
  }
}

TEST_CASE("find_op: a sample from each group", "[ops]") {
  check_op("abs", OpGroup::Elementwise, true);
  check_op("ndarray_size", OpGroup::Elementwise, true);
  check_op("isnan", OpGroup::Elementwise, true);
  check_op("add", OpGroup::Broadcast, true);
  check_op("greater_equal", OpGroup::Broadcast, true);
  check_op("sum", OpGroup::Reduction, true);
  check_op("variance", OpGroup::Reduction, true);
  check_op("reshape", OpGroup::Transform, true);
  check_op("contrib_reverse_reshape", OpGroup::Transform, true);
  check_op("einsum", OpGroup::Transform, true);
  check_op("topk", OpGroup::Sorting, true);
  check_op("nn.conv2d", OpGroup::NN, true);
  check_op("nn.batch_flatten", OpGroup::NN, true);
  check_op("nn.contrib_conv2d_NCHWc", OpGroup::NN, true);
  check_op("nn.internal.sparse_dense_padded", OpGroup::NN, true);
  check_op("image.resize2d", OpGroup::ImageVisionRandom, true);
  check_op("vision.roi_align", OpGroup::ImageVisionRandom, true);
  check_op("random.threefry_split", OpGroup::ImageVisionRandom, true);
  check_op("dyn.reshape", OpGroup::Dynamic, true);
  check_op("dyn.image.resize2d", OpGroup::Dynamic, true);
  check_op("dyn.nn.upsampling3d", OpGroup::Dynamic, true);
  check_op("annotation.stop_fusion", OpGroup::Internal, true);
  check_op("memory.alloc_tensor", OpGroup::Internal, false);
  check_op("vm.invoke_tvm_op", OpGroup::Internal, false);
  check_op("relay.op.annotation.simulated_quantize", OpGroup::Internal, false);
  check_op("on_device", OpGroup::Internal, true);
  check_op("torch_op", OpGroup::Internal, false);
  check_op("qnn.conv2d", OpGroup::Quantized, true);
  check_op("qnn.simulated_quantize", OpGroup::Quantized, true);
  check_op("qnn.softmax", OpGroup::Quantized, true);
  check_op("contrib.ethosu.conv2d", OpGroup::Quantized, false);
  check_op("contrib.ethosu.identity", OpGroup::Quantized, false);
}

TEST_CASE("find_op returns nullptr for unknown names", "[ops]") {
  CHECK(find_op("") == nullptr);
  CHECK(find_op("conv2d") == nullptr);       // needs the nn. prefix
  CHECK(find_op("nn.conv2") == nullptr);     // prefix of a real name
  CHECK(find_op("nn.conv2d ") == nullptr);
  CHECK(find_op("NN.CONV2D") == nullptr);    // case-sensitive
  CHECK(find_op("image.resize") == nullptr); // removed before 0.14
  CHECK(find_op("zzz") == nullptr);
  CHECK(find_op("aaa") == nullptr);
  CHECK(find_op(".depthwise_conv2d") == nullptr);
}

TEST_CASE("fusion patterns are TVM's TOpPattern", "[ops]") {
  // Totals over the table; kTuple is for tuple nodes, never an operator.
  CHECK(count_pattern(FusionPattern::Elementwise) == 60);
  CHECK(count_pattern(FusionPattern::Broadcast) == 39);
  CHECK(count_pattern(FusionPattern::Injective) == 56);
  CHECK(count_pattern(FusionPattern::Reduction) == 12);
  CHECK(count_pattern(FusionPattern::OutElementwiseFusable) == 58);
  CHECK(count_pattern(FusionPattern::Opaque) == 79);
  CHECK(count_pattern(FusionPattern::Tuple) == 0);

  CHECK(pattern_of("exp") == FusionPattern::Elementwise);
  CHECK(pattern_of("nn.relu") == FusionPattern::Elementwise);
  CHECK(pattern_of("cast") == FusionPattern::Elementwise);  // not Injective in TVM
  CHECK(pattern_of("add") == FusionPattern::Broadcast);
  CHECK(pattern_of("less_equal") == FusionPattern::Broadcast);
  CHECK(pattern_of("nn.bias_add") == FusionPattern::Broadcast);
  CHECK(pattern_of("expand_dims") == FusionPattern::Broadcast);
  CHECK(pattern_of("qnn.add") == FusionPattern::Broadcast);  // set inside a qnn macro
  CHECK(pattern_of("reshape") == FusionPattern::Injective);
  CHECK(pattern_of("take") == FusionPattern::Injective);
  CHECK(pattern_of("layout_transform") == FusionPattern::Injective);  // set from Python
  CHECK(pattern_of("sum") == FusionPattern::Reduction);
  CHECK(pattern_of("collapse_sum_like") == FusionPattern::Reduction);
  CHECK(pattern_of("nn.conv2d") == FusionPattern::OutElementwiseFusable);
  CHECK(pattern_of("nn.dense") == FusionPattern::OutElementwiseFusable);
  CHECK(pattern_of("nn.max_pool2d") == FusionPattern::OutElementwiseFusable);
  CHECK(pattern_of("nn.global_avg_pool2d") == FusionPattern::OutElementwiseFusable);
  CHECK(pattern_of("nn.softmax") == FusionPattern::OutElementwiseFusable);
  CHECK(pattern_of("nn.batch_norm") == FusionPattern::OutElementwiseFusable);
  CHECK(pattern_of("argsort") == FusionPattern::Opaque);
  CHECK(pattern_of("shape_of") == FusionPattern::Opaque);
  CHECK(pattern_of("nn.layer_norm") == FusionPattern::Opaque);  // TVM registers none
  CHECK(pattern_of("contrib.ethosu.conv2d") == FusionPattern::Opaque);
}

TEST_CASE("fusion pattern names", "[ops]") {
  CHECK(relay::fusion_pattern_name(FusionPattern::Elementwise) == "elementwise");
  CHECK(relay::fusion_pattern_name(FusionPattern::OutElementwiseFusable) ==
        "out-elementwise-fusable");
  CHECK(relay::fusion_pattern_name(FusionPattern::Reduction) == "reduction");
  CHECK(relay::fusion_pattern_name(FusionPattern::Opaque) == "opaque");
}
