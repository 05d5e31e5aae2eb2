// The kernels' golden data (tests/kernels/generate.py writes tests/kernels/data/FAMILY/):
// each line of a family's manifest.jsonl is one case — a Relay program whose @main takes
// the case's input .npy files — with numpy's outputs and the tolerance for floats.
//
//   for (const GoldenCase& c : load_golden_family("nn")) {
//     std::vector<rt::NDArray> in = read_golden_inputs(c);
//     ... run c.program on `in` ...
//     CHECK(compare_tensors(got, read_golden_output(c, 0), c.rtol, c.atol) == "");
//   }
//
// Read by the reference kernels' test (tests/unit/kernel_golden_test.cpp) and by the
// compile path's test of every case compiled (tests/compiler/golden_compiled_test.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "interpreter/runtime/ndarray.h"

namespace relay::testing {

struct GoldenCase {
  std::string family, name;       // "nn", "dense_f32"
  std::string program;            // Relay text with @main
  std::filesystem::path dir;      // the family's directory
  std::vector<std::string> inputs, outputs;  // .npy file names in `dir`
  double rtol = 0, atol = 0;      // numpy's tolerance for float outputs
  bool tuple = false;             // @main returns a tuple of the outputs
};

// tests/kernels/data under the source tree.
std::filesystem::path golden_data_dir();
// The family directories, sorted by name.
std::vector<std::string> golden_families();
// Every case of one family, in manifest order.
std::vector<GoldenCase> load_golden_family(const std::string& family);

std::vector<rt::NDArray> read_golden_inputs(const GoldenCase& c);
rt::NDArray read_golden_output(const GoldenCase& c, size_t k);

// "" when `got` equals `want`: the same dtype and shape; integers and booleans exactly;
// floats with NaN exactly where `want` has NaN, infinities equal, and otherwise
// |got - want| <= atol + rtol * |want|. Else where and how they differ.
std::string compare_tensors(const rt::NDArray& got, const rt::NDArray& want, double rtol, double atol);

}  // namespace relay::testing
