// relay_gpu_bundle: writes what the GPU check (scripts/gpu-check.sh) runs on a machine
// with an NVIDIA GPU, which has none of this project's dependencies: PTX modules
// generated here, each kernel's inputs, and the outputs the interpreter's reference
// kernels compute from them. gpu_check.cpp reads it (format: tests/gpu/README.md).
//
//   relay_gpu_bundle --out DIR [--budget-mib N] [--models a,b,...] [--arch sm_90]
//
// Cases: every lowered element-wise operator at every dtype and every cast (random
// inputs with edge values; a case whose reference fails expects the kernel's status
// flag instead of an output), then each GPU group of the models in tests/models with the
// activations of one interpreted run (seeded inputs), as long as the data stays within
// the budget; and the benchmark: an element-wise chain over 1 GiB beside a device copy.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/graph/passes.h"
#include "compiler/graph/run_graph.h"
#include "compiler/loops/conv2d.h"
#include "compiler/llvm/jit.h"
#include "compiler/loops/matmul.h"
#include "compiler/pipeline/gpu_groups.h"
#include "compiler/pipeline/kernel_fusion.h"
#include "interpreter/eval/run.h"
#include "lang/base/source.h"
#include "tests/compiler_jit/support.h"
#include "tests/support/conv_tolerance.h"
#include "tests/support/product_tolerance.h"

using namespace relay;

namespace {

struct Options {
  std::string out;
  size_t budget = size_t{48} << 20;
  // tests/models/NAME.relay, or with `kernels/` tests/gpu/kernels/NAME.relay (the kernel
  // families the models do not reach at their shapes)
  std::vector<std::string> models = {"mlp",     "dqn",       "lstm",          "dcgan",           "kernels/float32",
                                     "kernels/float16", "kernels/bfloat16", "resnet18", "mobilenet", "squeezenet1_1",
                                     "quantized_cnn", "quantized_attention"};
  compiler::gpu::PtxTarget target{90};
};

[[noreturn]] void usage(int status) {
  std::fprintf(status ? stderr : stdout,
               "usage: relay_gpu_bundle --out DIR [--budget-mib N] [--models a,b,...] [--arch sm_XX]\n");
  std::exit(status);
}

std::string word(std::string s) {
  for (char& c : s)
    if (c == ' ' || c == '\t' || c == '\n') c = '_';
  return s;
}

// The bundle being written: the manifest and one data file that every case points into.
class Writer {
 public:
  explicit Writer(const std::string& dir) : dir_(dir) {
    std::filesystem::create_directories(dir);
    data_.open(dir + "/data.bin", std::ios::binary | std::ios::trunc);
  }
  size_t bytes() const { return offset_; }
  int module(const std::string& name, const std::string& ptx) {
    const std::string file = name + ".ptx";
    std::ofstream(dir_ + "/" + file, std::ios::binary) << ptx;
    manifest_ << "module " << name << " " << file << "\n";
    return modules_++;
  }
  // `rtol`: the relative tolerance of float32/float64 outputs (gpu_check.cpp).
  // rtol, atol: a float output's bound (tests/gpu/README.md; atol -1: the tensor's scale's)
  void begin_case(const std::string& name, int module, const compiler::gpu::PtxKernelInfo& k, int status,
                  double rtol = 1e-5, double atol = -1) {
    manifest_ << "case " << word(name) << " " << module << " " << k.entry << " " << k.grid << " " << k.block << " "
              << status << " " << rtol << " " << atol << "\n";
  }
  void input(const rt::NDArray& a) { manifest_ << "in " << dtype_name(a.dtype()) << " " << a.nbytes() << " " << put(a) << "\n"; }
  // An expected output (or, without `a`, an output that is not compared: the status decides).
  void output(DataType t, size_t bytes, const rt::NDArray* a) {
    manifest_ << "out " << dtype_name(t) << " " << bytes << " " << (a ? std::to_string(put(*a)) : "-") << "\n";
  }
  void end_case() { manifest_ << "end\n"; }
  void line(const std::string& s) { manifest_ << s << "\n"; }
  void finish() { std::ofstream(dir_ + "/manifest.txt") << manifest_.str(); }

 private:
  size_t put(const rt::NDArray& a) {
    const size_t at = offset_;
    data_.write(static_cast<const char*>(a.raw()), static_cast<std::streamsize>(a.nbytes()));
    offset_ += a.nbytes();
    return at;
  }
  std::string dir_;
  std::ofstream data_;
  std::ostringstream manifest_;
  size_t offset_ = 0;
  int modules_ = 0;
};

// The operator cases: one module, one case per program.
void write_operator_cases(Writer& w, const Options& o) {
  std::vector<std::pair<std::string, loops::ElementwiseProgram>> programs = test::every_elementwise_program();
  std::vector<loops::LoweredKernel> lowered;
  std::vector<const loops::Kernel*> kernels;
  for (auto& [label, p] : programs) {
    lowered.push_back(loops::lower_elementwise(p, "op", loops::LoopShape::Gpu));
    if (!lowered.back().ok()) throw std::runtime_error(label + ": " + lowered.back().error);
  }
  for (const auto& l : lowered) kernels.push_back(&l.kernel);
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, o.target);
  const int module = w.module("operators", m.ptx);
  std::mt19937_64 rng(20261126);
  for (size_t i = 0; i < programs.size(); ++i) {
    const loops::ElementwiseProgram& p = programs[i].second;
    std::vector<rt::NDArray> inputs;
    for (const loops::EwInput& in : p.inputs) inputs.push_back(test::random_tensor(in.dtype, in.shape, rng));
    std::string error;
    std::optional<rt::NDArray> expected = test::run_reference(p, inputs, error);
    const bool can_fail = lowered[i].status_buffer >= 0;
    w.begin_case("op " + programs[i].first, module, m.kernels[i], can_fail ? (expected ? 0 : 1) : -1);
    for (const rt::NDArray& in : inputs) w.input(in);
    const size_t out_bytes = static_cast<size_t>(rt::shape_size(p.out_shape)) * rt::dtype_bytes(p.out_dtype);
    w.output(p.out_dtype, out_bytes, expected ? &*expected : nullptr);
    w.end_case();
  }
  std::fprintf(stderr, "operators: %zu cases\n", programs.size());
}

// A model of tests/models (or tests/gpu/kernels), checked, as a graph at its annotated shapes, with seeded
// arguments uniform in [-1, 1) (parameters named *var*, batch-norm variances: [0.5, 1.5)).
struct Model {
  SourceManager sources;
  std::unique_ptr<rt::LoadedProgram> program;
  std::optional<compiler::Graph> graph;
  std::vector<rt::NDArray> args;
};

std::unique_ptr<Model> load_model(const std::string& name) {
  auto m = std::make_unique<Model>();
  const bool kernels = name.rfind("kernels/", 0) == 0;
  const std::string path = std::string(RELAY_SOURCE_DIR) + (kernels ? "/tests/gpu/" : "/tests/models/") + name + ".relay";
  std::string text, error;
  if (!read_text_file(path, &text, &error)) throw std::runtime_error(error);
  DiagnosticBag diags;
  m->program = rt::load_program(m->sources, m->sources.add(path, text), "main", nullptr, diags);
  if (!m->program || diags.has_errors()) throw std::runtime_error(name + ": does not load");
  const InferredTypes* types = m->program->types.find(m->program->entry);
  auto specs = compiler::arg_specs_from_types(*m->program->entry, types, {}, error);
  if (!specs) throw std::runtime_error(name + ": " + error);
  compiler::BuildResult built =
      compiler::build_graph(*m->program->entry, types, m->program->front.module->metadata.get(), *specs);
  if (!built.ok()) throw std::runtime_error(name + ": not a graph: " + built.reason);
  m->graph = compiler::optimize(*built.graph);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (size_t i = 0; i < specs->size(); ++i) {
    const bool positive = std::string_view(m->program->entry->fn->params[i]->name).find("var") != std::string_view::npos;
    rt::NDArray a = rt::NDArray::empty((*specs)[i].shape, (*specs)[i].dtype);
    for (int64_t k = 0; k < a.size(); ++k) a.set_double(k, positive ? 1.0 + 0.5 * u(rng) : u(rng));
    m->args.push_back(a);
  }
  return m;
}

// Runs `kernel` (a GPU-shaped one: the CPU JIT runs those too) on host buffers.
void run_on_cpu(const loops::Kernel& kernel, std::vector<void*> buffers) {
  compiler::run_kernel(compiler::Jit::instance().compile(kernel), buffers.data(), nullptr);
}

// A float32 sum or mean that a team folds (a warp's or a block's threads, or a split's
// chunks) adds in another order than the reference, so the two differ by both orders'
// roundings. (n + 8) roundings of each output's sum of |terms| bound that for any order
// (tests/compiler_jit/reduction_test.cpp), but over 2^19 terms that is 3% of the sum: a
// lost chunk would pass. The roundings of a long sum add up like a random walk, so this
// bound takes 8 (sqrt(n) + 8) of them: about 4e-4 of the sum of |terms| for a 2^19-term
// sum, ten times the typical difference. (The elements' rtol of 1e-5 alone would fail
// such sums: the reference's serial fold is itself some sqrt(n) roundings off.) The
// absolute part of the bound, the largest over the outputs; -1 when the kernel folds in
// the reference's order. `finished`: of the outputs (a mean's divided by
// n), else of a split's partial results (sums).
double reordered_sum_atol(const compiler::Graph& g, const compiler::FusedGroup& group, const compiler::NativePlan& p,
                          const std::vector<rt::Value>& values, bool finished = true) {
  if (p.kind != compiler::NativePlan::Kind::Reduction || (p.kernel.team() <= 1 && !p.finish)) return -1;
  std::vector<compiler::NodeId> inputs;
  std::string why;
  auto program = compiler::reduction_program(g, group, &inputs, &why);
  if (!program || program->prologue.out_dtype != DataType::float_(32) ||
      (program->op != loops::ReduceOp::Sum && program->op != loops::ReduceOp::Mean))
    return -1;
  loops::ReductionProgram magnitude = *program;  // the sum of |terms|, on the CPU
  magnitude.op = loops::ReduceOp::Sum;
  magnitude.count_offset = 0;
  magnitude.prologue.steps.push_back(
      {"abs", {loops::EwOperand::step(static_cast<int>(magnitude.prologue.steps.size()) - 1)}, {}, DataType::float_(32)});
  const loops::LoweredKernel k = loops::lower_reduction(magnitude, "magnitude");
  if (!k.ok()) throw std::runtime_error("the bound of a reduction: " + k.error);
  rt::NDArray sums = rt::NDArray::empty(magnitude.out_shape, DataType::float_(32));
  std::vector<void*> buffers;
  for (compiler::NodeId in : inputs) buffers.push_back(values[in].tensor().raw());
  buffers.push_back(sums.raw());
  int32_t status = 0;
  if (k.status_buffer >= 0) buffers.push_back(&status);
  run_on_cpu(k.kernel, buffers);
  const double n = static_cast<double>(rt::shape_size(program->prologue.out_shape)) /
                   static_cast<double>(std::max<int64_t>(sums.size(), 1));
  double atol = 0;
  for (int64_t i = 0; i < sums.size(); ++i)
    atol = std::max(atol, 8 * (std::sqrt(n) + 8) * 0x1p-24 * sums.get_double(i) /
                              (finished && program->op == loops::ReduceOp::Mean ? n : 1.0));
  return atol;
}

// Each model's GPU groups with the activations of one interpreted run.
void write_model_cases(Writer& w, const Options& o) {
  for (const std::string& name : o.models) {
    std::unique_ptr<Model> m = load_model(name);
    const compiler::Graph& g = *m->graph;
    const compiler::FusionPlan plan = compiler::fuse_for_kernels(g);
    const compiler::GpuGroups gpu = compiler::plan_gpu_groups(g, plan, o.target);
    // Every node's value: the reference kernels over the whole graph, one node at a time.
    const std::vector<rt::NDArray>& args = m->args;
    std::vector<rt::Value> values(g.size());
    size_t needed = 0;
    for (compiler::NodeId id = 0; id < g.size(); ++id) {
      const compiler::Node& n = g[id];
      if (n.kind == compiler::NodeKind::Input) values[id] = rt::Value(args[n.index]);
      else if (n.kind == compiler::NodeKind::Constant) values[id] = rt::Value(n.constant);
      else values[id] = compiler::eval_node(g, id, values);
    }
    for (size_t i = 0; i < gpu.plans.size(); ++i)
      for (const auto* p : {&gpu.masters[i], &gpu.plans[i]})
        if (*p) {
          for (compiler::NodeId in : (*p)->part.inputs) needed += values[in].tensor().nbytes();
          needed += values[(*p)->part.outputs[0]].tensor().nbytes();
        }
    if (w.bytes() + needed > o.budget) {
      std::fprintf(stderr, "%s: left out (its %.1f MiB would pass the %.0f MiB budget)\n", name.c_str(),
                   static_cast<double>(needed) / (1 << 20), static_cast<double>(o.budget) / (1 << 20));
      continue;
    }
    std::string file = name;  // the module's file name: kernels/float32 -> kernels_float32
    std::replace(file.begin(), file.end(), '/', '_');
    const int module = w.module(file, gpu.module.ptx);
    size_t cases = 0;
    for (size_t i = 0; i < gpu.plans.size(); ++i) {
      const std::string group = name + " group " + std::to_string(plan.groups[i].id);
      for (int part = 0; part < 2; ++part) {
        const auto& p = part == 0 ? gpu.masters[i] : gpu.plans[i];
        if (!p) continue;
        const int entry = part == 0 ? gpu.master_entry[i] : gpu.plan_entry[i];
        // A matrix product or a convolution folds its terms in another order than the
        // reference's BLAS.
        const std::string_view master = g[plan.groups[i].master].op->name;
        double rtol = 1e-5, atol = -1;
        if (part == 0) {
          const testing::FoldBound bound =
              master == "nn.conv2d"
                  ? testing::conv2d_bound(g, plan.groups[i].master, values)
                  : testing::product_bound(values[p->part.inputs[0]].tensor(), values[p->part.inputs[1]].tensor(),
                                           values[p->part.outputs[0]].tensor(), master == "nn.batch_matmul");
          rtol = bound.rtol(), atol = bound.atol();
        } else {
          atol = reordered_sum_atol(g, plan.groups[i], *p, values);
        }
        const rt::NDArray& out = values[p->part.outputs[0]].tensor();
        if (part == 1 && p->finish) {
          // A split reduction, as two cases: the first kernel's partial results against
          // the CPU JIT's run of the same kernel (the same fold order), then the finish
          // from those partials against the reference.
          const DataType partial_t = p->kernel.buffer(p->output_buffer).dtype;
          rt::NDArray partials =
              rt::NDArray::empty({static_cast<int64_t>(p->workspace_bytes / rt::dtype_bytes(partial_t))}, partial_t);
          std::vector<void*> buffers;
          for (compiler::NodeId in : p->part.inputs) buffers.push_back(values[in].tensor().raw());
          buffers.push_back(partials.raw());
          int32_t status = 0;
          if (p->status_buffer >= 0) buffers.push_back(&status);
          run_on_cpu(p->kernel, buffers);
          w.begin_case(group + " partials", module, gpu.module.kernels[static_cast<size_t>(entry)],
                       p->status_buffer >= 0 ? 0 : -1, rtol, reordered_sum_atol(g, plan.groups[i], *p, values, false));
          for (compiler::NodeId in : p->part.inputs) w.input(values[in].tensor());
          w.output(partials.dtype(), partials.nbytes(), &partials);
          w.end_case();
          w.begin_case(group + " finish", module, gpu.module.kernels[static_cast<size_t>(gpu.finish_entry[i])], -1,
                       rtol, atol);
          w.input(partials);
          w.output(out.dtype(), out.nbytes(), &out);
          w.end_case();
          cases += 2;
          continue;
        }
        w.begin_case(group + (part == 0 ? " " + std::string(master) : ""), module,
                     gpu.module.kernels[static_cast<size_t>(entry)], p->status_buffer >= 0 ? 0 : -1, rtol, atol);
        for (compiler::NodeId in : p->part.inputs) w.input(values[in].tensor());
        w.output(out.dtype(), out.nbytes(), &out);
        w.end_case();
        ++cases;
      }
    }
    std::fprintf(stderr, "%s: %zu cases, %zu of %zu groups wholly on the GPU, %.1f MiB\n", name.c_str(), cases,
                 gpu.whole_on_gpu(), gpu.plans.size(), static_cast<double>(needed) / (1 << 20));
  }
}

// The bandwidth benchmark: add, multiply, relu, ... over two 1 GiB float32 inputs.
void write_benchmarks(Writer& w, const Options& o) {
  const int64_t n = int64_t{1} << 28;  // 1 GiB of float32
  const DataType f32 = DataType::float_(32);
  loops::ElementwiseProgram p;
  p.inputs = {{f32, {n}}, {f32, {n}}};
  auto in = loops::EwOperand::input;
  auto st = loops::EwOperand::step;
  p.steps = {{"add", {in(0), in(1)}, {}, f32},
             {"multiply", {st(0), in(1)}, {}, f32},
             {"maximum", {st(1), in(0)}, {}, f32},
             {"nn.relu", {st(2)}, {}, f32},
             {"subtract", {st(3), in(1)}, {}, f32}};
  p.out_dtype = f32;
  p.out_shape = {n};
  const loops::LoweredKernel k = loops::lower_elementwise(p, "chain", loops::LoopShape::Gpu);
  const loops::Kernel* kernels[] = {&k.kernel};
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, o.target);
  const int module = w.module("bench_chain", m.ptx);
  const size_t bytes = static_cast<size_t>(n) * 4;
  w.line("bench chain_5_ops_1GiB " + std::to_string(module) + " " + m.kernels[0].entry + " " +
         std::to_string(m.kernels[0].grid) + " " + std::to_string(m.kernels[0].block) + " 2 " + std::to_string(bytes) +
         " " + std::to_string(bytes) + " " + std::to_string(bytes));
  w.line("copy " + std::to_string(bytes));
}

// The register tiles of the GPU's convolution and matrix product (loops/conv2d.h,
// loops/matmul.h) over ResNet-18's and MobileNet's shapes at batch 1 and 32 and the
// issue's products, each tile with the static launch (blocks of 256) and with launch_for's
// smaller blocks on 132 multiprocessors: the measurements the tile rules are tuned by.
// float16 beside float32 (`_f16` in the family's name), where the tensor cores (`mma`)
// compete with the float32 units' tiles over the same storage.
// The tiles are loops' candidates (conv2d_tiles, matmul_tiles: what a measured choice
// picks from), the rule's first, marked `_chosen`.
void write_tile_benchmarks(Writer& w, const Options& o) {
  struct Conv {
    const char* name;
    int64_t c, hw, k, groups;
  };
  const Conv convs[] = {{"l1", 64, 56, 3, 1}, {"l2", 128, 28, 3, 1}, {"l3", 256, 14, 3, 1}, {"l4", 512, 7, 3, 1},
                        {"pw", 256, 14, 1, 1}, {"dw", 512, 14, 3, 512}};
  std::vector<loops::LoweredKernel> lowered;
  std::vector<std::string> names;
  std::vector<std::vector<size_t>> sizes;  // inputs then output, bytes
  std::vector<double> flops;
  std::vector<DataType> dtypes;
  for (const DataType dtype : {DataType::float_(32), DataType::float_(16)}) {
    const bool half = dtype.bits == 16;
    const size_t bytes = half ? 2 : 4;
    const std::string suffix = half ? "_f16" : "";
    for (int64_t batch : {1, 32})
      for (const Conv& c : convs) {
        loops::Conv2dProgram p;
        p.batch = batch, p.channels = c.c, p.height = c.hw, p.width = c.hw, p.out_channels = c.c;
        p.kernel_h = p.kernel_w = c.k, p.groups = c.groups, p.out_h = p.out_w = c.hw;
        p.pad_begin = {c.k / 2, c.k / 2}, p.dtype = dtype;
        const std::vector<loops::Conv2dTile> tiles = loops::conv2d_tiles(p);
        for (size_t i = 0; i < tiles.size(); ++i) {
          loops::LoweredKernel k = loops::lower_direct_conv2d(p, "conv", tiles[i]);
          if (!k.ok()) continue;
          names.push_back("conv_" + std::string(c.name) + suffix + "_b" + std::to_string(batch) + "_" +
                          loops::tile_label(tiles[i]) + (i == 0 ? "_chosen" : ""));
          const size_t x = static_cast<size_t>(batch * c.c * c.hw * c.hw) * bytes;
          sizes.push_back({x, static_cast<size_t>(c.c * (c.c / c.groups) * c.k * c.k) * bytes, x});
          flops.push_back(loops::flops(p));
          dtypes.push_back(dtype);
          lowered.push_back(std::move(k));
        }
      }
  }
  struct Product {
    const char* name;
    int64_t batch, m, n, k;
  };
  for (const DataType dtype : {DataType::float_(32), DataType::float_(16)}) {
    const bool half = dtype.bits == 16;
    const size_t bytes = half ? 2 : 4;
    for (const Product& q : {Product{"dense_b1", 1, 1, 4096, 4096}, Product{"bmm_16x512", 16, 512, 512, 512},
                             Product{"dense_4096", 1, 4096, 4096, 4096}}) {
      loops::MatmulProgram p;
      p.batch = p.a_batch = p.b_batch = q.batch, p.m = q.m, p.n = q.n, p.k = q.k, p.dtype = dtype;
      const std::vector<loops::MatmulTile> tiles = loops::matmul_tiles(p);
      for (size_t i = 0; i < tiles.size(); ++i) {
        loops::LoweredKernel k = loops::lower_tiled_matmul(p, "matmul", tiles[i]);
        if (!k.ok()) continue;
        names.push_back(std::string(q.name) + (half ? "_f16" : "") + "_" + loops::tile_label(tiles[i]) +
                        (i == 0 ? "_chosen" : ""));
        sizes.push_back({static_cast<size_t>(q.batch * q.m * q.k) * bytes, static_cast<size_t>(q.batch * q.n * q.k) * bytes,
                         static_cast<size_t>(q.batch * q.m * q.n) * bytes});
        flops.push_back(loops::flops(p));
        dtypes.push_back(dtype);
        lowered.push_back(std::move(k));
      }
    }
  }
  // each tile's kernel, then its finish when k is split
  std::vector<const loops::Kernel*> kernels;
  std::vector<size_t> entry;
  for (const auto& l : lowered) {
    entry.push_back(kernels.size());
    kernels.push_back(&l.kernel);
    if (l.finish) kernels.push_back(&*l.finish);
  }
  const compiler::gpu::PtxModule m = compiler::gpu::emit_ptx(kernels, o.target);
  const int module = w.module("bench_tiles", m.ptx);
  for (size_t i = 0; i < lowered.size(); ++i) {
    const compiler::gpu::PtxKernelInfo& info = m.kernels[entry[i]];
    const compiler::gpu::PtxLaunch small = compiler::gpu::launch_for(info, 132);
    std::string finish;  // a split kernel's second launch (as the GPU executable makes it)
    if (lowered[i].finish) {
      const compiler::gpu::PtxKernelInfo& f = m.kernels[entry[i] + 1];
      const compiler::gpu::PtxLaunch launch = compiler::gpu::launch_for(f, 132);
      const loops::Buffer& partials = lowered[i].kernel.buffer(lowered[i].output_buffer);
      finish = " then " + f.entry + " " + std::to_string(launch.grid) + " " + std::to_string(launch.block) + " " +
               std::to_string(partials.extent() * partials.dtype.bits / 8);
    }
    for (const compiler::gpu::PtxLaunch launch : {compiler::gpu::PtxLaunch{info.grid, info.block}, small}) {
      w.line("bench " + names[i] + "_blk" + std::to_string(launch.block) + " " + std::to_string(module) + " " +
             info.entry + " " + std::to_string(launch.grid) + " " + std::to_string(launch.block) + " 2 " +
             std::to_string(sizes[i][0]) + " " + std::to_string(sizes[i][1]) + " " + std::to_string(sizes[i][2]) + " " +
             std::to_string(static_cast<int64_t>(flops[i])) + " " + dtype_name(dtypes[i]) + finish);
      if (small.block == info.block) break;  // the same launch
    }
  }
  std::fprintf(stderr, "tile benchmarks: %zu tiles, %zu kernels\n", lowered.size(), kernels.size());
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(2);
      return argv[++i];
    };
    if (a == "--out") o.out = value();
    else if (a == "--budget-mib") o.budget = std::stoull(value()) << 20;
    else if (a == "--models") {
      o.models.clear();
      std::stringstream s(value());
      for (std::string m; std::getline(s, m, ',');)
        if (!m.empty()) o.models.push_back(m);
    } else if (a == "--arch") {
      auto t = compiler::gpu::parse_ptx_target(value());
      if (!t) usage(2);
      o.target = *t;
    } else if (a == "--help" || a == "-h") usage(0);
    else usage(2);
  }
  if (o.out.empty()) usage(2);
  try {
    Writer w(o.out);
    w.line("# relay GPU check bundle (tests/gpu/README.md); target " + o.target.arch());
    w.line("arch " + std::to_string(o.target.sm));
    write_operator_cases(w, o);
    write_model_cases(w, o);
    write_benchmarks(w, o);
    write_tile_benchmarks(w, o);
    w.finish();
    std::fprintf(stderr, "bundle: %s (%.1f MiB of data)\n", o.out.c_str(), static_cast<double>(w.bytes()) / (1 << 20));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "relay_gpu_bundle: %s\n", e.what());
    return 1;
  }
  return 0;
}
