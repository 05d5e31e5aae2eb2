// The profile of a compiled function (`relay run --profile`): where its calls' time goes,
// kernel by kernel (a GPU launch, or a CPU group's step), the heaviest first, each with
// its rate. Executable and GpuExecutable time their own kernels and hand the times here;
// the report is the same for both.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/graph/graph.h"

namespace relay::compiler {

struct ProfiledKernel {
  std::string what;    // "group 3 conv2d float32 ..., 8 x 8 outputs a thread"
  std::string where;   // how it ran: "1568 x 64 threads", "oneDNN brgemm", ... ("": say nothing)
  double flops = 0;    // > 0: rated in FLOP/s (a product or convolution), else in bytes a second
  uint64_t bytes = 0;  // its inputs' and output's bytes: the least it reads and writes
};

// The kernels' times over the profiled calls: the first call alone until a second comes
// (the first pays for what later calls reuse: a GPU's lazily loaded kernels, first
// touches of memory, a library's prepared weights), then the calls after the first.
// Calls may come from several threads.
class KernelProfile {
 public:
  // A call's times in milliseconds, one per kernel; `calls_before`: the calls before it.
  void add_call(uint64_t calls_before, const std::vector<double>& ms);
  // `heading` ("GPU profile"), then the kernels' time a call, the kHeaviest heaviest each
  // with its time, share, rate, `what` and `where`, then the rest together. `noun` names
  // them ("kernels", "groups"); `timing` says how each was timed.
  std::vector<std::string> lines(const std::vector<ProfiledKernel>& kernels, const std::string& heading,
                                 const std::string& noun, const std::string& timing) const;
  static constexpr size_t kHeaviest = 15;

 private:
  mutable std::mutex mu_;
  std::vector<double> ms_;  // per kernel, summed over the profiled calls
  uint64_t calls_ = 0;      // the profiled calls
  bool after_first_ = false;
};

// The bytes of a tensor node's value (0 for another value or one without a concrete shape).
uint64_t value_bytes(const Node& n);
// "add, nn.relu": the operators of `nodes` in order, each named once, at most four.
std::string op_names(const Graph& g, const std::vector<NodeId>& nodes);

}  // namespace relay::compiler
