#include "interpreter/kernels/kernel_util.h"

#include <algorithm>
#include <cmath>

namespace relay::rt {

Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view op) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      throw RuntimeError("`" + std::string(op) + "` cannot broadcast shapes " + shape_to_string(a) + " and " +
                         shape_to_string(b) + ": dimension " + std::to_string(i) + " is " + std::to_string(da) +
                         " in one and " + std::to_string(db) + " in the other");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<bool> collapsed_axes(const Shape& in, const Shape& to) {
  const size_t lead = in.size() - to.size();
  std::vector<bool> collapsed(in.size(), false);
  for (size_t d = 0; d < in.size(); ++d) collapsed[d] = d < lead || (to[d - lead] == 1 && in[d] != 1);
  return collapsed;
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  const auto own = contiguous_strides(in);
  const size_t lead = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) strides[lead + i] = in[i] == 1 ? 0 : own[i];
  return strides;
}

bool integer_gemm_exact_in_double(int64_t k, double max_a, double max_b, double max_c) {
  return static_cast<double>(k) * max_a * max_b + max_c < std::ldexp(1.0, 53);
}

int64_t normalize_axis(int64_t axis, size_t rank, std::string_view op) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    throw RuntimeError("`" + std::string(op) + "`: axis " + std::to_string(axis) + " is out of range for a tensor of rank " +
                       std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

DataType result_dtype(const KernelCall& call, DataType fallback) {
  if (call.out_type && call.out_type->kind == TyKind::Tensor)
    return static_cast<const TensorTy*>(call.out_type)->dtype;
  return fallback;
}

}  // namespace relay::rt
