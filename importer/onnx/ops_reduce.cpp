// Reductions (ReduceSum, ReduceMean, ... with ONNX's keepdims and
// noop_with_empty_axes) and ArgMax/ArgMin (int64 results; Relay's are int32).
#include "importer/onnx/convert.h"

namespace relay::importer::onnx {

namespace {

// The reduced axes: the `axes` attribute, or (ReduceSum from opset 13, the others from
// 18) the optional second input. Empty means all axes unless noop_with_empty_axes.
struct Axes {
  std::vector<int64_t> axes;
  bool noop = false;
};

Axes reduce_axes(NodeContext& c, int64_t input_from_opset) {
  Axes r;
  if (c.opset() >= input_from_opset) {
    if (c.has_input(1)) r.axes = c.constant(1, "the reduction's axes").ints();
  } else {
    r.axes = c.attr_ints("axes");
  }
  if (r.axes.empty() && c.attr_int("noop_with_empty_axes", 0)) r.noop = true;
  size_t rank = c.rank(0);
  for (int64_t& a : r.axes) a = normalize_axis(a, rank);
  return r;
}

std::string reduce_attrs(NodeContext& c, const Axes& a) {
  std::string keep = c.attr_int("keepdims", 1) ? "True" : "False";
  return (a.axes.empty() ? std::string("axis=None") : "axis=" + ints_text(a.axes)) + ", keepdims=" + keep;
}

// `pre` is applied to the data first, `post` to the reduction.
void reduce(NodeContext& c, const char* op, int64_t input_from_opset, const char* pre, const char* post) {
  Axes a = reduce_axes(c, input_from_opset);
  std::string x = c.atom(0);
  if (a.noop) {
    c.set_output(0, c.input(0));
    return;
  }
  if (pre) x = std::string(pre) == "square" ? call("multiply", {x, x}) : call(pre, {x});
  std::string out = call(op, {x}, reduce_attrs(c, a));
  if (post) out = call(post, {out});
  c.emit_output(0, out);
}

void reduce_sum(NodeContext& c) { reduce(c, "sum", 13, nullptr, nullptr); }
void reduce_mean(NodeContext& c) { reduce(c, "mean", 18, nullptr, nullptr); }
void reduce_max(NodeContext& c) { reduce(c, "max", 18, nullptr, nullptr); }
void reduce_min(NodeContext& c) { reduce(c, "min", 18, nullptr, nullptr); }
void reduce_prod(NodeContext& c) { reduce(c, "prod", 18, nullptr, nullptr); }
void reduce_l1(NodeContext& c) { reduce(c, "sum", 18, "abs", nullptr); }
void reduce_l2(NodeContext& c) { reduce(c, "sum", 18, "square", "sqrt"); }
void reduce_sum_square(NodeContext& c) { reduce(c, "sum", 18, "square", nullptr); }
void reduce_log_sum(NodeContext& c) { reduce(c, "sum", 18, nullptr, "log"); }
void reduce_log_sum_exp(NodeContext& c) { reduce(c, "sum", 18, "exp", "log"); }

void arg_reduce(NodeContext& c, const char* op) {
  int64_t axis = normalize_axis(c.attr_int("axis", 0), c.rank(0));
  std::string attrs = "axis=[" + std::to_string(axis) + "], keepdims=" + (c.attr_int("keepdims", 1) ? "True" : "False") +
                      ", select_last_index=" + (c.attr_int("select_last_index", 0) ? "True" : "False");
  c.emit_output(0, call("cast", {call(op, {c.atom(0)}, attrs)}, "dtype=\"int64\""));
}
void arg_max(NodeContext& c) { arg_reduce(c, "argmax"); }
void arg_min(NodeContext& c) { arg_reduce(c, "argmin"); }

}  // namespace

void register_reduce(ConverterTable& t) {
  t.add("ReduceSum", reduce_sum); t.add("ReduceMean", reduce_mean); t.add("ReduceMax", reduce_max);
  t.add("ReduceMin", reduce_min); t.add("ReduceProd", reduce_prod); t.add("ReduceL1", reduce_l1);
  t.add("ReduceL2", reduce_l2); t.add("ReduceSumSquare", reduce_sum_square); t.add("ReduceLogSum", reduce_log_sum);
  t.add("ReduceLogSumExp", reduce_log_sum_exp); t.add("ArgMax", arg_max); t.add("ArgMin", arg_min);
}

}  // namespace relay::importer::onnx
