// Each reducer's scalar semantics, matching interpreter/kernels/reduction.cpp and
// reduction_arg.cpp bit for bit: integer sums and products wrap (the reference folds in
// the unsigned Wide<T> and truncates, which is the same residue); float16/bfloat16 sums and
// products are rounded to storage after every step; max/min start from the dtype's finite
// extreme (float16: +-65504, bfloat16: +-FLT_MAX, kept in float32 as the reference does)
// and fold with `acc > x ? acc : x`, so a NaN is taken and then dropped by the next
// element, as in the reference; bool sums/products/max/min are or/and.
#include <limits>

#include "compiler/loops/reduction_internal.h"
#include "interpreter/runtime/float16.h"

namespace relay::loops {

namespace {

bool is_integer(DataType t) { return t.is_int() || t.is_uint(); }
DataType compute_of(DataType t) { return is_storage_only(t) ? f32() : t; }

// The dtype's lowest (want_max) or highest finite value, in the accumulator's dtype.
Expr extreme(DataType t, bool lowest) {
  if (t.is_bool()) return int_imm(lowest ? 0 : 1, boolean());
  if (t.is_int()) {
    return int_imm(lowest ? integer_min(t) : integer_max(t), t);
  }
  if (t.is_uint()) return int_imm(lowest ? 0 : (t.bits == 64 ? -1 : (int64_t{1} << t.bits) - 1), t);
  double v = 0;
  if (t.code == DataType::Float && t.bits == 16) v = 65504.0;
  else if (t.code == DataType::BFloat || t.bits == 32) v = std::numeric_limits<float>::max();
  else v = std::numeric_limits<double>::max();
  return float_imm(lowest ? -v : v, compute_of(t));
}

}  // namespace

namespace red {

DataType acc_dtype(ReduceOp op, DataType t) {
  if (op == ReduceOp::All || op == ReduceOp::Any) return boolean();
  if ((op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) && t.is_bool()) return DataType::uint_(8);
  return compute_of(t);
}

Expr identity(ReduceOp op, DataType t) {
  const DataType a = acc_dtype(op, t);
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Mean: return const_of(0, a);
    case ReduceOp::Prod: return const_of(1, a);
    case ReduceOp::Max:
    case ReduceOp::ArgMax: return t.is_bool() ? int_imm(0, a) : extreme(t, true);
    case ReduceOp::Min:
    case ReduceOp::ArgMin: return t.is_bool() ? int_imm(1, a) : extreme(t, false);
    case ReduceOp::All: return int_imm(1, boolean());
    case ReduceOp::Any: return int_imm(0, boolean());
  }
  return {};
}

Expr fold(ew::Emitter& em, ReduceOp op, DataType t, const Expr& acc, const Expr& x) {
  if (op == ReduceOp::All) return binary(BinaryOp::And, acc, cast(boolean(), x));  // NaN is true
  if (op == ReduceOp::Any) return binary(BinaryOp::Or, acc, cast(boolean(), x));
  if (t.is_bool()) {  // sum/max: or; prod/min: and
    const bool is_or = op == ReduceOp::Sum || op == ReduceOp::Mean || op == ReduceOp::Max;
    return binary(is_or ? BinaryOp::Or : BinaryOp::And, acc, x);
  }
  const Expr v = em.bind(cast(compute_of(t), x), "e");
  switch (op) {
    case ReduceOp::Max: return binary(BinaryOp::Max, acc, v);  // acc > v ? acc : v
    case ReduceOp::Min: return binary(BinaryOp::Min, acc, v);  // acc < v ? acc : v
    default: break;
  }
  const Expr r = binary(op == ReduceOp::Prod ? BinaryOp::Mul : BinaryOp::Add, acc, v);
  // float16/bfloat16: the reference rounds every partial result to storage
  return is_storage_only(t) ? cast(f32(), cast(t, r)) : r;
}

Expr finish(ReduceOp op, DataType t, DataType out, const Expr& acc, int64_t count) {
  if (op != ReduceOp::Mean) return cast(out, acc);
  if (is_integer(t)) return binary(BinaryOp::Div, acc, int_imm(wrapped_count(t, count), t));  // MIN / -1 wraps
  // The reference divides by the count converted to the compute type and rounded to the
  // dtype (float16 counts above 65504 become inf, as there).
  Expr c;
  if (t.code == DataType::Float && t.bits == 16) c = float_imm(float(rt::float16(static_cast<float>(count))), f32());
  else if (t.code == DataType::BFloat) c = float_imm(float(rt::bfloat16(static_cast<float>(count))), f32());
  else if (t.bits == 32) c = float_imm(static_cast<float>(count), f32());
  else c = float_imm(static_cast<double>(count), t);
  return cast(out, binary(BinaryOp::Div, acc, c));
}

ArgState arg_fold(ew::Emitter& em, bool want_max, bool select_last, const Expr& best, const Expr& best_index,
                  const Expr& x, const Expr& idx) {
  const Expr v = em.bind(cast(best->dtype, x), "e");
  // The accumulator stays ahead when strictly better; ties keep the earlier index (or,
  // with select_last_index, take the later one: positions only grow along the fold).
  const Expr better = em.bind(compare(want_max ? CmpOp::Gt : CmpOp::Lt, best, v), "better");
  const Expr keep_index = select_last ? better : binary(BinaryOp::Or, better, compare(CmpOp::Eq, best, v));
  return {select(better, best, v), select(keep_index, best_index, idx)};
}

int64_t wrapped_count(DataType t, int64_t count) {
  const auto bits = static_cast<uint64_t>(count);
  if (t.bits >= 64) return count;
  const uint64_t mask = (uint64_t{1} << t.bits) - 1;
  uint64_t v = bits & mask;
  if (t.is_int() && (v >> (t.bits - 1)) != 0) v |= ~mask;  // sign-extend
  return static_cast<int64_t>(v);
}

}  // namespace red

namespace {

struct OpName {
  ReduceOp op;
  std::string_view name;
};
constexpr OpName kOps[] = {{ReduceOp::Sum, "sum"},   {ReduceOp::Mean, "mean"},     {ReduceOp::Max, "max"},
                           {ReduceOp::Min, "min"},   {ReduceOp::Prod, "prod"},     {ReduceOp::All, "all"},
                           {ReduceOp::Any, "any"},   {ReduceOp::ArgMax, "argmax"}, {ReduceOp::ArgMin, "argmin"}};

}  // namespace

std::optional<ReduceOp> reduce_op_named(std::string_view op) {
  for (const OpName& o : kOps)
    if (o.name == op) return o.op;
  return std::nullopt;
}

std::string_view reduce_op_name(ReduceOp op) {
  for (const OpName& o : kOps)
    if (o.op == op) return o.name;
  return "?";
}

bool reduction_supports(ReduceOp op, DataType t) {
  if (t.lanes != 1) return false;
  const bool storable = t.is_bool() || (is_integer(t) && (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64)) ||
                        (t.code == DataType::Float && (t.bits == 16 || t.bits == 32 || t.bits == 64)) ||
                        (t.code == DataType::BFloat && t.bits == 16);
  if (!storable) return false;
  return !(op == ReduceOp::Mean && t.is_bool());  // the reference refuses a bool mean
}

const std::vector<std::string_view>& lowered_reduction_ops() {
  static const std::vector<std::string_view> ops = [] {
    std::vector<std::string_view> v;
    for (const OpName& o : kOps) v.push_back(o.name);
    v.push_back("variance");  // a mean of (x - mean)^2: the graph layer builds the prologue
    // sums over the axes broadcasting to the target shape created (the graph layer finds them)
    v.push_back("collapse_sum_like");
    v.push_back("collapse_sum_to");
    return v;
  }();
  return ops;
}

std::string status_message(const ReductionProgram& p) { return status_message(p.prologue); }

}  // namespace relay::loops
