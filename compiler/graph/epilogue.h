// The element-wise epilogue after a fused group's master operator (a convolution or dense
// layer) read as a chain of steps a kernel library can run inside its own call: affine
// steps per output channel (a batch norm's scale and shift, a bias), activations, and one
// residual add. oneDNN folds the affine steps into the prepared weights and the bias and
// runs the rest as post-ops (compiler/dnnl), so the result is written once instead of
// being read and written again by a separate epilogue kernel (issue 14: epilogues fused
// into the matrix kernels). Pure graph analysis: no library is named here.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"

namespace relay::compiler {

struct EpilogueStep {
  enum class Kind : uint8_t {
    Scale,     // multiply by a per-channel or scalar value
    Shift,     // add one (add, nn.bias_add)
    Unshift,   // subtract one (the chain's value on the left)
    Residual,  // add a tensor of the result's shape
    Relu,
    Clip,      // clip(a_min=lo, a_max=hi)
    Sigmoid,
    Tanh,
  };
  Kind kind = Kind::Relu;
  NodeId node = 0;            // the chain node this step computes
  NodeId operand = 0;         // Scale, Shift, Unshift, Residual: the other input
  bool per_channel = false;   // Scale, Shift, Unshift: one value per channel (else a scalar)
  double lo = 0, hi = 0;      // Clip
};

struct EpilogueChain {
  std::vector<EpilogueStep> steps;  // in order, from the master's result to the group's output
  // The group's other nodes: they compute the steps' operands (a batch norm's scale from its
  // variance, expand_dims of a bias) and never read the master's result, so they can run
  // before it.
  std::vector<NodeId> side;
  NodeId output = 0;  // the last step's node (the master when there are no steps)
};

// The epilogue of `group` after its master as one chain, with the result's channels on
// axis `channel_axis`; nullopt when a node reading the master's result is not one of the
// steps above (float32 only), the chain branches, or the group has several outputs.
std::optional<EpilogueChain> match_epilogue_chain(const Graph& g, const FusedGroup& group, size_t channel_axis);

// Whether a step of this kind reads an operand (Scale, Shift, Unshift, Residual).
bool has_operand(EpilogueStep::Kind kind);

// The steps' operands in chain order: what a library kernel computing the chain reads
// after the master's own inputs.
std::vector<NodeId> epilogue_operands(const EpilogueChain& chain);

// "scale", "relu", ...: for reports.
std::string_view epilogue_step_name(EpilogueStep::Kind kind);

}  // namespace relay::compiler
