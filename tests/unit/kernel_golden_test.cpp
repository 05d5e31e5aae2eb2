// Every reference kernel against numpy golden data (tests/kernels/generate.py): each
// case type-checks a small program, runs @main on the committed inputs and compares the
// result with the committed outputs, within the case's tolerance for floats and exactly
// for integers and bools. A NaN is expected exactly where numpy produced one.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "interpreter/kernels/kernel.h"
#include "interpreter/runtime/npy.h"
#include "lang/ops/op_registry.h"
#include "tests/support/run_program.h"

namespace fs = std::filesystem;
using relay::rt::NDArray;

namespace {

const fs::path kData = fs::path(RELAY_SOURCE_DIR) / "tests" / "kernels" / "data";

// "" when equal within tolerance, else where and how it differs.
std::string compare(const NDArray& got, const NDArray& want, double rtol, double atol) {
  if (got.dtype() != want.dtype())
    return "dtype " + relay::dtype_name(got.dtype()) + ", expected " + relay::dtype_name(want.dtype());
  if (got.shape() != want.shape())
    return "shape " + relay::rt::shape_to_string(got.shape()) + ", expected " +
           relay::rt::shape_to_string(want.shape());
  const bool exact = !want.dtype().is_float();
  for (int64_t i = 0; i < want.size(); ++i) {
    double g = got.get_double(i), w = want.get_double(i);
    bool ok;
    if (exact) ok = got.get_int(i) == want.get_int(i);
    else if (std::isnan(w)) ok = std::isnan(g);
    else if (std::isinf(w)) ok = g == w;
    else ok = std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok) {
      std::ostringstream ss;
      ss.precision(9);
      ss << "element " << i << ": got " << g << ", expected " << w;
      return ss.str();
    }
  }
  return "";
}

}  // namespace

TEST_CASE("kernels: golden data from numpy", "[kernels]") {
  size_t cases = 0;
  for (const auto& dir : fs::directory_iterator(kData)) {
    std::ifstream manifest(dir.path() / "manifest.jsonl");
    std::string line;
    while (std::getline(manifest, line)) {
      if (line.empty()) continue;
      auto c = nlohmann::json::parse(line);
      const std::string name = dir.path().filename().string() + "/" + c["name"].get<std::string>();
      DYNAMIC_SECTION(name) {
        INFO(c["program"].get<std::string>());
        std::vector<NDArray> inputs;
        for (const auto& f : c["inputs"]) inputs.push_back(relay::rt::read_npy((dir.path() / f.get<std::string>()).string()));
        auto r = relay::testing::run_main(c["program"].get<std::string>(), inputs);
        REQUIRE(r.error == "");
        std::vector<relay::rt::Value> got;
        if (c["tuple"].get<bool>()) {
          REQUIRE(r.value.is_tuple());
          got = r.value.tuple().fields;
        } else {
          got.push_back(r.value);
        }
        REQUIRE(got.size() == c["outputs"].size());
        for (size_t k = 0; k < got.size(); ++k) {
          REQUIRE(got[k].is_tensor());
          NDArray want = relay::rt::read_npy((dir.path() / c["outputs"][k].get<std::string>()).string());
          INFO("output " << k);
          CHECK(compare(got[k].tensor(), want, c["rtol"].get<double>(), c["atol"].get<double>()) == "");
        }
      }
      ++cases;
    }
  }
  CHECK(cases > 0);
}

// The registry's promise: every supported operator has a reference kernel and golden
// cases that exercise it.
TEST_CASE("kernels: every supported operator has a kernel", "[kernels]") {
  std::string missing;
  for (const relay::OpInfo& op : relay::all_ops())
    if (op.supported && !relay::rt::find_kernel(op.name)) missing += " " + std::string(op.name);
  INFO("operators without a kernel:" << missing);
  CHECK(missing.empty());
}

TEST_CASE("kernels: every supported operator has golden cases", "[kernels]") {
  std::string programs;
  for (const auto& dir : fs::directory_iterator(kData)) {
    std::ifstream manifest(dir.path() / "manifest.jsonl");
    std::string line;
    while (std::getline(manifest, line))
      if (!line.empty()) programs += nlohmann::json::parse(line)["program"].get<std::string>() + "\n";
  }
  auto called = [&](std::string_view op) {
    const std::string needle = std::string(op) + "(";
    for (size_t at = programs.find(needle); at != std::string::npos; at = programs.find(needle, at + 1)) {
      char before = at ? programs[at - 1] : ' ';
      if (!std::isalnum(static_cast<unsigned char>(before)) && before != '_' && before != '.') return true;
    }
    return false;
  };
  // An operator whose attributes cannot be written in text: its IndexMap is a TIR object
  // that only MetaSchedule creates, so no program can call it (the type checker says so).
  const std::set<std::string_view> no_text_form = {"meta_schedule_layout_transform"};
  std::string missing;
  for (const relay::OpInfo& op : relay::all_ops())
    if (op.supported && !called(op.name) && !no_text_form.count(op.name)) missing += " " + std::string(op.name);
  INFO("operators without golden cases:" << missing);
  CHECK(missing.empty());
}
