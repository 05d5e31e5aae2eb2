// The GPU's products and convolutions, and the tiles they can take (gpu_master.h).
#include "compiler/pipeline/gpu_master.h"

#include "compiler/graph/window_attrs.h"
#include "compiler/pipeline/native_plan_internal.h"

namespace relay::compiler {

using detail::dtype_of;
using detail::shape_of;

namespace {

std::string dims(int64_t a, int64_t b) { return std::to_string(a) + "x" + std::to_string(b); }

// nn.conv2d in NCHW/OIHW of dtype `t` throughout (loops/conv2d.h).
std::optional<loops::Conv2dProgram> conv2d_program(const Graph& g, const Node& m, DataType t, std::string* why) {
  const CallAttrs& a = m.attrs;
  const std::string data_layout = a.get_string("data_layout"), kernel_layout = a.get_string("kernel_layout");
  const std::string out_layout = a.get_string("out_layout");
  if ((!data_layout.empty() && data_layout != "NCHW") || (!kernel_layout.empty() && kernel_layout != "OIHW") ||
      (!out_layout.empty() && out_layout != "NCHW")) {
    *why = "a convolution in layouts " + data_layout + "/" + kernel_layout + " (the GPU's: NCHW/OIHW)";
    return std::nullopt;
  }
  const std::vector<int64_t> x = shape_of(g[m.inputs[0]].type), w = shape_of(g[m.inputs[1]].type), y = shape_of(m.type);
  const std::optional<WindowAttrs> window = window_attrs_2d(a);
  if (x.size() != 4 || w.size() != 4 || y.size() != 4 || !window) {
    *why = "a convolution that is not 2-D";
    return std::nullopt;
  }
  loops::Conv2dProgram p;
  p.strides = window->strides, p.dilation = window->dilation, p.pad_begin = window->pad_before;
  p.batch = x[0], p.channels = x[1], p.height = x[2], p.width = x[3];
  p.out_channels = w[0], p.kernel_h = w[2], p.kernel_w = w[3];
  p.out_h = y[2], p.out_w = y[3];
  p.groups = a.get_int("groups", 1);
  p.dtype = t;
  if (p.groups < 1 || w[1] * p.groups != p.channels || y[1] != p.out_channels || y[0] != p.batch) {
    *why = "a convolution whose channels and groups disagree";
    return std::nullopt;
  }
  return p;
}

// nn.dense (data [..., K], its leading dimensions rows; weight [N, K]) or nn.batch_matmul
// (a [B, M, K], b [B, N, K]) of dtype `t` as a product over k (loops/matmul.h).
std::optional<loops::MatmulProgram> matmul_program(const Graph& g, const Node& m, DataType t, std::string* why) {
  const std::vector<int64_t> a = shape_of(g[m.inputs[0]].type), b = shape_of(g[m.inputs[1]].type);
  loops::MatmulProgram p;
  if (m.op->name == "nn.dense") {
    if (a.empty() || b.size() != 2 || a.back() != b[1]) {
      *why = "an unexpected dense shape";
      return std::nullopt;
    }
    p.m = 1;
    for (size_t d = 0; d + 1 < a.size(); ++d) p.m *= a[d];
    p.n = b[0], p.k = b[1];
  } else {
    if (m.attrs.get_bool("transpose_a") || !m.attrs.get_bool("transpose_b") || a.size() != 3 || b.size() != 3 ||
        a[2] != b[2]) {
      *why = "batch_matmul other than a [b, m, k] x b [b, n, k]";
      return std::nullopt;
    }
    p.batch = std::max(a[0], b[0]), p.a_batch = a[0], p.b_batch = b[0];
    p.m = a[1], p.n = b[1], p.k = a[2];
  }
  p.dtype = t;
  return p;
}

}  // namespace

size_t GpuMaster::tiles() const {
  return std::visit([](const auto& t) { return t.tiles.size(); }, program);
}

std::string GpuMaster::tile_label(size_t tile) const {
  return std::visit([&](const auto& t) { return loops::tile_label(t.tiles.at(tile)); }, program);
}

std::string GpuMaster::tile_words(size_t tile) const {
  return std::visit([&](const auto& t) { return loops::tile_words(t.tiles.at(tile)); }, program);
}

namespace {

std::string key_of(const loops::Conv2dProgram& p) {
  return "conv2d " + dtype_name(p.dtype) + " n" + std::to_string(p.batch) + " c" + std::to_string(p.channels) + " " +
         dims(p.height, p.width) + " o" + std::to_string(p.out_channels) + " " + dims(p.out_h, p.out_w) + " k" +
         dims(p.kernel_h, p.kernel_w) + " s" + dims(p.strides[0], p.strides[1]) + " d" +
         dims(p.dilation[0], p.dilation[1]) + " p" + dims(p.pad_begin[0], p.pad_begin[1]) + " g" +
         std::to_string(p.groups);
}

std::string key_of(const loops::MatmulProgram& p) {
  return "matmul " + dtype_name(p.dtype) + " b" + std::to_string(p.batch) + "/" + std::to_string(p.a_batch) + "/" +
         std::to_string(p.b_batch) + " m" + std::to_string(p.m) + " n" + std::to_string(p.n) + " k" +
         std::to_string(p.k);
}

// Element counts of the kernel's buffers: inputs, then the output.
std::vector<int64_t> buffer_elements(const loops::Conv2dProgram& p) {
  return {p.batch * p.channels * p.height * p.width, p.out_channels * (p.channels / p.groups) * p.kernel_h * p.kernel_w,
          p.batch * p.out_channels * p.out_h * p.out_w};
}
std::vector<int64_t> buffer_elements(const loops::MatmulProgram& p) {
  return {p.a_batch * p.m * p.k, p.b_batch * p.n * p.k, p.batch * p.m * p.n};
}

loops::LoweredKernel lower(const loops::Conv2dProgram& p, const std::string& name, const loops::Conv2dTile& tile) {
  return loops::lower_direct_conv2d(p, name, tile);
}
loops::LoweredKernel lower(const loops::MatmulProgram& p, const std::string& name, const loops::MatmulTile& tile) {
  return loops::lower_tiled_matmul(p, name, tile);
}

}  // namespace

std::string GpuMaster::key() const {
  return std::visit([](const auto& t) { return key_of(t.program); }, program);
}

std::vector<size_t> GpuMaster::buffer_bytes() const {
  std::vector<size_t> bytes;
  for (int64_t n : std::visit([](const auto& t) { return buffer_elements(t.program); }, program))
    bytes.push_back(static_cast<size_t>(n) * static_cast<size_t>(dtype.bits / 8));
  return bytes;
}

double GpuMaster::flops() const {
  return std::visit([](const auto& t) { return loops::flops(t.program); }, program);
}

std::optional<GpuMaster> gpu_master(const Graph& g, const FusedGroup& group, const gpu::PtxTarget& target,
                                    std::string* why) {
  const Node& m = g[group.master];
  const std::string_view op = m.op ? m.op->name : std::string_view{};
  if (op != "nn.dense" && op != "nn.batch_matmul" && op != "nn.conv2d") {
    *why = "not a matrix product or a convolution";
    return std::nullopt;
  }
  // one dtype in, the same out
  const DataType t = dtype_of(m.type);
  const bool one_dtype =
      m.inputs.size() >= 2 && dtype_of(g[m.inputs[0]].type) == t && dtype_of(g[m.inputs[1]].type) == t;
  if (!one_dtype || !loops::folds_in_float32(t)) {
    *why = "not float32, float16 or bfloat16 throughout";
    return std::nullopt;
  }
  GpuMaster master;
  const bool tensor_cores = gpu::tensor_cores_take(target, t);
  if (op == "nn.conv2d") {
    auto p = conv2d_program(g, m, t, why);
    if (!p) return std::nullopt;
    master.program = TiledProgram<loops::Conv2dProgram, loops::Conv2dTile>{*p, loops::conv2d_tiles(*p, tensor_cores)};
    master.kernel_name = detail::kernel_name(g, group) + "_conv2d";
  } else {
    auto p = matmul_program(g, m, t, why);
    if (!p) return std::nullopt;
    master.program = TiledProgram<loops::MatmulProgram, loops::MatmulTile>{*p, loops::matmul_tiles(*p, tensor_cores)};
    master.kernel_name = detail::kernel_name(g, group) + "_" + std::string(op == "nn.dense" ? "dense" : "batch_matmul");
  }
  master.part = detail::sub_group(g, group, {group.master}, group.master);
  master.part.inputs = {m.inputs[0], m.inputs[1]};
  master.dtype = t;
  master.out_shape = shape_of(m.type);
  return master;
}

std::optional<NativePlan> plan_gpu_master(const GpuMaster& master, size_t tile, std::string* why, std::string name) {
  if (name.empty()) name = master.kernel_name;
  loops::LoweredKernel lowered =
      std::visit([&](const auto& t) { return lower(t.program, name, t.tiles.at(tile)); }, master.program);
  // k split in parts (loops::BlockGemm::splits): the first kernel writes the parts' sums to
  // a workspace, the finish adds them into the output
  std::optional<loops::Kernel> finish = std::move(lowered.finish);
  auto plan = detail::lowered_plan(NativePlan::Kind::Reduction, master.part, std::move(lowered), master.dtype,
                                   master.out_shape, "", why);
  if (plan) {
    plan->master_key = master.key();
    plan->tile = master.tile_words(tile);
    plan->flops = master.flops();
    if (finish) {
      const loops::Buffer& partials = plan->kernel.buffer(plan->output_buffer);
      plan->workspace_bytes = static_cast<size_t>(partials.extent()) * static_cast<size_t>(partials.dtype.bits / 8);
      plan->chunks = std::visit([&](const auto& t) { return t.tiles.at(tile).splits; }, master.program);
      plan->finish = std::move(finish);
    }
  }
  return plan;
}

std::optional<NativePlan> plan_gpu_master(const Graph& g, const FusedGroup& group, const gpu::PtxTarget& target,
                                          std::string* why) {
  auto master = gpu_master(g, group, target, why);
  if (!master) return std::nullopt;
  return plan_gpu_master(*master, 0, why);
}

}  // namespace relay::compiler
