// Block tiles with k split in parts (loops/block_gemm.h, BlockGemm::splits) run on the CPU
// JIT, their finish after them: how many parts a product takes, and that every split tile
// (64 x 64 and 32 x 32 blocks, reading ahead or not, on the float32 units) computes the
// bits of its own order, each part folded from zero and the parts added in order
// (recomputed here), and the tensor cores' split within float16's rounding.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "compiler/loops/block_gemm.h"
#include "compiler/loops/conv2d.h"
#include "compiler/loops/matmul.h"
#include "interpreter/runtime/float16.h"
#include "tests/compiler_jit/gpu_tile_support.h"

using namespace relay;
using namespace relay::gpu_tile_test;

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
      const int64_t parts = loops::split_k_parts(blocks, depth), span = span_of(depth, parts) / loops::kBlockDepth;
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
        CHECK(got == conv_by_parts(p, x, w, parts));
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
            product_by_parts(q, a, b, tile.splits));
    }
    CHECK(split == (q.m % 64 == 0 ? 4u : 2u));  // 64 x 64 and 32 x 32 blocks, plain and reading ahead
  }
}
