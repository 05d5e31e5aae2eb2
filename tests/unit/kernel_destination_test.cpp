// Destination-passing reference kernels (interpreter/kernels/kernel.h): given
// KernelCall::dest, a kernel registered with register_destination_kernel returns `dest`
// holding, bit for bit, what it returns without one. Every such operator has a case here
// (the last test runs them all and checks it), including paths that compute elsewhere and copy (a layout
// change after a convolution, integer matrix products).
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/kernels/kernel.h"
#include "lang/ops/op_registry.h"
#include "lang/types/call_attrs.h"

using namespace relay;
using rt::NDArray;
using rt::Shape;

namespace {

using Attrs = std::vector<std::pair<std::string, std::string>>;  // name, attribute-value text

NDArray filled(const Shape& shape, DataType dt, int seed) {
  NDArray a = NDArray::empty(shape, dt);
  for (int64_t i = 0; i < a.size(); ++i) a.set_double(i, static_cast<double>((i * 7 + seed * 13) % 19) / 4.0 - 2.0);
  return a;
}

rt::Value run(std::string_view name, const std::vector<rt::Value>& args, const Attrs& text, NDArray dest = {}) {
  const OpInfo& op = *find_op(name);
  std::vector<std::pair<std::string, AttrVal>> values;
  for (const auto& [k, v] : text) values.emplace_back(k, parse_default_attr(v));
  const CallAttrs attrs = CallAttrs::from_values(op.attrs, std::move(values));
  rt::KernelCall call{op, args, attrs, nullptr};
  call.dest = std::move(dest);
  return rt::find_kernel(op)(call);
}

std::set<std::string> covered;

// The result with a destination is the destination, equal bitwise to the fresh result.
void check_destination(std::string_view name, const std::vector<rt::Value>& args, const Attrs& attrs = {}) {
  INFO(name);
  covered.insert(std::string(name));
  REQUIRE(rt::writes_destination(*find_op(name)));
  const NDArray fresh = run(name, args, attrs).tensor();
  NDArray dest = NDArray::empty(fresh.shape(), fresh.dtype());
  std::memset(dest.raw(), 0xA5, dest.nbytes());  // garbage the kernel must overwrite
  const NDArray got = run(name, args, attrs, dest).tensor();
  CHECK(got.raw() == dest.raw());
  REQUIRE(got.shape() == fresh.shape());
  REQUIRE(got.dtype() == fresh.dtype());
  CHECK(std::memcmp(got.raw(), fresh.raw(), fresh.nbytes()) == 0);
}

std::vector<rt::Value> tensors(std::vector<NDArray> ts) { return {ts.begin(), ts.end()}; }

const DataType f32 = DataType::float_(32), f64 = DataType::float_(64), i32 = DataType::int_(32);

}  // namespace

static void cases_0() {
  check_destination("nn.conv1d", tensors({filled({1, 3, 9}, f32, 1), filled({4, 3, 3}, f32, 2)}), {{"padding", "[1, 1]"}});
  check_destination("nn.conv2d", tensors({filled({2, 3, 7, 7}, f32, 1), filled({4, 3, 3, 3}, f32, 2)}),
                    {{"padding", "[1, 1, 1, 1]"}, {"strides", "[2, 2]"}});
  // NHWC: computed in NCHW, then relaid out and copied into the destination.
  check_destination("nn.conv2d", tensors({filled({1, 6, 6, 4}, f32, 3), filled({3, 3, 4, 8}, f32, 4)}),
                    {{"data_layout", "\"NHWC\""}, {"kernel_layout", "\"HWIO\""}});
  check_destination("nn.conv2d", tensors({filled({1, 4, 5, 5}, i32, 3), filled({2, 2, 3, 3}, i32, 4)}), {{"groups", "2"}});
  check_destination("nn.conv3d", tensors({filled({1, 2, 4, 4, 4}, f64, 5), filled({3, 2, 2, 2, 2}, f64, 6)}));
  check_destination("nn.contrib_conv2d_NCHWc", tensors({filled({1, 2, 5, 5, 4}, f32, 7), filled({2, 2, 3, 3, 4, 4}, f32, 8)}),
                    {{"data_layout", "\"NCHW4c\""}, {"kernel_layout", "\"OIHW4i4o\""}, {"out_layout", "\"NCHW4c\""}});
  check_destination("nn.contrib_depthwise_conv2d_NCHWc",
                    tensors({filled({1, 2, 5, 5, 4}, f32, 9), filled({2, 1, 3, 3, 1, 4}, f32, 10)}),
                    {{"data_layout", "\"NCHW4c\""}, {"kernel_layout", "\"OIHW1i4o\""}, {"out_layout", "\"NCHW4c\""},
                     {"groups", "8"}});
  check_destination("nn.conv1d_transpose", tensors({filled({1, 3, 5}, f32, 1), filled({3, 2, 3}, f32, 2)}));
  check_destination("nn.conv2d_transpose", tensors({filled({1, 3, 4, 4}, f32, 1), filled({3, 2, 3, 3}, f32, 2)}),
                    {{"strides", "[2, 2]"}});
  check_destination("nn.conv3d_transpose", tensors({filled({1, 2, 3, 3, 3}, f32, 1), filled({2, 2, 2, 2, 2}, f32, 2)}));
  const NDArray u = run("nn.contrib_conv2d_winograd_weight_transform", tensors({filled({4, 3, 3, 3}, f32, 11)}),
                        {{"tile_size", "4"}})
                        .tensor();
  check_destination("nn.contrib_conv2d_winograd_without_weight_transform", tensors({filled({1, 3, 6, 6}, f32, 12), u}),
                    {{"tile_size", "4"}, {"padding", "[1, 1, 1, 1]"}, {"channels", "4"}, {"kernel_size", "[3, 3]"}});
}

static void cases_1() {
  check_destination("nn.dense", tensors({filled({3, 5}, f32, 1), filled({4, 5}, f32, 2)}));
  check_destination("nn.dense", tensors({filled({3, 5}, i32, 1), filled({4, 5}, i32, 2)}));  // no BLAS: copied
  check_destination("nn.matmul", tensors({filled({3, 5}, f64, 1), filled({5, 2}, f64, 2)}));
  check_destination("nn.batch_matmul", tensors({filled({2, 3, 4}, f32, 1), filled({2, 5, 4}, f32, 2)}),
                    {{"transpose_b", "True"}});
  check_destination("nn.contrib_dense_pack", tensors({filled({3, 8}, f32, 1), filled({1, 8, 4}, f32, 2)}),
                    {{"weight_layout", "\"NC4n\""}});
}

static void cases_2() {
  const std::vector<rt::Value> x2 = tensors({filled({1, 2, 6, 6}, f32, 1)});
  for (const char* op : {"nn.max_pool2d", "nn.avg_pool2d"})
    check_destination(op, x2, {{"pool_size", "[3, 3]"}, {"strides", "[2, 2]"}, {"padding", "[1, 1, 1, 1]"}});
  check_destination("nn.max_pool1d", tensors({filled({1, 2, 7}, f32, 2)}), {{"pool_size", "[2]"}});
  check_destination("nn.avg_pool1d", tensors({filled({1, 2, 7}, f32, 2)}), {{"pool_size", "[2]"}});
  check_destination("nn.max_pool3d", tensors({filled({1, 1, 4, 4, 4}, f64, 3)}), {{"pool_size", "[2, 2, 2]"}});
  check_destination("nn.avg_pool3d", tensors({filled({1, 1, 4, 4, 4}, f64, 3)}), {{"pool_size", "[2, 2, 2]"}});
  check_destination("nn.global_max_pool2d", x2);
  check_destination("nn.global_avg_pool2d", x2);
}

static void cases_3() {
  check_destination("nn.softmax", tensors({filled({3, 7}, f32, 1)}));
  check_destination("nn.softmax", tensors({filled({2, 3, 4}, f32, 1)}), {{"axis", "1"}});
  check_destination("nn.fast_softmax", tensors({filled({3, 7}, f32, 2)}));
  check_destination("nn.log_softmax", tensors({filled({3, 7}, f64, 3)}));
  const rt::Value parts = rt::make_tuple({rt::Value(filled({2, 3}, f32, 1)), rt::Value(filled({2, 2}, f32, 2))});
  check_destination("concatenate", {parts}, {{"axis", "1"}});
  const rt::Value same = rt::make_tuple({rt::Value(filled({2, 3}, i32, 1)), rt::Value(filled({2, 3}, i32, 2))});
  check_destination("stack", {same}, {{"axis", "1"}});
  check_destination("transpose", tensors({filled({2, 3, 4}, f32, 1)}), {{"axes", "[1, 0, 2]"}});
  check_destination("transpose", tensors({filled({2, 3, 4}, i32, 1)}));
  check_destination("layout_transform", tensors({filled({1, 8, 3, 3}, f32, 1)}),
                    {{"src_layout", "\"NCHW\""}, {"dst_layout", "\"NCHW4c\""}});
}

TEST_CASE("convolutions write into a destination", "[kernels][destination]") { cases_0(); }

TEST_CASE("matrix products write into a destination", "[kernels][destination]") { cases_1(); }

TEST_CASE("pools write into a destination", "[kernels][destination]") { cases_2(); }

TEST_CASE("softmax, joins and layout changes write into a destination", "[kernels][destination]") { cases_3(); }

TEST_CASE("every destination-passing kernel has a case", "[kernels][destination]") {
  for (auto* f : {cases_0, cases_1, cases_2, cases_3}) f();
  std::string missing;
  for (const OpInfo& op : all_ops())
    if (rt::writes_destination(op) && !covered.count(std::string(op.name))) missing += " " + std::string(op.name);
  INFO("destination-passing operators without a case above:" << missing);
  CHECK(missing.empty());
}
