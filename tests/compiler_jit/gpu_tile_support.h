// What the GPU tile tests share (gpu_tiles_test.cpp, gpu_split_tiles_test.cpp): random
// operands, a lowered tile run on the CPU JIT (a tile with k split, its finish after it),
// the shapes' builders, and the sums a tile computes in its own order, recomputed here
// (a float64 reference; the parts of a split product).
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "compiler/llvm/jit.h"
#include "compiler/loops/block_gemm.h"
#include "compiler/loops/conv2d.h"
#include "compiler/loops/matmul.h"

namespace relay::gpu_tile_test {

inline std::vector<float> random_values(size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}


// Runs a lowered kernel over [a, b, out] on the CPU JIT; a kernel split along k over
// [a, b, partials], then its finish over [partials, out].
inline void run_on(const loops::LoweredKernel& lowered, void* a, void* b, void* out) {
  REQUIRE(lowered.ok());
  const compiler::CompiledKernel k = compiler::Jit::instance().compile(lowered.kernel);
  std::vector<float> partials;
  if (lowered.finish) {
    const loops::Buffer& p = lowered.kernel.buffer(lowered.output_buffer);
    REQUIRE(p.dtype == loops::f32());
    partials.assign(static_cast<size_t>(p.extent()), std::nanf(""));  // every part's sum must be written
  }
  std::vector<void*> buffers{a, b, lowered.finish ? partials.data() : out};
  compiler::run_kernel(k, buffers.data(), nullptr);
  if (lowered.finish) {
    const compiler::CompiledKernel finish = compiler::Jit::instance().compile(*lowered.finish);
    std::vector<void*> finish_buffers{partials.data(), out};
    compiler::run_kernel(finish, finish_buffers.data(), nullptr);
  }
}

inline std::vector<float> run(const loops::LoweredKernel& lowered, std::vector<float>& a, std::vector<float>& b, size_t outputs) {
  std::vector<float> out(outputs, std::nanf(""));  // every output must be written
  run_on(lowered, a.data(), b.data(), out.data());
  return out;
}


// Calls term(output, c, t, x, w) for every output of `p` (its flat index) and every term
// of its window inside the input (channel c of the group, t its index in the window), in
// the direct convolution's order (channel of the group, row, column).
template <class Term>
void for_each_term(const loops::Conv2dProgram& p, const std::vector<float>& x, const std::vector<float>& w, Term term) {
  const int64_t I = p.channels / p.groups;
  for (int64_t n = 0; n < p.batch; ++n)
    for (int64_t o = 0; o < p.out_channels; ++o)
      for (int64_t oh = 0; oh < p.out_h; ++oh)
        for (int64_t ow = 0; ow < p.out_w; ++ow) {
          const size_t at = static_cast<size_t>(((n * p.out_channels + o) * p.out_h + oh) * p.out_w + ow);
          const int64_t first = o / (p.out_channels / p.groups) * I;
          for (int64_t c = 0; c < I; ++c)
            for (int64_t kh = 0; kh < p.kernel_h; ++kh)
              for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
                const int64_t ih = oh * p.strides[0] + kh * p.dilation[0] - p.pad_begin[0];
                const int64_t iw = ow * p.strides[1] + kw * p.dilation[1] - p.pad_begin[1];
                if (ih < 0 || ih >= p.height || iw < 0 || iw >= p.width) continue;
                term(at, c, (c * p.kernel_h + kh) * p.kernel_w + kw, x[static_cast<size_t>(((n * p.channels + first + c) * p.height + ih) * p.width + iw)],
                     w[static_cast<size_t>(((o * I + c) * p.kernel_h + kh) * p.kernel_w + kw)]);
              }
        }
}


// Each output's float64 sum of its terms and sum of their magnitudes.
inline std::pair<std::vector<double>, std::vector<double>> conv_sums(const loops::Conv2dProgram& p, const std::vector<float>& x,
                                                              const std::vector<float>& w) {
  const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
  std::vector<double> want(outputs, 0), magnitude(outputs, 0);
  for_each_term(p, x, w, [&](size_t at, int64_t, int64_t, float xv, float wv) {
    const double term = static_cast<double>(xv) * wv;
    want[at] += term;
    magnitude[at] += std::fabs(term);
  });
  return {std::move(want), std::move(magnitude)};
}


// What a product split along k computes (block_gemm.h, BlockGemm::splits): each part's
// terms (k in [part * span, part * span + span) for a span of `span_terms` terms) folded
// in order from 0 with fused multiply-adds, then the parts added in order. `terms(fold)`
// calls fold(output, k, a, b) for every term of every output, each output's in k's order.
template <class Terms>
std::vector<float> by_parts(size_t outputs, int64_t parts, int64_t span_terms, Terms terms) {
  std::vector<std::vector<float>> sums(outputs, std::vector<float>(static_cast<size_t>(parts), 0.0f));
  terms([&](size_t output, int64_t k, float a, float b) {
    float& s = sums[output][static_cast<size_t>(k / span_terms)];
    s = std::fma(a, b, s);
  });
  std::vector<float> out;
  for (const std::vector<float>& sum : sums) {
    float total = sum[0];
    for (size_t q = 1; q < sum.size(); ++q) total = total + sum[q];
    out.push_back(total);
  }
  return out;
}

// The terms each part of a product of `depth` terms split in `parts` folds, in slices of
// `slice_depth` (kBlockDepth; the tensor cores' kMmaDepth).
inline int64_t span_of(int64_t depth, int64_t parts, int64_t slice_depth = loops::kBlockDepth) {
  loops::BlockGemm g;
  g.depth = depth, g.splits = parts;
  return loops::split_k_span(g, slice_depth) * slice_depth;
}

// A split convolution's bits (by_parts over the window's terms in the direct
// convolution's order; taps in the padding add nothing).
inline std::vector<float> conv_by_parts(const loops::Conv2dProgram& p, const std::vector<float>& x,
                                        const std::vector<float>& w, int64_t parts) {
  const int64_t window = p.channels / p.groups * p.kernel_h * p.kernel_w;
  return by_parts(static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w), parts, span_of(window, parts),
                  [&](auto fold) {
                    for_each_term(p, x, w, [&](size_t at, int64_t, int64_t t, float xv, float wv) { fold(at, t, xv, wv); });
                  });
}

// A split product's bits: a[batch, m, :] . b[batch, n, :] by parts (a batch of 1 broadcast).
inline std::vector<float> product_by_parts(const loops::MatmulProgram& p, const std::vector<float>& a,
                                           const std::vector<float>& b, int64_t parts) {
  return by_parts(static_cast<size_t>(p.batch * p.m * p.n), parts, span_of(p.k, parts), [&](auto fold) {
    for (int64_t batch = 0; batch < p.batch; ++batch)
      for (int64_t row = 0; row < p.m; ++row)
        for (int64_t col = 0; col < p.n; ++col) {
          const size_t at = static_cast<size_t>((batch * p.m + row) * p.n + col);
          const size_t a_row = static_cast<size_t>(((p.a_batch > 1 ? batch : 0) * p.m + row) * p.k);
          const size_t b_row = static_cast<size_t>(((p.b_batch > 1 ? batch : 0) * p.n + col) * p.k);
          for (int64_t k = 0; k < p.k; ++k)
            fold(at, k, a[a_row + static_cast<size_t>(k)], b[b_row + static_cast<size_t>(k)]);
        }
  });
}

// A product of `batch` outputs, a and b each a batch of 1 (broadcast) or `batch`.
inline loops::MatmulProgram product(int64_t batch, int64_t a_batch, int64_t b_batch, int64_t m, int64_t n, int64_t k) {
  loops::MatmulProgram p;
  p.batch = batch, p.a_batch = a_batch, p.b_batch = b_batch, p.m = m, p.n = n, p.k = k;
  return p;
}


// A convolution of n images of c x h x w into o channels, its output's size from the padding
// (top, left, bottom, right).
inline loops::Conv2dProgram conv(int64_t n, int64_t c, int64_t h, int64_t w, int64_t o, int64_t kh, int64_t kw, int64_t groups,
                          std::array<int64_t, 2> strides, std::array<int64_t, 2> dilation, std::array<int64_t, 4> pad) {
  loops::Conv2dProgram p;
  p.batch = n, p.channels = c, p.height = h, p.width = w, p.out_channels = o, p.kernel_h = kh, p.kernel_w = kw;
  p.groups = groups, p.strides = strides, p.dilation = dilation, p.pad_begin = {pad[0], pad[1]};
  p.out_h = (h + pad[0] + pad[2] - dilation[0] * (kh - 1) - 1) / strides[0] + 1;
  p.out_w = (w + pad[1] + pad[3] - dilation[1] * (kw - 1) - 1) / strides[1] + 1;
  return p;
}


// A product of float16 or bfloat16 (storage type S) through `lowered`, against the float64
// sum: within the dtype's rounding of the result (half an ulp, `half_ulp` relative) plus K
// float32 roundings of the sum of |terms|.
template <class S>
void check_storage_product(const loops::MatmulProgram& p, const loops::LoweredKernel& lowered, double half_ulp,
                           std::mt19937_64& rng) {
  REQUIRE(lowered.ok());
  std::vector<float> a_values = random_values(static_cast<size_t>(p.a_batch * p.m * p.k), rng);
  std::vector<float> b_values = random_values(static_cast<size_t>(p.b_batch * p.n * p.k), rng);
  std::vector<S> a(a_values.begin(), a_values.end()), b(b_values.begin(), b_values.end());
  std::vector<S> out(static_cast<size_t>(p.batch * p.m * p.n), S(std::nanf("")));
  run_on(lowered, a.data(), b.data(), out.data());
  for (int64_t bi = 0; bi < p.batch; ++bi)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j) {
        double want = 0, magnitude = 0;
        for (int64_t x = 0; x < p.k; ++x) {
          const double term = static_cast<double>(static_cast<float>(a[static_cast<size_t>(((p.a_batch > 1 ? bi : 0) * p.m + i) * p.k + x)])) *
                              static_cast<float>(b[static_cast<size_t>(((p.b_batch > 1 ? bi : 0) * p.n + j) * p.k + x)]);
          want += term;
          magnitude += std::fabs(term);
        }
        const float got = out[static_cast<size_t>((bi * p.m + i) * p.n + j)];
        INFO("output " << bi << ", " << i << ", " << j << ": want " << want << ", got " << got);
        REQUIRE(std::fabs(got - want) <= half_ulp * std::fabs(want) + static_cast<double>(p.k) * 0x1p-23 * magnitude + 1e-30);
      }
}



// A convolution of float16 or bfloat16 (storage type S) through `lowered`, against the
// float64 sum of its terms: within the dtype's rounding of the result (`half_ulp`
// relative) plus one float32 rounding per term of the sum of |terms|.
template <class S>
void check_storage_conv(const loops::Conv2dProgram& p, const loops::LoweredKernel& lowered, double half_ulp,
                        std::mt19937_64& rng) {
  REQUIRE(lowered.ok());
  const int64_t I = p.channels / p.groups;
  std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
  std::vector<float> w = random_values(static_cast<size_t>(p.out_channels * I * p.kernel_h * p.kernel_w), rng);
  std::vector<S> xs(x.begin(), x.end()), ws(w.begin(), w.end());
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(xs[i]);  // the values the kernel reads
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(ws[i]);
  const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
  const auto [want, magnitude] = conv_sums(p, x, w);
  std::vector<S> out(outputs, S(std::nanf("")));
  run_on(lowered, xs.data(), ws.data(), out.data());
  const double terms = static_cast<double>(I * p.kernel_h * p.kernel_w);
  for (size_t i = 0; i < outputs; ++i) {
    const double got = static_cast<float>(out[i]);
    INFO("output " << i << ": want " << want[i] << ", got " << got);
    REQUIRE(std::fabs(got - want[i]) <= half_ulp * std::fabs(want[i]) + terms * 0x1p-23 * magnitude[i] + 1e-30);
  }
}

}  // namespace relay::gpu_tile_test
