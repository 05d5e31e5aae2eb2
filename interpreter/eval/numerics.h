// The numerics checker (`relay run --check-numerics`): an Observer that counts NaN and
// ±Inf in every primitive call's output and stops evaluation at the first operator whose
// output has them while its inputs did not, with a report of that call.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "interpreter/eval/machine.h"

namespace relay::rt {

struct TensorStats {
  Shape shape;
  DataType dtype;
  double min = 0, max = 0, mean = 0;  // over the finite elements
  int64_t nan = 0, inf = 0;
};
TensorStats tensor_stats(const NDArray& a);
std::string describe_stats(const TensorStats& s);

struct NumericsReport {
  const CallExpr* call = nullptr;
  const OpInfo* op = nullptr;
  std::string produced;             // "2 NaN and 1 -Inf values" ...
  int64_t nan = 0, inf = 0;         // how many of each the output has
  std::vector<std::string> notes;   // input statistics, the first bad element and its inputs
};

// Whether a tensor, or any tensor in a (nested) tuple, holds NaN or ±Inf.
bool has_non_finite(const Value& v);

// The report for one operator call when its output has NaN or ±Inf and its inputs had
// none (the operator produced them); nullopt otherwise. The checker below and the
// debugger's `nan`/`inf` exception filters share this rule.
std::optional<NumericsReport> numerics_report(const CallExpr& call, const OpInfo& op, std::span<const Value> args,
                                              const Value& result);

class NumericsChecker final : public Observer {
 public:
  void after_op(Machine&, const CallExpr& call, const OpInfo& op, std::span<const Value> args,
                const Value& result) override;
  // Set when the run was stopped by this checker (the Machine reports an EvalError).
  const std::optional<NumericsReport>& report() const { return report_; }
  uint64_t checked_ops() const { return checked_; }

 private:
  std::optional<NumericsReport> report_;
  uint64_t checked_ = 0;
};

}  // namespace relay::rt
