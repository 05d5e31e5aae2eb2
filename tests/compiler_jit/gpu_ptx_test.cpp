// The GPU back end without a GPU: every lowered element-wise operator (every dtype, every
// cast), every reduction and the register-tiled convolution and matrix product, in the GPU
// loop shape, become PTX through LLVM's NVPTX target, and NVIDIA's ptxas assembles each
// module for every targeted architecture (sm_80, sm_90). Where the machine has no ptxas
// (it comes with a CUDA toolkit, which the project does not need) the PTX is still
// generated and checked for its entries, and the test says that ptxas did not run. What
// the kernels compute is checked on the CPU JIT in ops_test.cpp, program_test.cpp and
// gpu_tiles_test.cpp, which run the same GPU-shaped loops.
#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "compiler/llvm/nvptx.h"
#include "compiler/loops/conv2d.h"
#include "compiler/loops/matmul.h"
#include "compiler/loops/print.h"
#include "compiler/loops/reduction.h"
#include "compiler/loops/softmax.h"
#include "compiler/loops/verify.h"
#include "tests/compiler_jit/support.h"
#include "tests/compiler_jit/verified_kernels.h"
#include "tests/support/ptxas.h"

using namespace relay;
using namespace relay::test;
using relay::loops::ElementwiseProgram;

namespace {


loops::ReductionProgram reduction(loops::ReduceOp op, DataType t, const rt::Shape& shape, std::vector<int64_t> axes,
                                  rt::Shape out_shape) {
  loops::ReductionProgram p;
  p.prologue = unary_program("copy", t, t, shape);
  p.op = op;
  p.axes = std::move(axes);
  p.out_dtype = (op == loops::ReduceOp::ArgMax || op == loops::ReduceOp::ArgMin) ? DataType::int_(32) : t;
  p.out_shape = std::move(out_shape);
  return p;
}

// The kernels' module for each targeted architecture: its entries, then ptxas.
void check_module(const std::vector<const loops::Kernel*>& kernels) {
  const std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) WARN("no ptxas (CUDA toolkit) on this machine: the PTX is generated but not assembled");
  for (int sm : compiler::gpu::kTargetedArchitectures) {
    const compiler::gpu::PtxTarget target{sm};
    INFO(target.arch());
    const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, target);
    REQUIRE(m.kernels.size() == kernels.size());
    CHECK(m.ptx.find(".target " + target.arch()) != std::string::npos);
    for (const auto& k : m.kernels) CHECK(m.ptx.find(".visible .entry " + k.entry + "(") != std::string::npos);
    if (!ptxas.empty()) CHECK(testing::ptxas_errors(ptxas, m.ptx, target.arch()) == "");
  }
}

bool have_libdevice() { return !compiler::gpu::find_libdevice().empty(); }

}  // namespace

TEST_CASE("every lowered element-wise operator and cast assembles for sm_80 and sm_90", "[gpu][ptx]") {
  std::vector<std::unique_ptr<loops::LoweredKernel>> lowered;
  std::vector<const loops::Kernel*> kernels;
  size_t math = 0;
  for (auto& [label, program] : every_elementwise_program()) {
    INFO(label);
    auto r = std::make_unique<loops::LoweredKernel>(loops::lower_elementwise(program, "k", loops::LoopShape::Gpu));
    REQUIRE(r->ok());
    const bool calls_math = loops::print_kernel(r->kernel).find("exp(") != std::string::npos ||
                            label.starts_with("erf") || label.starts_with("tanh") || label.starts_with("sigmoid");
    math += calls_math;
    if (calls_math && !have_libdevice()) continue;  // checked by the libdevice test case below
    kernels.push_back(&r->kernel);
    lowered.push_back(std::move(r));
  }
  CHECK(kernels.size() > 400);
  CHECK(math > 0);
  check_module(kernels);
}

TEST_CASE("every reduction assembles for sm_80 and sm_90", "[gpu][ptx]") {
  using loops::ReduceOp;
  std::vector<loops::LoweredKernel> lowered;
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod, ReduceOp::All,
                      ReduceOp::Any, ReduceOp::ArgMax, ReduceOp::ArgMin})
    for (DataType t : {DataType::float_(32), DataType::float_(16), DataType::int_(32), DataType::bool_()}) {
      if (!loops::reduction_supports(op, t)) continue;
      for (auto [axes, out] : {std::pair<std::vector<int64_t>, rt::Shape>{{1}, {4, 5}},
                               std::pair<std::vector<int64_t>, rt::Shape>{{2}, {4, 3}},
                               std::pair<std::vector<int64_t>, rt::Shape>{{}, {}}}) {
        loops::LoweredKernel r =
            loops::lower_reduction(reduction(op, t, {4, 3, 5}, axes, out), "r", loops::LoopShape::Gpu);
        INFO(std::string(loops::reduce_op_name(op)) << " " << dtype_name(t) << ": " << r.error);
        REQUIRE(r.ok());
        lowered.push_back(std::move(r));
      }
    }
  std::vector<const loops::Kernel*> kernels;
  for (const auto& r : lowered) kernels.push_back(&r.kernel);
  CHECK(kernels.size() > 60);
  check_module(kernels);
}

TEST_CASE("a GPU kernel's launch shape follows its parallel loop", "[gpu][ptx]") {
  const loops::LoweredKernel flat =
      loops::lower_elementwise(binary_program("add", DataType::float_(32), DataType::float_(32), {1000, 1}, {1, 300},
                                              {1000, 300}),
                               "add", loops::LoopShape::Gpu);
  REQUIRE(flat.ok());
  INFO(loops::print_kernel(flat.kernel));
  // one iteration per four output elements (they divide the output), a thread each
  CHECK(flat.kernel.parallel_extent() == 300000 / loops::kGpuVector);
  const loops::Kernel* one[] = {&flat.kernel};
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(one, compiler::gpu::PtxTarget{90});
  REQUIRE(m.kernels.size() == 1);
  CHECK_FALSE(m.kernels[0].one_thread);
  CHECK(m.kernels[0].iterations == 75000);
  CHECK(m.kernels[0].block == compiler::gpu::kThreadsPerBlock);
  CHECK(m.kernels[0].grid == (75000 + compiler::gpu::kThreadsPerBlock - 1) / compiler::gpu::kThreadsPerBlock);
  // the output's own layout is written four floats at a time
  CHECK(m.ptx.find("st.global.v4.f32") != std::string::npos);
  // an output that four elements do not divide keeps one a thread
  const loops::LoweredKernel odd =
      loops::lower_elementwise(binary_program("add", DataType::float_(32), DataType::float_(32), {999}, {999}, {999}),
                               "add", loops::LoopShape::Gpu);
  REQUIRE(odd.ok());
  CHECK(odd.kernel.parallel_extent() == 999);
  // operands laid out like the output are read with vector loads
  const loops::LoweredKernel same =
      loops::lower_elementwise(binary_program("add", DataType::float_(32), DataType::float_(32), {1024}, {1024}, {1024}),
                               "add", loops::LoopShape::Gpu);
  const loops::Kernel* same_kernels[] = {&same.kernel};
  CHECK(compiler::gpu::emit_ptx(same_kernels, compiler::gpu::PtxTarget{90}).ptx.find("ld.global.nc.v4.f32") !=
        std::string::npos);
  CHECK(m.kernels[0].num_params == 3);
  // the grid-stride loop reads the thread and block registers
  for (const char* reg : {"%tid.x", "%ctaid.x", "%ntid.x", "%nctaid.x"}) CHECK(m.ptx.find(reg) != std::string::npos);
  CHECK_FALSE(m.linked_libdevice);
  // two kernels of one name get distinct entries
  const loops::Kernel* two[] = {&flat.kernel, &flat.kernel};
  const compiler::gpu::PtxModule m2 = compiler::gpu::emit_ptx(two, compiler::gpu::PtxTarget{80});
  REQUIRE(m2.kernels.size() == 2);
  CHECK(m2.kernels[0].entry != m2.kernels[1].entry);
  // launched on 132 multiprocessors: a large kernel keeps its blocks of 256; one of fewer
  // blocks than multiprocessors gets smaller blocks until it has one on each (down to a warp)
  using compiler::gpu::launch_for;
  CHECK(launch_for(m.kernels[0], 132).block == 256);
  CHECK(launch_for(m.kernels[0], 132).grid == m.kernels[0].grid);
  compiler::gpu::PtxKernelInfo small = m.kernels[0];
  small.iterations = 50176;  // 196 blocks of 256: enough
  CHECK(launch_for(small, 132).block == 256);
  small.iterations = 25088;  // ResNet-18's last convolutions at batch 1: 98 blocks of 256
  CHECK(launch_for(small, 132).block == 128);
  CHECK(launch_for(small, 132).grid == 196);
  small.iterations = 4096;  // a batch-1 dense layer of 4096 outputs
  CHECK(launch_for(small, 132).block == 32);
  CHECK(launch_for(small, 132).grid == 128);
  small.iterations = 100;
  CHECK(launch_for(small, 132).block == 32);
  CHECK(launch_for(small, 132).grid == 4);
  small.one_thread = true;
  CHECK(launch_for(small, 132).grid == 1);
  CHECK(launch_for(small, 132).block == 1);
}

TEST_CASE("math functions need libdevice and without it the error says where it looked", "[gpu][ptx]") {
  const loops::LoweredKernel exp_kernel = loops::lower_elementwise(
      unary_program("exp", DataType::float_(32), DataType::float_(32), {16}), "e", loops::LoopShape::Gpu);
  REQUIRE(exp_kernel.ok());
  const loops::Kernel* kernels[] = {&exp_kernel.kernel};
  const char* saved = std::getenv("RELAY_LIBDEVICE");
  const std::string saved_value = saved ? saved : "";
  ::setenv("RELAY_LIBDEVICE", "/nonexistent/libdevice.10.bc", 1);
  try {
    compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{80});
    FAIL("emit_ptx linked a libdevice that does not exist");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    CHECK(what.find("libdevice") != std::string::npos);
    CHECK(what.find("/nonexistent/libdevice.10.bc") != std::string::npos);
    CHECK(what.find("RELAY_LIBDEVICE") != std::string::npos);
  }
  // kernels without math need no libdevice
  const loops::LoweredKernel add = loops::lower_elementwise(
      binary_program("add", DataType::float_(32), DataType::float_(32), {16}, {16}, {16}), "a", loops::LoopShape::Gpu);
  const loops::Kernel* plain[] = {&add.kernel};
  CHECK_FALSE(compiler::gpu::emit_ptx(plain, compiler::gpu::PtxTarget{80}).linked_libdevice);
  if (saved) ::setenv("RELAY_LIBDEVICE", saved_value.c_str(), 1);
  else ::unsetenv("RELAY_LIBDEVICE");
  if (have_libdevice()) {
    const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{80});
    CHECK(m.linked_libdevice);
    // libdevice's expf is inlined: no call remains
    CHECK(m.ptx.find("__nv_expf") == std::string::npos);
    CHECK(m.ptx.find("call") == std::string::npos);
  }
}

TEST_CASE("GPU target names (--target=cuda:sm_90) parse", "[gpu][ptx]") {
  using compiler::gpu::parse_ptx_target;
  CHECK(parse_ptx_target("cuda")->sm == 80);
  CHECK(parse_ptx_target("cuda:sm_90")->sm == 90);
  CHECK(parse_ptx_target("sm_86")->sm == 86);
  CHECK(parse_ptx_target("cuda:90")->sm == 90);
  CHECK_FALSE(parse_ptx_target("cudax"));
  CHECK_FALSE(parse_ptx_target("cuda:sm_"));
  CHECK_FALSE(parse_ptx_target("cuda:sm_52"));  // LLVM 19 targets sm_70 and later here
  CHECK_FALSE(parse_ptx_target("cuda:sm_100"));  // ... and none after sm_90 (it would abort)
  CHECK_FALSE(parse_ptx_target("cuda:sm_71"));   // not an architecture
  CHECK(compiler::gpu::llvm_knows(compiler::gpu::PtxTarget{75}));
  CHECK_FALSE(compiler::gpu::llvm_knows(compiler::gpu::PtxTarget{100}));
  // a target made without parsing is refused with the reason, not by an abort in LLVM
  const loops::LoweredKernel copy = loops::lower_elementwise(unary_program("copy", DataType::float_(32), DataType::float_(32), {4}),
                                                             "copy", loops::LoopShape::Gpu);
  const std::vector<const loops::Kernel*> one{&copy.kernel};
  CHECK_THROWS_WITH(compiler::gpu::emit_ptx(one, compiler::gpu::PtxTarget{100}),
                    Catch::Contains("cannot generate code for sm_100"));
  CHECK_FALSE(parse_ptx_target("rocm"));
}

TEST_CASE("the tiled convolution and matrix product assemble, their accumulators in registers", "[gpu][ptx]") {
  // ResNet-18's and MobileNet's tiles at batch 32 (4 x 7; depthwise 1 x 7), a thread per
  // output, and the products' 4 x 4 and 2 x 1
  auto conv = [](int64_t c, int64_t hw, int64_t groups, int64_t stride) {
    loops::Conv2dProgram p;
    p.batch = 32, p.channels = c, p.height = p.width = hw, p.out_channels = c, p.kernel_h = p.kernel_w = 3;
    p.groups = groups, p.strides = {stride, stride}, p.pad_begin = {1, 1};
    p.out_h = p.out_w = (hw + 2 - 3) / stride + 1;
    return p;
  };
  std::vector<loops::LoweredKernel> lowered = {
      loops::lower_direct_conv2d(conv(64, 56, 1, 1), "conv_4x7", {4, 7}),
      loops::lower_direct_conv2d(conv(512, 14, 1, 2), "conv_strided_4x7", {4, 7}),
      loops::lower_direct_conv2d(conv(32, 28, 32, 1), "conv_depthwise_1x7"),
      loops::lower_direct_conv2d(conv(64, 56, 1, 1), "conv_1x1", {1, 1})};
  CHECK(loops::conv2d_tile(conv(96, 56, 1, 1)).width == 7);  // where block tiles do not fit
  loops::MatmulProgram product;
  product.m = product.n = product.k = 512, product.batch = product.a_batch = product.b_batch = 16;
  lowered.push_back(loops::lower_tiled_matmul(product, "matmul_4x4", {4, 4}));
  lowered.push_back(loops::lower_tiled_matmul(product, "matmul_2x1", {2, 1}));
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);
  check_module(kernels);
  // the accumulator arrays are indexed by constants only, so they live in registers: the
  // module has no local (stack) memory
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  CHECK(m.ptx.find(".local") == std::string::npos);
}

TEST_CASE("a warp per output: lanes become the warp's threads, LaneReduce its shuffles", "[gpu][ptx]") {
  // ResNet-18's last convolution and a dense layer of 4096 outputs at batch 1 (the tile
  // rules pick lanes for both), and a 2 x 2 tile on a warp
  loops::Conv2dProgram c;
  c.channels = c.out_channels = 512, c.height = c.width = c.out_h = c.out_w = 7, c.kernel_h = c.kernel_w = 3;
  c.pad_begin = {1, 1};
  REQUIRE(loops::conv2d_tile(c).lanes);
  loops::MatmulProgram dense;
  dense.m = 1, dense.n = 4096, dense.k = 4096;
  REQUIRE(loops::matmul_tile(dense).lanes);
  loops::MatmulProgram square;
  square.m = square.n = 64, square.k = 300;
  std::vector<loops::LoweredKernel> lowered = {loops::lower_direct_conv2d(c, "conv_lanes"),
                                               loops::lower_tiled_matmul(dense, "dense_lanes"),
                                               loops::lower_tiled_matmul(square, "matmul_lanes_2x2", {2, 2, true})};
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);
  for (const loops::Kernel* k : kernels) CHECK(k->team() == 32);
  check_module(kernels);  // ptxas for every targeted architecture, where it is installed
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  INFO(m.ptx);
  // every lane folds into its own registers; the tree is five shuffles down and one
  // broadcast per accumulator (four for the 2 x 2 tile)
  CHECK(m.ptx.find(".local") == std::string::npos);
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = m.ptx.find(what); at != std::string::npos; at = m.ptx.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("shfl.sync.down.b32") == 5 * (1 + 1 + 4));
  CHECK(count("shfl.sync.idx.b32") == 1 + 1 + 4);
  // an iteration per warp: 32 threads each, launched in whole warps
  REQUIRE(m.kernels.size() == 3);
  CHECK(m.kernels[0].iterations == 512 * 7 * 7);
  CHECK(m.kernels[0].team == 32);
  CHECK_FALSE(m.kernels[0].whole_block);
  CHECK(m.kernels[0].threads() == 512 * 7 * 7 * 32);
  CHECK(m.kernels[1].iterations == 4096);
  CHECK(m.kernels[1].grid == 4096 * 32 / compiler::gpu::kThreadsPerBlock);
  const compiler::gpu::PtxLaunch launch = compiler::gpu::launch_for(m.kernels[1], 132);
  CHECK(launch.block == compiler::gpu::kThreadsPerBlock);  // 512 blocks: enough for 132 SMs
  CHECK(m.kernels[2].iterations == 32 * 32);
  // a kernel without lanes launches a thread per iteration
  loops::MatmulProgram plain = square;
  plain.k = 16;
  const loops::LoweredKernel shallow = loops::lower_tiled_matmul(plain, "shallow");
  REQUIRE(shallow.ok());
  CHECK(shallow.kernel.team() == 1);
  const loops::Kernel* one[] = {&shallow.kernel};
  CHECK(compiler::gpu::emit_ptx(one, compiler::gpu::PtxTarget{90}).kernels[0].team == 1);
}

TEST_CASE("the verifier keeps lanes where a warp is together", "[gpu][lanes]") {
  loops::Kernel k;
  k.name = "lanes";
  const int out = loops::add_param(k, "out", loops::f32(), {4}, {1});
  const int acc = loops::add_thread_local(k, "acc", loops::f32(), 32, 1);
  const loops::Var t = loops::new_var(k, "t", loops::i64()), lane = loops::new_var(k, "lane", loops::i64());
  auto mine = loops::thread_slot_index(lane, k.buffer(acc), loops::int_imm(0));
  auto body = [&](loops::Block fold_extra, loops::Expr index_in_lane) {
    loops::Block fold{loops::store(k.buffer(acc), index_in_lane, loops::float_imm(1))};
    for (loops::Stmt& s : fold_extra) fold.push_back(std::move(s));
    return loops::Block{loops::alloc(k.buffer(acc)),
                        loops::for_loop(lane, loops::int_imm(loops::kWarpLanes), loops::LoopKind::Threads, std::move(fold)),
                        loops::lane_reduce(k.buffer(acc), loops::BinaryOp::Add),
                        loops::store(k.buffer(out), loops::var_ref(t), loops::load(k.buffer(acc), loops::int_imm(0)))};
  };
  auto errors_of = [&](loops::Block b) {
    k.body = {loops::for_loop(t, loops::int_imm(4), loops::LoopKind::Parallel, std::move(b))};
    std::string all;
    for (const std::string& e : loops::verify(k)) all += e + "\n";
    return all;
  };
  CHECK(errors_of(body({}, mine)).empty());
  // inside the Lanes loop a lane-local index is the lane's slot
  CHECK(errors_of(body({}, loops::int_imm(0))).find("thread * slot + j") != std::string::npos);
  // no LaneReduce inside the Lanes loop
  loops::Block nested;
  nested.push_back(loops::lane_reduce(k.buffer(acc), loops::BinaryOp::Add));
  CHECK(errors_of(body(std::move(nested), mine)).find("lane_reduce outside") != std::string::npos);
  // after the tree, only lane 0's slot is read
  loops::Block read_past = body({}, mine);
  read_past.back() = loops::store(k.buffer(out), loops::var_ref(t), loops::load(k.buffer(acc), loops::int_imm(5)));
  CHECK(errors_of(std::move(read_past)).find("outside a slot") != std::string::npos);
  // only add, max and min combine
  loops::Block by_product = body({}, mine);
  by_product[2] = loops::lane_reduce(k.buffer(acc), loops::BinaryOp::Mul);
  CHECK(errors_of(std::move(by_product)).find("lane_reduce by mul") != std::string::npos);
}

TEST_CASE("block-tiled products stage slices in shared memory, with vector loads and no spills", "[gpu][ptx]") {
  // dense 4096^3 (4096 tiles: 8 x 8 outputs a thread), and ResNet-18's first-stage
  // convolution at batch 32 as a product, with 4 x 4 and with 8 x 8 outputs a thread; then
  // the same reading the next slice ahead, and the dense product so in 128 x 128 blocks
  loops::MatmulProgram product;
  product.m = product.n = product.k = 4096;
  REQUIRE(loops::matmul_tile(product).block);
  REQUIRE(loops::matmul_tile(product).fat);
  loops::Conv2dProgram c;
  c.batch = 32, c.channels = c.out_channels = 64, c.height = c.width = c.out_h = c.out_w = 56;
  c.kernel_h = c.kernel_w = 3, c.pad_begin = {1, 1};
  REQUIRE(loops::block_conv2d_fits(c));
  REQUIRE(loops::conv2d_tile(c).fat);  // 1568 tiles
  loops::Conv2dProgram last = c;  // ResNet-18's last stage at batch 1: 16 small blocks x 2
  last.batch = 1, last.channels = last.out_channels = 512, last.height = last.width = last.out_h = last.out_w = 7;
  const loops::LoweredKernel lowered[] = {loops::lower_tiled_matmul(product, "dense_block"),
                                          loops::lower_block_conv2d(c, "conv_block", {1, 1, false, true}),
                                          loops::lower_block_conv2d(c, "conv_block8", {1, 1, false, true, false, true}),
                                          loops::lower_tiled_matmul(product, "dense_block8p", {.block = true, .fat = true, .prefetch = true}),
                                          loops::lower_block_conv2d(c, "conv_blockp", {.block = true, .prefetch = true}),
                                          loops::lower_block_conv2d(c, "conv_block8p", {.block = true, .fat = true, .prefetch = true}),
                                          loops::lower_tiled_matmul(product, "dense_block128p", {.block = true, .wide = true, .prefetch = true}),
                                          loops::lower_block_conv2d(last, "conv_block32p", {.block = true, .prefetch = true, .small = true}),
                                          // k split in 16 parts (split_k_parts), then the finish
                                          loops::lower_block_conv2d(last, "conv_block32ps16", {.block = true, .prefetch = true, .small = true, .splits = 16})};
  REQUIRE(lowered[8].finish);
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);  // the finish last
  check_module(kernels);
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  INFO(m.ptx);
  // an iteration per block of 64 (8 x 8 a thread) or 256 threads, whose size launch_for keeps
  REQUIRE(m.kernels.size() == 10);
  const int64_t teams[] = {loops::kBlockFatThreads, loops::kBlockThreads,    loops::kBlockFatThreads,
                           loops::kBlockFatThreads, loops::kBlockThreads,    loops::kBlockFatThreads,
                           loops::kBlockThreads,    loops::kBlockFatThreads, loops::kBlockFatThreads};
  for (size_t i = 0; i < 9; ++i) {
    const compiler::gpu::PtxKernelInfo& k = m.kernels[i];
    CHECK(k.whole_block);
    CHECK(k.team == static_cast<uint64_t>(teams[i]));
    CHECK(k.block == static_cast<uint64_t>(teams[i]));
    CHECK(compiler::gpu::launch_for(k, 132).block == static_cast<uint64_t>(teams[i]));
  }
  CHECK(m.kernels[0].grid == 64 * 64);
  CHECK(m.kernels[1].grid == 32 * 56 * 56 / 64);
  CHECK(m.kernels[2].grid == 32 * 56 * 56 / 64);
  CHECK(m.kernels[3].grid == 64 * 64);
  CHECK(m.kernels[6].grid == 32 * 32);
  CHECK(m.kernels[7].grid == 16 * 2);
  CHECK(m.kernels[8].grid == 16 * 2 * 16);  // a block per tile and part
  CHECK_FALSE(m.kernels[9].whole_block);    // the finish: a thread per output
  CHECK(m.kernels[9].iterations == 512 * 49);
  // shared memory between barriers; the rows of a and of the weights read four floats at
  // a time; the accumulators in registers
  CHECK(m.ptx.find(".shared .align 32 .b8") != std::string::npos);
  CHECK(m.ptx.find("bar.sync") != std::string::npos);
  CHECK(m.ptx.find("ld.shared.v4.f32") != std::string::npos);  // a step's four of a and four of b
  CHECK(m.ptx.find("ld.global.nc.v4.f32") != std::string::npos);
  CHECK(m.ptx.find("fma.rn.f32") != std::string::npos);
  CHECK(m.ptx.find(".local") == std::string::npos);  // the slices read ahead too
  const std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) return;
  for (int sm : compiler::gpu::kTargetedArchitectures) {
    const compiler::gpu::PtxModule mm = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{sm});
    std::string report;
    REQUIRE(testing::ptxas_errors(ptxas, mm.ptx, "sm_" + std::to_string(sm), &report) == "");
    INFO(report);
    CHECK(testing::functions_without_spills(report) == 10);
  }
}

TEST_CASE("float16 and bfloat16 products and convolutions run on the tensor cores", "[gpu][ptx]") {
  std::vector<loops::LoweredKernel> lowered;
  for (DataType t : {DataType::float_(16), DataType{DataType::BFloat, 16, 1}}) {
    const std::string name = t.code == DataType::BFloat ? "bf16" : "f16";
    loops::MatmulProgram p;
    p.m = p.n = p.k = 4096, p.dtype = t;
    REQUIRE(loops::matmul_tile(p).tensor_cores);
    lowered.push_back(loops::lower_tiled_matmul(p, name + "_mma"));
    // ResNet-18's stem at batch 1 (147 terms: a partial last slice; 12544 positions: a
    // partial last tile) and a 3x3 convolution of its second stage
    loops::Conv2dProgram stem;
    stem.channels = 3, stem.height = stem.width = 224, stem.out_channels = 64, stem.kernel_h = stem.kernel_w = 7;
    stem.strides = {2, 2}, stem.pad_begin = {3, 3}, stem.out_h = stem.out_w = 112, stem.dtype = t;
    loops::Conv2dProgram stage = stem;
    stage.channels = stage.out_channels = 128, stage.height = stage.width = stage.out_h = stage.out_w = 28;
    stage.kernel_h = stage.kernel_w = 3, stage.strides = {1, 1}, stage.pad_begin = {1, 1};
    for (const loops::Conv2dProgram& c : {stem, stage}) {
      REQUIRE(loops::conv2d_tile(c).tensor_cores);
      lowered.push_back(loops::lower_direct_conv2d(c, name + "_conv_" + std::to_string(c.kernel_h) + "x" + std::to_string(c.kernel_w)));
    }
  }
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);
  check_module(kernels);  // sm_80 and sm_90
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{80});
  INFO(m.ptx);
  for (const char* op : {"wmma.load.a.sync.aligned.row.m16n16k16.shared.f16", "wmma.load.b.sync.aligned.col.m16n16k16.shared.f16",
                         "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", "wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16",
                         "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32",
                         "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32"})
    CHECK(m.ptx.find(op) != std::string::npos);
  CHECK(m.ptx.find(".local") == std::string::npos);
  REQUIRE(m.kernels.size() == 6);
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const compiler::gpu::PtxKernelInfo& k = m.kernels[i];
    CHECK(k.whole_block);
    CHECK(k.block == loops::kBlockThreads);
    // a block per 64 x 64 outputs: products 4096 x 4096, the stem 64 x 12544, the stage 128 x 784
    CHECK(k.grid == std::array<uint64_t, 3>{64 * 64, 196, 2 * 13}[i % 3]);
  }
  {
    // k split on the tensor cores: ResNet-18's last stage at batch 1 (8 blocks of 64 x 64
    // over 4608 terms) in 16 parts, a block per tile and part, then the finish
    loops::Conv2dProgram last;
    last.channels = last.out_channels = 512, last.height = last.width = last.out_h = last.out_w = 7;
    last.kernel_h = last.kernel_w = 3, last.pad_begin = {1, 1}, last.dtype = DataType::float_(16);
    const loops::Conv2dTile split{.tensor_cores = true, .splits = loops::split_k_parts(8, 4608, loops::kMmaDepth)};
    CHECK(split.splits == 16);
    const std::vector<loops::Conv2dTile> candidates = loops::conv2d_tiles(last);
    CHECK(std::find(candidates.begin(), candidates.end(), split) != candidates.end());
    const loops::LoweredKernel s = loops::lower_direct_conv2d(last, "f16_conv_mmas16", split);
    REQUIRE(s.finish);
    const std::vector<const loops::Kernel*> pair = verified_kernels({&s, 1});
    check_module(pair);
    const compiler::gpu::PtxModule sm = compiler::gpu::emit_ptx(pair, compiler::gpu::PtxTarget{80});
    CHECK(sm.kernels[0].grid == 8 * 16);
    CHECK(sm.ptx.find("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32") != std::string::npos);
    CHECK(sm.ptx.find(".local") == std::string::npos);
  }
  const std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) return;
  std::string report;
  REQUIRE(testing::ptxas_errors(ptxas, m.ptx, "sm_80", &report) == "");
  INFO(report);
  CHECK(testing::functions_without_spills(report) == m.kernels.size());
}

TEST_CASE("tensor cores only where the target has them: float16 from sm_70, bfloat16 from sm_80", "[gpu][ptx]") {
  using compiler::gpu::PtxTarget;
  const DataType f16 = DataType::float_(16), bf16{DataType::BFloat, 16, 1};
  CHECK(compiler::gpu::tensor_cores_take(PtxTarget{75}, f16));
  CHECK_FALSE(compiler::gpu::tensor_cores_take(PtxTarget{75}, bf16));
  CHECK(compiler::gpu::tensor_cores_take(PtxTarget{80}, bf16));
  CHECK_FALSE(compiler::gpu::tensor_cores_take(PtxTarget{90}, DataType::float_(32)));
  loops::MatmulProgram p;
  p.m = p.n = 1024, p.k = 256, p.dtype = bf16;
  // Without them the rule and the candidates fall back to the float32 units' tiles.
  CHECK_FALSE(loops::matmul_tile(p, false).tensor_cores);
  CHECK(loops::matmul_tile(p, false).block);
  for (const loops::MatmulTile& t : loops::matmul_tiles(p, false)) CHECK_FALSE(t.tensor_cores);
  // A tensor-core kernel for a target without them is refused with the reason (LLVM's
  // instruction selection would abort the process instead).
  const loops::LoweredKernel mma = loops::lower_mma_matmul(p, "bf16_mma");
  REQUIRE(mma.ok());
  const std::vector<const loops::Kernel*> kernels{&mma.kernel};
  CHECK_THROWS_WITH(compiler::gpu::emit_ptx(kernels, PtxTarget{75}),
                    Catch::Contains("multiplies bfloat16 on the tensor cores, which sm_75 does not have") &&
                        Catch::Contains("needs sm_80 or later"));
  CHECK_THROWS_AS(compiler::gpu::emit_gpu_llvm(kernels, PtxTarget{75}), std::invalid_argument);
  CHECK_NOTHROW(compiler::gpu::emit_ptx(kernels, PtxTarget{80}));
  // float16's do run on sm_75 (Turing: a T4)
  p.dtype = f16;
  const loops::LoweredKernel half = loops::lower_mma_matmul(p, "f16_mma");
  REQUIRE(half.ok());
  const std::vector<const loops::Kernel*> half_kernels{&half.kernel};
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(half_kernels, PtxTarget{75});
  CHECK(m.ptx.find("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32") != std::string::npos);
  const std::string ptxas = testing::find_ptxas();
  if (!ptxas.empty()) CHECK(testing::ptxas_errors(ptxas, m.ptx, "sm_75") == "");
}

TEST_CASE("a long reduction of few outputs is a warp's shuffles or a block's tree on the GPU", "[gpu][ptx]") {
  // a float32 sum and an int32 maximum over 3 rows of 10000 (a warp each) and of 100000
  // (a block of 256 each)
  std::vector<loops::LoweredKernel> lowered;
  for (int64_t n : {10000, 100000}) {
    lowered.push_back(loops::lower_reduction(reduction(loops::ReduceOp::Sum, DataType::float_(32), {3, n}, {1}, {3}),
                                             "sum_rows", loops::LoopShape::Gpu));
    lowered.push_back(loops::lower_reduction(reduction(loops::ReduceOp::Max, DataType::int_(32), {3, n}, {1}, {3}),
                                             "max_rows", loops::LoopShape::Gpu));
  }
  std::vector<const loops::Kernel*> kernels;
  for (size_t i = 0; i < lowered.size(); ++i) {
    const loops::LoweredKernel& l = lowered[i];
    REQUIRE(l.ok());
    INFO(loops::print_kernel(l.kernel));
    CHECK(l.kernel.team() == (i < 2 ? loops::kWarpLanes : loops::kBlockReductionThreads));
    kernels.push_back(&l.kernel);
  }
  check_module(kernels);
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  CHECK(m.ptx.find("shfl.sync.down.b32") != std::string::npos);
  CHECK(m.ptx.find("max.s32") != std::string::npos);
  CHECK(m.ptx.find("bar.sync") != std::string::npos);  // the block's tree, a level a barrier
  CHECK(m.kernels[0].iterations == 3);
  CHECK(m.kernels[0].threads() == 3 * 32);
  CHECK(m.kernels[2].whole_block);
  CHECK(m.kernels[2].threads() == 3 * 256);
}

TEST_CASE("a sum over a whole large tensor is split over blocks, then finished by a second kernel", "[gpu][ptx]") {
  // a float32 mean over 2^21 elements (one output, 128 chunks) and an int32 sum over the
  // rows of 3 x 10^6 (61 chunks each)
  std::vector<loops::LoweredKernel> lowered;
  for (const loops::ReductionProgram& p :
       {reduction(loops::ReduceOp::Mean, DataType::float_(32), {2048, 1024}, {}, {}),
        reduction(loops::ReduceOp::Sum, DataType::int_(32), {3, 1000000}, {1}, {3})}) {
    auto split = loops::lower_split_reduction(p, "split");
    REQUIRE(split);
    REQUIRE(split->ok());
    lowered.push_back(split->partial);
    lowered.push_back(split->finish);
  }
  std::vector<const loops::Kernel*> kernels;
  for (const loops::LoweredKernel& l : lowered) {
    INFO(loops::print_kernel(l.kernel));
    kernels.push_back(&l.kernel);
  }
  check_module(kernels);
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  REQUIRE(m.kernels.size() == 4);
  CHECK(m.kernels[0].whole_block);  // a block of 256 a chunk
  CHECK(m.kernels[0].threads() == 128 * 256);
  CHECK(m.kernels[1].threads() == 1);  // the finish: a thread an output
  CHECK(m.kernels[2].threads() == 3 * 61 * 256);
  CHECK(m.kernels[3].threads() == 3);
}

TEST_CASE("a long softmax row is a warp's, its row in shared memory and a longer one a block's", "[gpu][ptx]") {
  // ResNet's 1000 classes in float32, and attention rows of 128 in float16 (softmax and
  // log_softmax); 4 rows of a 32000-word vocabulary in float32
  std::vector<loops::LoweredKernel> lowered;
  loops::SoftmaxProgram classes;
  classes.dtype = DataType::float_(32), classes.shape = {1, 1000};
  lowered.push_back(loops::lower_softmax(classes, "classes", loops::LoopShape::Gpu));
  loops::SoftmaxProgram attention;
  attention.dtype = DataType::float_(16), attention.shape = {12, 128, 128}, attention.log = true;
  lowered.push_back(loops::lower_softmax(attention, "attention", loops::LoopShape::Gpu));
  loops::SoftmaxProgram vocabulary;  // longer than a warp's shared rows: a block's
  vocabulary.dtype = DataType::float_(32), vocabulary.shape = {4, 32000};
  lowered.push_back(loops::lower_softmax(vocabulary, "vocabulary", loops::LoopShape::Gpu));
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);
  check_module(kernels);
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  INFO(m.ptx);
  CHECK(m.ptx.find(".shared") != std::string::npos);
  CHECK(m.ptx.find("bar.sync") != std::string::npos);
  CHECK(m.ptx.find(".local") == std::string::npos);
  // a block of a warp per row
  REQUIRE(m.kernels.size() == 3);
  CHECK(m.kernels[0].whole_block);
  CHECK(m.kernels[0].block == 32);
  CHECK(m.kernels[0].grid == 1);
  CHECK(m.kernels[1].grid == 12 * 128);
  // a block of 256 per vocabulary row
  CHECK(m.kernels[2].whole_block);
  CHECK(m.kernels[2].block == loops::kSoftmaxBlockThreads);
  CHECK(m.kernels[2].grid == 4);
}

TEST_CASE("a softmax off the innermost axis is a thread per row along it, in registers", "[gpu][ptx]") {
  // over the channels of an NCHW tensor (a segmentation head: 21 classes of 64 x 64
  // positions), float32 and float16
  std::vector<loops::LoweredKernel> lowered;
  for (DataType t : {DataType::float_(32), DataType::float_(16)}) {
    loops::SoftmaxProgram classes;
    classes.dtype = t, classes.shape = {2, 21, 64, 64}, classes.axis = 1;
    lowered.push_back(loops::lower_softmax(classes, "classes_" + dtype_name(t), loops::LoopShape::Gpu));
  }
  const std::vector<const loops::Kernel*> kernels = verified_kernels(lowered);
  check_module(kernels);
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, compiler::gpu::PtxTarget{90});
  INFO(m.ptx);
  CHECK(m.ptx.find(".local") == std::string::npos);  // no per-thread array
  REQUIRE(m.kernels.size() == 2);
  CHECK(m.kernels[0].iterations == 2 * 64 * 64);  // a thread per (image, position)
}
