// Losses: nn.cross_entropy, nn.cross_entropy_with_logits (Relay's Python computes,
// `-sum(log(x) * y) / batch` and `-sum(x * y) / batch`) and nn.nll_loss (TOPI).
#include <cmath>

#include "interpreter/kernels/nn_internal.h"

namespace relay::rt {
namespace {

Value cross_entropy_impl(const KernelCall& call, bool logits) {
  NDArray x = call.tensor(0), y = call.tensor(1);
  require(call, x.ndim() == 2 && x.shape() == y.shape() && x.dtype() == y.dtype(),
          "inputs must be 2-D of equal shapes and dtypes, found " + shape_to_string(x.shape()) + " and " +
              shape_to_string(y.shape()));
  if (!x.dtype().is_float())
    throw RuntimeError("`" + op_name(call) + "` needs floating-point inputs, found `" + dtype_name(x.dtype()) + "`");
  const std::vector<double> a = to_doubles(x), b = to_doubles(y);
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += (logits ? a[i] : std::log(a[i])) * b[i];
  return NDArray::scalar(-s / static_cast<double>(x.dim(0)), x.dtype());
}

Value cross_entropy(const KernelCall& call) { return cross_entropy_impl(call, false); }
Value cross_entropy_with_logits(const KernelCall& call) { return cross_entropy_impl(call, true); }

// predictions (N, C, d...), targets (N, d...) class indices, weights (C). Each position
// contributes -pred[n, t, d...] * w[t], or 0 when t == ignore_index; "mean" divides the
// sum by the sum of the weights of the positions not ignored.
Value nll_loss(const KernelCall& call) {
  NDArray pred = call.tensor(0), targets = call.tensor(1), weights = call.tensor(2);
  require(call, pred.ndim() >= 2 && targets.ndim() + 1 == pred.ndim() && weights.ndim() == 1 &&
                    weights.dim(0) == pred.dim(1),
          "shapes " + shape_to_string(pred.shape()) + ", " + shape_to_string(targets.shape()) + " and " +
              shape_to_string(weights.shape()) + " do not fit (predictions (N, C, ...), targets (N, ...), weights (C))");
  const int64_t N = pred.dim(0), C = pred.dim(1);
  int64_t inner = 1;
  for (size_t d = 2; d < pred.ndim(); ++d) {
    require(call, pred.dim(d) == targets.dim(d - 1), "targets shape " + shape_to_string(targets.shape()) +
                                                         " does not match predictions shape " + shape_to_string(pred.shape()));
    inner *= pred.dim(d);
  }
  require(call, targets.dim(0) == N, "the batch dimensions of predictions and targets differ");
  const std::vector<double> p = to_doubles(pred), w = to_doubles(weights);
  const std::vector<int64_t> t = to_int64s(targets);
  const int64_t ignore = call.attrs.get_int("ignore_index");
  std::vector<double> loss(t.size());
  double total = 0, weight_sum = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t j = 0; j < inner; ++j) {
      const size_t i = static_cast<size_t>(n * inner + j);
      const int64_t c = t[i];
      if (c == ignore) continue;
      if (c < 0 || c >= C)
        throw RuntimeError("`nn.nll_loss`: target " + std::to_string(c) + " at position " + std::to_string(i) +
                           " is out of range for " + std::to_string(C) + " classes (predictions shape " +
                           shape_to_string(pred.shape()) + ")");
      loss[i] = -p[static_cast<size_t>((n * C + c) * inner + j)] * w[static_cast<size_t>(c)];
      total += loss[i];
      weight_sum += w[static_cast<size_t>(c)];
    }
  const std::string reduction = call.attrs.get_string("reduction");
  if (reduction == "none") return from_doubles(targets.shape(), pred.dtype(), loss);
  if (reduction == "sum") return NDArray::scalar(total, pred.dtype());
  require(call, reduction == "mean", "unknown reduction \"" + reduction + "\" (mean, sum, none)");
  return NDArray::scalar(total / weight_sum, pred.dtype());
}

}  // namespace

void register_nn_loss_kernels(KernelTable& table) {
  register_kernel(table, "nn.cross_entropy", cross_entropy);
  register_kernel(table, "nn.cross_entropy_with_logits", cross_entropy_with_logits);
  register_kernel(table, "nn.nll_loss", nll_loss);
}

}  // namespace relay::rt
