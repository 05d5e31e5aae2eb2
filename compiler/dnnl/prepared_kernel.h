// The shape every weight-carrying oneDNN kernel shares (private to compiler/dnnl):
// activations reordered into the primitive's chosen layout and back, weights prepared once
// (weight_cache.h), the caller's scratchpad, one execute, and optionally the group's
// epilogue inside that execute (fused_epilogue.h: the folded scale, the bias, post-ops).
// Convolution, transposed convolution and dense (inner product) differ only in how their
// primitive descriptor is made.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/fused_epilogue.h"
#include "compiler/dnnl/weight_cache.h"

namespace relay::compiler::dnnl_impl {

// What a oneDNN kernel tells another about the layouts it wants, for
// LibraryKernel::can_hand_over.
class LayoutAware {
 public:
  virtual ~LayoutAware() = default;
  // The layout the kernel wants its run() input `input` in; nullptr when it has none of
  // its own for it.
  virtual const dnnl::memory::desc* input_layout(size_t input) const = 0;
};

template <class Primitive>
class PreparedKernel final : public LibraryKernel, public LayoutAware {
 public:
  // `user_*`: the plain layouts of the tensors as Relay holds them. `epilogue`: what the
  // primitive was made to compute after the product (its attributes, and a bias when it
  // has one); `channel_run`: how the user weights' elements follow output channels
  // (PreparedWeights: 0 channels outermost, 1 innermost (HWIO), kh * kw for IOHW).
  PreparedKernel(const typename Primitive::primitive_desc& pd, const dnnl::memory::desc& user_src,
                 const dnnl::memory::desc& user_weights, const dnnl::memory::desc& user_dst,
                 std::vector<int64_t> out_shape, double flops, std::optional<FusedEpilogue> epilogue = std::nullopt,
                 int64_t output_channels = 0, int64_t channel_run = 0)
      : primitive_(pd),
        impl_(pd.impl_info_str()),
        src_(user_src, pd.src_desc(), OperandLayout::Direction::Input),
        dst_(user_dst, pd.dst_desc(),
             epilogue && epilogue->has_residual() ? OperandLayout::Direction::PreloadedOutput
                                                  : OperandLayout::Direction::Output),
        weights_(user_weights, pd.weights_desc(), channel_run),
        scratchpad_(pd.scratchpad_desc()),
        out_shape_(std::move(out_shape)),
        out_dtype_(relay_dtype(user_dst.data_type())),
        flops_(flops),
        epilogue_(std::move(epilogue)) {
    if (epilogue_ && epilogue_->has_bias())
      bias_memory_.emplace(plain({output_channels}, dnnl::memory::format_tag::x));
  }

  rt::NDArray run(std::span<const rt::NDArray> inputs, const rt::NDArray& dest, unsigned threads) const override {
    use_threads(threads);
    FlushDenormals flush(threads);
    rt::NDArray out = dest.defined() ? dest : rt::NDArray::empty(out_shape_, out_dtype_);
    // What this call holds: memories over its buffers, scratch, the epilogue's operands.
    OperandLayout::Leases src_leases, dst_leases;
    UserMemory::Lease weight_lease, bias_lease, residual_lease;
    ScratchMemory::Lease pad_lease;
    std::array<UserMemory::Lease, FusedEpilogue::kMaxBinaries> binary_leases;
    const std::span<const rt::NDArray> operands = inputs.subspan(2);
    // (Per thread, kept: no allocation per call; a library call never re-enters itself.)
    thread_local std::vector<float> scale, bias;
    scale.clear();
    bias.clear();
    if (epilogue_) epilogue_->fold(operands, scale, bias);
    ExecArgs args;
    args.add(DNNL_ARG_SRC, src_.into(inputs[0].raw(), src_leases));
    args.add(DNNL_ARG_WEIGHTS, weights_.get(inputs[1], scale, weight_lease));
    const dnnl::memory dst = dst_.out(out.raw(), dst_leases);
    args.add(DNNL_ARG_DST, dst);
    if (epilogue_) {
      if (!bias.empty()) {
        bias_lease = bias_memory_->wrap(bias.data());
        args.add(DNNL_ARG_BIAS, bias_lease.memory);
      }
      epilogue_->add_post_op_args(operands, args, binary_leases);
      if (const rt::NDArray* residual = epilogue_->residual(operands))
        dst_.preload(residual->raw(), residual_in_layout_, dst, residual_lease);
    }
    scratchpad_.add_to(args, pad_lease);
    args.execute(primitive_);
    dst_.finish(dst, out.raw(), dst_leases);
    stream().wait();
    return out;
  }

  std::string describe() const override {
    std::string kept;
    if (data_in_layout_) kept += "its data";
    if (residual_in_layout_) kept += std::string(kept.empty() ? "" : ", ") + "its residual";
    if (result_in_layout_) kept += std::string(kept.empty() ? "" : ", ") + "its result";
    return "oneDNN " + impl_ + (epilogue_ ? " with its epilogue (" + epilogue_->describe() + ")" : "") +
           (kept.empty() ? "" : "; " + kept + " in oneDNN's layout, no reorder");
  }

  bool can_hand_over(const LibraryKernel& reader, size_t input) const override {
    // Only a float32 result (the layout pass and the native kernels that read held values
    // know float32 layouts) the library writes in a layout of its own (else nothing is
    // saved) that fits the plain tensor's slot.
    if (out_dtype_ != DataType::float_(32) || !dst_.reorders() || !dst_.chosen_fits()) return false;
    const auto* other = dynamic_cast<const LayoutAware*>(&reader);
    const dnnl::memory::desc* wanted = other ? other->input_layout(input) : nullptr;
    return wanted && *wanted == dst_.chosen();
  }
  void keep_result_layout() override {
    dst_.adopt_chosen_layout();
    result_in_layout_ = true;
  }
  void take_input_layout(size_t input) override {
    if (input == 0) {
      src_.adopt_chosen_layout();
      data_in_layout_ = true;
    } else if (is_residual(input)) {
      residual_in_layout_ = true;
    }
  }
  ActivationLayout written_layout() const override {
    return out_dtype_ == DataType::float_(32) ? dst_.chosen_activation_layout() : ActivationLayout::plain();
  }
  ActivationLayout read_layout(size_t input) const override {
    if (out_dtype_ != DataType::float_(32)) return ActivationLayout::plain();
    if (input == 0) return src_.chosen_activation_layout();
    return is_residual(input) ? dst_.chosen_activation_layout() : ActivationLayout::plain();
  }
  const dnnl::memory::desc* input_layout(size_t input) const override {
    if (input == 0) return &src_.chosen();
    if (is_residual(input)) return &dst_.chosen();  // the residual goes into the destination
    return nullptr;
  }
  bool can_write_over_residual() const override {
    // run() preloads the residual into the destination before the primitive writes it: a
    // copy skipped when they are one buffer, or a reorder into scratch. Only a reorder from
    // the plain residual straight into a result kept in the library's layout would read
    // and write the same bytes.
    return epilogue_ && epilogue_->has_residual() && !(result_in_layout_ && !residual_in_layout_ && dst_.preload_reorders());
  }
  const EpilogueChain* fused_epilogue() const override { return epilogue_ ? &epilogue_->chain() : nullptr; }
  uint64_t weight_preparations() const override { return weights_.reorders(); }
  // The weights run() is given are uint8 with zero point 128 (PreparedWeights says more).
  void present_uint8_weights_as_int8() { weights_.present_uint8_as_int8(); }
  double flops() const override { return flops_; }

 private:
  Primitive primitive_;
  std::string impl_;
  OperandLayout src_, dst_;
  PreparedWeights weights_;
  Scratchpad scratchpad_;
  std::vector<int64_t> out_shape_;
  DataType out_dtype_;  // float32, or int32 for a quantized convolution
  double flops_;
  std::optional<FusedEpilogue> epilogue_;
  std::optional<UserMemory> bias_memory_;  // over each call's folded bias
  // The layout pass's choices (library_kernel.h): which tensors are in oneDNN's layout.
  bool data_in_layout_ = false, residual_in_layout_ = false, result_in_layout_ = false;

  // Whether run() input `input` is the fused epilogue's residual (after data and weights).
  bool is_residual(size_t input) const {
    const auto r = epilogue_ ? epilogue_->residual_operand() : std::nullopt;
    return r && input == 2 + *r;
  }
};

}  // namespace relay::compiler::dnnl_impl
