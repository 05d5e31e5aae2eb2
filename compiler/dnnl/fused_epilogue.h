// How one oneDNN call computes a matched epilogue chain (compiler/graph/epilogue.h)
// (private to compiler/dnnl). For a primitive with prepared weights (convolution, inner
// product) the leading affine steps (a batch norm's scale and shift, a bias) fold into a
// scale per output channel, applied to the weights when they are prepared, and the
// primitive's bias; the other steps become post-ops in order. For a matmul of two
// activations nothing can be folded, so every step is a post-op (a per-channel step a
// binary post-op over a {1, .., N} operand). A residual add is oneDNN's `sum` post-op (the
// residual is put into the destination first) wherever it comes in the chain. Where oneDNN
// offers only its reference implementation for a chain (some implementations take the
// sum first only), fast_primitive_with refuses it and the epilogue stays native.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "compiler/dnnl/dnnl_support.h"
#include "compiler/graph/epilogue.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::compiler::dnnl_impl {

class FusedEpilogue {
 public:
  // Where the chain's result lives in oneDNN's terms.
  struct Target {
    int64_t channels = 0;      // the per-channel steps' length
    size_t rank = 0;           // the destination's dimensions (2, 3 or 4)
    size_t channel_dim = 1;    // the channels' axis among oneDNN's (logical) dimensions
    bool fold_affine = true;   // leading scale and shift steps go into the weights and bias
  };
  // The chain for `target`; nullopt when a step has no form here (over kMaxBinaries
  // binary post-ops).
  static std::optional<FusedEpilogue> make(const EpilogueChain& chain, const Target& target);

  const EpilogueChain& chain() const { return chain_; }
  // The primitive's attributes: the post-ops, and the caller's scratchpad.
  const dnnl::primitive_attr& attr() const { return attr_; }
  bool scales_weights() const { return scales_weights_; }
  bool has_bias() const { return has_bias_; }
  bool has_residual() const { return residual_.has_value(); }
  // The residual's position among the operands (epilogue_operands order).
  std::optional<size_t> residual_operand() const { return residual_; }

  // Per call, from the operands (epilogue_operands order): the folded per-channel scale
  // (left empty when no step scales) and bias (empty when no step shifts).
  void fold(std::span<const rt::NDArray> operands, std::vector<float>& scale, std::vector<float>& bias) const;
  // The binary post-ops' second inputs; `leases` (kMaxBinaries of them) hold their memories
  // for the call.
  static constexpr size_t kMaxBinaries = 8;
  void add_post_op_args(std::span<const rt::NDArray> operands, ExecArgs& args,
                        std::span<UserMemory::Lease> leases) const;
  // The residual the sum post-op adds, or nullptr.
  const rt::NDArray* residual(std::span<const rt::NDArray> operands) const;
  // E.g. "scale folded into the weights, bias, post-ops sum, relu".
  std::string describe() const;

 private:
  struct Folded {
    EpilogueStep::Kind kind;
    size_t operand;
    bool per_channel;
  };
  struct Binary {
    int post_op;  // its index among the post-ops
    size_t operand;
    std::shared_ptr<UserMemory> memory;  // over the operand's buffer (shared: the struct moves)
  };
  EpilogueChain chain_;
  Target target_;
  std::vector<Folded> folded_;
  std::vector<Binary> binaries_;
  std::optional<size_t> residual_;
  std::vector<std::string> post_op_names_;
  dnnl::primitive_attr attr_;
  bool scales_weights_ = false, has_bias_ = false;
};

// The epilogue of `group` (may be null) after its master, whose result has its channels
// on Relay's axis `channel_axis`, when it is a chain (graph/epilogue.h) with at least one
// step that FusedEpilogue takes for `target`; else nullopt.
std::optional<FusedEpilogue> fusable_epilogue(const Graph& g, const FusedGroup* group, size_t channel_axis,
                                              const FusedEpilogue::Target& target);

// `make(attr, with_bias)`'s primitive descriptor for `epilogue`, when oneDNN makes it with a
// fast implementation; nullopt when it offers only its reference one or none (the caller
// then makes the plain primitive and the epilogue stays a native kernel).
template <class Make>
auto fast_primitive_with(const FusedEpilogue& epilogue, Make make)
    -> std::optional<decltype(make(epilogue.attr(), true))> {
  try {
    auto pd = make(epilogue.attr(), epilogue.has_bias());
    if (!is_reference_impl(pd.impl_info_str())) return pd;
  } catch (const dnnl::error&) {
    // unimplemented with these post-ops
  }
  return std::nullopt;
}

}  // namespace relay::compiler::dnnl_impl
