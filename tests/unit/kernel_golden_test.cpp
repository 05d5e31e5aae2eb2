// Every reference kernel against numpy golden data (tests/kernels/generate.py): each
// case type-checks a small program, runs @main on the committed inputs and compares the
// result with the committed outputs, within the case's tolerance for floats and exactly
// for integers and bools. A NaN is expected exactly where numpy produced one.
#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <string>

#include "interpreter/kernels/kernel.h"
#include "lang/ops/op_registry.h"
#include "tests/support/golden_cases.h"
#include "tests/support/run_program.h"

using relay::rt::NDArray;
namespace t = relay::testing;

TEST_CASE("kernels: golden data from numpy", "[kernels]") {
  size_t cases = 0;
  for (const std::string& family : t::golden_families()) {
    for (const t::GoldenCase& c : t::load_golden_family(family)) {
      DYNAMIC_SECTION(family + "/" + c.name) {
        INFO(c.program);
        auto r = t::run_main(c.program, t::read_golden_inputs(c));
        REQUIRE(r.error == "");
        std::vector<relay::rt::Value> got;
        if (c.tuple) {
          REQUIRE(r.value.is_tuple());
          got = r.value.tuple().fields;
        } else {
          got.push_back(r.value);
        }
        REQUIRE(got.size() == c.outputs.size());
        for (size_t k = 0; k < got.size(); ++k) {
          REQUIRE(got[k].is_tensor());
          INFO("output " << k);
          CHECK(t::compare_tensors(got[k].tensor(), t::read_golden_output(c, k), c.rtol, c.atol) == "");
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
  for (const std::string& family : t::golden_families())
    for (const t::GoldenCase& c : t::load_golden_family(family)) programs += c.program + "\n";
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
