#include "compiler/pipeline/native_plan.h"
#include "compiler/pipeline/native_plan_internal.h"

#include <algorithm>
#include <unordered_map>

#include "compiler/loops/print.h"
#include "compiler/loops/softmax.h"
#include "compiler/pipeline/index_program.h"
#include "compiler/pipeline/interpreted_ops.h"
#include "interpreter/kernels/kernel_util.h"

namespace relay::compiler {

namespace detail {

FusedGroup sub_group(const Graph& g, const FusedGroup& group, std::vector<NodeId> nodes, NodeId output) {
  FusedGroup part;
  part.id = group.id;
  part.nodes = std::move(nodes);
  part.outputs = {output};
  part.pattern = FusionPattern::Broadcast;
  std::vector<bool> inside(g.size(), false);
  for (NodeId id : part.nodes) inside[id] = true;
  for (NodeId id : part.nodes)
    for (NodeId in : g[id].inputs)
      if (!inside[in] && std::find(part.inputs.begin(), part.inputs.end(), in) == part.inputs.end())
        part.inputs.push_back(in);
  if (!part.nodes.empty()) part.master = part.nodes.front();
  return part;
}

std::string kernel_name(const Graph& g, const FusedGroup& group) { return g.name + "_g" + std::to_string(group.id); }

std::optional<NativePlan> lowered_plan(NativePlan::Kind kind, FusedGroup part, loops::LoweredKernel lowered,
                                       DataType out_dtype, std::vector<int64_t> out_shape, std::string status_message,
                                       std::string* why) {
  if (!lowered.ok()) {
    *why = lowered.error;
    return std::nullopt;
  }
  NativePlan plan;
  plan.kind = kind;
  plan.part = std::move(part);
  plan.kernel = std::move(lowered.kernel);
  plan.output_buffer = lowered.output_buffer;
  plan.status_buffer = lowered.status_buffer;
  plan.out_dtype = out_dtype;
  plan.out_shape = std::move(out_shape);
  plan.status_message = std::move(status_message);
  return plan;
}

}  // namespace detail

using detail::dtype_of;
using detail::kernel_name;
using detail::lowered_plan;
using detail::shape_of;
using detail::sub_group;

std::optional<loops::ElementwiseProgram> elementwise_program(const Graph& g, const FusedGroup& group, std::string* why,
                                                            std::vector<NodeId>* buffers) {
  if (group.pattern != FusionPattern::Elementwise && group.pattern != FusionPattern::Broadcast) {
    *why = "pattern " + std::string(fusion_pattern_name(group.pattern));
    return std::nullopt;
  }
  if (group.outputs.size() != 1) {
    *why = std::to_string(group.outputs.size()) + " outputs";
    return std::nullopt;
  }
  loops::ElementwiseProgram p;
  std::unordered_map<NodeId, int> input_index, step_index;
  // An input is read with the shape of `shaped` from the buffer of `source`.
  auto add_input = [&](NodeId shaped, NodeId source) -> bool {
    const Node& n = g[shaped];
    if (!n.type || n.type->kind != TyKind::Tensor) return false;
    input_index[shaped] = static_cast<int>(p.inputs.size());
    p.inputs.push_back({dtype_of(n.type), shape_of(n.type)});
    if (buffers) buffers->push_back(source);
    return true;
  };
  // With `buffers`, a reshape or expand_dims of a value from outside the group is not a
  // step: the kernel reads that value's buffer with the new shape (same elements, same
  // row-major order), so a bias expanded to (C, 1, 1) broadcasts without a copy.
  std::unordered_map<NodeId, NodeId> alias;  // node -> the outside value it reshapes
  if (buffers) {
    std::vector<bool> inside(g.size(), false);
    for (NodeId id : group.nodes) inside[id] = true;
    for (NodeId id : group.nodes) {
      const Node& n = g[id];
      const bool reshapes = n.kind == NodeKind::Call && n.op &&
                            (std::string_view(n.op->name) == "expand_dims" || std::string_view(n.op->name) == "reshape");
      if (reshapes && id != group.outputs[0] && n.inputs.size() == 1 && !inside[n.inputs[0]] && n.type &&
          n.type->kind == TyKind::Tensor && g[n.inputs[0]].type && g[n.inputs[0]].type->kind == TyKind::Tensor)
        alias[id] = n.inputs[0];
    }
  } else {
    for (NodeId in : group.inputs)
      if (!add_input(in, in)) {
        *why = "a tuple input";
        return std::nullopt;
      }
  }
  for (NodeId id : group.nodes) {
    if (alias.count(id)) continue;
    const Node& n = g[id];
    if (n.kind != NodeKind::Call || !n.op || !n.type || n.type->kind != TyKind::Tensor) {
      *why = "a tuple inside the group";
      return std::nullopt;
    }
    loops::EwStep step;
    step.op = std::string(n.op->name);
    step.dtype = dtype_of(n.type);
    DataType first = step.dtype;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      NodeId in = n.inputs[k];
      if (auto it = step_index.find(in); it != step_index.end()) {
        step.operands.push_back(loops::EwOperand::step(it->second));
      } else {
        if (!input_index.count(in)) {
          auto a = alias.find(in);
          if (!add_input(in, a == alias.end() ? in : a->second)) {
            *why = "a tuple input";
            return std::nullopt;
          }
        }
        step.operands.push_back(loops::EwOperand::input(input_index.at(in)));
      }
      if (k == 0 && g[in].type && g[in].type->kind == TyKind::Tensor) first = dtype_of(g[in].type);
    }
    if (!loops::elementwise_supports(step.op, first)) {
      *why = "`" + step.op + "` on " + dtype_name(first) + " has no lowering";
      return std::nullopt;
    }
    copy_scalar_attrs(n, step);
    step_index[id] = static_cast<int>(p.steps.size());
    p.steps.push_back(std::move(step));
  }
  if (step_index.find(group.outputs[0]) == step_index.end() || step_index[group.outputs[0]] + 1 != static_cast<int>(p.steps.size())) {
    *why = "its output is not its last operation";
    return std::nullopt;
  }
  const Node& out = g[group.outputs[0]];
  p.out_dtype = dtype_of(out.type);
  p.out_shape = shape_of(out.type);
  return p;
}

namespace {

std::optional<NativePlan> plan_reduction(const Graph& g, const FusedGroup& group, std::string* why,
                                        loops::LoopShape shape) {
  std::vector<NodeId> inputs;
  auto program = reduction_program(g, group, &inputs, why);
  if (!program) return std::nullopt;
  FusedGroup part = group;
  part.inputs = std::move(inputs);
  // The node's shape: a collapse_sum's program drops the 1s it keeps (same elements).
  std::vector<int64_t> out_shape = shape_of(g[group.master].type);
  if (shape == loops::LoopShape::Gpu) {
    if (auto split = loops::lower_split_reduction(*program, kernel_name(g, group))) {
      if (!split->finish.ok()) {
        *why = split->finish.error;
        return std::nullopt;
      }
      auto plan = lowered_plan(NativePlan::Kind::Reduction, std::move(part), std::move(split->partial), program->out_dtype,
                               std::move(out_shape), loops::status_message(*program), why);
      if (plan) {
        plan->finish = std::move(split->finish.kernel);
        plan->workspace_bytes = split->partial_bytes;
        plan->chunks = split->chunks;
      }
      return plan;
    }
  }
  return lowered_plan(NativePlan::Kind::Reduction, std::move(part), loops::lower_reduction(*program, kernel_name(g, group), shape),
                      program->out_dtype, std::move(out_shape), loops::status_message(*program), why);
}

}  // namespace

namespace {

// A group of injective (layout/indexing) operators, or a pool with its element-wise
// epilogue, as one index-mapping kernel (compiler/loops/injective.h).
std::optional<NativePlan> plan_index(const Graph& g, const FusedGroup& group, std::string* why,
                                    loops::LoopShape shape) {
  std::vector<NodeId> inputs;
  auto program = index_program(g, group, &inputs, why);
  if (!program) return std::nullopt;
  FusedGroup part = group;
  part.inputs = std::move(inputs);
  return lowered_plan(NativePlan::Kind::Index, std::move(part), loops::lower_index_program(*program, kernel_name(g, group), shape),
                      program->nodes.back().dtype, program->nodes.back().shape,
                      "the compiled kernel of group " + std::to_string(group.id) + " failed", why);
}

std::optional<NativePlan> plan_elementwise(const Graph& g, const FusedGroup& group, std::string* why,
                                          loops::LoopShape shape);

// A layout node of `p` reading `from` (of shape `from_shape`, in layout `src`) as layout
// `dst` (IxKind::Layout), whose shape is `shape`: how a native kernel reads a held value
// as NCHW, or writes its NCHW result as held bytes.
loops::IxNode layout_node(const loops::IndexProgram& p, loops::IxRef from, const ActivationLayout& src,
                          const ActivationLayout& dst, std::vector<int64_t> shape) {
  loops::IxNode t;
  t.kind = loops::IxKind::Layout;
  t.operands = {from};
  t.dtype = from.is_input ? p.inputs[static_cast<size_t>(from.index)].dtype : p.nodes[static_cast<size_t>(from.index)].dtype;
  t.shape = std::move(shape);
  t.src_layout = src.tvm_name();
  t.dst_layout = dst.tvm_name();
  return t;
}

// Where Relay's axes N, C, H, W sit in NHWC bytes.
constexpr int64_t kChannelsLastAxis[4] = {0, 3, 1, 2};

// nn.softmax / nn.log_softmax alone in its group: one kernel (compiler/loops/softmax.h).
std::optional<NativePlan> plan_softmax(const Graph& g, const FusedGroup& group, std::string* why, loops::LoopShape shape) {
  const Node& n = g[group.master];
  if (group.nodes.size() != 1 || n.inputs.size() != 1 || !n.type || n.type->kind != TyKind::Tensor) {
    *why = "a softmax with an epilogue";
    return std::nullopt;
  }
  loops::SoftmaxProgram p;
  p.dtype = dtype_of(n.type);
  p.shape = shape_of(n.type);
  p.axis = n.attrs.get_int("axis", -1);
  p.log = std::string_view(n.op->name) == "nn.log_softmax";
  FusedGroup part = group;
  part.inputs = {n.inputs[0]};
  return lowered_plan(NativePlan::Kind::Index, std::move(part), loops::lower_softmax(p, kernel_name(g, group), shape), p.dtype,
                      p.shape, "", why);
}

bool is_index_master(std::string_view op) {
  const auto& ops = loops::lowered_index_ops();
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

}  // namespace

bool held_layout_capable(const Graph& g, const FusedGroup& group) {
  if (group.pattern == FusionPattern::Reduction) return false;
  std::vector<NodeId> inputs;
  std::string why;
  return index_program(g, group, &inputs, &why).has_value();
}

bool channels_last_softmax(const Graph& g, const FusedGroup& group) {
  const Node& n = g[group.master];
  const auto& ops = loops::lowered_softmax_ops();
  if (group.nodes.size() != 1 || !n.op || n.inputs.size() != 1 ||
      std::find(ops.begin(), ops.end(), n.op->name) == ops.end())
    return false;
  const auto shape = concrete_shape(n.type);
  if (!shape || shape->size() != 4) return false;
  // Not along W: the reference takes its innermost-axis formula there (e * (1 / sum)),
  // and W is not innermost in NHWC bytes, where the lowering takes the other one.
  int64_t axis = n.attrs.get_int("axis", -1);
  if (axis < 0) axis += 4;
  return axis >= 0 && axis < 3;
}

namespace {

// A channels-last softmax's kernel (both its input and its output NHWC).
std::optional<NativePlan> plan_softmax_channels_last(const Graph& g, const FusedGroup& group,
                                                     const std::vector<bool>& held, std::string* why) {
  const Node& n = g[group.master];
  if (!held[n.inputs[0]] || !held[group.master]) {
    *why = "a softmax with only one of its input and output channels-last";
    return std::nullopt;
  }
  int64_t axis = n.attrs.get_int("axis", -1);
  if (axis < 0) axis += 4;  // (0, 1 or 2: channels_last_softmax)
  loops::SoftmaxProgram p;
  p.dtype = dtype_of(n.type);
  p.shape = ActivationLayout::channels_last().physical_shape(shape_of(n.type));
  p.axis = kChannelsLastAxis[axis];
  p.log = std::string_view(n.op->name) == "nn.log_softmax";
  p.divide = true;  // the reference's formula for an axis that is not innermost (it is not W)
  FusedGroup part = group;
  part.inputs = {n.inputs[0]};
  return lowered_plan(NativePlan::Kind::Index, std::move(part), loops::lower_softmax(p, kernel_name(g, group) + "_nhwc"),
                      p.dtype, p.shape, "", why);
}

}  // namespace

std::optional<NativePlan> plan_native_held(const Graph& g, const FusedGroup& group, const std::vector<bool>& held,
                                           const ActivationLayout& layout, std::string* why) {
  if (channels_last_softmax(g, group)) {
    if (layout == ActivationLayout::channels_last()) return plan_softmax_channels_last(g, group, held, why);
    *why = "a softmax on " + layout.name() + " values";
    return std::nullopt;
  }
  if (group.pattern == FusionPattern::Reduction) {
    *why = "a reduction";
    return std::nullopt;
  }
  std::vector<NodeId> inputs;
  auto program = index_program(g, group, &inputs, why);
  if (!program) return std::nullopt;
  const ActivationLayout plain = ActivationLayout::plain();
  // The held inputs' layout nodes go first, so every node index moves up by their count.
  loops::IndexProgram p;
  p.inputs = program->inputs;
  std::vector<int> as_nchw(p.inputs.size(), -1);  // per input: its layout node
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!held[inputs[i]]) continue;
    const std::vector<int64_t> nchw = program->inputs[i].shape;
    if (!layout.holds(nchw)) {
      *why = "an input that is not a rank-4 tensor " + layout.name() + " holds";
      return std::nullopt;
    }
    p.inputs[i].shape = layout.physical_shape(nchw);
    as_nchw[i] = static_cast<int>(p.nodes.size());
    p.nodes.push_back(layout_node(p, loops::IxRef::input(static_cast<int>(i)), layout, plain, nchw));
  }
  const int shift = static_cast<int>(p.nodes.size());
  for (loops::IxNode n : program->nodes) {
    for (loops::IxRef& r : n.operands) {
      if (!r.is_input) r.index += shift;
      else if (as_nchw[static_cast<size_t>(r.index)] >= 0) r = loops::IxRef::node(as_nchw[static_cast<size_t>(r.index)]);
    }
    p.nodes.push_back(std::move(n));
  }
  if (held[group.outputs[0]]) {
    const std::vector<int64_t> nchw = p.nodes.back().shape;
    if (!layout.holds(nchw)) {
      *why = "an output that is not a rank-4 tensor " + layout.name() + " holds";
      return std::nullopt;
    }
    p.nodes.push_back(layout_node(p, loops::IxRef::node(static_cast<int>(p.nodes.size()) - 1), plain, layout,
                                  layout.physical_shape(nchw)));
  }
  FusedGroup part = group;
  part.inputs = std::move(inputs);
  const DataType dtype = p.nodes.back().dtype;
  std::vector<int64_t> shape = p.nodes.back().shape;
  return lowered_plan(NativePlan::Kind::Index, std::move(part),
                      loops::lower_index_program(p, kernel_name(g, group) + "_" + layout.tvm_name(),
                                                 loops::LoopShape::Cpu),
                      dtype, std::move(shape), "the compiled kernel of group " + std::to_string(group.id) + " failed",
                      why);
}

std::optional<loops::ReductionProgram> reduction_program(const Graph& g, const FusedGroup& group,
                                                         std::vector<NodeId>* inputs, std::string* why) {
  const Node& master = g[group.master];
  const std::string_view op = master.op ? master.op->name : std::string_view{};
  // variance(x, mean) is the mean of (x - mean)^2 folded as the reference folds it (the
  // subtraction and square in the dtype, then the sum), divided by count - unbiased.
  const bool variance = op == "variance";
  // collapse_sum_like/collapse_sum_to sum over the axes that broadcasting the target shape
  // to the data's created (TVM's topi::collapse_sum); the second operand gives only that shape.
  const bool collapse = op == "collapse_sum_like" || op == "collapse_sum_to";
  const std::optional<loops::ReduceOp> reduce =
      variance ? loops::ReduceOp::Mean : collapse ? loops::ReduceOp::Sum : loops::reduce_op_named(op);
  if (group.pattern != FusionPattern::Reduction || !reduce) {
    const std::string_view listed = interpreted_reason(op);
    *why = listed.empty() ? "pattern " + std::string(fusion_pattern_name(group.pattern)) : std::string(listed);
    return std::nullopt;
  }
  // TVM fuses producers into a reduction, never consumers: the reduction is the group's
  // last node and only output.
  if (group.nodes.empty() || group.nodes.back() != group.master || group.outputs.size() != 1 ||
      group.outputs[0] != group.master) {
    *why = "`" + std::string(op) + "` is not the group's only output";
    return std::nullopt;
  }
  if (master.inputs.size() != (variance || collapse ? 2u : 1u) || !g[master.inputs[0]].type ||
      g[master.inputs[0]].type->kind != TyKind::Tensor) {
    *why = "`" + std::string(op) + "` of a tuple";
    return std::nullopt;
  }
  const NodeId data = master.inputs[0];
  loops::ReductionProgram p;
  if (group.nodes.size() == 1) {  // no producers: the prologue copies the input
    p.prologue.inputs = {{dtype_of(g[data].type), shape_of(g[data].type)}};
    p.prologue.steps = {{"copy", {loops::EwOperand::input(0)}, {}, dtype_of(g[data].type)}};
    p.prologue.out_dtype = dtype_of(g[data].type);
    p.prologue.out_shape = shape_of(g[data].type);
    *inputs = {data};
  } else {
    FusedGroup producers =
        sub_group(g, group, std::vector<NodeId>(group.nodes.begin(), group.nodes.end() - 1), data);
    auto prologue = elementwise_program(g, producers, why);
    if (!prologue) return std::nullopt;
    p.prologue = std::move(*prologue);
    *inputs = producers.inputs;
  }
  if (variance) {
    const NodeId mean = master.inputs[1];
    if (!g[mean].type || g[mean].type->kind != TyKind::Tensor || dtype_of(g[mean].type).is_bool()) {
      *why = "`variance` of a tuple or of bool";
      return std::nullopt;
    }
    const DataType t = p.prologue.out_dtype;
    const int last = static_cast<int>(p.prologue.steps.size()) - 1, m = static_cast<int>(p.prologue.inputs.size());
    p.prologue.inputs.push_back({dtype_of(g[mean].type), shape_of(g[mean].type)});
    inputs->push_back(mean);
    p.prologue.steps.push_back({"subtract", {loops::EwOperand::step(last), loops::EwOperand::input(m)}, {}, t});
    p.prologue.steps.push_back({"multiply", {loops::EwOperand::step(last + 1), loops::EwOperand::step(last + 1)}, {}, t});
    p.count_offset = master.attrs.get_bool("unbiased") ? 1 : 0;
  }
  p.op = *reduce;
  p.out_dtype = dtype_of(master.type);
  if (collapse) {
    // The reduced axes dropped: the target shape's elements in the same row-major order
    // (its kept 1s are where the data has 1 too), so the output buffer is the target's.
    const std::vector<int64_t> in = shape_of(g[data].type);
    const std::vector<bool> collapsed = rt::collapsed_axes(in, shape_of(master.type));
    for (size_t d = 0; d < in.size(); ++d) {
      if (collapsed[d]) p.axes.push_back(static_cast<int64_t>(d));
      else p.out_shape.push_back(in[d]);
    }
    if (p.axes.empty()) {  // an empty axis list would mean every axis
      *why = "`" + std::string(op) + "` collapses no axis";
      return std::nullopt;
    }
    return p;
  }
  p.axes = master.attrs.get_ints("axis");
  p.keepdims = master.attrs.get_bool("keepdims");
  p.exclude = master.attrs.get_bool("exclude");
  p.select_last_index = master.attrs.get_bool("select_last_index");
  p.out_shape = shape_of(master.type);
  return p;
}

std::optional<NativePlan> plan_native(const Graph& g, const FusedGroup& group, std::string* why, loops::LoopShape shape) {
  if (group.pattern == FusionPattern::Reduction) return plan_reduction(g, group, why, shape);
  const std::string_view master = g[group.master].op ? g[group.master].op->name : std::string_view{};
  // Injective groups, and pools with their epilogues, are one index-mapping kernel; an
  // element-wise group that the element-wise lowering refuses (a reshape inside it) too.
  const auto& softmax = loops::lowered_softmax_ops();
  if (group.pattern == FusionPattern::OutElementwiseFusable &&
      std::find(softmax.begin(), softmax.end(), master) != softmax.end()) {
    std::string softmax_why;
    if (auto plan = plan_softmax(g, group, &softmax_why, shape)) return plan;
    if (group.nodes.size() == 1) {
      *why = softmax_why;
      return std::nullopt;
    }
    return plan_elementwise(g, group, why, shape);  // its reference kernel, the epilogue native
  }
  if (group.pattern == FusionPattern::Injective ||
      (group.pattern == FusionPattern::OutElementwiseFusable && is_index_master(master))) {
    std::string index_why;
    if (auto plan = plan_index(g, group, &index_why, shape)) return plan;
    const std::string_view listed = interpreted_reason(master);
    *why = index_why.empty() && !listed.empty() ? std::string(listed) : index_why;
    return std::nullopt;
  }
  if (group.pattern == FusionPattern::Elementwise || group.pattern == FusionPattern::Broadcast) {
    std::string ew_why;
    if (auto plan = plan_elementwise(g, group, &ew_why, shape)) return plan;
    std::string index_why;
    if (auto plan = plan_index(g, group, &index_why, shape)) return plan;
    *why = ew_why;
    return std::nullopt;
  }
  return plan_elementwise(g, group, why, shape);
}

namespace {

std::optional<NativePlan> plan_elementwise(const Graph& g, const FusedGroup& group, std::string* why,
                                          loops::LoopShape shape) {
  // The whole group when it is element-wise; otherwise the element-wise epilogue after its
  // master operator (TVM fuses those into convolutions and dense layers).
  size_t first = 0;
  if (group.pattern != FusionPattern::Elementwise && group.pattern != FusionPattern::Broadcast) {
    first = group.nodes.size();
    for (size_t k = 0; k < group.nodes.size(); ++k)
      if (group.nodes[k] == group.master) first = k + 1;
  }
  if (first >= group.nodes.size()) {
    const std::string_view op = g[group.master].op ? g[group.master].op->name : std::string_view{};
    const std::string_view listed = interpreted_reason(op);
    *why = listed.empty() ? "no element-wise epilogue" : std::string(listed);
    return std::nullopt;
  }
  if (group.outputs.size() != 1) {
    *why = std::to_string(group.outputs.size()) + " outputs";
    return std::nullopt;
  }
  FusedGroup part =
      sub_group(g, group, std::vector<NodeId>(group.nodes.begin() + static_cast<long>(first), group.nodes.end()),
                group.outputs[0]);
  std::vector<NodeId> buffers;  // the kernel reads these values (reshaped ones by their source)
  auto program = elementwise_program(g, part, why, &buffers);
  if (!program && first > 0) {
    // An epilogue with a layout operator inside it (a batch norm's scale expanded within
    // the group): one index-mapping kernel after the master's reference kernel.
    std::string index_why;
    if (auto index = plan_index(g, part, &index_why, shape)) {
      index->kind = NativePlan::Kind::Epilogue;
      index->reference_nodes = first;
      return index;
    }
  }
  if (!program) return std::nullopt;
  part.inputs = std::move(buffers);
  auto plan = lowered_plan(first > 0 ? NativePlan::Kind::Epilogue : NativePlan::Kind::Elementwise, std::move(part),
                           loops::lower_elementwise(*program, kernel_name(g, group), shape), program->out_dtype,
                           program->out_shape, loops::status_message(*program), why);
  if (plan) {
    plan->pointwise = true;  // (not the index-mapping epilogue above)
    plan->reference_nodes = first;
  }
  return plan;
}

}  // namespace

std::string emit_groups(const Graph& g, const FusionPlan& plan, std::string_view stage, Jit& jit) {
  std::string out;
  for (const FusedGroup& group : plan.groups) {
    const std::string master = g[group.master].op ? std::string(g[group.master].op->name) : "tuple";
    out += "// group " + std::to_string(group.id) + " (" + master + ", " + std::to_string(group.nodes.size()) + " ops)";
    std::string why;
    auto native = plan_native(g, group, &why);
    if (!native) {
      out += ": reference kernels (" + why + ")\n\n";
      continue;
    }
    if (native->kind == NativePlan::Kind::Epilogue) out += ": " + master + " on its reference kernel, the epilogue native";
    else if (native->kind == NativePlan::Kind::Index) out += ": one index-mapping kernel";
    else if (native->kind == NativePlan::Kind::Reduction)
      out += ": " + master + (group.nodes.size() > 1 ? " with its element-wise producers" : "") + ", one native kernel";
    out += "\n";
    if (stage == "loops") out += loops::print_kernel(native->kernel);
    else if (stage == "llvm") out += jit.emit_llvm(native->kernel);
    else out += jit.emit_asm(native->kernel);
    out += "\n";
  }
  return out;
}

}  // namespace relay::compiler
