// The GPU's softmax shape (loops/softmax.h, softmax_uses_team: a warp per row, the row in
// shared memory) run on the CPU JIT: bitwise the interpreter's reference kernel, as the
// CPU's shape is, for float32, float16 and bfloat16, softmax and log_softmax, rows from
// kSoftmaxTeamMin to kSoftmaxTeamMax elements with NaN, infinities and ordinary values;
// the divide form (a channels-last softmax) bitwise the CPU shape's; off the innermost
// axis, a thread per row along it (any number of positions after the axis), bitwise too.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "compiler/loops/softmax.h"
#include "compiler/loops/verify.h"
#include "interpreter/kernels/kernel.h"
#include "lang/ops/op_schema.h"
#include "tests/compiler_jit/support.h"

using namespace relay;
using namespace relay::test;
using relay::rt::NDArray;

namespace {

NDArray run_softmax(const loops::SoftmaxProgram& p, loops::LoopShape shape, const NDArray& x) {
  const loops::LoweredSoftmax lowered = loops::lower_softmax(p, "softmax", shape);
  INFO(lowered.error);
  REQUIRE(lowered.ok());
  CHECK(loops::verify(lowered.kernel).empty());
  const compiler::CompiledKernel k = compiler::Jit::instance().compile(lowered.kernel);
  NDArray out = NDArray::empty(x.shape(), x.dtype());
  std::vector<void*> buffers{const_cast<void*>(x.raw()), out.raw()};
  compiler::run_kernel(k, buffers.data(), nullptr);
  return out;
}

NDArray reference(const loops::SoftmaxProgram& p, const NDArray& x) {
  const std::string name = p.log ? "nn.log_softmax" : "nn.softmax";
  const OpInfo* op = find_op(name);
  AttrVal axis;
  axis.kind = AttrVal::Kind::Int;
  axis.int_value = p.axis;
  const CallAttrs attrs = CallAttrs::from_values(op->attrs, {{"axis", axis}});
  std::vector<rt::Value> args{rt::Value(x)};
  return rt::find_kernel(name)(rt::KernelCall{*op, args, attrs, nullptr}).tensor();
}

// Ordinary values in [-8, 8] (rows of real probabilities), with `edges` rows from
// random_tensor (NaN, infinities, extremes) in front.
NDArray inputs(DataType t, const rt::Shape& shape, int64_t edges, std::mt19937_64& rng) {
  NDArray x = random_tensor(t, shape, rng);
  const int64_t n = shape.back();
  std::uniform_real_distribution<double> u(-8, 8);
  for (int64_t i = edges * n; i < x.size(); ++i) x.set_double(i, u(rng));
  return x;
}

}  // namespace

TEST_CASE("the GPU's softmax, a warp per row, is bitwise the reference's", "[gpu][softmax]") {
  std::mt19937_64 rng(43);
  for (DataType t : {DataType::float_(32), DataType::float_(16), DataType{DataType::BFloat, 16, 1}})
    for (const rt::Shape& shape : {rt::Shape{3, 64}, rt::Shape{2, 1000}, rt::Shape{2, 3, 100}, rt::Shape{1, 4096}})
      for (bool log : {false, true}) {
        loops::SoftmaxProgram p;
        p.dtype = t, p.shape = shape, p.log = log;
        INFO(dtype_name(t) << (log ? " log_softmax" : " softmax") << " over rows of " << shape.back());
        REQUIRE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
        const NDArray x = inputs(t, shape, 1, rng);
        CHECK(bitwise(reference(p, x), run_softmax(p, loops::LoopShape::Gpu, x)) == "");
        // the divide form (a channels-last softmax's) against the CPU shape's
        p.divide = true;
        CHECK(bitwise(run_softmax(p, loops::LoopShape::Cpu, x), run_softmax(p, loops::LoopShape::Gpu, x)) == "");
      }
}

TEST_CASE("the GPU's softmax over float32 rows longer than 4096, a block per row, is bitwise the reference's",
          "[gpu][softmax]") {
  // a language model's vocabulary (32000, and one not a multiple of the block), two rows
  // of them, the first with edge values (NaN, infinities, extremes)
  std::mt19937_64 rng(53);
  for (const rt::Shape& shape : {rt::Shape{2, 32000}, rt::Shape{3, 1, 4097}})
    for (bool log : {false, true}) {
      loops::SoftmaxProgram p;
      p.dtype = DataType::float_(32), p.shape = shape, p.log = log;
      INFO((log ? "log_softmax" : "softmax") << " over rows of " << shape.back());
      REQUIRE(loops::softmax_uses_block(p, loops::LoopShape::Gpu));
      CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
      const loops::LoweredSoftmax gpu = loops::lower_softmax(p, "softmax", loops::LoopShape::Gpu);
      REQUIRE(gpu.ok());
      CHECK(gpu.kernel.team() == loops::kSoftmaxBlockThreads);
      CHECK(gpu.kernel.team_is_block());
      const NDArray x = inputs(p.dtype, shape, 1, rng);
      CHECK(bitwise(reference(p, x), run_softmax(p, loops::LoopShape::Gpu, x)) == "");
      p.divide = true;  // the channels-last form, against the CPU shape's
      CHECK(bitwise(run_softmax(p, loops::LoopShape::Cpu, x), run_softmax(p, loops::LoopShape::Gpu, x)) == "");
    }
  // not: float16 (its sum folds float32 exponentials the output row cannot hold), rows
  // within a warp's, other axes, the CPU
  loops::SoftmaxProgram p;
  p.dtype = DataType::float_(16), p.shape = {1, 32000};
  CHECK_FALSE(loops::softmax_uses_block(p, loops::LoopShape::Gpu));
  p.dtype = DataType::float_(32), p.shape = {1, loops::kSoftmaxTeamMax};
  CHECK_FALSE(loops::softmax_uses_block(p, loops::LoopShape::Gpu));
  p.shape = {32000, 2}, p.axis = 0;
  CHECK_FALSE(loops::softmax_uses_block(p, loops::LoopShape::Gpu));
  p.shape = {1, 32000}, p.axis = -1;
  CHECK_FALSE(loops::softmax_uses_block(p, loops::LoopShape::Cpu));
}

TEST_CASE("the GPU's softmax takes a warp where rows are long and innermost", "[gpu][softmax]") {
  loops::SoftmaxProgram p;
  p.dtype = DataType::float_(32), p.shape = {1, 1000};
  CHECK(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
  CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Cpu));
  const loops::LoweredSoftmax team = loops::lower_softmax(p, "team", loops::LoopShape::Gpu);
  REQUIRE(team.ok());
  CHECK(team.kernel.team() == loops::kWarpLanes);
  CHECK(team.kernel.has_shared_buffers());
  p.shape = {1, 10};  // the MLP's: a thread per row
  CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
  p.shape = {1, 1000, 4}, p.axis = 1;  // not innermost
  CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
  p.shape = {1, 1000}, p.axis = -1, p.dtype = DataType::float_(64);  // float64 rows stay a thread's
  CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
  p.dtype = DataType::float_(32), p.shape = {2, loops::kSoftmaxTeamMax + 1};
  CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
}

TEST_CASE("the GPU's softmax off the innermost axis, a thread per row along it, is bitwise the reference's",
          "[gpu][softmax]") {
  // a thread per (row before the axis, position after it): no per-row array of the
  // positions after the axis, so more than kSoftmaxInner of them lower too (the CPU's
  // shape does not lower those)
  std::mt19937_64 rng(47);
  for (DataType t : {DataType::float_(32), DataType::float_(64), DataType::float_(16)})
    for (auto [shape, axis] : {std::pair{rt::Shape{2, 5, 7, 3}, int64_t{1}}, std::pair{rt::Shape{4, 100, 3}, int64_t{-2}},
                               std::pair{rt::Shape{1, 6, 70, 70}, int64_t{1}}, std::pair{rt::Shape{3, 2, 9}, int64_t{0}}})
      for (bool log : {false, true}) {
        loops::SoftmaxProgram p;
        p.dtype = t, p.shape = shape, p.axis = axis, p.log = log;
        INFO(dtype_name(t) << (log ? " log_softmax" : " softmax") << " along axis " << axis << " of rank "
                           << shape.size());
        CHECK_FALSE(loops::softmax_uses_team(p, loops::LoopShape::Gpu));
        const loops::LoweredSoftmax gpu = loops::lower_softmax(p, "softmax", loops::LoopShape::Gpu);
        REQUIRE(gpu.ok());
        CHECK_FALSE(gpu.kernel.has_shared_buffers());
        NDArray x = random_tensor(t, shape, rng);  // NaN, infinities and extremes among them
        std::uniform_real_distribution<double> u(-8, 8);
        for (int64_t i = x.size() / 2; i < x.size(); ++i) x.set_double(i, u(rng));  // ordinary ones too
        CHECK(bitwise(reference(p, x), run_softmax(p, loops::LoopShape::Gpu, x)) == "");
      }
  loops::SoftmaxProgram wide;
  wide.dtype = DataType::float_(32), wide.shape = {1, 6, 70, 70}, wide.axis = 1;  // 4900 positions after the axis
  CHECK_FALSE(loops::lower_softmax(wide, "cpu", loops::LoopShape::Cpu).ok());
  CHECK(loops::lower_softmax(wide, "gpu", loops::LoopShape::Gpu).ok());
}
