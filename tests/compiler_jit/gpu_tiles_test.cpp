// The GPU's register-tiled convolution and matrix product (loops/conv2d.h, loops/matmul.h)
// run on the CPU JIT: every tile computes the same bits as a thread per output (each output
// folds its terms in the same order, each step one fused multiply-add: MathFn::Fma rounds
// once on every target, and the loop IR contracts nothing else), and both
// agree with a float64 reference within K roundings of each output's sum of |terms|. A
// warp per tile (lanes) computes the bits of its own order: each lane's share of the fold,
// then the LaneReduce tree, recomputed here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compiler/llvm/jit.h"
#include "compiler/loops/conv2d.h"
#include "compiler/loops/matmul.h"
#include "interpreter/runtime/float16.h"

namespace {

using namespace relay;

std::vector<float> random_values(size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// Runs a lowered kernel over [a, b, out] on the CPU JIT; a kernel split along k over
// [a, b, partials], then its finish over [partials, out].
void run_on(const loops::LoweredKernel& lowered, void* a, void* b, void* out) {
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

std::vector<float> run(const loops::LoweredKernel& lowered, std::vector<float>& a, std::vector<float>& b, size_t outputs) {
  std::vector<float> out(outputs, std::nanf(""));  // every output must be written
  run_on(lowered, a.data(), b.data(), out.data());
  return out;
}

// What a product split along k computes (block_gemm.h, BlockGemm::splits): each part's
// terms (k in [part * span, part * span + span) for a span of `span_slices` slices) folded
// in order from 0 with fused multiply-adds, then the parts added in order. `terms(i, fold)`
// calls fold(k, a, b) for output i's terms in k's order.
template <class Terms>
std::vector<float> by_parts(size_t outputs, int64_t parts, int64_t span_slices, Terms terms) {
  std::vector<float> out(outputs);
  for (size_t i = 0; i < outputs; ++i) {
    std::vector<float> sum(static_cast<size_t>(parts), 0.0f);
    terms(i, [&](int64_t k, float a, float b) {
      float& s = sum[static_cast<size_t>(k / (span_slices * loops::kBlockDepth))];
      s = std::fma(a, b, s);
    });
    float total = sum[0];
    for (size_t q = 1; q < sum.size(); ++q) total = total + sum[q];
    out[i] = total;
  }
  return out;
}

// A split convolution's bits (by_parts over the window's terms in the direct
// convolution's order: channel, row, column; taps in the padding add nothing).
std::vector<float> conv_by_parts(const loops::Conv2dProgram& p, const std::vector<float>& x, const std::vector<float>& w,
                                 int64_t parts, int64_t span_slices) {
  const int64_t C = p.channels, KH = p.kernel_h, KW = p.kernel_w, O = p.out_channels, OH = p.out_h, OW = p.out_w;
  return by_parts(static_cast<size_t>(p.batch * O * OH * OW), parts, span_slices, [&](size_t i, auto fold) {
    const int64_t at = static_cast<int64_t>(i), ow = at % OW, oh = at / OW % OH, o = at / (OW * OH) % O,
                  n = at / (OW * OH * O);
    for (int64_t c = 0; c < C; ++c)
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw) {
          const int64_t ih = oh * p.strides[0] + kh * p.dilation[0] - p.pad_begin[0];
          const int64_t iw = ow * p.strides[1] + kw * p.dilation[1] - p.pad_begin[1];
          if (ih < 0 || ih >= p.height || iw < 0 || iw >= p.width) continue;
          fold((c * KH + kh) * KW + kw, x[static_cast<size_t>(((n * C + c) * p.height + ih) * p.width + iw)],
               w[static_cast<size_t>(((o * C + c) * KH + kh) * KW + kw)]);
        }
  });
}

// A split product's bits: a[batch, m, :] . b[batch, n, :] by parts (a batch of 1 broadcast).
std::vector<float> product_by_parts(const loops::MatmulProgram& p, const std::vector<float>& a,
                                    const std::vector<float>& b, int64_t parts, int64_t span_slices) {
  return by_parts(static_cast<size_t>(p.batch * p.m * p.n), parts, span_slices, [&](size_t i, auto fold) {
    const int64_t at = static_cast<int64_t>(i), col = at % p.n, row = at / p.n % p.m, batch = at / (p.n * p.m);
    const size_t a_row = static_cast<size_t>(((p.a_batch > 1 ? batch : 0) * p.m + row) * p.k);
    const size_t b_row = static_cast<size_t>(((p.b_batch > 1 ? batch : 0) * p.n + col) * p.k);
    for (int64_t k = 0; k < p.k; ++k) fold(k, a[a_row + static_cast<size_t>(k)], b[b_row + static_cast<size_t>(k)]);
  });
}

// The slices each part of a product of `depth` terms split in `parts` folds.
int64_t span_of(int64_t depth, int64_t parts) {
  loops::BlockGemm g;
  g.depth = depth, g.splits = parts;
  return loops::split_k_span(g);
}

// Each output within terms * 2^-23 * (sum of |terms|) of the float64 value.
void check_close(const std::vector<float>& got, const std::vector<double>& want, const std::vector<double>& magnitude,
                 int64_t terms) {
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << i << ": want " << want[i] << ", got " << got[i]);
    REQUIRE(std::fabs(got[i] - want[i]) <= static_cast<double>(terms) * 0x1p-23 * magnitude[i] + 1e-30);
  }
}

// The order a warp's LaneReduce adds 32 partial sums (loops/ir.h): for s = 16 .. 1, lane
// l < s takes lane l + s's.
float lane_tree(std::array<float, 32> partial) {
  for (size_t s = 16; s >= 1; s /= 2)
    for (size_t l = 0; l < s; ++l) partial[l] = partial[l] + partial[l + s];
  return partial[0];
}

// Calls term(output, c, x, w) for every output of `p` (its flat index) and every term of
// its window inside the input, in the direct convolution's order (channel of the group,
// row, column).
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
                term(at, c, x[static_cast<size_t>(((n * p.channels + first + c) * p.height + ih) * p.width + iw)],
                     w[static_cast<size_t>(((o * I + c) * p.kernel_h + kh) * p.kernel_w + kw)]);
              }
        }
}

// Each output's float64 sum of its terms and sum of their magnitudes.
std::pair<std::vector<double>, std::vector<double>> conv_sums(const loops::Conv2dProgram& p, const std::vector<float>& x,
                                                              const std::vector<float>& w) {
  const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
  std::vector<double> want(outputs, 0), magnitude(outputs, 0);
  for_each_term(p, x, w, [&](size_t at, int64_t, float xv, float wv) {
    const double term = static_cast<double>(xv) * wv;
    want[at] += term;
    magnitude[at] += std::fabs(term);
  });
  return {std::move(want), std::move(magnitude)};
}

// What a warp per output computes (loops/conv2d.h, lanes): lane l folds the channels
// l, l + 32, ... of the window with fused multiply-adds, then the lanes' tree.
std::vector<float> by_lanes(const loops::Conv2dProgram& p, const std::vector<float>& x, const std::vector<float>& w) {
  std::vector<std::array<float, 32>> partial(static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w));
  for_each_term(p, x, w, [&](size_t at, int64_t c, float xv, float wv) {
    float& lane = partial[at][static_cast<size_t>(c % 32)];
    lane = std::fma(xv, wv, lane);
  });
  std::vector<float> out;
  for (const auto& lanes : partial) out.push_back(lane_tree(lanes));
  return out;
}

// A product of `batch` outputs, a and b each a batch of 1 (broadcast) or `batch`.
loops::MatmulProgram product(int64_t batch, int64_t a_batch, int64_t b_batch, int64_t m, int64_t n, int64_t k) {
  loops::MatmulProgram p;
  p.batch = batch, p.a_batch = a_batch, p.b_batch = b_batch, p.m = m, p.n = n, p.k = k;
  return p;
}

// The block tiles, 4 x 4 and 8 x 8 outputs a thread in 64 x 64 blocks, and with `wide`
// 8 x 8 in 128 x 128 blocks too (lower(fat, wide) lowers one), compute the bits of a
// thread per output (`single`) from operands a and b.
template <class Lower>
void check_block_tiles(Lower lower, std::vector<float>& a, std::vector<float>& b, const std::vector<float>& single,
                       bool wide = false) {
  struct Shape {
    bool fat, wide, small;
  };
  for (const Shape shape : {Shape{false, false, false}, Shape{true, false, false}, Shape{true, true, false},
                            Shape{false, false, true}})
    for (bool ahead : {false, true}) {
      if (shape.wide && !wide) continue;
      INFO((shape.fat ? "8 x 8" : "4 x 4") << " a thread" << (shape.wide ? ", 128 x 128 blocks" : "")
                                           << (shape.small ? ", 32 x 32 blocks" : "")
                                           << (ahead ? ", the next slice read ahead" : ""));
      const loops::LoweredKernel block = lower(shape.fat, shape.wide, shape.small, ahead);
      REQUIRE(block.ok());
      CHECK(block.kernel.team() == (shape.wide ? loops::kBlockThreads
                                    : shape.fat || shape.small ? loops::kBlockFatThreads
                                                               : loops::kBlockThreads));
      CHECK(block.kernel.has_shared_buffers());
      CHECK(run(block, a, b, single.size()) == single);
    }
}

struct ConvCase {
  loops::Conv2dProgram p;
  std::vector<loops::Conv2dTile> tiles;
};

loops::Conv2dProgram conv(int64_t n, int64_t c, int64_t h, int64_t w, int64_t o, int64_t kh, int64_t kw, int64_t groups,
                          std::array<int64_t, 2> strides, std::array<int64_t, 2> dilation, std::array<int64_t, 4> pad) {
  loops::Conv2dProgram p;
  p.batch = n, p.channels = c, p.height = h, p.width = w, p.out_channels = o, p.kernel_h = kh, p.kernel_w = kw;
  p.groups = groups, p.strides = strides, p.dilation = dilation, p.pad_begin = {pad[0], pad[1]};
  p.out_h = (h + pad[0] + pad[2] - dilation[0] * (kh - 1) - 1) / strides[0] + 1;
  p.out_w = (w + pad[1] + pad[3] - dilation[1] * (kw - 1) - 1) / strides[1] + 1;
  return p;
}

}  // namespace

TEST_CASE("the tiled direct convolution computes a thread per output's bits", "[gpu][conv2d]") {
  const std::vector<loops::Conv2dProgram> cases = {
      conv(2, 8, 9, 16, 8, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),   // same padding: tiles up to 4 x 8
      conv(1, 6, 11, 13, 4, 3, 2, 2, {2, 3}, {2, 1}, {0, 1, 2, 3}),  // grouped, strided, dilated, asymmetric
      conv(1, 4, 7, 7, 4, 3, 3, 4, {1, 1}, {1, 1}, {1, 1, 1, 1}),    // depthwise: one channel a tile
      conv(3, 5, 6, 6, 6, 1, 1, 1, {2, 2}, {1, 1}, {0, 0, 0, 0}),    // 1x1, strided
      conv(1, 3, 4, 5, 2, 5, 9, 1, {1, 1}, {1, 1}, {2, 3, 2, 3}),    // a window wider than the input
  };
  std::mt19937_64 rng(17);
  for (const loops::Conv2dProgram& p : cases) {
    const int64_t I = p.channels / p.groups;
    std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
    std::vector<float> w = random_values(static_cast<size_t>(p.out_channels * I * p.kernel_h * p.kernel_w), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
    const auto [want, magnitude] = conv_sums(p, x, w);
    INFO("conv " << p.channels << "->" << p.out_channels << " groups " << p.groups << ", output " << p.out_h << "x"
                 << p.out_w);
    const std::vector<float> single = run(loops::lower_direct_conv2d(p, "conv_1x1", {1, 1}), x, w, outputs);
    check_close(single, want, magnitude, I * p.kernel_h * p.kernel_w);
    int tiled = 0;
    for (int64_t tc : {1, 2, 4})
      for (int64_t tw = 1; tw <= 8; ++tw) {
        if ((p.out_channels / p.groups) % tc != 0 || p.out_w % tw != 0 || tc * tw == 1) continue;
        INFO("tile " << tc << " x " << tw);
        CHECK(run(loops::lower_direct_conv2d(p, "conv_tiled", {tc, tw}), x, w, outputs) == single);
        ++tiled;
      }
    CHECK(tiled >= 1);

    // A warp per tile: lane l folds channels l, l + 32, ... in float32, then the lanes'
    // tree. Computed here in that order, it must give the kernel's bits.
    const std::vector<float> lanes_order = by_lanes(p, x, w);
    check_close(lanes_order, want, magnitude, I * p.kernel_h * p.kernel_w);
    for (int64_t tc : {1, 2, 4})
      for (int64_t tw : {1, 2, 3}) {
        if ((p.out_channels / p.groups) % tc != 0 || p.out_w % tw != 0) continue;
        INFO("tile " << tc << " x " << tw << " on a warp");
        CHECK(run(loops::lower_direct_conv2d(p, "conv_lanes", {tc, tw, true}), x, w, outputs) == lanes_order);
      }
  }
  {
    // more channels than lanes, so that lanes fold several (and some lanes one fewer)
    const loops::Conv2dProgram p = conv(1, 70, 5, 5, 3, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
    const size_t outputs = static_cast<size_t>(p.out_channels * p.out_h * p.out_w);
    std::vector<float> x = random_values(static_cast<size_t>(p.channels * p.height * p.width), rng);
    std::vector<float> w = random_values(static_cast<size_t>(p.out_channels * p.channels * 9), rng);
    CHECK(run(loops::lower_direct_conv2d(p, "conv_lanes", {1, 1, true}), x, w, outputs) == by_lanes(p, x, w));
  }
  // the tile conv2d_tile picks for a same-padded 3x3 convolution of c channels
  auto chosen = [&](int64_t n, int64_t c, int64_t hw, int64_t groups) {
    return loops::conv2d_tile(conv(n, c, hw, hw, c, 3, 3, groups, {1, 1}, {1, 1}, {1, 1, 1, 1}));
  };
  auto tile_of = [&](int64_t n, int64_t c, int64_t hw, int64_t groups) {
    const loops::Conv2dTile t = chosen(n, c, hw, groups);
    return std::pair{t.channels, t.width};
  };
  // batch 32: block tiles where they fit, else 4 x 7
  CHECK(chosen(32, 64, 56, 1).block);
  CHECK(chosen(32, 512, 7, 1).block);
  CHECK(chosen(32, 64, 56, 1).fat);        // 1568 tiles of 64 x 64: 8 x 8 outputs a thread
  CHECK_FALSE(chosen(32, 512, 7, 1).fat);  // 200 tiles: 4 x 4
  // the tiles in words, as `relay compile --target=cuda` reports them
  CHECK(loops::tile_words(chosen(32, 64, 56, 1)) == "64 x 64 blocks, 8 x 8 outputs a thread");
  CHECK(loops::tile_words(chosen(32, 512, 7, 1)) == "64 x 64 blocks, 4 x 4 outputs a thread");
  CHECK(loops::tile_words(chosen(1, 512, 7, 1)) == "a warp per output");
  CHECK(loops::tile_words(chosen(1, 64, 56, 1)) == "a thread per output");
  CHECK(loops::tile_words(chosen(32, 96, 28, 1)) == "4 x 7 outputs a thread");
  CHECK_FALSE(chosen(1, 64, 56, 1).block);
  CHECK_FALSE(chosen(32, 32, 28, 32).block);
  CHECK(tile_of(32, 96, 28, 1) == std::pair<int64_t, int64_t>{4, 7});  // 96 channels: no block tile
  CHECK(tile_of(1, 64, 56, 1) == std::pair<int64_t, int64_t>{1, 1});
  CHECK(tile_of(1, 512, 7, 1) == std::pair<int64_t, int64_t>{1, 1});
  // batch 1 from ResNet's second stage on (100k outputs and fewer): a warp per output;
  // not the first stage (200k outputs), nor a depthwise window
  CHECK(chosen(1, 128, 28, 1).lanes);
  CHECK(chosen(1, 512, 7, 1).lanes);
  CHECK_FALSE(chosen(1, 64, 56, 1).lanes);
  CHECK_FALSE(chosen(1, 512, 7, 512).lanes);
  CHECK_FALSE(chosen(32, 512, 7, 1).lanes);
  CHECK(tile_of(32, 32, 28, 32) == std::pair<int64_t, int64_t>{1, 7});
  // a tile that does not divide is an error
  CHECK_FALSE(loops::lower_direct_conv2d(cases[0], "bad", {3, 1}).ok());
}

TEST_CASE("the block-tiled convolution computes the direct convolution's bits", "[gpu][conv2d]") {
  // a last partial tile of positions, strides, dilation and asymmetric padding, a 1x1 and
  // a 5x5 window, two images
  const std::vector<loops::Conv2dProgram> cases = {
      conv(2, 16, 7, 9, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),
      conv(1, 32, 11, 13, 128, 1, 1, 1, {2, 2}, {1, 1}, {0, 0, 0, 0}),
      conv(1, 16, 12, 10, 64, 5, 5, 1, {2, 1}, {1, 2}, {2, 1, 3, 0}),
      conv(2, 3, 15, 15, 64, 7, 7, 1, {2, 2}, {1, 1}, {3, 3, 3, 3}),  // 147 terms: a partial last slice
      conv(3, 8, 9, 9, 256, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),   // wide: 2 x 2 blocks of 128, the last partial
  };
  std::mt19937_64 rng(31);
  for (const loops::Conv2dProgram& p : cases) {
    INFO("conv " << p.channels << "->" << p.out_channels << " " << p.kernel_h << "x" << p.kernel_w << ", output "
                 << p.out_h << "x" << p.out_w);
    REQUIRE(loops::block_conv2d_fits(p));
    std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
    std::vector<float> w = random_values(static_cast<size_t>(p.out_channels * p.channels * p.kernel_h * p.kernel_w), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
    check_block_tiles(
        [&](bool fat, bool wide, bool small, bool ahead) {
          return loops::lower_direct_conv2d(p, "conv_block", {1, 1, false, true, false, fat, wide, ahead, small});
        },
        x, w, run(loops::lower_direct_conv2d(p, "conv_1x1", {1, 1}), x, w, outputs), p.out_channels % 128 == 0);
  }
  // one group, output channels a multiple of 64
  CHECK_FALSE(loops::block_conv2d_fits(conv(1, 16, 8, 8, 32, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})));
  CHECK_FALSE(loops::block_conv2d_fits(conv(1, 64, 8, 8, 64, 3, 3, 2, {1, 1}, {1, 1}, {1, 1, 1, 1})));
  CHECK_FALSE(loops::lower_direct_conv2d(conv(1, 16, 8, 8, 32, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}), "bad",
                                         {1, 1, false, true})
                  .ok());
}

TEST_CASE("the tiled matrix product computes a thread per output's bits", "[gpu][matmul]") {
  const std::vector<loops::MatmulProgram> cases = {product(1, 1, 1, 8, 12, 33), product(3, 3, 1, 4, 6, 5),
                                                   product(2, 1, 2, 6, 8, 17), product(1, 1, 1, 1, 10, 64), product(1, 1, 1, 2, 3, 100),
                                                   product(2, 2, 2, 5, 7, 3)};
  std::mt19937_64 rng(23);
  for (const loops::MatmulProgram& p : cases) {
    std::vector<float> a = random_values(static_cast<size_t>(p.a_batch * p.m * p.k), rng);
    std::vector<float> b = random_values(static_cast<size_t>(p.b_batch * p.n * p.k), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.m * p.n);
    std::vector<double> want(outputs, 0), magnitude(outputs, 0);
    for (int64_t bi = 0; bi < p.batch; ++bi)
      for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j)
          for (int64_t x = 0; x < p.k; ++x) {
            const double term = static_cast<double>(a[static_cast<size_t>(((p.a_batch > 1 ? bi : 0) * p.m + i) * p.k + x)]) *
                                b[static_cast<size_t>(((p.b_batch > 1 ? bi : 0) * p.n + j) * p.k + x)];
            want[static_cast<size_t>((bi * p.m + i) * p.n + j)] += term;
            magnitude[static_cast<size_t>((bi * p.m + i) * p.n + j)] += std::fabs(term);
          }
    INFO("product " << p.batch << " x " << p.m << " x " << p.n << " x " << p.k);
    const std::vector<float> single = run(loops::lower_tiled_matmul(p, "mm_1x1", {1, 1}), a, b, outputs);
    check_close(single, want, magnitude, p.k);
    for (int64_t tm : {1, 2, 4})
      for (int64_t tn : {1, 2, 4}) {
        if (p.m % tm != 0 || p.n % tn != 0) {
          CHECK_FALSE(loops::lower_tiled_matmul(p, "mm_bad", {tm, tn}).ok());
          continue;
        }
        INFO("tile " << tm << " x " << tn);
        CHECK(run(loops::lower_tiled_matmul(p, "mm_tiled", {tm, tn}), a, b, outputs) == single);
      }
    // a warp per tile: lane l folds k = l, l + 32, ..., then the lanes' tree
    std::vector<float> lanes_order(outputs);
    for (int64_t bi = 0; bi < p.batch; ++bi)
      for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j) {
          std::array<float, 32> partial{};
          for (int64_t x = 0; x < p.k; ++x)
            partial[static_cast<size_t>(x % 32)] =
                std::fma(a[static_cast<size_t>(((p.a_batch > 1 ? bi : 0) * p.m + i) * p.k + x)],
                         b[static_cast<size_t>(((p.b_batch > 1 ? bi : 0) * p.n + j) * p.k + x)], partial[static_cast<size_t>(x % 32)]);
          lanes_order[static_cast<size_t>((bi * p.m + i) * p.n + j)] = lane_tree(partial);
        }
    check_close(lanes_order, want, magnitude, p.k);
    for (int64_t tm : {1, 2})
      for (int64_t tn : {1, 2}) {
        if (p.m % tm != 0 || p.n % tn != 0) continue;
        INFO("tile " << tm << " x " << tn << " on a warp");
        CHECK(run(loops::lower_tiled_matmul(p, "mm_lanes", {tm, tn, true}), a, b, outputs) == lanes_order);
      }
  }
  // large products that block tiles divide take them, others 4 x 4 tiles; a batch-1 row a
  // warp per output, unless shallow
  CHECK(loops::matmul_tile(product(1, 1, 1, 4096, 4096, 4096)).block);
  CHECK(loops::matmul_tile(product(16, 16, 16, 512, 512, 512)).block);
  CHECK_FALSE(loops::matmul_tile(product(1, 1, 1, 4096, 4096, 4096)).lanes);
  CHECK_FALSE(loops::matmul_tile(product(1, 1, 1, 4000, 4096, 4096)).block);
  CHECK(loops::matmul_tile(product(1, 1, 1, 4000, 4096, 4096)).m == 4);
  CHECK(loops::matmul_tile(product(1, 1, 1, 4000, 4096, 4096)).n == 4);
  CHECK(loops::matmul_tile(product(1, 1, 1, 4096, 4096, 4100)).block);  // k need not divide
  CHECK(loops::matmul_tile(product(1, 1, 1, 1, 4096, 4096)).n == 1);
  CHECK(loops::matmul_tile(product(1, 1, 1, 1, 4096, 4096)).lanes);
  CHECK_FALSE(loops::matmul_tile(product(1, 1, 1, 1, 4096, 32)).lanes);
}

TEST_CASE("the block-tiled matrix product computes a thread per output's bits", "[gpu][matmul]") {
  // one block and several, a broadcast batch of each side, one slice and several
  std::mt19937_64 rng(29);
  for (const loops::MatmulProgram& p : {product(1, 1, 1, 64, 64, 16), product(1, 1, 1, 128, 192, 48),
                                        product(2, 2, 1, 64, 128, 32), product(3, 1, 3, 128, 64, 16),
                                        product(1, 1, 1, 64, 64, 37),     // a partial last slice
                                        product(1, 1, 1, 128, 256, 48),   // wide: 1 x 2 blocks of 128
                                        product(2, 2, 1, 128, 128, 37)}) {
    INFO("product " << p.batch << " x " << p.m << " x " << p.n << " x " << p.k);
    std::vector<float> a = random_values(static_cast<size_t>(p.a_batch * p.m * p.k), rng);
    std::vector<float> b = random_values(static_cast<size_t>(p.b_batch * p.n * p.k), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.m * p.n);
    check_block_tiles(
        [&](bool fat, bool wide, bool small, bool ahead) {
          return loops::lower_tiled_matmul(p, "mm_block", {1, 1, false, true, false, fat, wide, ahead, small});
        },
        a, b, run(loops::lower_tiled_matmul(p, "mm_1x1", {1, 1}), a, b, outputs), p.m % 128 == 0 && p.n % 128 == 0);
  }
  // 8 x 8 a thread from kBlockFatMinTiles tiles on
  CHECK(loops::matmul_tile(product(1, 1, 1, 2048, 2048, 64)).fat);        // 1024 tiles
  CHECK_FALSE(loops::matmul_tile(product(1, 1, 1, 2048, 1024, 64)).fat);  // 512
  CHECK(loops::matmul_tile(product(16, 16, 16, 512, 512, 512)).fat);      // 16 x 64
  // a block tile must divide m and n
  CHECK_FALSE(loops::lower_block_matmul(product(1, 1, 1, 32, 64, 16), "bad").ok());
  CHECK_FALSE(loops::lower_block_matmul(product(1, 1, 1, 64, 96, 16), "bad").ok());
  CHECK_FALSE(loops::lower_block_matmul(product(1, 1, 1, 64, 128, 16), "bad", {.block = true, .fat = true, .wide = true}).ok());  // wide: 128 | m
  CHECK(loops::tile_label(loops::MatmulTile{.block = true, .wide = true}) == "block128");
  CHECK(loops::tile_words(loops::MatmulTile{.block = true, .wide = true}) == "128 x 128 blocks, 8 x 8 outputs a thread");
  CHECK(loops::tile_label(loops::MatmulTile{.block = true, .fat = true, .prefetch = true}) == "block8p");
  CHECK(loops::tile_label(loops::MatmulTile{.block = true, .prefetch = true, .small = true}) == "block32p");
  CHECK(loops::tile_words(loops::MatmulTile{.block = true, .small = true}) == "32 x 32 blocks, 4 x 4 outputs a thread");
  // small blocks: 32 divides m and n; only where 64 x 64 blocks would be few
  CHECK(loops::lower_block_matmul(product(1, 1, 1, 32, 96, 16), "small", {.block = true, .small = true}).ok());
  CHECK_FALSE(loops::lower_block_matmul(product(1, 1, 1, 48, 96, 16), "bad", {.block = true, .small = true}).ok());
  CHECK_FALSE(loops::lower_block_matmul(product(1, 1, 1, 32, 96, 16), "bad", {.block = true, .fat = true, .small = true}).ok());
  auto has_small = [](const loops::MatmulProgram& p) {
    const auto tiles = loops::matmul_tiles(p);
    return std::any_of(tiles.begin(), tiles.end(), [](const loops::MatmulTile& t) { return t.small; });
  };
  CHECK(has_small(product(1, 1, 1, 512, 512, 64)));     // 64 blocks of 64 x 64
  CHECK_FALSE(has_small(product(1, 1, 1, 2048, 2048, 64)));  // 1024: enough
  CHECK_FALSE(has_small(product(1, 1, 1, 48, 64, 64)));     // 32 does not divide m
  CHECK(loops::tile_words(loops::MatmulTile{.block = true, .prefetch = true}) ==
        "64 x 64 blocks, 4 x 4 outputs a thread, the next slice read ahead");
  // the tensor cores' blocks do not read ahead
  loops::MatmulProgram half = product(1, 1, 1, 64, 64, 32);
  half.dtype = DataType::float_(16);
  CHECK_FALSE(loops::lower_tiled_matmul(half, "bad", {.tensor_cores = true, .prefetch = true}).ok());
}

namespace {

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

}  // namespace

TEST_CASE("float16 and bfloat16 products store their storage type, summed in float32", "[gpu][matmul]") {
  auto product = [](int64_t batch, int64_t m, int64_t n, int64_t k) { return ::product(batch, batch, batch, m, n, k); };
  std::mt19937_64 rng(37);
  for (DataType t : {DataType::float_(16), DataType{DataType::BFloat, 16, 1}}) {
    INFO(dtype_name(t));
    // a register tile, a warp per output, a block tile, tensor cores (one block, and two
    // batches of two blocks over several slices)
    for (auto [p, tile] : {std::pair{product(2, 4, 6, 40), loops::MatmulTile{2, 2}},
                           std::pair{product(1, 1, 12, 100), loops::MatmulTile{1, 1, true}},
                           std::pair{product(1, 64, 64, 32), loops::MatmulTile{1, 1, false, true}},
                           std::pair{product(1, 64, 64, 32), loops::MatmulTile{1, 1, false, false, true}},
                           std::pair{product(2, 128, 64, 96), loops::MatmulTile{1, 1, false, false, true}},
                           std::pair{product(1, 64, 128, 40), loops::MatmulTile{1, 1, false, false, true}}}) {  // a partial slice
      p.dtype = t;
      const loops::LoweredKernel lowered = loops::lower_tiled_matmul(p, "mm", tile);
      if (t.code == DataType::BFloat) check_storage_product<rt::bfloat16>(p, lowered, 0x1p-8, rng);
      else check_storage_product<rt::float16>(p, lowered, 0x1p-11, rng);
    }
  }
  // other dtypes are not lowered
  loops::MatmulProgram ints = product(1, 4, 4, 4);
  ints.dtype = DataType::int_(32);
  CHECK_FALSE(loops::lower_tiled_matmul(ints, "mm").ok());
  CHECK_FALSE(loops::matmul_supports(DataType::float_(64)));
  // tensor cores take float16/bfloat16 products that their blocks divide
  loops::MatmulProgram half = product(1, 4096, 4096, 4096);
  half.dtype = DataType::float_(16);
  CHECK(loops::matmul_tile(half).tensor_cores);
  half.k = 4080;  // a last partial slice is padded with zeros
  CHECK(loops::matmul_tile(half).tensor_cores);
  half.n = 4080;
  CHECK_FALSE(loops::matmul_tile(half).tensor_cores);
  CHECK_FALSE(loops::lower_mma_matmul(half, "bad").ok());
  CHECK_FALSE(loops::matmul_tile(product(1, 4096, 4096, 4096)).tensor_cores);  // float32
}

namespace {

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

}  // namespace

TEST_CASE("float16 and bfloat16 convolutions store their storage type, summed in float32", "[gpu][conv2d]") {
  std::mt19937_64 rng(41);
  const loops::Conv2dProgram grouped = conv(1, 6, 11, 13, 4, 3, 2, 2, {2, 3}, {2, 1}, {0, 1, 2, 3});
  const loops::Conv2dProgram deep = conv(1, 70, 5, 5, 3, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  const loops::Conv2dProgram same = conv(2, 16, 7, 9, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  const loops::Conv2dProgram stem = conv(2, 3, 15, 15, 64, 7, 7, 1, {2, 2}, {1, 1}, {3, 3, 3, 3});  // 147 terms
  const loops::Conv2dProgram wide = conv(1, 32, 11, 13, 128, 1, 1, 1, {2, 2}, {1, 1}, {0, 0, 0, 0});
  for (DataType t : {DataType::float_(16), DataType{DataType::BFloat, 16, 1}}) {
    INFO(dtype_name(t));
    // a thread per output, a register tile, a warp per output, a block tile, and tensor
    // cores: a partial last tile of positions and a partial last slice of the window
    for (auto [p, tile] : {std::pair{grouped, loops::Conv2dTile{1, 1}}, std::pair{same, loops::Conv2dTile{2, 3}},
                           std::pair{deep, loops::Conv2dTile{1, 1, true}}, std::pair{same, loops::Conv2dTile{1, 1, false, true}},
                           std::pair{same, loops::Conv2dTile{1, 1, false, false, true}},
                           std::pair{stem, loops::Conv2dTile{1, 1, false, false, true}},
                           std::pair{wide, loops::Conv2dTile{1, 1, false, false, true}}}) {
      p.dtype = t;
      INFO("conv " << p.channels << "->" << p.out_channels << " " << p.kernel_h << "x" << p.kernel_w << ", tile "
                   << tile.channels << "x" << tile.width << (tile.lanes ? " lanes" : "") << (tile.block ? " block" : "")
                   << (tile.tensor_cores ? " tensor cores" : ""));
      const loops::LoweredKernel lowered = loops::lower_direct_conv2d(p, "conv", tile);
      if (tile.tensor_cores) CHECK(lowered.kernel.team() == loops::kBlockThreads);
      if (t.code == DataType::BFloat) check_storage_conv<rt::bfloat16>(p, lowered, 0x1p-8, rng);
      else check_storage_conv<rt::float16>(p, lowered, 0x1p-11, rng);
    }
  }
  // the rule: tensor cores wherever block tiles fit, at any size; the float32 rules else
  loops::Conv2dProgram half = conv(1, 512, 7, 7, 512, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  half.dtype = DataType::float_(16);
  CHECK(loops::conv2d_tile(half).tensor_cores);
  half.dtype = DataType::float_(32);
  CHECK_FALSE(loops::conv2d_tile(half).tensor_cores);
  loops::Conv2dProgram depthwise = conv(1, 64, 7, 7, 64, 3, 3, 64, {1, 1}, {1, 1}, {1, 1, 1, 1});
  depthwise.dtype = DataType::float_(16);
  CHECK_FALSE(loops::conv2d_tile(depthwise).tensor_cores);
  CHECK(loops::lower_direct_conv2d(depthwise, "depthwise").ok());
  // tensor cores take float16/bfloat16 only; other dtypes are not lowered
  CHECK_FALSE(loops::lower_block_conv2d(same, "f32_mma", {1, 1, false, false, true}).ok());
  loops::Conv2dProgram ints = grouped;
  ints.dtype = DataType::int_(32);
  CHECK_FALSE(loops::lower_direct_conv2d(ints, "conv").ok());
}

// The candidates a measured choice picks from (conv2d_tiles, matmul_tiles; compiler/
// pipeline/tile_tuner.h): the rule's first, each once, every one lowers, and every one
// computes the product: the bits of a thread per output, or of a warp's order, or (tensor
// cores) within the storage type's bound.
TEST_CASE("every candidate tile lowers and computes the same product", "[gpu][tiles]") {
  std::mt19937_64 rng(43);
  const std::vector<loops::Conv2dProgram> convs = {
      conv(2, 16, 7, 9, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),   // block tiles fit
      conv(1, 64, 5, 8, 8, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),    // warps (64 channels), 4 x 8
      conv(1, 4, 7, 7, 4, 3, 3, 4, {1, 1}, {1, 1}, {1, 1, 1, 1}),     // depthwise: 1 x 1 and 1 x 7 only
      conv(1, 6, 11, 13, 4, 3, 2, 2, {2, 3}, {2, 1}, {0, 1, 2, 3}),   // grouped, strided, dilated
      conv(1, 8, 6, 6, 128, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),   // wide block tiles fit too
  };
  for (const loops::Conv2dProgram& p : convs) {
    INFO("conv " << p.channels << "->" << p.out_channels << " groups " << p.groups << ", output " << p.out_h << "x"
                 << p.out_w);
    const std::vector<loops::Conv2dTile> tiles = loops::conv2d_tiles(p);
    REQUIRE(!tiles.empty());
    CHECK(tiles[0] == loops::conv2d_tile(p));
    std::vector<std::string> labels;
    for (const auto& t : tiles) labels.push_back(loops::tile_label(t));
    CHECK(std::set<std::string>(labels.begin(), labels.end()).size() == labels.size());
    CHECK(std::find(labels.begin(), labels.end(), "t1x1") != labels.end());
    CHECK((std::find(labels.begin(), labels.end(), "block8") != labels.end()) == loops::block_conv2d_fits(p));
    CHECK((std::find(labels.begin(), labels.end(), "block8p") != labels.end()) == loops::block_conv2d_fits(p));
    CHECK((std::find(labels.begin(), labels.end(), "block32p") != labels.end()) ==
          loops::block_conv2d_fits(p, loops::kSmallBlockTile));  // every shape here is small enough
    CHECK((std::find(labels.begin(), labels.end(), "block128") != labels.end()) == (p.out_channels % 128 == 0));
    CHECK(std::find(labels.begin(), labels.end(), "mma") == labels.end());  // float32
    std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
    std::vector<float> w =
        random_values(static_cast<size_t>(p.out_channels * (p.channels / p.groups) * p.kernel_h * p.kernel_w), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
    const std::vector<float> single = run(loops::lower_direct_conv2d(p, "conv_1x1", {1, 1}), x, w, outputs);
    const std::vector<float> lanes_order = by_lanes(p, x, w);
    for (const loops::Conv2dTile& tile : tiles) {
      INFO("tile " << loops::tile_label(tile));
      const int64_t window = p.channels * p.kernel_h * p.kernel_w;
      CHECK(run(loops::lower_direct_conv2d(p, "conv", tile), x, w, outputs) ==
            (tile.lanes         ? lanes_order
             : tile.splits > 1 ? conv_by_parts(p, x, w, tile.splits, span_of(window, tile.splits))
                               : single));
    }
  }
  CHECK(loops::conv2d_tiles(convs[1]).size() >= 6);  // 1x1, 2x2, 4x4, 4x8, two warps
  // float16: the tensor cores too
  loops::Conv2dProgram half = convs[0];
  half.dtype = DataType::float_(16);
  const std::vector<loops::Conv2dTile> half_tiles = loops::conv2d_tiles(half);
  CHECK(half_tiles[0].tensor_cores);
  for (const loops::Conv2dTile& tile : half_tiles) {
    INFO("float16 tile " << loops::tile_label(tile));
    check_storage_conv<rt::float16>(half, loops::lower_direct_conv2d(half, "conv", tile), 0x1p-11, rng);
  }

  for (const loops::MatmulProgram& p : {product(1, 1, 1, 64, 128, 40), product(2, 2, 1, 4, 12, 64),
                                        product(1, 1, 1, 3, 5, 7)}) {
    INFO("product " << p.batch << " x " << p.m << " x " << p.n << " x " << p.k);
    const std::vector<loops::MatmulTile> tiles = loops::matmul_tiles(p);
    CHECK(tiles[0] == loops::matmul_tile(p));
    std::vector<float> a = random_values(static_cast<size_t>(p.a_batch * p.m * p.k), rng);
    std::vector<float> b = random_values(static_cast<size_t>(p.b_batch * p.n * p.k), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.m * p.n);
    const std::vector<float> single = run(loops::lower_tiled_matmul(p, "mm_1x1", {1, 1}), a, b, outputs);
    for (const loops::MatmulTile& tile : tiles) {
      INFO("tile " << loops::tile_label(tile));
      const std::vector<float> got = run(loops::lower_tiled_matmul(p, "mm", tile), a, b, outputs);
      if (tile.splits > 1) {
        CHECK(got == product_by_parts(p, a, b, tile.splits, span_of(p.k, tile.splits)));
        continue;
      }
      if (!tile.lanes) {
        CHECK(got == single);
        continue;
      }
      // a warp's order: both within K roundings of a sum of |terms| of at most K
      for (size_t i = 0; i < outputs; ++i)
        REQUIRE(std::fabs(got[i] - single[i]) <= 2.0 * static_cast<double>(p.k * p.k) * 0x1p-23);
    }
  }
  CHECK(loops::matmul_tiles(product(1, 1, 1, 64, 128, 40)).size() == 11);  // 1x1 2x2 4x4, 2 warps, 2 blocks, 2 read ahead, 2 small
  {
    const auto tiles = loops::matmul_tiles(product(1, 1, 1, 128, 256, 40));  // and the wide block
    CHECK(std::any_of(tiles.begin(), tiles.end(), [](const loops::MatmulTile& t) { return t.wide && !t.prefetch; }));
  }
  CHECK(loops::matmul_tiles(product(1, 1, 1, 3, 5, 7)).size() == 1);      // only a thread per output
}

TEST_CASE("block tiles with k split fold each part, then add the parts in order", "[gpu][tiles]") {
  // how many parts: enough blocks for a large GPU, parts of at least 4 slices, at most 16
  CHECK(loops::split_k_parts(8, 4608) == 16);   // ResNet-18's last stage at batch 1: 288 slices
  CHECK(loops::split_k_parts(49, 576) == 6);    // its first: 36 slices, 6 wanted, 6 of 6
  CHECK(loops::split_k_parts(16, 2304) == 16);  // 17 wanted, 16 at most
  CHECK(loops::split_k_parts(1, 100) == 1);     // 7 slices: parts of 4 would leave one
  CHECK(loops::split_k_parts(1, 128) == 2);
  CHECK(loops::split_k_parts(264, 4608) == 1);  // blocks enough
  CHECK(loops::split_k_parts(100, 1 << 20) == 3);
  for (int64_t blocks = 1; blocks < 300; blocks += 7)
    for (int64_t depth : {16, 63, 64, 65, 200, 576, 1000, 4608}) {
      const int64_t parts = loops::split_k_parts(blocks, depth), span = span_of(depth, parts);
      const int64_t slices = (depth + loops::kBlockDepth - 1) / loops::kBlockDepth;
      INFO(blocks << " blocks, depth " << depth << ": " << parts << " parts of " << span << " slices");
      CHECK(parts >= 1);
      CHECK(parts <= loops::kSplitMaxParts);
      CHECK((parts - 1) * span < slices);  // the last part is not empty
      CHECK(parts * span >= slices);       // and every slice is some part's
      if (parts > 1) CHECK(span * loops::kBlockDepth >= loops::kSplitMinTerms);
    }

  std::mt19937_64 rng(47);
  // a convolution whose window (288 terms: 18 slices) splits unevenly; a last partial tile of columns
  const loops::Conv2dProgram p = conv(2, 32, 5, 6, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
  std::vector<float> w = random_values(static_cast<size_t>(p.out_channels * p.channels * 9), rng);
  const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
  const std::vector<float> single = run(loops::lower_direct_conv2d(p, "conv_1x1", {1, 1}), x, w, outputs);
  for (int64_t parts : {2, 3, 4, 5, 18})
    for (bool small : {false, true})
      for (bool ahead : {false, true}) {
        const loops::Conv2dTile tile{.block = true, .prefetch = ahead, .small = small, .splits = parts};
        INFO("tile " << loops::tile_label(tile));
        const loops::LoweredKernel k = loops::lower_direct_conv2d(p, "conv", tile);
        REQUIRE(k.ok());
        REQUIRE(k.finish);
        const int64_t side = small ? loops::kSmallBlockTile : loops::kBlockTile;
        CHECK(k.kernel.parallel_extent() == parts * (64 / side) * ((60 + side - 1) / side));
        CHECK(k.kernel.buffer(k.output_buffer).extent() == parts * static_cast<int64_t>(outputs));
        CHECK(k.finish->parallel_extent() == static_cast<int64_t>(outputs));
        CHECK(k.finish->buffer(1).shape == std::vector<int64_t>{2, 64, 5, 6});
        const std::vector<float> got = run(k, x, w, outputs);
        CHECK(got == conv_by_parts(p, x, w, parts, span_of(288, parts)));
        // another order of the same terms: within a few roundings of the single fold
        for (size_t i = 0; i < outputs; ++i) REQUIRE(std::fabs(got[i] - single[i]) <= 288 * 16 * 0x1p-23);
      }
  // parts that leave the last one empty and 0 parts do not lower
  CHECK_FALSE(loops::lower_direct_conv2d(p, "conv", {.block = true, .splits = 17}).ok());  // spans of 2: 16 parts
  CHECK_FALSE(loops::lower_direct_conv2d(p, "conv", {.block = true, .splits = 0}).ok());
  // the tensor cores split too, in their 32-deep slices (288 terms: 9 slices)
  loops::Conv2dProgram half = p;
  half.dtype = DataType::float_(16);
  for (int64_t parts : {2, 3, 5, 9}) {
    INFO("tensor cores, k split in " << parts);
    const loops::LoweredKernel k = loops::lower_direct_conv2d(half, "conv", {.tensor_cores = true, .splits = parts});
    REQUIRE(k.finish);
    CHECK(k.kernel.parallel_extent() == parts * 1 * 1);  // 64 output channels x 60 positions: one block
    check_storage_conv<rt::float16>(half, k, 0x1p-11, rng);
  }
  CHECK_FALSE(loops::lower_direct_conv2d(half, "conv", {.tensor_cores = true, .splits = 6}).ok());  // spans of 2: 5 parts
  CHECK(loops::tile_label(loops::Conv2dTile{.tensor_cores = true, .splits = 4}) == "mmas4");
  CHECK(loops::tile_words(loops::Conv2dTile{.tensor_cores = true, .splits = 4}) ==
        "tensor cores, 64 x 64 blocks, k split in 4");
  CHECK(loops::tile_label(loops::Conv2dTile{.block = true, .prefetch = true, .small = true, .splits = 8}) == "block32ps8");
  CHECK(loops::tile_words(loops::MatmulTile{.block = true, .splits = 8}) ==
        "64 x 64 blocks, 4 x 4 outputs a thread, k split in 8");

  // products: a broadcast batch, a product of one block
  for (const loops::MatmulProgram& q : {product(2, 1, 2, 64, 128, 200), product(1, 1, 1, 32, 32, 1000)}) {
    std::vector<float> a = random_values(static_cast<size_t>(q.a_batch * q.m * q.k), rng);
    std::vector<float> b = random_values(static_cast<size_t>(q.b_batch * q.n * q.k), rng);
    const size_t n = static_cast<size_t>(q.batch * q.m * q.n);
    const std::vector<loops::MatmulTile> tiles = loops::matmul_tiles(q);
    size_t split = 0;
    for (const loops::MatmulTile& tile : tiles) {
      if (tile.splits < 2) continue;
      ++split;
      INFO("product " << q.m << " x " << q.n << " x " << q.k << ", tile " << loops::tile_label(tile));
      CHECK(run(loops::lower_tiled_matmul(q, "mm", tile), a, b, n) ==
            product_by_parts(q, a, b, tile.splits, span_of(q.k, tile.splits)));
    }
    CHECK(split == (q.m % 64 == 0 ? 4u : 2u));  // 64 x 64 and 32 x 32 blocks, plain and reading ahead
  }
}
