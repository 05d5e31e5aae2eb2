// Shared machinery of the convolution and pooling kernels (reference §3.0.6, §3.0.7, §3.7).
//
// Every convolution is computed in the canonical layouts (data N,C,spatial...; weight
// O,I,spatial... or I,O,spatial... for transposed ones): inputs written in another layout
// (NHWC, HWIO, NCHW16c, OIHW4i4o, ...) are permuted into a contiguous canonical copy, the
// result is permuted back to `out_layout`. Arithmetic happens in an accumulation type chosen
// from the output dtype (float for float32/float16/bfloat16, double for float64, int64 with
// wrap-around for integers, matching TVM's out_dtype arithmetic modulo 2^bits).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/kernels/kernel.h"
#include "interpreter/kernels/kernel_util.h"
#include "lang/types/relations/relation_util.h"

namespace relay::rt {

void register_conv_kernels(KernelTable& table);
void register_conv_transpose_kernels(KernelTable& table);
void register_conv_variant_kernels(KernelTable& table);
void register_conv_winograd_kernels(KernelTable& table);
void register_pool_kernels(KernelTable& table);
void register_pool_adaptive_kernels(KernelTable& table);

namespace convpool {

using rel::Layout;

[[noreturn]] void fail(const KernelCall& call, const std::string& message);

// The layout written in attribute `attr` (or `text` itself), parsed; RuntimeError otherwise.
Layout parse_layout(const KernelCall& call, const std::string& text, std::string_view attr);

// A copy of `t` (written in `from`) in the layout `to` naming the same primal axes; `t`
// itself when the layouts are equal. Sub-axes are folded or split; a primal extent that a
// sub-axis factor does not divide is a RuntimeError naming `what`.
NDArray relayout(const KernelCall& call, const NDArray& t, const Layout& from, const Layout& to,
                 std::string_view what);

// Per-axis attribute (`strides`, `dilation`, `pool_size`, `kernel_size`): `rank` values.
std::vector<int64_t> per_axis(const KernelCall& call, std::string_view attr, size_t rank,
                              int64_t fallback = 1);

// Padding as TVM expands it: 1 value (every side), `rank` values (both sides of each
// axis), 2*rank values (every leading pad, then every trailing pad).
void read_padding(const KernelCall& call, size_t rank, std::vector<int64_t>& before,
                  std::vector<int64_t>& after, std::string_view attr = "padding");

// Spatial geometry normalised to three axes (D, H, W); missing leading axes have extent 1.
struct Geom {
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pad[3] = {0, 0, 0};
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t k_size() const { return k[0] * k[1] * k[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
};
// Fills the last `rank` axes of `g` from spatial vectors.
void set_axes(Geom& g, size_t rank, const std::vector<int64_t>& in, const std::vector<int64_t>& k,
              const std::vector<int64_t>& stride, const std::vector<int64_t>& dil,
              const std::vector<int64_t>& pad_before);

// The accumulation type for an output dtype.
enum class AccKind { F32, F64, I64 };
AccKind acc_kind(DataType out);

// The elements of `t` converted first to dtype `as` (TVM's astype(out_dtype)) and then to
// the accumulation type Acc.
template <class Acc> std::vector<Acc> load(const NDArray& t, DataType as);
// A tensor of dtype `dtype` and `shape` holding `v` (wrapping for integers): `into`'s
// destination when it has that shape and dtype (KernelCall::output), else a fresh one.
template <class Acc>
NDArray store(const std::vector<Acc>& v, const Shape& shape, DataType dtype, const KernelCall* into = nullptr);

// C (M x N) = op(A) (M x K) * op(B) (K x N), row-major, C overwritten or accumulated into.
template <class Acc>
void gemm(bool trans_a, bool trans_b, int64_t M, int64_t N, int64_t K, const Acc* A, int64_t lda,
          const Acc* B, int64_t ldb, Acc* C, int64_t ldc, bool accumulate);

// Unfolds one group of channels of one image: cols[(c*K + kpos) * out_size + opos].
template <class Acc>
void im2col(const Acc* x, int64_t channels, const Geom& g, Acc* cols);
// The reverse scatter, adding cols into y (channels x in-sized images), for transposed
// convolutions and gradients. Here `g.in` is the image being written.
template <class Acc>
void col2im(const Acc* cols, int64_t channels, const Geom& g, Acc* y);

// A convolution in canonical layouts: x (N, C, in...), w (O, C/groups, k...) -> (N, O, out...).
template <class Acc>
std::vector<Acc> conv_forward(const std::vector<Acc>& x, const std::vector<Acc>& w, int64_t N,
                              int64_t C, int64_t O, int64_t groups, const Geom& g);

// Canonical layout text for a spatial rank: "NC" + "W" / "HW" / "DHW".
std::string spatial_letters(size_t rank);

// Runs a canonical convolution on canonical `data` and `weight` tensors (any dtypes),
// returning the result in `out_layout` with dtype `out`.
Value conv_canonical(const KernelCall& call, const NDArray& data, const NDArray& weight,
                     int64_t groups, size_t rank, const std::vector<int64_t>& strides,
                     const std::vector<int64_t>& dilation, const std::vector<int64_t>& pad_before,
                     const std::vector<int64_t>& pad_after, DataType out,
                     const Layout& out_layout);

// Pooling indexes data in its own layout: the spatial axes (letters such as "HW", found in
// the `layout` attribute, unsplit) are iterated per window; every other axis (N, C, a
// sub-axis c) is an independent "outer" position.
struct PoolView {
  Shape in_shape, out_shape;
  Shape outer;                              // extents of the non-spatial axes
  std::vector<int64_t> outer_in, outer_out;  // their strides in the input and the output
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t in_str[3] = {0, 0, 0}, out_str[3] = {0, 0, 0};
};
// `out_spatial` gives the output extent of each spatial axis, outermost first.
PoolView pool_view(const KernelCall& call, const Shape& in_shape, const std::string& letters,
                   const std::vector<int64_t>& out_spatial, std::string_view attr = "layout");
// Positions of the spatial axes `letters` in the layout of attribute `attr`.
std::vector<size_t> spatial_axes(const KernelCall& call, size_t data_rank, const std::string& letters,
                                 std::string_view attr = "layout");
// Calls f(in_base, out_base) for every outer position.
template <class F> void for_each_outer(const PoolView& v, F&& f) {
  const std::vector<int64_t> strides[2] = {v.outer_in, v.outer_out};
  if (v.outer.empty()) {
    f(int64_t{0}, int64_t{0});
    return;
  }
  for_each_strided(v.outer, strides, [&](int64_t, const int64_t* off) { f(off[0], off[1]); });
}

}  // namespace convpool
}  // namespace relay::rt
