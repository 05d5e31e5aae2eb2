// The shape every weight-carrying oneDNN kernel shares (private to compiler/dnnl):
// activations reordered into the primitive's chosen layout and back, weights prepared once
// (weight_cache.h), the caller's scratchpad, one execute, and optionally the group's
// epilogue inside that execute (fused_epilogue.h: the folded scale, the bias, post-ops).
// Convolution, transposed convolution and dense (inner product) differ only in how their
// primitive descriptor is made.
#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/fused_epilogue.h"
#include "compiler/dnnl/weight_cache.h"

namespace relay::compiler::dnnl_impl {

template <class Primitive>
class PreparedKernel final : public LibraryKernel {
 public:
  // `user_*`: the plain layouts of the tensors as Relay holds them. `epilogue`: what the
  // primitive was made to compute after the product (its attributes, and a bias when it
  // has one); `channels_innermost`: the user weights hold output channels last (HWIO).
  PreparedKernel(const typename Primitive::primitive_desc& pd, const dnnl::memory::desc& user_src,
                 const dnnl::memory::desc& user_weights, const dnnl::memory::desc& user_dst,
                 std::vector<int64_t> out_shape, double flops, std::optional<FusedEpilogue> epilogue = std::nullopt,
                 int64_t output_channels = 0, bool channels_innermost = false)
      : primitive_(pd),
        impl_(pd.impl_info_str()),
        src_(user_src, pd.src_desc(), OperandLayout::Direction::Input),
        dst_(user_dst, pd.dst_desc(),
             epilogue && epilogue->has_residual() ? OperandLayout::Direction::PreloadedOutput
                                                  : OperandLayout::Direction::Output),
        weights_(user_weights, pd.weights_desc(), channels_innermost),
        scratchpad_(pd.scratchpad_desc()),
        out_shape_(std::move(out_shape)),
        flops_(flops),
        epilogue_(std::move(epilogue)) {
    if (epilogue_ && epilogue_->has_bias())
      bias_desc_ = plain({output_channels}, dnnl::memory::format_tag::x);
  }

  rt::NDArray run(std::span<const rt::NDArray> inputs, const rt::NDArray& dest, unsigned threads) const override {
    use_threads(threads);
    FlushDenormals flush(threads);
    rt::NDArray out = dest.defined() ? dest : rt::NDArray::empty(out_shape_, DataType::float_(32));
    ScratchMemory::Lease src_lease, dst_lease, pad_lease;
    const std::span<const rt::NDArray> operands = inputs.subspan(2);
    std::vector<float> scale, bias;
    if (epilogue_) epilogue_->fold(operands, scale, bias);
    dnnl::memory src = src_.into(inputs[0].raw(), src_lease);
    dnnl::memory weights = weights_.get(inputs[1], scale);
    dnnl::memory dst = dst_.out(out.raw(), dst_lease);
    std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    if (epilogue_) {
      if (!bias.empty()) args.emplace(DNNL_ARG_BIAS, dnnl::memory(bias_desc_, engine(), bias.data()));
      epilogue_->add_post_op_args(operands, args);
      if (const rt::NDArray* residual = epilogue_->residual(operands)) dst_.preload(residual->raw(), dst);
    }
    scratchpad_.add_to(args, pad_lease);
    primitive_.execute(stream(), args);
    dst_.finish(dst, out.raw());
    stream().wait();
    return out;
  }

  std::string describe() const override {
    return "oneDNN " + impl_ + (epilogue_ ? " with its epilogue (" + epilogue_->describe() + ")" : "");
  }
  const EpilogueChain* fused_epilogue() const override { return epilogue_ ? &epilogue_->chain() : nullptr; }
  uint64_t weight_preparations() const override { return weights_.reorders(); }
  double flops() const override { return flops_; }

 private:
  Primitive primitive_;
  std::string impl_;
  OperandLayout src_, dst_;
  PreparedWeights weights_;
  Scratchpad scratchpad_;
  std::vector<int64_t> out_shape_;
  double flops_;
  std::optional<FusedEpilogue> epilogue_;
  dnnl::memory::desc bias_desc_;
};

}  // namespace relay::compiler::dnnl_impl
