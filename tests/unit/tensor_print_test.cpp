// Tensor printing against numpy: every case in tests/runtime/print_data/cases.json
// (written by tests/runtime/print_cases.py) holds numpy 1.24's str() and repr() of an
// array, which format_tensor / format_tensor_repr must reproduce exactly.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "interpreter/runtime/float_format.h"
#include "interpreter/runtime/float16.h"
#include "interpreter/runtime/npy.h"
#include "interpreter/runtime/print.h"

namespace fs = std::filesystem;
using relay::DataType;
using relay::rt::NDArray;

namespace {

const fs::path kData = fs::path(RELAY_SOURCE_DIR) / "tests" / "runtime" / "print_data";

relay::rt::PrintOptions options_from(const nlohmann::json& j) {
  relay::rt::PrintOptions o;
  if (j.contains("precision")) o.precision = j["precision"].get<int>();
  if (j.contains("threshold")) o.threshold = j["threshold"].get<int64_t>();
  if (j.contains("edgeitems")) o.edgeitems = j["edgeitems"].get<int>();
  if (j.contains("linewidth")) o.linewidth = j["linewidth"].get<int>();
  if (j.contains("suppress")) o.suppress = j["suppress"].get<bool>();
  return o;
}

NDArray floats(std::initializer_list<double> v, DataType t) {
  NDArray a = NDArray::empty({static_cast<int64_t>(v.size())}, t);
  int64_t i = 0;
  for (double x : v) a.set_double(i++, x);
  return a;
}

}  // namespace

TEST_CASE("print: str and repr match numpy", "[print]") {
  std::ifstream in(kData / "cases.json");
  REQUIRE(in);
  const auto cases = nlohmann::json::parse(in);
  REQUIRE(cases.size() >= 60);
  for (const auto& c : cases) {
    const std::string name = c["name"].get<std::string>();
    INFO("case " << name);
    const NDArray a = relay::rt::read_npy((kData / c["file"].get<std::string>()).string());
    const auto options = options_from(c["options"]);
    CHECK(relay::rt::format_tensor(a, options) == c["str"].get<std::string>());
    CHECK(relay::rt::format_tensor_repr(a, options) == c["repr"].get<std::string>());
  }
}

TEST_CASE("print: bfloat16 uses its own shortest digits", "[print]") {
  const DataType bf16{DataType::BFloat, 16, 1};
  // bfloat16(0.1) is 0.10009765625; three digits already identify it.
  CHECK(relay::rt::format_tensor(floats({0.1, 1.0, -2.5}, bf16)) == "[ 0.1  1.  -2.5]");
  CHECK(relay::rt::format_tensor_repr(floats({0.1, 1.0}, bf16)) == "array([0.1, 1. ], dtype=bfloat16)");
  CHECK(relay::rt::format_tensor(NDArray::scalar(1e20, bf16)) == "1e+20");
  CHECK(relay::rt::format_tensor(NDArray::scalar(3e10, bf16)) == "30000000000.0");
}

TEST_CASE("print: numpy's float formatting primitives", "[print]") {
  using relay::rt::decompose_float;
  using relay::rt::FloatFormat;
  using relay::rt::Trim;
  auto f64 = [](double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return decompose_float(b, 52, 11);
  };
  FloatFormat unique_sci;
  unique_sci.trim = Trim::DptZeros;
  CHECK(relay::rt::format_scientific(f64(1e23), unique_sci) == "1e+23");
  CHECK(relay::rt::format_scientific(f64(5e-324), unique_sci) == "5e-324");
  FloatFormat pos;
  pos.trim = Trim::LeaveOneZero;
  CHECK(relay::rt::format_positional(f64(0.1 + 0.2), pos) == "0.30000000000000004");
  CHECK(relay::rt::format_positional(f64(-0.0), pos) == "-0.0");
  pos.precision = 3;
  CHECK(relay::rt::format_positional(f64(2.0005), pos) == "2.001");  // the double is above the tie
  pos.precision = 2;
  CHECK(relay::rt::format_positional(f64(0.125), pos) == "0.12");  // exact tie: to even
  CHECK(relay::rt::format_positional(f64(0.375), pos) == "0.38");
  pos.precision = -1;
  FloatFormat exact;
  exact.unique = false;
  exact.precision = 20;
  exact.trim = Trim::Keep;
  CHECK(relay::rt::format_positional(f64(0.1), exact) == "0.10000000000000000555");
  const auto half = decompose_float(relay::rt::float16(65504.0f).bits, 10, 5);
  CHECK(relay::rt::format_positional(half, pos) == "65500.0");  // float16's neighbours are 32 apart
}

TEST_CASE("print: absurd ranks print a summary", "[print]") {
  const NDArray a = NDArray::zeros(relay::rt::Shape(100, 1), DataType::int_(8));
  CHECK(relay::rt::format_tensor(a).starts_with("<tensor of shape (1, 1,"));
}
