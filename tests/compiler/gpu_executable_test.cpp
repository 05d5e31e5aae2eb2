// GpuExecutable's orchestration over the simulated driver (simulated_driver.h): whole
// models with their groups' kernels "on the GPU" (the CPU JIT's build of the very kernels
// the PTX holds) and the rest on the host, against the CPU's compiled code on the same
// arguments; the arguments' device copies (kept while the same tensors come again); the
// caching allocator (a call once warm allocates nothing from the driver, and everything is
// freed at the end); a kernel's status word raising the reference's error.
#ifdef RELAY_HAVE_PIPELINE
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

#include "compiler/cuda/device.h"
#include "compiler/graph/passes.h"
#include "compiler/loops/block_gemm.h"
#include "compiler/pipeline/compile_function.h"
#include "compiler/pipeline/executable.h"
#include "compiler/pipeline/gpu_executable.h"
#include "compiler/pipeline/gpu_groups.h"
#include "compiler/pipeline/tile_tuner.h"
#include "lang/base/source.h"
#include "tests/compiler/compiler_test_util.h"
#include "tests/compiler/simulated_driver.h"

using namespace relay;
namespace t = relay::testing;

namespace {

// Registers the CPU build of every kernel the GPU plan of `g` holds, under its entry
// (with `choose`, its masters take the tiles it picks).
void register_kernels(const compiler::Graph& g, const compiler::FusionPlan& plan,
                      const compiler::TileChooser& choose = {}) {
  const compiler::GpuGroups gpu = compiler::plan_gpu_groups(g, plan, compiler::gpu::PtxTarget{90}, choose);
  auto add = [&](int entry, const loops::Kernel& k) {
    if (entry >= 0)
      t::simulated::state().kernels[gpu.module.kernels[static_cast<size_t>(entry)].entry] =
          compiler::Jit::instance().compile(k);
  };
  for (size_t i = 0; i < gpu.plans.size(); ++i)
    for (const auto& [p, entry, finish_entry] :
         {std::tuple{&gpu.masters[i], gpu.master_entry[i], gpu.master_finish_entry[i]},
          std::tuple{&gpu.plans[i], gpu.plan_entry[i], gpu.finish_entry[i]}})
      if (*p) {
        add(entry, (*p)->kernel);
        if ((*p)->finish) add(finish_entry, *(*p)->finish);
      }
}

// The fused @main of `m`, its GPU kernels registered with the simulated driver.
t::FusedGraph fused_on_simulated_gpu(const t::CompiledModel& m) {
  REQUIRE(m.error.empty());
  t::FusedGraph fused = t::fused_main(m);
  register_kernels(fused.graph, fused.plan);
  return fused;
}

double max_diff(const rt::Value& a, const rt::Value& b) {
  if (a.is_tuple()) {
    double worst = 0;
    for (size_t i = 0; i < a.tuple().fields.size(); ++i)
      worst = std::max(worst, max_diff(a.tuple().fields[i], b.tuple().fields[i]));
    return worst;
  }
  return t::max_rel_diff(a.tensor(), b.tensor());
}

void check_loaded(const t::CompiledModel* m, size_t min_gpu_groups, bool replayable);

void check_model(const char* name, size_t min_gpu_groups) {
  INFO(name);
  auto m = t::load_model_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/" + name + ".relay");
  REQUIRE(m->error.empty());
  check_loaded(m.get(), min_gpu_groups, true);
}

void check_loaded(const t::CompiledModel* m, size_t min_gpu_groups, bool replayable) {
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  const compiler::Graph& g = fused.graph;
  const compiler::FusionPlan& plan = fused.plan;
  std::string why;
  {
    std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
    REQUIRE(gpu);
    CHECK(gpu->info().sm == 90);
    std::vector<std::string> notes;
    compiler::GpuExecutable exe(g, plan, {gpu.get()}, &notes);
    REQUIRE_FALSE(notes.empty());
    INFO(notes[0]);
    CHECK(notes[0].find("on the GPU (simulated GPU") != std::string::npos);
    CHECK(exe.gpu_groups() >= min_gpu_groups);
    CHECK(exe.gpu_groups() + exe.host_groups() == plan.groups.size());

    compiler::ThreadPool pool(2);
    compiler::Executable cpu(g, plan, compiler::Jit::instance(), &pool, nullptr);
    const std::vector<rt::NDArray> args = t::random_args(*m, 3);
    const std::vector<rt::Value> vals(args.begin(), args.end());
    const rt::Value want = cpu.call(vals);
    const uint64_t launches = t::simulated::state().launches;
    const rt::Value got = exe.call(vals);
    CHECK(t::simulated::state().launches > launches);
    // Matrix products and convolutions fold in their own order on the GPU, in the
    // library's on the CPU: K roundings of the longest accumulation apart at most.
    const double tolerance = std::max(1e-4, static_cast<double>(t::longest_accumulation(g)) * 0x1p-23);
    CHECK(max_diff(got, want) <= tolerance);
    // The arguments' device copies are kept: calls with the same tensors upload nothing.
    // From the second call on, a function wholly on the GPU replays one captured graph.
    const uint64_t uploaded = exe.argument_upload_bytes();
    CHECK(uploaded > 0);
    const uint64_t graph_launches = t::simulated::state().graph_launches;
    CHECK(max_diff(exe.call(vals), got) == 0);
    CHECK(exe.argument_upload_bytes() == uploaded);
    CHECK(exe.replayable() == replayable);
    CHECK(exe.replays() == (replayable ? 1u : 0u));
    CHECK(t::simulated::state().graph_launches == graph_launches + (replayable ? 1 : 0));
    // Once the cache holds the blocks a call needs, a call allocates nothing from the
    // driver (the second call's blocks are freed in another order than the first's, whose
    // arguments' copies stayed).
    const uint64_t allocations = gpu->driver_allocations();
    CHECK(max_diff(exe.call(vals), got) == 0);
    CHECK(gpu->driver_allocations() == allocations);
    // (a replayed function's graph holds its buffers; otherwise they are back in the cache)
    if (!replayable) CHECK(gpu->cached_blocks() > 0);
    // New tensors (a copy is a new tensor) are uploaded again, and their answer is theirs.
    std::vector<rt::Value> copies;
    for (const rt::NDArray& a : args) copies.emplace_back(a.copy());
    CHECK(max_diff(exe.call(copies), got) == 0);
    CHECK(exe.argument_upload_bytes() == 2 * uploaded);
    // ... and other values give their own answer, not the last call's.
    const std::vector<rt::NDArray> other_args = t::random_args(*m, 4);
    const std::vector<rt::Value> others(other_args.begin(), other_args.end());
    const rt::Value other = exe.call(others);
    CHECK(max_diff(other, cpu.call(others)) <= tolerance);
    CHECK(max_diff(other, got) > 0);
  }
  CHECK(t::simulated::state().live.empty());  // the device gave every block back
}

}  // namespace

TEST_CASE("GPU executables of the MLP and DQN compute what the CPU's do (simulated driver)", "[gpu][executable]") {
  check_model("mlp", 5);
  check_model("dqn", 3);
}

TEST_CASE("the GPU executable of ResNet-18 computes what the CPU's does (simulated driver)", "[gpu][executable]") {
  check_model("resnet18", 30);
}

TEST_CASE("a function with host nodes between its kernels is not replayed (simulated driver)", "[gpu][executable]") {
  // batch_matmul without transpose_b runs on the host, between two GPU groups
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%a: Tensor[(3, 5, 17), float32], %b: Tensor[(3, 17, 7), float32]) {
  %0 = nn.relu(%a);
  nn.relu(nn.batch_matmul(%0, %b, transpose_b=False))
})");
  REQUIRE(m->error.empty());
  check_loaded(m.get(), 1, false);
}

TEST_CASE("a reduction of few outputs over millions of elements runs split in two kernels (simulated driver)",
          "[gpu][executable]") {
  // a mean squared error over 2^21 elements (one output: 128 blocks, then a finish) and a
  // sum over all of a tensor, added on the GPU: replayed as one graph from the second call
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 1024, 1024), float32], %y: Tensor[(2, 1024, 1024), float32]) {
  %0 = subtract(%x, %y);
  add(mean(multiply(%0, %0)), sum(%x))
})");
  REQUIRE(m->error.empty());
  const t::FusedGraph fused = t::fused_main(*m);
  const compiler::GpuGroups planned = compiler::plan_gpu_groups(fused.graph, fused.plan, compiler::gpu::PtxTarget{90});
  size_t split = 0;
  for (size_t i = 0; i < planned.plans.size(); ++i)
    if (planned.plans[i] && planned.plans[i]->finish) {
      ++split;
      CHECK(planned.plans[i]->chunks == 128);
      CHECK(planned.plans[i]->workspace_bytes == 128 * sizeof(float));
      CHECK(planned.finish_entry[i] == planned.plan_entry[i] + 1);
    }
  CHECK(split == 2);
  check_loaded(m.get(), 3, true);
  // the report says so
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  std::vector<std::string> notes;
  compiler::GpuExecutable exe(fused.graph, fused.plan, {gpu.get()}, &notes);
  size_t said = 0;
  for (const std::string& n : notes) said += n.find("split over 128 blocks an output") != std::string::npos;
  CHECK(said == 2);
}

TEST_CASE("float16 products run on the GPU, on its tensor cores where blocks fit (simulated driver)",
          "[gpu][executable]") {
  // a dense layer whose 64 x 64 blocks fit (tensor cores), and a batch-1 one (a warp per
  // output); float32 sums rounded once to float16, as the CPU's reference rounds its own
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(64, 96), float16], %w: Tensor[(128, 96), float16], %v: Tensor[(1, 96), float16]) {
  (nn.dense(%x, %w, units=128), nn.dense(%v, %w, units=128))
})");
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  const compiler::Graph& g = fused.graph;
  const compiler::FusionPlan& plan = fused.plan;
  const compiler::GpuGroups planned = compiler::plan_gpu_groups(g, plan, compiler::gpu::PtxTarget{90});
  size_t tensor_core_kernels = 0;
  for (const auto& master : planned.masters)
    if (master && master->kernel.team() == loops::kBlockThreads) ++tensor_core_kernels;
  CHECK(tensor_core_kernels == 1);
  CHECK(planned.module.ptx.find("wmma.mma.sync") != std::string::npos);
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::GpuExecutable exe(g, plan, {gpu.get()}, nullptr);
  CHECK(exe.gpu_groups() == 2);
  compiler::ThreadPool pool(2);
  compiler::Executable cpu(g, plan, compiler::Jit::instance(), &pool, nullptr);
  const std::vector<rt::NDArray> args = t::random_args(*m, 5);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  // two float16 roundings of the result apart at most (each side rounds its own sum)
  CHECK(max_diff(exe.call(vals), cpu.call(vals)) <= 0x1p-9);
}

TEST_CASE("a float16 network runs wholly on the GPU, its convolutions on the tensor cores (simulated driver)",
          "[gpu][executable]") {
  // what ResNet-18 in float16 is made of: a convolution whose 64 output channels block tiles
  // fit (tensor cores), max and global average pools, a depthwise convolution (a thread per
  // output), a dense layer and the softmax, each in float16
  for (const char* dtype : {"float16", "bfloat16"}) {
    INFO(dtype);
    std::string text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 16, 16), T], %w1: Tensor[(64, 3, 3, 3), T], %w2: Tensor[(64, 1, 3, 3), T], %w3: Tensor[(10, 64), T]) {
  %0 = nn.relu(nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]));
  %1 = nn.max_pool2d(%0, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);
  %2 = nn.conv2d(%1, %w2, padding=[1, 1, 1, 1], groups=64, channels=64, kernel_size=[3, 3]);
  %3 = nn.batch_flatten(nn.global_avg_pool2d(%2));
  nn.softmax(nn.dense(%3, %w3, units=10))
})";
    for (size_t at = text.find(", T]"); at != std::string::npos; at = text.find(", T]", at)) text.replace(at + 2, 1, dtype);
    auto m = t::load_model_text(text);
    const t::FusedGraph fused = fused_on_simulated_gpu(*m);
    const compiler::GpuGroups planned = compiler::plan_gpu_groups(fused.graph, fused.plan, compiler::gpu::PtxTarget{90});
    CHECK(planned.whole_on_gpu() == fused.plan.groups.size());
    CHECK(planned.module.ptx.find("wmma.mma.sync") != std::string::npos);
    std::string why;
    std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
    REQUIRE(gpu);
    std::vector<std::string> notes;
    compiler::GpuExecutable exe(fused.graph, fused.plan, {gpu.get()}, &notes);
    CHECK(exe.gpu_groups() == fused.plan.groups.size());
    // --jit-report's count of the tiles chosen: the stem on the tensor cores, the depthwise
    // convolution a thread per output, the dense layer a warp per output
    REQUIRE(notes.size() == 2);
    CHECK(notes[1] == "GPU products and convolutions: 1 x a thread per output; 1 x a warp per output; "
                      "1 x tensor cores, 64 x 64 blocks");
    compiler::ThreadPool pool(2);
    compiler::Executable cpu(fused.graph, fused.plan, compiler::Jit::instance(), &pool, nullptr);
    const std::vector<rt::NDArray> args = t::random_args(*m, 7);
    const std::vector<rt::Value> vals(args.begin(), args.end());
    // the convolutions' sums differ in order (tensor cores) and so may round to a
    // neighbouring value; a few such roundings at the result's scale
    CHECK(max_diff(exe.call(vals), cpu.call(vals)) <= (std::string(dtype) == "float16" ? 0x1p-7 : 0x1p-4));
  }
}

TEST_CASE("ResNet-18 in float16 runs all its groups on the GPU, then replays them as one graph (simulated driver)",
          "[gpu][executable]") {
  std::string text, error;
  REQUIRE(read_text_file(std::string(RELAY_SOURCE_DIR) + "/tests/models/resnet18.relay", &text, &error));
  for (size_t at = text.find("float32"); at != std::string::npos; at = text.find("float32", at)) text.replace(at, 7, "float16");
  // the logits, not their softmax: with seeded weights the softmax is one-hot, and equal
  // on both sides whatever the logits' roundings
  const size_t softmax = text.find("nn.softmax(%89)");
  REQUIRE(softmax != std::string::npos);
  text.replace(softmax, std::string("nn.softmax(%89)").size(), "%89");
  auto m = t::load_model_text(text);
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::GpuExecutable exe(fused.graph, fused.plan, {gpu.get()}, nullptr);
  CHECK(exe.gpu_groups() == fused.plan.groups.size());
  CHECK(exe.host_groups() == 0);
  compiler::ThreadPool pool(2);
  compiler::Executable cpu(fused.graph, fused.plan, compiler::Jit::instance(), &pool, nullptr);
  const std::vector<rt::NDArray> args = t::scaled_args(*m, 3);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  const rt::Value want = cpu.call(vals);
  const rt::Value got = exe.call(vals);
  // every layer rounds to float16 on both sides, the convolutions' sums in their own orders
  // (the tensor cores', the CPU's): logits of about 3 agree within a few float16 ulps
  // (measured: 7.8e-4 of 1 + |logit|)
  double scale = 0;
  for (int64_t i = 0; i < want.tensor().size(); ++i) scale = std::max(scale, std::fabs(want.tensor().get_double(i)));
  CHECK(scale > 0.5);  // real logits: finite, not all zero
  CHECK(max_diff(got, want) <= 0x1p-7);
  const uint64_t graph_launches = t::simulated::state().graph_launches;
  CHECK(max_diff(exe.call(vals), got) == 0);
  CHECK(t::simulated::state().graph_launches == graph_launches + 1);
}

TEST_CASE("a GPU kernel's status word raises the reference's error (simulated driver)", "[gpu][executable]") {
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%a: Tensor[(6), int32], %b: Tensor[(6), int32]) {
  add(floor_divide(%a, %b), %a)
})");
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  const compiler::Graph& g = fused.graph;
  const compiler::FusionPlan& plan = fused.plan;
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::GpuExecutable exe(g, plan, {gpu.get()}, nullptr);
  REQUIRE(exe.gpu_groups() == 1);
  rt::NDArray a = rt::NDArray::empty({6}, DataType::int_(32)), b = rt::NDArray::empty({6}, DataType::int_(32));
  for (int64_t i = 0; i < 6; ++i) a.set_int(i, 10 * i), b.set_int(i, i + 1);
  const rt::Value ok = exe.call(std::vector<rt::Value>{rt::Value(a), rt::Value(b)});
  CHECK(ok.tensor().get_int(5) == 50 / 6 + 50);
  rt::NDArray zero = b.copy();  // a new tensor: values are immutable once passed
  zero.set_int(3, 0);
  try {
    exe.call(std::vector<rt::Value>{rt::Value(a), rt::Value(zero)});
    FAIL("a division by zero on the GPU went unnoticed");
  } catch (const rt::RuntimeError& e) {
    CHECK(std::string(e.what()).find("floor_divide") != std::string::npos);
  }
}

TEST_CASE("with --check-numerics a NaN made on the GPU names the operator (simulated driver)", "[gpu][executable]") {
  // log of a negative element is NaN: on the GPU the call's result holds it, so the machine
  // interprets the call again and the numerics checker names `log`, as without a GPU
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(8), float32]) -> Tensor[(8), float32] {
  multiply(log(%x), 2f)
})");
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);  // the entries JitRuntime will launch
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  rt::NDArray x = rt::NDArray::empty({8}, DataType::float_(32));
  for (int64_t i = 0; i < 8; ++i) x.data<float>()[i] = i == 5 ? -1.0f : 0.5f + static_cast<float>(i);
  auto run = [&](compiler::JitRuntime& jit, bool check_numerics) {
    rt::RunOptions options;
    options.tier = &jit.tier();
    options.check_numerics = check_numerics;
    return rt::run_function(*m->program->program, m->program->program->global(*m->program->find_global("main")),
                            {rt::Value(x)}, options, m->sources);
  };
  const jit::TierOptions eager{jit::JitMode::Eager, 1, 8, false};  // compiled at its first call
  const uint64_t launches = t::simulated::state().launches;
  {
    compiler::JitRuntime checked(compiler::program_types(*m->program), eager, 2, {gpu.get()});
    const rt::RunOutcome got = run(checked, true);
    std::string report;
    for (const auto& e : checked.tier().report())
      report += e.function + " state " + std::to_string(static_cast<int>(e.state)) + " native " +
                std::to_string(e.native_calls) + " interpreted " + std::to_string(e.interpreted_calls) + ": " + e.reason + "\n";
    INFO(report);
    CHECK(t::simulated::state().launches > launches);  // the call ran on the (simulated) GPU first
    REQUIRE(got.error);
    CHECK(std::string(got.error->code()) == "E0102");
    CHECK(got.error->message.find("`log`") != std::string::npos);
  }
  // without the checker the GPU's NaN is the answer
  compiler::JitRuntime plain(compiler::program_types(*m->program), eager, 2, {gpu.get()});
  const rt::RunOutcome nan = run(plain, false);
  REQUIRE(nan.value);
  CHECK(std::isnan(nan.value->tensor().data<float>()[5]));
  CHECK(nan.value->tensor().data<float>()[0] == 2.0f * std::log(0.5f));
}

TEST_CASE("a function whose capture fails runs kernel by kernel and says why (simulated driver)", "[gpu][executable]") {
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(64), float32], %y: Tensor[(64), float32]) {
  nn.relu(add(multiply(%x, %y), %x))
})");
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::GpuExecutable exe(fused.graph, fused.plan, {gpu.get()}, nullptr);
  compiler::ThreadPool pool(2);
  compiler::Executable cpu(fused.graph, fused.plan, compiler::Jit::instance(), &pool, nullptr);
  const std::vector<rt::NDArray> args = t::random_args(*m, 7);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  const rt::Value want = cpu.call(vals);
  CHECK(max_diff(exe.call(vals), want) == 0);
  t::simulated::state().fail_capture = true;  // the driver refuses to capture the second call
  CHECK(max_diff(exe.call(vals), want) == 0);
  CHECK(max_diff(exe.call(vals), want) == 0);
  t::simulated::state().fail_capture = false;
  CHECK(exe.replays() == 0);
  CHECK_FALSE(exe.replayable());
  bool said = false;
  for (const std::string& note : exe.run_notes()) said = said || note.find("capturing a CUDA graph failed") != std::string::npos;
  CHECK(said);
  // and later calls stay kernel by kernel, with the same answer
  const uint64_t graph_launches = t::simulated::state().graph_launches;
  CHECK(max_diff(exe.call(vals), want) == 0);
  CHECK(t::simulated::state().graph_launches == graph_launches);
}


namespace {

// Registers the CPU build of every candidate tile of every master of `g` under the entry
// the tuner times it by.
size_t register_trials(const compiler::Graph& g, const compiler::FusionPlan& plan) {
  size_t trials = 0;
  for (const compiler::FusedGroup& group : plan.groups) {
    std::string why;
    const auto master = compiler::gpu_master(g, group, compiler::gpu::PtxTarget{90}, &why);
    if (!master) continue;
    for (size_t i = 0; i < master->tiles(); ++i) {
      const std::string entry = compiler::TileTuner::trial_entry(*master, i);
      auto p = compiler::plan_gpu_master(*master, i, &why, entry);
      REQUIRE(p);
      t::simulated::state().kernels[entry] = compiler::Jit::instance().compile(p->kernel);
      if (p->finish) t::simulated::state().kernels[p->finish->name] = compiler::Jit::instance().compile(*p->finish);
      ++trials;
    }
  }
  return trials;
}

// A tile cache file saying that `tile` is the fastest for `shape` on the simulated GPU, as
// a run after the one that measured it would find it; the caller removes it.
std::string cache_saying(const std::string& shape, const std::string& tile) {
  static int files = 0;
  const std::string cache = (std::filesystem::temp_directory_path() /
                             ("relay-tile-cache-" + std::to_string(::getpid()) + "-" + std::to_string(++files) + ".tsv"))
                                .string();
  std::ofstream(cache) << "simulated GPU (kernels on the CPU JIT)\tsm90\t" << shape << "\t" << tile << "\t0.1\tt1x1\t1\n";
  return cache;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("tuned tiles: every tile is timed on the GPU, the fastest taken, the choice reused (simulated driver)",
          "[gpu][executable][tiles]") {
  // a convolution whose block tiles fit (and split k, and Winograd's kernel) and a dense
  // layer: 15 and 11 candidates
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 16, 8, 8), float32], %w: Tensor[(64, 16, 3, 3), float32], %v: Tensor[(64, 40), float32], %u: Tensor[(128, 40), float32]) {
  (nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3])), nn.dense(%v, %u, units=128))
})");
  REQUIRE(m->error.empty());
  const t::FusedGraph fused = t::fused_main(*m);
  const compiler::Graph& g = fused.graph;
  const compiler::FusionPlan& plan = fused.plan;
  CHECK(register_trials(g, plan) == 26);
  // The simulated GPU's clock: 32 x 32 block tiles reading ahead with k split in 2 are the
  // convolution's fastest (0.125 ms and 0.0625 ms for the finish; 8 x 8 blocks take 0.25
  // ms, and without k split 2 ms), a warp per 1 x 4 outputs the product's; neither is the
  // rule's. The split tile whose first kernel is fastest loses by its finish.
  t::simulated::state().launch_ms = [](const std::string& entry) {
    if (entry.ends_with("_conv2d_try_block32ps2")) return 0.125;
    if (entry.ends_with("_conv2d_try_block32ps2_finish")) return 0.0625;
    if (entry.ends_with("_conv2d_try_block32s2")) return 0.0625;
    if (entry.ends_with("_conv2d_try_block32s2_finish")) return 0.375;
    if (entry.ends_with("_conv2d_try_block8")) return 0.25;
    if (entry.ends_with("_dense_try_t1x4_warp")) return 0.5;
    return 2.0;
  };
  auto expected = [](const compiler::GpuMaster& master) {
    const std::string want = master.kernel_name.ends_with("_conv2d") ? "block32ps2" : "t1x4_warp";
    for (size_t i = 0; i < master.tiles(); ++i)
      if (master.tile_label(i) == want) return i;
    FAIL("no candidate " << want);
    return size_t{0};
  };
  register_kernels(g, plan, expected);
  // plan_gpu_groups takes the chooser's tiles
  const compiler::GpuGroups chosen = compiler::plan_gpu_groups(g, plan, compiler::gpu::PtxTarget{90}, expected);
  std::vector<std::string> tiles;
  for (const auto& master : chosen.masters)
    if (master) tiles.push_back(master->tile);
  CHECK(tiles == std::vector<std::string>{
                     "32 x 32 blocks, 4 x 4 outputs a thread, the next slice read ahead, k split in 2",
                     "a warp per 1 x 4 outputs"});
  // the convolution's two kernels, in the module after each other
  REQUIRE(chosen.masters[0]);
  REQUIRE(chosen.masters[0]->finish);
  CHECK(chosen.master_finish_entry[0] == chosen.master_entry[0] + 1);
  CHECK(chosen.masters[0]->workspace_bytes == 2u * 2 * 64 * 64 * 4);  // 2 parts of 2 x 64 x 8 x 8 float32 sums

  const std::string cache = (std::filesystem::temp_directory_path() /
                             ("relay-tile-cache-" + std::to_string(::getpid()) + ".tsv")).string();
  std::filesystem::remove(cache);
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::ThreadPool pool(2);
  compiler::Executable cpu(g, plan, compiler::Jit::instance(), &pool, nullptr);
  const std::vector<rt::NDArray> args = t::random_args(*m, 7);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  const rt::Value want = cpu.call(vals);
  {
    compiler::TileTuner tuner(*gpu, cache);
    std::vector<std::string> notes;
    const uint64_t launches = t::simulated::state().launches;
    compiler::GpuExecutable exe(g, plan, {gpu.get(), &tuner}, &notes);
    // every candidate: a warm-up launch, a timed estimate and two rounds, each of one
    // launch at 2 ms or more (over the round's millisecond), two at 0.5 ms (0.4375 ms),
    // four at 0.25 ms, five at 0.1875 ms; a split candidate's launch is two kernels: the
    // convolution's 10 x 4 + 10 (block8) + 2 x 8 + 12 (block32s2) + 24 (block32ps2)
    // launches, the product's 10 x 4 + 6
    CHECK(t::simulated::state().launches - launches == 148);
    REQUIRE(tuner.choices().size() == 2);
    CHECK(tuner.choices()[0].tile == "block32ps2");
    CHECK(tuner.choices()[0].rule_tile == "t1x1");
    CHECK(tuner.choices()[0].ms == Approx(0.1875));
    CHECK(tuner.choices()[0].rule_ms == Approx(2.0));
    CHECK(tuner.choices()[0].tried == 15);
    CHECK(tuner.choices()[1].tile == "t1x4_warp");
    CHECK(tuner.choices()[1].tried == 11);
    const std::string report = [&] {
      std::string r;
      for (const std::string& n : notes) r += n + "\n";
      return r;
    }();
    INFO(report);
    CHECK(report.find("tiles measured on the GPU (--tune-tiles): 2 products and convolutions, 2 timed now, 0 from " +
                      cache + "; 2 differ from the rules'") != std::string::npos);
    CHECK(report.find("tile conv2d float32 n2 c16 8x8 o64 8x8 k3x3 s1x1 d1x1 p1x1 g1: block32ps2 0.1875 ms; the "
                      "rule's t1x1 2.0000 ms (10.6x), of 15 timed") != std::string::npos);
    CHECK(report.find("tile matmul float32 b1/1/1 m64 n128 k40: t1x4_warp 0.5000 ms") != std::string::npos);
    // the chosen kernels compute what the CPU's code does (the split convolution adds its
    // terms in another order)
    CHECK(max_diff(exe.call(vals), want) <= 40 * 0x1p-23 * 40);
  }
  // The cache file holds both choices; a new tuner (a later run) times nothing.
  const std::string file = read_file(cache);
  CHECK(file.starts_with("# relay: GPU tiles measured"));
  CHECK(file.find("simulated GPU (kernels on the CPU JIT)\tsm90\tconv2d float32 n2 c16 8x8 o64 8x8 k3x3 s1x1 d1x1 "
                  "p1x1 g1\tblock32ps2\t0.1875\tt1x1\t2.0000\n") != std::string::npos);
  {
    compiler::TileTuner tuner(*gpu, cache);
    std::vector<std::string> notes;
    const uint64_t launches = t::simulated::state().launches;
    compiler::GpuExecutable exe(g, plan, {gpu.get(), &tuner}, &notes);
    CHECK(t::simulated::state().launches == launches);
    REQUIRE(tuner.choices().size() == 2);
    CHECK(tuner.choices()[0].tile == "block32ps2");
    CHECK(tuner.choices()[0].tried == 0);
    CHECK(std::find(notes.begin(), notes.end(),
                    "tiles measured on the GPU (--tune-tiles): 2 products and convolutions, 0 timed now, 2 from " + cache +
                        "; 2 differ from the rules'") != notes.end());
    CHECK(max_diff(exe.call(vals), want) <= 40 * 0x1p-23 * 40);
  }
  // A line that is not one of ours is passed over; a tile that is no longer a candidate
  // is timed again (the product's), and the newer line wins next time.
  {
    std::ofstream out(cache, std::ios::app);
    out << "not a tile line\n"
        << "simulated GPU (kernels on the CPU JIT)\tsm90\tmatmul float32 b1/1/1 m64 n128 k40\tt9x9\t0.1\tt1x1\t1\n";
  }
  {
    compiler::TileTuner tuner(*gpu, cache);
    const uint64_t launches = t::simulated::state().launches;
    compiler::GpuExecutable exe(g, plan, {gpu.get(), &tuner}, nullptr);
    CHECK(t::simulated::state().launches - launches == 46);
    REQUIRE(tuner.choices().size() == 2);
    CHECK(tuner.choices()[0].tried == 0);
    CHECK(tuner.choices()[1].tried == 11);
    CHECK(tuner.choices()[1].tile == "t1x4_warp");
  }
  std::filesystem::remove(cache);
  t::simulated::state().launch_ms = nullptr;
}

namespace {

// A convolution's function run on the simulated GPU with the tile labelled `label`, as a
// later run finds it in the tuner's cache (`shape`: the cache's key): the tuner's choice
// and the executable's notes (which must name the tile in `words`) are checked, then the
// function runs kernel by kernel (`launches` launches) and replayed as a graph (one
// graph launch, the same bits). The first call's largest difference from the CPU
// executable's answer.
double run_with_cached_tile(const std::string& text, const std::string& shape, const std::string& label,
                            const std::string& words, uint64_t launches, uint64_t seed) {
  auto m = t::load_model_text(text);
  REQUIRE(m->error.empty());
  const t::FusedGraph fused = t::fused_main(*m);
  auto labelled = [&](const compiler::GpuMaster& master) {
    for (size_t i = 0; i < master.tiles(); ++i)
      if (master.tile_label(i) == label) return i;
    FAIL("no candidate " << label);
    return size_t{0};
  };
  register_kernels(fused.graph, fused.plan, labelled);
  const std::string cache = cache_saying(shape, label);
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::TileTuner tuner(*gpu, cache);
  std::vector<std::string> notes;
  compiler::GpuExecutable exe(fused.graph, fused.plan, {gpu.get(), &tuner}, &notes);
  std::filesystem::remove(cache);
  REQUIRE(tuner.choices().size() == 1);
  CHECK(tuner.choices()[0].tile == label);
  std::string report;
  for (const std::string& n : notes) report += n + "\n";
  INFO(report);
  CHECK(report.find(words) != std::string::npos);

  compiler::ThreadPool pool(2);
  compiler::Executable cpu(fused.graph, fused.plan, compiler::Jit::instance(), &pool, nullptr);
  const std::vector<rt::NDArray> args = t::random_args(*m, seed);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  const rt::Value want = cpu.call(vals);
  const uint64_t before = t::simulated::state().launches;
  const rt::Value first = exe.call(vals);
  CHECK(t::simulated::state().launches - before == launches);
  const uint64_t graph_launches = t::simulated::state().graph_launches;
  const rt::Value again = exe.call(vals);
  CHECK(t::simulated::state().graph_launches == graph_launches + 1);
  CHECK(max_diff(again, first) == 0);
  return max_diff(first, want);
}

}  // namespace

TEST_CASE("a convolution with k split runs its two kernels through a workspace, then replayed (simulated driver)",
          "[gpu][executable][tiles]") {
  // 64 x 64 outputs over 576 terms (36 slices): one block of 64 x 64, so k splits in 9;
  // kernel by kernel: the parts' sums, their finish, the epilogue
  const double diff = run_with_cached_tile(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 64, 7, 7), float32], %w: Tensor[(64, 64, 3, 3), float32], %b: Tensor[(64, 1, 1), float32]) {
  nn.relu(add(nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]), %b))
})",
                                           "conv2d float32 n1 c64 7x7 o64 7x7 k3x3 s1x1 d1x1 p1x1 g1", "block32ps9",
                                           "32 x 32 blocks, 4 x 4 outputs a thread, the next slice read ahead, k split in 9",
                                           3, 11);
  CHECK(diff <= 576 * 0x1p-23 * 8);
}

TEST_CASE("a convolution by Winograd's kernel runs kernel by kernel, then replayed (simulated driver)",
          "[gpu][executable][tiles][winograd]") {
  // 32 x 9 x 9 into 64 channels: 25 tiles of 2 x 2 outputs (the last row and column half
  // outside), two blocks of 32 channels; the convolution, then the epilogue. Other sums
  // than the direct convolution's (gpu_winograd_test.cpp bounds them): within a few
  // roundings of 288 terms, and not the CPU's bits
  const char* text = R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 32, 9, 9), float32], %w: Tensor[(64, 32, 3, 3), float32], %b: Tensor[(64, 1, 1), float32]) {
  nn.relu(add(nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]), %b))
})";
  const double diff = run_with_cached_tile(text, "conv2d float32 n1 c32 9x9 o64 9x9 k3x3 s1x1 d1x1 p1x1 g1", "wino",
                                           "Winograd F(2x2, 3x3)", 2, 13);
  CHECK(diff <= 288 * 0x1p-23 * 16);
  CHECK(diff > 0);
  // 256 input channels over 5 x 5: one block of tiles, two of channels: split in 4 parts
  // (their outputs, their finish, the epilogue)
  const double split = run_with_cached_tile(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 256, 5, 5), float32], %w: Tensor[(64, 256, 3, 3), float32], %b: Tensor[(64, 1, 1), float32]) {
  nn.relu(add(nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]), %b))
})",
                                            "conv2d float32 n1 c256 5x5 o64 5x5 k3x3 s1x1 d1x1 p1x1 g1", "winos4",
                                            "input channels split in 4", 3, 17);
  CHECK(split <= 2304 * 0x1p-23 * 16);
  CHECK(split > 0);
}

TEST_CASE("tuned tiles: a shape none of whose candidates loads keeps the rule's tile, untimed (simulated driver)",
          "[gpu][executable][tiles]") {
  // the candidates' entries are not registered: the driver finds none of them
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%v: Tensor[(64, 48), float32], %u: Tensor[(128, 48), float32]) {
  nn.dense(%v, %u, units=128)
})");
  REQUIRE(m->error.empty());
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::TileTuner tuner(*gpu, "");
  std::vector<std::string> notes;
  compiler::GpuExecutable exe(fused.graph, fused.plan, {gpu.get(), &tuner}, &notes);
  REQUIRE(tuner.choices().size() == 1);
  CHECK(tuner.choices()[0].tried == 0);
  CHECK(tuner.choices()[0].tile == tuner.choices()[0].rule_tile);
  CHECK(std::find(notes.begin(), notes.end(),
                  "tile matmul float32 b1/1/1 m64 n128 k48: t1x1, the rule's, untimed (its candidates did not load "
                  "here)") != notes.end());
  compiler::ThreadPool pool(2);
  compiler::Executable cpu(fused.graph, fused.plan, compiler::Jit::instance(), &pool, nullptr);
  const std::vector<rt::NDArray> args = t::random_args(*m, 9);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  CHECK(max_diff(exe.call(vals), cpu.call(vals)) <= 48 * 48 * 0x1p-23);
}

TEST_CASE("the tile cache's file: $RELAY_TILE_CACHE, else under $XDG_CACHE_HOME, else under ~/.cache", "[tiles]") {
  // the environment as it was, restored at the end
  auto saved = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const auto cache = saved("RELAY_TILE_CACHE"), xdg = saved("XDG_CACHE_HOME"), home = saved("HOME");
  ::setenv("RELAY_TILE_CACHE", "/tmp/tiles.tsv", 1);
  CHECK(compiler::TileTuner::default_cache_file() == "/tmp/tiles.tsv");
  ::setenv("RELAY_TILE_CACHE", "", 1);  // set but empty: no file
  CHECK(compiler::TileTuner::default_cache_file().empty());
  ::unsetenv("RELAY_TILE_CACHE");
  ::setenv("XDG_CACHE_HOME", "/var/cache/me", 1);
  ::setenv("HOME", "/home/me", 1);
  CHECK(compiler::TileTuner::default_cache_file() == "/var/cache/me/relay/gpu-tiles.tsv");
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(compiler::TileTuner::default_cache_file() == "/home/me/.cache/relay/gpu-tiles.tsv");
  auto restore = [](const char* name, const std::optional<std::string>& v) {
    if (v) ::setenv(name, v->c_str(), 1);
    else ::unsetenv(name);
  };
  restore("RELAY_TILE_CACHE", cache);
  restore("XDG_CACHE_HOME", xdg);
  restore("HOME", home);
}

TEST_CASE("the GPU profile (--profile) times each launch and lists the heaviest kernels with their rates (simulated driver)",
          "[gpu][executable]") {
  // a convolution with a ReLU epilogue, a dense layer and a softmax: four kernels on the
  // simulated clock, which the profile must rank and rate by the clock, not by run order
  auto m = t::load_model_text(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 16, 8, 8), float32], %w: Tensor[(32, 16, 3, 3), float32], %u: Tensor[(10, 2048), float32]) {
  %0 = nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=32, kernel_size=[3, 3]));
  nn.softmax(nn.dense(reshape(%0, newshape=[2, 2048]), %u, units=10))
})");
  const t::FusedGraph fused = fused_on_simulated_gpu(*m);
  bool cold = true;  // the first call: its launches load the kernels, which the profile leaves out
  t::simulated::state().launch_ms = [&cold](const std::string& entry) {
    if (cold) return 100.0;
    if (entry.ends_with("_conv2d")) return 0.001;  // the convolution's master kernel
    if (entry.ends_with("_dense")) return 2.0;
    return 0.016384;
  };
  std::string why;
  std::unique_ptr<cuda::Device> gpu = cuda::Device::open(t::simulated::api(), 0, &why);
  REQUIRE(gpu);
  compiler::GpuExecutable plain(fused.graph, fused.plan, {gpu.get()}, nullptr);
  compiler::GpuExecutable profiled(fused.graph, fused.plan, {gpu.get(), nullptr, true}, nullptr);
  REQUIRE(profiled.replayable());  // all on the GPU: only the profile keeps it from replaying
  const std::vector<rt::NDArray> args = t::random_args(*m, 5);
  const std::vector<rt::Value> vals(args.begin(), args.end());
  const rt::Value want = plain.call(vals);
  const uint64_t graph_launches = t::simulated::state().graph_launches;
  for (int call = 0; call < 3; ++call) {
    CHECK(max_diff(profiled.call(vals), want) == 0);
    cold = false;
  }
  CHECK(profiled.replays() == 0);
  CHECK(t::simulated::state().graph_launches == graph_launches);
  t::simulated::state().launch_ms = nullptr;

  std::vector<std::string> notes = profiled.run_notes();
  const auto first = std::find_if(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("GPU profile:"); });
  REQUIRE(first != notes.end());
  std::string said;
  for (const std::string& n : notes) said += n + "\n";
  INFO(said);
  // a call's kernels: the dense master 2 ms, the convolution 0.001 ms, the others 0.016 ms
  const size_t kernels = static_cast<size_t>(notes.end() - first) - 1;
  REQUIRE(kernels >= 4);
  char total[32];
  std::snprintf(total, sizeof total, "%.3f ms", 2.001 + 0.016384 * static_cast<double>(kernels - 2));
  CHECK(first->find(std::string("GPU profile: ") + total + " a call over 2 call(s) after the first (" +
                    std::to_string(kernels) + " kernels") != std::string::npos);
  // the heaviest first, each named and rated: the dense layer's 2 x 10 x 2048 multiply-adds
  // in 2 ms are 0.04 GFLOP/s; the convolution's 2 x 32 x 8 x 8 x 144 in 1 us are 1.18 TFLOP/s
  CHECK(first[1].find("2.000 ms") != std::string::npos);
  CHECK(first[1].find(" 0.0 GFLOP/s") != std::string::npos);
  CHECK(first[1].find("matmul float32 b1/1/1 m2 n10 k2048") != std::string::npos);
  const auto conv = std::find_if(first, notes.end(), [](const std::string& n) { return n.find("conv2d float32") != std::string::npos; });
  REQUIRE(conv != notes.end());
  CHECK(conv == notes.end() - 1);  // the lightest
  CHECK(conv->find("conv2d float32 n2 c16 8x8 o32 8x8 k3x3") != std::string::npos);
  CHECK(conv->find("0.001 ms") != std::string::npos);
  CHECK(conv->find("1.18 TFLOP/s") != std::string::npos);
  // the ReLU epilogue: bytes a second (it reads and writes 2 x 32 x 8 x 8 floats, 32 KiB,
  // in 16.384 us: 2 GB/s)
  const auto epilogue = std::find_if(first, notes.end(), [](const std::string& n) { return n.find("epilogue (nn.relu)") != std::string::npos; });
  REQUIRE(epilogue != notes.end());
  CHECK(epilogue->find("0.016 ms") != std::string::npos);
  CHECK(epilogue->find(" 2.0 GB/s") != std::string::npos);
  CHECK(epilogue->find("[4 x 256 threads]") != std::string::npos);  // its launch
}

#endif  // RELAY_HAVE_PIPELINE
