#include "importer/onnx/fold.h"

#include <cstring>

namespace relay::importer::onnx {

bool foldable(NodeContext& c, size_t i) {
  if (!c.is_constant(i)) return false;
  const Constant& k = *c.input(i).constant;
  return !k.dtype.is_float() && k.size() <= kMaxFoldedElements;
}

std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      throw ImportError("shapes do not broadcast: dimension " + std::to_string(x) + " against " + std::to_string(y));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

namespace {

// Element index of `x` (shape `from`) for output position `flat` of shape `to`.
int64_t broadcast_index(int64_t flat, const std::vector<int64_t>& to, const std::vector<int64_t>& from) {
  int64_t index = 0, stride = 1;
  for (size_t k = to.size(); k-- > 0;) {
    int64_t coord = flat % to[k];
    flat /= to[k];
    size_t j = k + from.size();
    if (j < to.size()) continue;
    j -= to.size();
    if (from[j] != 1) index += coord * stride;
    stride *= from[j];
  }
  return index;
}

// Integer arithmetic as ONNX defines it (division truncates); false when it cannot fold.
bool apply(const std::string& op, int64_t a, int64_t b, int64_t& out) {
  // Two's-complement wrap-around, as the operators compute in the program.
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (op == "add") out = static_cast<int64_t>(ua + ub);
  else if (op == "subtract") out = static_cast<int64_t>(ua - ub);
  else if (op == "multiply") out = static_cast<int64_t>(ua * ub);
  else if (op == "divide") { if (b == 0 || (a == INT64_MIN && b == -1)) return false; out = a / b; }
  else if (op == "equal") out = a == b;
  else if (op == "greater") out = a > b;
  else if (op == "less") out = a < b;
  else if (op == "greater_equal") out = a >= b;
  else if (op == "less_equal") out = a <= b;
  else if (op == "logical_and") out = a && b;
  else if (op == "logical_or") out = a || b;
  else return false;
  return true;
}

bool is_comparison(const std::string& op) {
  return op == "equal" || op == "greater" || op == "less" || op == "greater_equal" || op == "less_equal";
}

}  // namespace

bool fold_binary(NodeContext& c, const char* relay_op) {
  if (!foldable(c, 0) || !foldable(c, 1)) return false;
  const Constant& a = *c.input(0).constant;
  const Constant& b = *c.input(1).constant;
  if (a.dtype != b.dtype) return false;
  std::vector<int64_t> shape = broadcast_shapes(a.shape, b.shape);
  int64_t n = saturating_product(shape);
  if (n > kMaxFoldedElements) return false;
  std::vector<int64_t> values(static_cast<size_t>(n));
  std::string op = relay_op;
  for (int64_t i = 0; i < n; ++i)
    if (!apply(op, a.get_int(broadcast_index(i, shape, a.shape)), b.get_int(broadcast_index(i, shape, b.shape)),
               values[static_cast<size_t>(i)]))
      return false;
  c.set_constant(0, Constant::from_ints(values, shape, is_comparison(op) ? DataType::bool_() : a.dtype));
  return true;
}

}  // namespace relay::importer::onnx
