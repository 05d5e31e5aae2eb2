#include "compiler/dnnl/fused_epilogue.h"

namespace relay::compiler::dnnl_impl {

using Kind = EpilogueStep::Kind;

namespace {

// oneDNN's element-wise algorithm for an activation step.
dnnl::algorithm eltwise_algorithm(Kind kind) {
  switch (kind) {
    case Kind::Relu: return dnnl::algorithm::eltwise_relu;
    case Kind::Clip: return dnnl::algorithm::eltwise_clip;
    case Kind::Sigmoid: return dnnl::algorithm::eltwise_logistic;
    default: return dnnl::algorithm::eltwise_tanh;  // Tanh
  }
}

// oneDNN's binary algorithm for a per-channel step after the folded ones.
dnnl::algorithm binary_algorithm(Kind kind) {
  return kind == Kind::Scale ? dnnl::algorithm::binary_mul
         : kind == Kind::Shift ? dnnl::algorithm::binary_add
                               : dnnl::algorithm::binary_sub;
}

// The dense row-major layout of `rank` (2 to 4) dimensions.
dnnl::memory::format_tag plain_tag(size_t rank) {
  using tag = dnnl::memory::format_tag;
  return rank == 2 ? tag::ab : rank == 3 ? tag::abc : tag::abcd;
}

}  // namespace

std::optional<FusedEpilogue> FusedEpilogue::make(const EpilogueChain& chain, const Target& target) {
  if (target.rank < 2 || target.rank > 4 || target.channel_dim >= target.rank) return std::nullopt;
  FusedEpilogue e;
  e.chain_ = chain;
  e.target_ = target;
  dnnl::post_ops post_ops;
  size_t operand = 0;
  bool folding = target.fold_affine;  // still in the leading affine steps
  for (const EpilogueStep& s : chain.steps) {
    const size_t op_index = has_operand(s.kind) ? operand++ : 0;
    const bool affine = s.kind == Kind::Scale || s.kind == Kind::Shift || s.kind == Kind::Unshift;
    if (folding && affine) {
      e.folded_.push_back({s.kind, op_index, s.per_channel});
      (s.kind == Kind::Scale ? e.scales_weights_ : e.has_bias_) = true;
      continue;
    }
    folding = false;
    const int index = post_ops.len();
    switch (s.kind) {
      case Kind::Residual:
        // dst = (the post-ops so far) + dst's preloaded residual, wherever it comes.
        post_ops.append_sum(1.0f);
        e.residual_ = op_index;
        e.post_op_names_.push_back("sum");
        continue;
      case Kind::Scale:
      case Kind::Shift:
      case Kind::Unshift: {
        // One value per channel or one value, broadcast over the rest.
        dnnl::memory::dims dims(target.rank, 1);
        if (s.per_channel) dims[target.channel_dim] = target.channels;
        const dnnl::memory::desc desc = plain(dims, plain_tag(target.rank));
        if (e.binaries_.size() == kMaxBinaries) return std::nullopt;
        post_ops.append_binary(binary_algorithm(s.kind), desc);
        e.binaries_.push_back({index, op_index, std::make_shared<UserMemory>(desc)});
        break;
      }
      default:  // an activation; only clip has bounds (oneDNN's alpha and beta)
        post_ops.append_eltwise(1.0f, eltwise_algorithm(s.kind), static_cast<float>(s.lo), static_cast<float>(s.hi));
        break;
    }
    e.post_op_names_.emplace_back(epilogue_step_name(s.kind));
  }
  e.attr_ = caller_scratchpad();
  e.attr_.set_post_ops(post_ops);
  return e;
}

void FusedEpilogue::fold(std::span<const rt::NDArray> operands, std::vector<float>& scale,
                         std::vector<float>& bias) const {
  scale.clear();
  bias.clear();
  const auto channels = static_cast<size_t>(target_.channels);
  if (scales_weights_) scale.assign(channels, 1.0f);
  if (has_bias_) bias.assign(channels, 0.0f);
  for (const Folded& f : folded_) {
    const float* v = static_cast<const float*>(operands[f.operand].raw());
    for (size_t c = 0; c < channels; ++c) {
      const float x = f.per_channel ? v[c] : v[0];
      switch (f.kind) {
        case Kind::Scale:
          scale[c] *= x;
          if (has_bias_) bias[c] *= x;
          break;
        case Kind::Shift: bias[c] += x; break;
        default: bias[c] -= x; break;  // Unshift
      }
    }
  }
}

void FusedEpilogue::add_post_op_args(std::span<const rt::NDArray> operands, ExecArgs& args,
                                     std::span<UserMemory::Lease> leases) const {
  for (size_t i = 0; i < binaries_.size(); ++i) {
    const Binary& b = binaries_[i];
    leases[i] = b.memory->wrap(operands[b.operand].raw());
    args.add(DNNL_ARG_ATTR_MULTIPLE_POST_OP(b.post_op) | DNNL_ARG_SRC_1, leases[i].memory);
  }
}

const rt::NDArray* FusedEpilogue::residual(std::span<const rt::NDArray> operands) const {
  return residual_ ? &operands[*residual_] : nullptr;
}

std::string FusedEpilogue::describe() const {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (scales_weights_) add("scale folded into the weights");
  if (has_bias_) add("bias");
  if (!post_op_names_.empty()) {
    std::string names;
    for (const std::string& n : post_op_names_) names += (names.empty() ? "" : " + ") + n;
    add("post-ops " + names);
  }
  return out;
}

std::optional<FusedEpilogue> fusable_epilogue(const Graph& g, const FusedGroup* group, size_t channel_axis,
                                              const FusedEpilogue::Target& target) {
  if (!group || group->nodes.size() < 2) return std::nullopt;
  auto chain = match_epilogue_chain(g, *group, channel_axis);
  if (!chain || chain->steps.empty()) return std::nullopt;
  return FusedEpilogue::make(*chain, target);
}

}  // namespace relay::compiler::dnnl_impl
