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
#include "tests/compiler_jit/gpu_tile_support.h"
#include "tests/gpu/tile_agreement.h"

namespace {

using namespace relay;
using namespace relay::gpu_tile_test;

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

// What a warp per output computes (loops/conv2d.h, lanes): lane l folds the channels
// l, l + 32, ... of the window with fused multiply-adds, then the lanes' tree.
std::vector<float> by_lanes(const loops::Conv2dProgram& p, const std::vector<float>& x, const std::vector<float>& w) {
  std::vector<std::array<float, 32>> partial(static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w));
  for_each_term(p, x, w, [&](size_t at, int64_t c, int64_t, float xv, float wv) {
    float& lane = partial[at][static_cast<size_t>(c % 32)];
    lane = std::fma(xv, wv, lane);
  });
  std::vector<float> out;
  for (const auto& lanes : partial) out.push_back(lane_tree(lanes));
  return out;
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

TEST_CASE("float16 and bfloat16 products store their storage type, summed in float32", "[gpu][matmul]") {
  auto product = [](int64_t batch, int64_t m, int64_t n, int64_t k) { return gpu_tile_test::product(batch, batch, batch, m, n, k); };
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
    CHECK((std::find(labels.begin(), labels.end(), "wino") != labels.end()) == loops::winograd_conv2d_fits(p));
    std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
    std::vector<float> w =
        random_values(static_cast<size_t>(p.out_channels * (p.channels / p.groups) * p.kernel_h * p.kernel_w), rng);
    const size_t outputs = static_cast<size_t>(p.batch * p.out_channels * p.out_h * p.out_w);
    const std::vector<float> single = run(loops::lower_direct_conv2d(p, "conv_1x1", {1, 1}), x, w, outputs);
    const std::vector<float> lanes_order = by_lanes(p, x, w);
    for (const loops::Conv2dTile& tile : tiles) {
      INFO("tile " << loops::tile_label(tile));
      const std::vector<float> got = run(loops::lower_direct_conv2d(p, "conv", tile), x, w, outputs);
      if (tile.winograd)  // other sums (gpu_winograd_test.cpp bounds them): the GPU check's agreement
        CHECK(gpu_check::agree("float32", reinterpret_cast<const char*>(single.data()),
                               reinterpret_cast<const char*>(got.data()), got.size() * sizeof(float)) == "");
      else
        CHECK(got == (tile.lanes ? lanes_order : tile.splits > 1 ? conv_by_parts(p, x, w, tile.splits) : single));
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
        CHECK(got == product_by_parts(p, a, b, tile.splits));
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

