// The profile report of a compiled function (kernel_profile.h).
#include "compiler/pipeline/kernel_profile.h"

#include <algorithm>
#include <cstdio>

#include "interpreter/runtime/ndarray.h"

namespace relay::compiler {

void KernelProfile::add_call(uint64_t calls_before, const std::vector<double>& ms) {
  std::lock_guard<std::mutex> lock(mu_);
  if (calls_before >= 1 && !after_first_) {  // the first call's times make way for the later ones'
    after_first_ = true;
    ms_.clear();
    calls_ = 0;
  }
  if (ms_.size() < ms.size()) ms_.resize(ms.size(), 0.0);
  for (size_t i = 0; i < ms.size(); ++i) ms_[i] += ms[i];
  ++calls_;
}

namespace {

// "21.3 TFLOP/s", "412.0 GFLOP/s", "2.91 TB/s", "35.2 GB/s"
std::string rate(double per_second, const char* unit) {
  char out[32];
  if (per_second >= 1e12) std::snprintf(out, sizeof out, "%.2f T%s/s", per_second / 1e12, unit);
  else std::snprintf(out, sizeof out, "%.1f G%s/s", per_second / 1e9, unit);
  return out;
}

}  // namespace

std::vector<std::string> KernelProfile::lines(const std::vector<ProfiledKernel>& kernels, const std::string& heading,
                                              const std::string& noun, const std::string& timing) const {
  std::lock_guard<std::mutex> lock(mu_);
  struct Row {
    const ProfiledKernel* kernel;
    double ms;  // a call's
  };
  std::vector<Row> rows;
  double total = 0;
  const double calls = static_cast<double>(std::max<uint64_t>(calls_, 1));
  for (size_t i = 0; i < kernels.size(); ++i) {
    rows.push_back({&kernels[i], i < ms_.size() ? ms_[i] / calls : 0.0});
    total += rows.back().ms;
  }
  // the heaviest first; a tie keeps the order they run in
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.ms > b.ms; });
  char line[256];
  std::snprintf(line, sizeof line, "%s: %.3f ms a call over %llu call(s)%s (%zu %s, %s); the heaviest:",
                heading.c_str(), total, static_cast<unsigned long long>(calls_), after_first_ ? " after the first" : "",
                rows.size(), noun.c_str(), timing.c_str());
  std::vector<std::string> out{line};
  const size_t shown = std::min(rows.size(), kHeaviest);
  for (size_t i = 0; i < shown; ++i) {
    const Row& r = rows[i];
    const double per_s = r.ms > 0 ? 1e3 / r.ms : 0;
    const std::string speed = r.kernel->flops > 0 ? rate(r.kernel->flops * per_s, "FLOP")
                                                  : rate(static_cast<double>(r.kernel->bytes) * per_s, "B");
    std::snprintf(line, sizeof line, "  %8.3f ms %5.1f%% %15s  ", r.ms, total > 0 ? 100 * r.ms / total : 0.0,
                  speed.c_str());
    out.push_back(line + r.kernel->what + (r.kernel->where.empty() ? "" : " [" + r.kernel->where + "]"));
  }
  if (rows.size() > shown) {
    double rest = 0;
    for (size_t i = shown; i < rows.size(); ++i) rest += rows[i].ms;
    std::snprintf(line, sizeof line, "  %8.3f ms %5.1f%%  the other %zu %s", rest, total > 0 ? 100 * rest / total : 0.0,
                  rows.size() - shown, noun.c_str());
    out.push_back(line);
  }
  return out;
}

uint64_t value_bytes(const Node& n) {
  if (!n.type || n.type->kind != TyKind::Tensor) return 0;
  const auto shape = concrete_shape(n.type);
  if (!shape) return 0;
  return static_cast<uint64_t>(rt::shape_size(*shape)) *
         static_cast<uint64_t>(rt::dtype_bytes(static_cast<const TensorTy*>(n.type)->dtype));
}

std::string op_names(const Graph& g, const std::vector<NodeId>& nodes) {
  std::vector<std::string_view> names;
  for (NodeId id : nodes)
    if (g[id].op && std::find(names.begin(), names.end(), g[id].op->name) == names.end()) names.push_back(g[id].op->name);
  std::string out;
  for (size_t i = 0; i < names.size() && i < 4; ++i) out += (i ? ", " : "") + std::string(names[i]);
  if (names.size() > 4) out += " and " + std::to_string(names.size() - 4) + " more";
  return out.empty() ? "no operator" : out;
}

}  // namespace relay::compiler
