#include "compiler/graph/epilogue.h"

#include <algorithm>

namespace relay::compiler {
namespace {

bool is_float32(Ty t) {
  return t && t->kind == TyKind::Tensor && static_cast<const TensorTy*>(t)->dtype == DataType::float_(32);
}

// How `operand` broadcasts against a result of shape `out`: the result's own shape
// (a residual), one value per channel, or one value; nullopt otherwise.
enum class Broadcast { Full, PerChannel, Scalar };
std::optional<Broadcast> broadcast_of(const Graph& g, NodeId operand, const std::vector<int64_t>& out,
                                      size_t channel_axis) {
  if (!is_float32(g[operand].type)) return std::nullopt;
  auto shape = concrete_shape(g[operand].type);
  if (!shape || shape->size() > out.size()) return std::nullopt;
  if (*shape == out) return Broadcast::Full;
  const size_t offset = out.size() - shape->size();  // right-aligned, as NumPy broadcasts
  bool channel = false;
  for (size_t i = 0; i < shape->size(); ++i) {
    const int64_t d = (*shape)[i];
    if (d == 1) continue;
    if (i + offset != channel_axis || d != out[channel_axis]) return std::nullopt;
    channel = true;
  }
  return channel ? Broadcast::PerChannel : Broadcast::Scalar;
}

// The step node `n` computes from the chain's value `chain`, or nullopt.
std::optional<EpilogueStep> classify(const Graph& g, NodeId n, NodeId chain, const std::vector<int64_t>& out,
                                     size_t channel_axis) {
  const Node& node = g[n];
  if (node.kind != NodeKind::Call || !node.op || !is_float32(node.type)) return std::nullopt;
  if (concrete_shape(node.type) != out) return std::nullopt;
  const std::string_view op = node.op->name;
  EpilogueStep step;
  step.node = n;
  if (node.inputs.size() == 1 && node.inputs[0] == chain) {
    if (op == "nn.relu") step.kind = EpilogueStep::Kind::Relu;
    else if (op == "sigmoid") step.kind = EpilogueStep::Kind::Sigmoid;
    else if (op == "tanh") step.kind = EpilogueStep::Kind::Tanh;
    else if (op == "clip") {
      step.kind = EpilogueStep::Kind::Clip;
      step.lo = node.attrs.get_double("a_min");
      step.hi = node.attrs.get_double("a_max");
    } else {
      return std::nullopt;
    }
    return step;
  }
  if (node.inputs.size() != 2 || (node.inputs[0] == chain) == (node.inputs[1] == chain)) return std::nullopt;
  const bool chain_left = node.inputs[0] == chain;
  step.operand = chain_left ? node.inputs[1] : node.inputs[0];
  if (op == "nn.bias_add") {
    // bias_add(x, b, axis): b of shape (C) on x's axis `axis`.
    int64_t axis = node.attrs.get_int("axis", 1);
    if (axis < 0) axis += static_cast<int64_t>(out.size());
    auto b = concrete_shape(g[step.operand].type);
    if (!chain_left || axis != static_cast<int64_t>(channel_axis) || !is_float32(g[step.operand].type) || !b ||
        b->size() != 1 || (*b)[0] != out[channel_axis])
      return std::nullopt;
    step.kind = EpilogueStep::Kind::Shift;
    step.per_channel = true;
    return step;
  }
  const auto broadcast = broadcast_of(g, step.operand, out, channel_axis);
  if (!broadcast) return std::nullopt;
  if (*broadcast == Broadcast::Full) {
    if (op != "add") return std::nullopt;
    step.kind = EpilogueStep::Kind::Residual;
    return step;
  }
  step.per_channel = *broadcast == Broadcast::PerChannel;
  if (op == "multiply") step.kind = EpilogueStep::Kind::Scale;
  else if (op == "add") step.kind = EpilogueStep::Kind::Shift;
  else if (op == "subtract" && chain_left) step.kind = EpilogueStep::Kind::Unshift;
  else return std::nullopt;
  return step;
}

}  // namespace

std::optional<EpilogueChain> match_epilogue_chain(const Graph& g, const FusedGroup& group, size_t channel_axis) {
  if (group.outputs.size() != 1) return std::nullopt;
  auto out = concrete_shape(g[group.master].type);
  if (!out || channel_axis >= out->size() || !is_float32(g[group.master].type)) return std::nullopt;
  // Which members read the master's result, directly or not.
  std::vector<bool> reads_master(g.size(), false);
  reads_master[group.master] = true;
  EpilogueChain chain;
  NodeId value = group.master;
  bool after_master = false;
  for (NodeId n : group.nodes) {
    if (n == group.master) {
      after_master = true;
      continue;
    }
    const Node& node = g[n];
    const bool on_chain = std::any_of(node.inputs.begin(), node.inputs.end(), [&](NodeId in) { return reads_master[in]; });
    if (!on_chain) {
      chain.side.push_back(n);
      continue;
    }
    if (!after_master) return std::nullopt;  // (topological order makes this impossible)
    // A linear chain: each step reads the previous step's value, and nothing else reads it.
    auto step = classify(g, n, value, *out, channel_axis);
    if (!step) return std::nullopt;
    reads_master[n] = true;
    chain.steps.push_back(*step);
    value = n;
  }
  if (group.outputs[0] != value) return std::nullopt;
  // Every value before the last must have one reader, the next step: x * relu(x) would
  // need an intermediate value the library never writes.
  std::vector<NodeId> intermediate{group.master};
  for (size_t i = 0; i + 1 < chain.steps.size(); ++i) intermediate.push_back(chain.steps[i].node);
  if (!chain.steps.empty())
    for (NodeId v : intermediate) {
      size_t readers = 0;
      for (NodeId n : group.nodes)
        for (NodeId in : g[n].inputs) readers += in == v;
      if (readers != 1) return std::nullopt;
    }
  chain.output = value;
  return chain;
}

bool has_operand(EpilogueStep::Kind kind) {
  return kind == EpilogueStep::Kind::Scale || kind == EpilogueStep::Kind::Shift ||
         kind == EpilogueStep::Kind::Unshift || kind == EpilogueStep::Kind::Residual;
}

std::vector<NodeId> epilogue_operands(const EpilogueChain& chain) {
  std::vector<NodeId> operands;
  for (const EpilogueStep& s : chain.steps)
    if (has_operand(s.kind)) operands.push_back(s.operand);
  return operands;
}

std::string_view epilogue_step_name(EpilogueStep::Kind kind) {
  switch (kind) {
    case EpilogueStep::Kind::Scale: return "scale";
    case EpilogueStep::Kind::Shift: return "shift";
    case EpilogueStep::Kind::Unshift: return "unshift";
    case EpilogueStep::Kind::Residual: return "residual add";
    case EpilogueStep::Kind::Relu: return "relu";
    case EpilogueStep::Kind::Clip: return "clip";
    case EpilogueStep::Kind::Sigmoid: return "sigmoid";
    case EpilogueStep::Kind::Tanh: return "tanh";
  }
  return "?";
}

}  // namespace relay::compiler
