// nn.dense through oneDNN's inner product (weights (units, K) prepared once in the layout
// it picks) and nn.batch_matmul through its matmul primitive (both operands are usually
// activations there, so they are described in place, transposes as strides); float32.
// Either takes its group's element-wise epilogue into the call (fused_epilogue.h).
#include <array>
#include <cstring>
#include <memory>
#include <optional>

#include "compiler/dnnl/dnnl_kernels.h"
#include "compiler/dnnl/dnnl_support.h"
#include "compiler/dnnl/prepared_kernel.h"

namespace relay::compiler::dnnl_impl {
namespace {

using dnnl::memory;
using tag = memory::format_tag;


class BatchMatmulKernel final : public LibraryKernel {
 public:
  // `epilogue`: the group's chain, all of it post-ops (nothing folds into an activation).
  BatchMatmulKernel(const dnnl::matmul::primitive_desc& pd, memory::desc a, memory::desc b, memory::desc c,
                    std::vector<int64_t> out_shape, double flops, std::optional<FusedEpilogue> epilogue)
      : primitive_(pd),
        impl_(pd.impl_info_str()),
        a_(a),
        b_(b),
        c_(c),
        c_desc_(c),
        scratchpad_(pd.scratchpad_desc()),
        out_shape_(std::move(out_shape)),
        flops_(flops),
        epilogue_(std::move(epilogue)) {}

  rt::NDArray run(std::span<const rt::NDArray> inputs, const rt::NDArray& dest, unsigned threads) const override {
    use_threads(threads);
    FlushDenormals flush(threads);
    rt::NDArray out = dest.defined() ? dest : rt::NDArray::empty(out_shape_, relay_dtype(c_desc_.data_type()));
    const UserMemory::Lease a = a_.wrap(inputs[0].raw()), b = b_.wrap(inputs[1].raw()), c = c_.wrap(out.raw());
    ExecArgs args;
    args.add(DNNL_ARG_SRC, a.memory);
    args.add(DNNL_ARG_WEIGHTS, b.memory);
    args.add(DNNL_ARG_DST, c.memory);
    std::array<UserMemory::Lease, FusedEpilogue::kMaxBinaries> binary_leases;
    if (epilogue_) {
      const std::span<const rt::NDArray> operands = inputs.subspan(2);
      epilogue_->add_post_op_args(operands, args, binary_leases);
      // The sum post-op adds what the destination holds: the residual, unless the memory
      // plan already made the destination the residual's own buffer.
      if (const rt::NDArray* residual = epilogue_->residual(operands); residual && residual->raw() != out.raw())
        std::memcpy(out.raw(), residual->raw(), out.nbytes());
    }
    ScratchMemory::Lease pad_lease;
    scratchpad_.add_to(args, pad_lease);
    args.execute(primitive_);
    stream().wait();
    return out;
  }

  std::string describe() const override {
    return "oneDNN " + impl_ + (epilogue_ ? " with its epilogue (" + epilogue_->describe() + ")" : "");
  }
  double flops() const override { return flops_; }
  const EpilogueChain* fused_epilogue() const override { return epilogue_ ? &epilogue_->chain() : nullptr; }
  // The destination is plain and the residual is preloaded by a copy, skipped when they
  // are one buffer.
  bool can_write_over_residual() const override { return epilogue_ && epilogue_->has_residual(); }

 private:
  dnnl::matmul primitive_;
  std::string impl_;
  UserMemory a_, b_, c_;  // over the operands' and the result's buffers
  memory::desc c_desc_;   // the result's (float32, or int32 for the int8 kernel)
  Scratchpad scratchpad_;
  std::vector<int64_t> out_shape_;
  double flops_;
  std::optional<FusedEpilogue> epilogue_;
};

}  // namespace

std::optional<BatchMatmulOperands> batch_matmul_operands(const CallAttrs& attrs, const std::vector<int64_t>& x,
                                                       const std::vector<int64_t>& y, const std::vector<int64_t>& z,
                                                       const std::array<memory::data_type, 3>& types, std::string* why) {
  if (x.size() != 3 || y.size() != 3 || z.size() != 3) {
    if (why) *why = "oneDNN batch_matmul here: 3-D operands";
    return std::nullopt;
  }
  const bool ta = attrs.get_bool("transpose_a"), tb = attrs.get_bool("transpose_b");
  const int64_t M = z[1], N = z[2], K = ta ? x[1] : x[2];
  // Logical (batch, M, K) x (batch, K, N); a transposed operand is the same buffer with
  // its last two strides swapped. A batch of 1 broadcasts (TVM allows it; so does oneDNN).
  return BatchMatmulOperands{
      memory::desc(memory::dims{x[0], M, K}, types[0], ta ? memory::dims{M * K, 1, M} : memory::dims{M * K, K, 1}),
      memory::desc(memory::dims{y[0], K, N}, types[1], tb ? memory::dims{N * K, 1, K} : memory::dims{N * K, N, 1}),
      plain(memory::dims{z[0], M, N}, tag::abc, types[2]),
      2.0 * static_cast<double>(z[0] * M * N) * static_cast<double>(K)};
}

std::unique_ptr<LibraryKernel> batch_matmul_kernel(const dnnl::matmul::primitive_desc& pd, const memory::desc& a,
                                                   const memory::desc& b, const memory::desc& c,
                                                   std::vector<int64_t> out_shape, double flops) {
  return std::make_unique<BatchMatmulKernel>(pd, a, b, c, std::move(out_shape), flops, std::nullopt);
}

std::unique_ptr<LibraryKernel> make_dense_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                 std::string* why) {
  auto shapes = float32_shapes(g, node, why);
  if (!shapes) return nullptr;
  if (auto out_dtype = g[node].attrs.get_dtype("out_dtype"); out_dtype && *out_dtype != DataType::float_(32)) {
    if (why) *why = "out_dtype is not float32";
    return nullptr;
  }
  const auto& x = shapes->inputs[0];
  const auto& w = shapes->inputs[1];
  if (x.size() != 2 || w.size() != 2 || x[1] != w[1]) {
    if (why) *why = "oneDNN dense here: 2-D data (M, K) and weight (N, K)";
    return nullptr;
  }
  const int64_t M = x[0], K = x[1], N = w[0];
  const memory::dims src_dims{M, K}, weight_dims{N, K}, dst_dims{M, N};
  const double flops = 2.0 * static_cast<double>(M * N) * static_cast<double>(K);
  auto primitive = [&](const dnnl::primitive_attr& attr, bool bias) {
    dnnl::inner_product_forward::desc desc(dnnl::prop_kind::forward_inference, any_layout(src_dims),
                                           any_layout(weight_dims), bias ? plain({N}, tag::x) : memory::desc(),
                                           plain(dst_dims, tag::nc));
    return dnnl::inner_product_forward::primitive_desc(desc, attr, engine());
  };
  using Kernel = PreparedKernel<dnnl::inner_product_forward>;
  // The bias add and activation after a dense layer inside the call (as for convolutions).
  if (auto epilogue = fusable_epilogue(g, group, 1, {.channels = N, .rank = 2}))
    if (auto pd = fast_primitive_with(*epilogue, primitive))
      return std::make_unique<Kernel>(*pd, plain(src_dims, tag::nc), plain(weight_dims, tag::oi),
                                      plain(dst_dims, tag::nc), shapes->output, flops, std::move(epilogue), N);
  auto pd = primitive(caller_scratchpad(), false);
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return std::make_unique<Kernel>(pd, plain(src_dims, tag::nc), plain(weight_dims, tag::oi), plain(dst_dims, tag::nc),
                                  shapes->output, flops);
}

std::unique_ptr<LibraryKernel> make_batch_matmul_kernel(const Graph& g, NodeId node, const FusedGroup* group,
                                                        std::string* why) {
  auto shapes = float32_shapes(g, node, why);
  if (!shapes) return nullptr;
  const CallAttrs& attrs = g[node].attrs;
  if (auto out_dtype = attrs.get_dtype("out_dtype"); out_dtype && *out_dtype != DataType::float_(32)) {
    if (why) *why = "out_dtype is not float32";
    return nullptr;
  }
  const auto operands = batch_matmul_operands(attrs, shapes->inputs[0], shapes->inputs[1], shapes->output,
                                              {memory::data_type::f32, memory::data_type::f32, memory::data_type::f32},
                                              why);
  if (!operands) return nullptr;
  const auto& [a, b, c, flops] = *operands;
  const int64_t N = shapes->output[2];
  const auto& z = shapes->output;
  auto primitive = [&](const dnnl::primitive_attr& attr, bool) {
    return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, b, c), attr, engine());
  };
  // A bias along N, scales, activations and a residual (a transformer's projection):
  // every step a post-op, since both operands are activations and nothing is prepared.
  if (auto epilogue = fusable_epilogue(g, group, 2, {.channels = N, .rank = 3, .channel_dim = 2, .fold_affine = false}))
    if (auto pd = fast_primitive_with(*epilogue, primitive))
      return std::make_unique<BatchMatmulKernel>(*pd, a, b, c, z, flops, std::move(epilogue));
  auto pd = primitive(caller_scratchpad(), false);
  if (only_reference_impl(pd.impl_info_str(), why)) return nullptr;
  return std::make_unique<BatchMatmulKernel>(pd, a, b, c, z, flops, std::nullopt);
}

}  // namespace relay::compiler::dnnl_impl
