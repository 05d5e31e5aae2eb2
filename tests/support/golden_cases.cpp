#include "tests/support/golden_cases.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "interpreter/runtime/npy.h"

namespace relay::testing {

namespace fs = std::filesystem;

fs::path golden_data_dir() { return fs::path(RELAY_SOURCE_DIR) / "tests" / "kernels" / "data"; }

std::vector<std::string> golden_families() {
  std::vector<std::string> out;
  for (const auto& dir : fs::directory_iterator(golden_data_dir()))
    if (fs::exists(dir.path() / "manifest.jsonl")) out.push_back(dir.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<GoldenCase> load_golden_family(const std::string& family) {
  std::vector<GoldenCase> out;
  const fs::path dir = golden_data_dir() / family;
  std::ifstream manifest(dir / "manifest.jsonl");
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    GoldenCase c;
    c.family = family;
    c.name = j["name"].get<std::string>();
    c.program = j["program"].get<std::string>();
    c.dir = dir;
    for (const auto& f : j["inputs"]) c.inputs.push_back(f.get<std::string>());
    for (const auto& f : j["outputs"]) c.outputs.push_back(f.get<std::string>());
    c.rtol = j["rtol"].get<double>();
    c.atol = j["atol"].get<double>();
    c.tuple = j["tuple"].get<bool>();
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<rt::NDArray> read_golden_inputs(const GoldenCase& c) {
  std::vector<rt::NDArray> out;
  for (const std::string& f : c.inputs) out.push_back(rt::read_npy((c.dir / f).string()));
  return out;
}

rt::NDArray read_golden_output(const GoldenCase& c, size_t k) { return rt::read_npy((c.dir / c.outputs.at(k)).string()); }

std::string compare_tensors(const rt::NDArray& got, const rt::NDArray& want, double rtol, double atol) {
  if (got.dtype() != want.dtype())
    return "dtype " + dtype_name(got.dtype()) + ", expected " + dtype_name(want.dtype());
  if (got.shape() != want.shape())
    return "shape " + rt::shape_to_string(got.shape()) + ", expected " + rt::shape_to_string(want.shape());
  const bool exact = !want.dtype().is_float();
  for (int64_t i = 0; i < want.size(); ++i) {
    const double g = got.get_double(i), w = want.get_double(i);
    bool ok;
    if (exact) ok = got.get_int(i) == want.get_int(i);
    else if (std::isnan(w)) ok = std::isnan(g);
    else if (std::isinf(w)) ok = g == w;
    else ok = std::fabs(g - w) <= atol + rtol * std::fabs(w);  // false for a NaN `g`
    if (!ok) {
      std::ostringstream ss;
      ss.precision(9);
      ss << "element " << i << ": got " << g << ", expected " << w;
      return ss.str();
    }
  }
  return "";
}

}  // namespace relay::testing
