// Winograd's F(2 x 2, 3 x 3) convolution kernel (loops/conv2d.h, lower_winograd_conv2d)
// run on the CPU JIT against the float64 direct sum, within a bound from the error
// analysis of its transforms (not the direct convolution's bits: it adds other numbers);
// which convolutions it takes; and its GPU shape: a block of 256 threads through shared
// memory, the accumulators in registers, through ptxas for every targeted architecture.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "compiler/llvm/nvptx.h"
#include "compiler/loops/conv2d.h"
#include "interpreter/runtime/float16.h"
#include "tests/compiler_jit/gpu_tile_support.h"
#include "tests/compiler_jit/verified_kernels.h"
#include "tests/support/ptxas.h"

using namespace relay;
using namespace relay::gpu_tile_test;
using relay::test::verified_kernels;

namespace {

using Matrix4 = std::array<std::array<double, 4>, 4>;

// B^T, G and A^T of F(2 x 2, 3 x 3), taken entry-wise in absolute value: a transform of
// the magnitudes bounds what each value the kernel computes can have lost to rounding.
constexpr double kBt[4][4] = {{1, 0, 1, 0}, {0, 1, 1, 0}, {0, 1, 1, 0}, {0, 1, 0, 1}};
constexpr double kG[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0, 0, 1}};
constexpr double kAt[2][4] = {{1, 1, 1, 0}, {0, 1, 1, 1}};

// For every output: the sum over input channels and the 16 terms of |A^T| (|G||g||G^T| .*
// |B^T||d||B|) |A|, what the kernel's float32 roundings are relative to. Their error is at
// most a rounding (2^-24) a step of the longest chain, the channels' sum plus the
// transforms' few additions, times this (the usual bound of a sum of products).
std::vector<double> winograd_magnitudes(const loops::Conv2dProgram& p, const std::vector<float>& x,
                                        const std::vector<float>& w) {
  const int64_t C = p.channels, H = p.height, W = p.width, O = p.out_channels, OH = p.out_h, OW = p.out_w;
  std::vector<double> magnitude(static_cast<size_t>(p.batch * O * OH * OW), 0);
  for (int64_t n = 0; n < p.batch; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t oh0 = 0; oh0 < OH; oh0 += 2)
        for (int64_t ow0 = 0; ow0 < OW; ow0 += 2) {
          Matrix4 sum{};  // over channels: |U| .* |V|
          for (int64_t c = 0; c < C; ++c) {
            double d[4][4], g[3][3];
            for (int64_t a = 0; a < 4; ++a)
              for (int64_t b = 0; b < 4; ++b) {
                const int64_t ih = oh0 - p.pad_begin[0] + a, iw = ow0 - p.pad_begin[1] + b;
                const bool inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
                d[a][b] = inside ? std::fabs(x[static_cast<size_t>(((n * C + c) * H + ih) * W + iw)]) : 0;
              }
            for (int64_t a = 0; a < 3; ++a)
              for (int64_t b = 0; b < 3; ++b) g[a][b] = std::fabs(w[static_cast<size_t>(((o * C + c) * 3 + a) * 3 + b)]);
            for (int i = 0; i < 4; ++i)
              for (int j = 0; j < 4; ++j) {
                double u = 0, v = 0;
                for (int a = 0; a < 3; ++a)
                  for (int b = 0; b < 3; ++b) u += kG[i][a] * g[a][b] * kG[j][b];
                for (int a = 0; a < 4; ++a)
                  for (int b = 0; b < 4; ++b) v += kBt[i][a] * d[a][b] * kBt[j][b];
                sum[i][j] += u * v;
              }
          }
          for (int a = 0; a < 2 && oh0 + a < OH; ++a)
            for (int b = 0; b < 2 && ow0 + b < OW; ++b) {
              double m = 0;
              for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) m += kAt[a][i] * sum[i][j] * kAt[b][j];
              magnitude[static_cast<size_t>(((n * O + o) * OH + oh0 + a) * OW + ow0 + b)] = m;
            }
        }
  return magnitude;
}

// The kernel's outputs (storage type S: float, float16 or bfloat16) against the float64
// direct sum: within (C + 16) float32 roundings of winograd_magnitudes, plus the storage
// type's own rounding of the result (`half_ulp` relative); with the input channels split
// in `splits` parts, a rounding a part more. Returns the largest error seen as a fraction
// of its bound.
template <class S>
double check_winograd(const loops::Conv2dProgram& p, double half_ulp, std::mt19937_64& rng, int64_t splits = 1) {
  const loops::LoweredKernel lowered = loops::lower_winograd_conv2d(p, "conv_wino", splits);
  REQUIRE(verified_kernels({&lowered, 1}).size() == (splits > 1 ? 2u : 1u));  // a split's finish too
  std::vector<float> x = random_values(static_cast<size_t>(p.batch * p.channels * p.height * p.width), rng);
  std::vector<float> w = random_values(static_cast<size_t>(p.out_channels * p.channels * 9), rng);
  std::vector<S> xs(x.begin(), x.end()), ws(w.begin(), w.end());
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(xs[i]);  // the values the kernel reads
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(ws[i]);
  const auto [want, direct_magnitude] = conv_sums(p, x, w);
  const std::vector<double> magnitude = winograd_magnitudes(p, x, w);
  std::vector<S> out(want.size(), S(std::nanf("")));  // every output must be written
  run_on(lowered, xs.data(), ws.data(), out.data());
  const double roundings = static_cast<double>(p.channels + 16 + splits) * 0x1p-24;
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double got = static_cast<float>(out[i]);
    const double bound = roundings * magnitude[i] + half_ulp * std::fabs(want[i]) + 1e-30;
    INFO("output " << i << ": want " << want[i] << ", got " << got << ", bound " << bound);
    REQUIRE(std::fabs(got - want[i]) <= bound);
    CHECK(magnitude[i] >= direct_magnitude[i] * (1 - 1e-12));  // the bound is not below the direct one's
    worst = std::max(worst, std::fabs(got - want[i]) / bound);
  }
  return worst;
}

}  // namespace

TEST_CASE("Winograd's F(2x2, 3x3) convolution matches the direct sum within its rounding", "[gpu][conv2d][winograd]") {
  std::mt19937_64 rng(53);
  const std::vector<loops::Conv2dProgram> shapes = {
      // odd output height and width (last tiles of one row, one column), 40 tiles: a partial block
      conv(2, 16, 7, 9, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),
      // no padding; 13 channels: a partial last slice of 8
      conv(1, 13, 10, 12, 32, 3, 3, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}),
      // asymmetric padding, three blocks of output channels, images sharing a block of tiles
      conv(3, 8, 6, 6, 96, 3, 3, 1, {1, 1}, {1, 1}, {2, 1, 0, 1}),
      // many slices, one tile row, more padding than input on one side
      conv(1, 70, 1, 5, 32, 3, 3, 1, {1, 1}, {1, 1}, {2, 1, 1, 1}),
      // exactly 32 tiles (no partial block), a 2 x 2 output a tile
      conv(2, 8, 8, 8, 32, 3, 3, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}),
  };
  double worst = 0;
  for (const loops::Conv2dProgram& p : shapes) {
    INFO("conv " << p.batch << " x " << p.channels << " x " << p.height << " x " << p.width << " -> " << p.out_channels
                 << ", output " << p.out_h << " x " << p.out_w);
    REQUIRE(loops::winograd_conv2d_fits(p));
    worst = std::max(worst, check_winograd<float>(p, 0, rng));
  }
  // the bound is not vacuous: the errors come within a few hundred times of it, not 1e6
  CHECK(worst > 1e-4);
  CHECK(worst < 1);

  // float16 and bfloat16: read as float32, each output rounded once
  loops::Conv2dProgram half = shapes[0];
  half.dtype = DataType::float_(16);
  check_winograd<rt::float16>(half, 0x1p-11, rng);
  half.dtype = DataType{DataType::BFloat, 16, 1};
  check_winograd<rt::bfloat16>(half, 0x1p-8, rng);
}

TEST_CASE("Winograd's kernel with its input channels split adds the parts' outputs", "[gpu][conv2d][winograd]") {
  std::mt19937_64 rng(59);
  // one block (9 tiles, 32 channels) over 197 channels: 25 slices, the last of 5 channels,
  // in 3 parts of 9, 9 and 7 slices
  const loops::Conv2dProgram p = conv(1, 197, 5, 5, 32, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  CHECK(loops::winograd_split_parts(p) == 3);
  check_winograd<float>(p, 0, rng, 3);
  check_winograd<float>(p, 0, rng, 2);  // 13 and 12 slices
  loops::Conv2dProgram half = p;
  half.dtype = DataType::float_(16);
  check_winograd<rt::float16>(half, 0x1p-11, rng, 3);
  // a part left empty is refused: 25 slices in parts of 2 make 13 parts, not 14
  CHECK(loops::lower_winograd_conv2d(p, "bad", 14).error.find("empty") != std::string::npos);

  // ResNet-18 at batch 1: its last stages split (16, 16 and 28 blocks), its first does not
  // (50 blocks over only 64 channels); at batch 32 only the last stage's 256 blocks do
  CHECK(loops::winograd_split_parts(conv(1, 512, 7, 7, 512, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})) == 8);
  CHECK(loops::winograd_split_parts(conv(1, 256, 14, 14, 256, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})) == 4);
  CHECK(loops::winograd_split_parts(conv(1, 128, 28, 28, 128, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})) == 2);
  CHECK(loops::winograd_split_parts(conv(1, 64, 56, 56, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})) == 1);
  CHECK(loops::winograd_split_parts(conv(32, 512, 7, 7, 512, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})) == 2);
  CHECK(loops::winograd_split_parts(conv(32, 256, 14, 14, 256, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1})) == 1);
  const std::vector<loops::Conv2dTile> tiles =
      loops::conv2d_tiles(conv(1, 512, 7, 7, 512, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}));
  CHECK(std::count(tiles.begin(), tiles.end(), loops::Conv2dTile{.splits = 8, .winograd = true}) == 1);
  CHECK(loops::tile_label(loops::Conv2dTile{.splits = 8, .winograd = true}) == "winos8");
  CHECK(loops::tile_words(loops::Conv2dTile{.splits = 8, .winograd = true}).ends_with("input channels split in 8"));
}

TEST_CASE("Winograd's kernel takes 3 x 3, stride-1 convolutions of one group into multiples of 32 channels",
          "[gpu][conv2d][winograd]") {
  const loops::Conv2dProgram resnet = conv(32, 64, 56, 56, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  CHECK(loops::winograd_conv2d_fits(resnet));
  const std::vector<loops::Conv2dTile> tiles = loops::conv2d_tiles(resnet);
  CHECK(std::count(tiles.begin(), tiles.end(), loops::Conv2dTile{.winograd = true}) == 1);
  CHECK(tiles[0] == loops::conv2d_tile(resnet));  // a candidate, not the rule's pick (not yet timed)
  CHECK_FALSE(tiles[0].winograd);
  CHECK(loops::tile_label(loops::Conv2dTile{.winograd = true}) == "wino");
  CHECK(loops::tile_words(loops::Conv2dTile{.winograd = true}).find("Winograd") != std::string::npos);

  const loops::Conv2dProgram others[] = {
      conv(1, 64, 56, 56, 64, 3, 3, 1, {2, 2}, {1, 1}, {1, 1, 1, 1}),   // strided
      conv(1, 64, 56, 56, 64, 3, 3, 1, {1, 1}, {2, 2}, {2, 2, 2, 2}),   // dilated
      conv(1, 64, 56, 56, 64, 3, 3, 64, {1, 1}, {1, 1}, {1, 1, 1, 1}),  // depthwise
      conv(1, 64, 56, 56, 64, 1, 1, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}),   // 1 x 1
      conv(1, 64, 56, 56, 48, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}),   // 48 output channels
  };
  for (const loops::Conv2dProgram& p : others) {
    CHECK_FALSE(loops::winograd_conv2d_fits(p));
    const std::vector<loops::Conv2dTile> t = loops::conv2d_tiles(p);
    CHECK(std::find(t.begin(), t.end(), loops::Conv2dTile{.winograd = true}) == t.end());
    const loops::LoweredKernel bad = loops::lower_winograd_conv2d(p, "bad");
    CHECK(bad.error.find("Winograd") != std::string::npos);
  }
  loops::Conv2dProgram ints = resnet;
  ints.dtype = DataType::int_(32);
  CHECK_FALSE(loops::winograd_conv2d_fits(ints));
}

TEST_CASE("Winograd's kernel is a block of 256 threads through shared memory, without spills", "[gpu][ptx][winograd]") {
  // ResNet-18's first stage at batch 32 and its last at batch 1
  const loops::Conv2dProgram first = conv(32, 64, 56, 56, 64, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  const loops::Conv2dProgram last = conv(1, 512, 7, 7, 512, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1});
  loops::Conv2dProgram half = first;
  half.dtype = DataType::float_(16);
  const loops::LoweredKernel lowered[] = {
      loops::lower_direct_conv2d(first, "conv_wino", {.winograd = true}),
      loops::lower_direct_conv2d(last, "conv_wino_last", {.winograd = true}),
      loops::lower_direct_conv2d(half, "f16_conv_wino", {.winograd = true}),
      loops::lower_direct_conv2d(last, "conv_winos8", {.splits = 8, .winograd = true})};  // and its finish
  REQUIRE(lowered[3].finish);
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);  // the finish last
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  INFO(m.ptx);
  REQUIRE(m.kernels.size() == 5);
  for (size_t i = 0; i < 4; ++i) {
    const compiler::gpu::PtxKernelInfo& k = m.kernels[i];
    CHECK(k.whole_block);
    CHECK(k.team == 256);
    CHECK(compiler::gpu::launch_for(k, 132).block == 256);
  }
  // blocks: 64 / 32 channel blocks x 32 x 28 x 28 tiles / 32; 16 x ceil(16 / 32), and
  // that for each of 8 parts; the finish a thread per output
  CHECK(m.kernels[0].grid == 2 * (32 * 28 * 28 / 32));
  CHECK(m.kernels[1].grid == 16 * 1);
  CHECK(m.kernels[3].grid == 16 * 1 * 8);
  CHECK_FALSE(m.kernels[4].whole_block);
  CHECK(m.kernels[4].iterations == 512 * 49);
  CHECK(m.ptx.find(".shared .align") != std::string::npos);
  CHECK(m.ptx.find("bar.sync") != std::string::npos);
  CHECK(m.ptx.find("fma.rn.f32") != std::string::npos);
  CHECK(m.ptx.find("ld.shared.v4.f32") != std::string::npos);  // a step's 8 u and 8 v in four reads
  CHECK(m.ptx.find(".local") == std::string::npos);  // 64 accumulators a thread, in registers
  const std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) {
    WARN("no ptxas (CUDA toolkit) on this machine: the PTX is generated but not assembled");
    return;
  }
  for (int sm : compiler::gpu::kTargetedArchitectures) {
    const compiler::gpu::PtxModule mm = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{sm});
    std::string report;
    REQUIRE(testing::ptxas_errors(ptxas, mm.ptx, "sm_" + std::to_string(sm), &report) == "");
    INFO(report);
    CHECK(testing::functions_without_spills(report) == 5);
  }
}
