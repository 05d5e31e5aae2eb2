// Running a function's groups on the GPU and the rest on the host (gpu_executable.h).
#include "compiler/pipeline/gpu_executable.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "compiler/graph/run_graph.h"
#include "compiler/pipeline/gpu_groups.h"
#include "compiler/pipeline/kernel_profile.h"
#include "compiler/pipeline/tile_tuner.h"
#include "interpreter/runtime/ndarray.h"

namespace relay::compiler {

namespace {

// A kernel's function and launch shape.
struct LaunchShape {
  cuda::CUfunction fn = nullptr;
  uint64_t grid = 1;
  unsigned block = 1;
};

// One launch: a kernel's (or a split kernel's finish's) function and shape, and its
// parameters.
struct Launch {
  LaunchShape shape;
  std::vector<cuda::CUdeviceptr> params;
};

}  // namespace

struct GpuExecutable::Kernel {
  cuda::CUfunction fn = nullptr;
  std::string entry;
  uint64_t grid = 1;
  unsigned block = 1;
  std::vector<NodeId> inputs;  // in the kernel's buffer order
  NodeId output = 0;
  int status_buffer = -1;
  std::string status_message;
  // A split reduction or a product split along k (NativePlan::finish): this kernel writes
  // partial results to a workspace of workspace_bytes in place of the output, then
  // `finish` reduces them into it.
  std::optional<LaunchShape> finish;
  LaunchShape shape() const { return {fn, grid, block}; }
  size_t workspace_bytes = 0;
  size_t profiled = 0;  // its index in profiled_ (--profile)
};


struct GpuExecutable::Step {
  const FusedGroup* group = nullptr;
  size_t host_nodes = 0;  // the group's first nodes, run on the host before the kernels
  std::optional<Kernel> master;  // a matrix product or convolution, after the host nodes but its own
  std::optional<Kernel> kernel;  // the group (or its epilogue, after the master)
};

// The captured graph of a replayable function: a buffer per argument read by a kernel and
// per kernel output, the serial of the tensor each argument buffer holds, the status
// words the graph clears and the kernels set.
struct GpuExecutable::Replay {
  std::vector<std::shared_ptr<cuda::Buffer>> values;  // by node
  std::vector<cuda::Buffer> workspaces;               // the split kernels' partial results
  std::vector<uint64_t> serials;                      // by parameter (0: nothing uploaded)
  Statuses statuses;
  cuda::Graph graph;
};

// One call's values: each node's host value and/or device copy.
struct GpuExecutable::CallState {
  std::vector<rt::Value> host;
  std::vector<std::shared_ptr<cuda::Buffer>> device;
  std::vector<rt::Value> uploading;  // host arrays whose asynchronous upload may be running
  Statuses statuses;
};

namespace {

const TensorTy& tensor_type(const Node& n) {
  if (!n.type || n.type->kind != TyKind::Tensor) throw GraphError("a value moved to or from the GPU is not a tensor", n.span);
  return *static_cast<const TensorTy*>(n.type);
}

size_t tensor_bytes(const Node& n) {
  const auto shape = concrete_shape(n.type);
  if (!shape) throw GraphError("a GPU value has no concrete shape", n.span);
  return static_cast<size_t>(rt::shape_size(*shape)) * rt::dtype_bytes(tensor_type(n).dtype);
}

}  // namespace

GpuExecutable::GpuExecutable(Graph graph, FusionPlan plan, const ExecutionOptions& run, std::vector<std::string>* notes)
    : graph_(std::move(graph)), plan_(std::move(plan)), gpu_(*run.gpu), profile_(run.profile) {
  TileTuner* tiles = run.tiles;
  const gpu::PtxTarget target{gpu_.info().sm >= 90 ? 90 : gpu_.info().sm >= 80 ? 80 : std::max(gpu_.info().sm, 70)};
  std::vector<std::string> shapes;  // the products and convolutions the tuner chose for
  TileChooser choose;
  if (tiles)
    choose = [&](const GpuMaster& m) {
      const size_t tile = tiles->choose(m, target);
      if (std::find(shapes.begin(), shapes.end(), m.key()) == shapes.end()) shapes.push_back(m.key());
      return tile;
    };
  GpuGroups planned = plan_gpu_groups(graph_, plan_, target, choose);
  if (notes && tiles) {
    const std::vector<std::string> lines = tiles->describe(shapes);
    notes->insert(notes->end(), lines.begin(), lines.end());
  }
  if (!planned.module.ptx.empty()) module_ = gpu_.load_ptx(planned.module.ptx);
  auto finish_of = [&](int entry) {
    const gpu::PtxKernelInfo& info = planned.module.kernels[static_cast<size_t>(entry)];
    const gpu::PtxLaunch launch = gpu::launch_for(info, gpu_.info().multiprocessors);
    return LaunchShape{module_.function(info.entry), launch.grid, launch.block};
  };
  // A plan's kernel at module entry `entry`, and its finish at `finish_entry` when it is
  // split (a reduction over blocks, or a product's k in parts)
  auto kernel_of = [&](const NativePlan& p, int entry, int finish_entry) {
    const gpu::PtxKernelInfo& info = planned.module.kernels[static_cast<size_t>(entry)];
    Kernel k;
    k.fn = module_.function(info.entry);
    k.entry = info.entry;
    const gpu::PtxLaunch launch = gpu::launch_for(info, gpu_.info().multiprocessors);
    k.grid = launch.grid;
    k.block = launch.block;
    k.inputs = p.part.inputs;
    k.output = p.part.outputs[0];
    k.status_buffer = p.status_buffer;
    k.status_message = p.status_message;
    // what the profile says of it: a product's or convolution's operations, the bytes of
    // its inputs and output
    ProfiledKernel said;
    said.where = std::to_string(k.grid) + " x " + std::to_string(k.block) + " threads";
    said.flops = p.flops;
    for (NodeId in : k.inputs) said.bytes += value_bytes(graph_[in]);
    said.bytes += value_bytes(graph_[k.output]);
    k.profiled = profiled_.size();
    profiled_.push_back(std::move(said));
    if (p.finish) {
      k.finish = finish_of(finish_entry);
      k.workspace_bytes = p.workspace_bytes;
    }
    return k;
  };
  for (size_t i = 0; i < plan_.groups.size(); ++i) {
    const FusedGroup& group = plan_.groups[i];
    Step step;
    step.group = &group;
    step.host_nodes = group.nodes.size();
    const std::string master = graph_[group.master].op ? std::string(graph_[group.master].op->name) : "tuple";
    const auto& p = planned.plans[i];
    if (p) {
      step.host_nodes = p->reference_nodes;
      step.kernel = kernel_of(*p, planned.plan_entry[i], planned.finish_entry[i]);
    }
    if (const auto& m = planned.masters[i]) {
      // The host runs what precedes the master; the master is the kernel's.
      const auto at = std::find(group.nodes.begin(), group.nodes.end(), group.master);
      step.host_nodes = static_cast<size_t>(at - group.nodes.begin());
      step.master = kernel_of(*m, planned.master_entry[i], planned.master_finish_entry[i]);
      profiled_[step.master->profiled].what = "group " + std::to_string(group.id) + " " + m->master_key + ", " + m->tile;
    }
    if (step.kernel)
      profiled_[step.kernel->profiled].what = "group " + std::to_string(group.id) + (step.master ? " epilogue" : "") +
                                              " (" + op_names(graph_, p->part.nodes) + ")" +
                                              (p->finish ? ", split over blocks" : "");
    if (notes) {
      const std::string id = "group " + std::to_string(group.id);
      if (!p && !step.master)
        notes->push_back(id + " (" + master + ", " + std::to_string(group.nodes.size()) + " ops) on the host: " +
                         planned.why_not[i]);
      else if (p && p->finish)
        notes->push_back(id + " (" + master + "): split over " + std::to_string(p->chunks) +
                         " blocks an output, then their partial results folded by a second kernel");
      else if (p && p->reference_nodes > 0 && !step.master)
        notes->push_back(id + ": " + master + " on the host's reference kernel (" + planned.why_not[i] +
                         "), its " + std::to_string(group.nodes.size() - p->reference_nodes) + "-op epilogue on the GPU");
    }
    steps_.push_back(std::move(step));
  }
  argument_copies_.resize(graph_.params.size());
  last_use_.assign(graph_.size(), -1);
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (NodeId in : steps_[s].group->inputs) last_use_[in] = static_cast<int32_t>(s);
    for (NodeId id : steps_[s].group->nodes)
      for (NodeId in : graph_[id].inputs) last_use_[in] = std::max(last_use_[in], static_cast<int32_t>(s));
  }
  // Constants the kernels read go to the device once.
  constants_.resize(graph_.size());
  for (const Step& s : steps_)
    if (s.kernel)
      for (NodeId in : s.kernel->inputs)
        if (graph_[in].kind == NodeKind::Constant && !constants_[in]) {
          const rt::NDArray& c = graph_[in].constant;
          constants_[in] = std::make_shared<cuda::Buffer>(gpu_.alloc(c.nbytes()));
          gpu_.upload(*constants_[in], c.raw(), c.nbytes());
        }
  gpu_.synchronize();
  // Replayable: every step is kernels only, reading arguments, constants and kernel
  // outputs, and the result is a kernel's output.
  std::vector<bool> on_gpu(graph_.size(), false);
  replayable_ = !steps_.empty();
  for (const Step& s : steps_) {
    if (s.host_nodes != 0 || (!s.kernel && !s.master)) replayable_ = false;
    for (const auto* k : {&s.master, &s.kernel}) {
      if (!*k) continue;
      for (NodeId in : (*k)->inputs) {
        const NodeKind kind = graph_[in].kind;
        if (!(kind == NodeKind::Input || kind == NodeKind::Constant || on_gpu[in])) replayable_ = false;
      }
      on_gpu[(*k)->output] = true;
    }
  }
  replayable_ = replayable_ && on_gpu[graph_.output];
  if (notes) {
    notes->insert(notes->begin(), std::to_string(steps_.size()) + " fused groups: " + std::to_string(gpu_groups()) +
                                      " on the GPU (" + gpu_.info().name + ", " + target.arch() + "), " +
                                      std::to_string(host_groups()) + " on the host");
    // the tiles the products and convolutions took (the rules' or the tuner's), by kind
    std::map<std::string, int> by_tile;
    for (const auto& m : planned.masters)
      if (m) ++by_tile[m->tile];
    std::string line;
    for (const auto& [words, count] : by_tile) line += (line.empty() ? "" : "; ") + std::to_string(count) + " x " + words;
    if (!line.empty()) notes->push_back("GPU products and convolutions: " + line);
  }
}

GpuExecutable::~GpuExecutable() = default;

size_t GpuExecutable::gpu_groups() const {
  return static_cast<size_t>(std::count_if(steps_.begin(), steps_.end(),
                                           [](const Step& s) { return s.kernel || s.master; }));
}
size_t GpuExecutable::host_groups() const { return steps_.size() - gpu_groups(); }

const rt::Value& GpuExecutable::on_host(CallState& st, NodeId id) const {
  if (!st.host[id].defined()) {
    const Node& n = graph_[id];
    if (!st.device[id]) throw GraphError("internal error: a value is neither on the host nor on the GPU", n.span);
    rt::NDArray a = rt::NDArray::empty(*concrete_shape(n.type), tensor_type(n).dtype);
    gpu_.download(a.raw(), *st.device[id], a.nbytes());
    gpu_.synchronize();
    st.host[id] = rt::Value(a);
  }
  return st.host[id];
}

cuda::CUdeviceptr GpuExecutable::on_device(CallState& st, NodeId id) const {
  if (constants_[id]) return constants_[id]->ptr;
  if (!st.device[id] && graph_[id].kind == NodeKind::Input && st.host[id].defined() && st.host[id].is_tensor()) {
    // An argument: its device copy from an earlier call while the tensor is the same one.
    ArgumentCopy& copy = argument_copies_[graph_[id].index];
    const rt::NDArray& a = st.host[id].tensor();
    if (!copy.buffer || copy.serial != a.serial()) {
      copy.buffer = std::make_shared<cuda::Buffer>(gpu_.alloc(a.nbytes()));
      gpu_.upload(*copy.buffer, a.raw(), a.nbytes());
      st.uploading.push_back(st.host[id]);
      copy.serial = a.serial();
      argument_uploads_ += a.nbytes();
    }
    st.device[id] = copy.buffer;
  }
  if (!st.device[id]) {
    const rt::NDArray& a = on_host(st, id).tensor();
    auto buf = std::make_shared<cuda::Buffer>(gpu_.alloc(a.nbytes()));
    gpu_.upload(*buf, a.raw(), a.nbytes());
    st.uploading.push_back(st.host[id]);
    st.device[id] = std::move(buf);
  }
  return st.device[id]->ptr;
}

std::unique_ptr<GpuExecutable::Replay> GpuExecutable::build_replay() {
  auto r = std::make_unique<Replay>();
  r->values.resize(graph_.size());
  r->serials.assign(graph_.params.size(), 0);
  std::vector<Launch> launches;
  for (const Step& step : steps_)
    for (const auto* k : {&step.master, &step.kernel}) {
      if (!*k) continue;
      const Kernel& kernel = **k;
      std::vector<cuda::CUdeviceptr> params;
      for (NodeId in : kernel.inputs) {
        if (constants_[in]) {
          params.push_back(constants_[in]->ptr);
          continue;
        }
        if (!r->values[in] && graph_[in].kind == NodeKind::Input) {  // the argument's copy from earlier calls
          ArgumentCopy& copy = argument_copies_[graph_[in].index];
          r->values[in] = copy.buffer;
          r->serials[graph_[in].index] = copy.buffer ? copy.serial : 0;
        }
        if (!r->values[in]) r->values[in] = std::make_shared<cuda::Buffer>(gpu_.alloc(tensor_bytes(graph_[in])));
        params.push_back(r->values[in]->ptr);
      }
      r->values[kernel.output] = std::make_shared<cuda::Buffer>(gpu_.alloc(tensor_bytes(graph_[kernel.output])));
      const cuda::CUdeviceptr out = r->values[kernel.output]->ptr;
      if (kernel.finish) r->workspaces.push_back(gpu_.alloc(kernel.workspace_bytes));
      params.push_back(kernel.finish ? r->workspaces.back().ptr : out);
      if (kernel.status_buffer >= 0) {
        r->statuses.emplace_back(&kernel, std::make_shared<cuda::Buffer>(gpu_.alloc(sizeof(int32_t))));
        params.push_back(r->statuses.back().second->ptr);
      }
      launches.push_back({kernel.shape(), std::move(params)});
      if (kernel.finish) launches.push_back({*kernel.finish, {r->workspaces.back().ptr, out}});
    }
  gpu_.begin_capture();
  try {
    for (const auto& [kernel, status] : r->statuses) gpu_.fill_zero(*status, sizeof(int32_t));
    for (const Launch& l : launches) gpu_.launch(l.shape.fn, l.shape.grid, l.shape.block, l.params);
  } catch (...) {
    try {
      gpu_.end_capture();  // leave capture mode; the partial graph is discarded
    } catch (const cuda::DriverError&) {
    }
    throw;
  }
  r->graph = gpu_.end_capture();
  graph_launches_ = launches.size();
  return r;
}

rt::Value GpuExecutable::call_replay(std::span<const rt::Value> args) {
  Replay& r = *replay_;
  cuda::Device::Timer timer(gpu_);
  timer.start();
  std::vector<rt::Value> uploading;  // host arrays whose uploads are queued
  for (size_t i = 0; i < graph_.params.size() && i < args.size(); ++i) {
    const NodeId id = graph_.params[i];
    if (!r.values[id]) continue;  // no kernel reads it
    const rt::NDArray a = args[i].tensor();
    if (a.serial() == r.serials[i]) continue;
    if (a.nbytes() != r.values[id]->bytes) throw GraphError("an argument's size changed between calls", graph_[id].span);
    gpu_.upload(*r.values[id], a.raw(), a.nbytes());
    r.serials[i] = a.serial();
    argument_uploads_ += a.nbytes();
    uploading.push_back(args[i]);
  }
  gpu_.launch_graph(r.graph);
  const Node& out = graph_[graph_.output];
  rt::NDArray result = rt::NDArray::empty(*concrete_shape(out.type), tensor_type(out).dtype);
  gpu_.download(result.raw(), *r.values[graph_.output], result.nbytes());
  gpu_ms_ += timer.stop();  // synchronises
  ++calls_;
  ++replays_;
  raise_failures(r.statuses);
  return rt::Value(result);
}

void GpuExecutable::raise_failures(const Statuses& statuses) const {
  std::vector<int32_t> flags(statuses.size(), 0);
  for (size_t i = 0; i < flags.size(); ++i) gpu_.download(&flags[i], *statuses[i].second, sizeof(int32_t));
  if (!flags.empty()) gpu_.synchronize();
  for (size_t i = 0; i < flags.size(); ++i)
    if (flags[i] != 0) throw rt::RuntimeError(statuses[i].first->status_message);
}

rt::Value GpuExecutable::call(std::span<const rt::Value> args) {
  if (replayable_ && calls_ > 0 && !profile_) {  // profiled calls run kernel by kernel
    if (!replay_) {
      try {
        replay_ = build_replay();
        argument_copies_.clear();  // the graph's own buffers hold the arguments from now on
      } catch (const cuda::DriverError& e) {
        replayable_ = false;  // run kernel by kernel, and say why
        replay_failure_ = e.what();
      }
    }
    if (replay_) return call_replay(args);
  }
  CallState st;
  st.host.resize(graph_.size());
  st.device.resize(graph_.size());
  for (size_t i = 0; i < graph_.params.size() && i < args.size(); ++i) st.host[graph_.params[i]] = args[i];
  for (NodeId id = 0; id < graph_.size(); ++id)
    if (graph_[id].kind == NodeKind::Constant) st.host[id] = rt::Value(graph_[id].constant);
  cuda::Device::Timer timer(gpu_);
  std::optional<cuda::Device::Timer> launch_timer;  // --profile: each launch on its own
  std::vector<double> launch_ms;
  if (profile_) {
    launch_timer.emplace(gpu_);
    launch_ms.assign(profiled_.size(), 0.0);
  }
  timer.start();
  for (size_t s = 0; s < steps_.size(); ++s) {
    const Step& step = steps_[s];
    for (size_t k = 0; k < step.host_nodes; ++k) {
      const NodeId id = step.group->nodes[k];
      for (NodeId in : graph_[id].inputs) on_host(st, in);
      st.host[id] = eval_node(graph_, id, st.host);
    }
    for (const auto* k : {&step.master, &step.kernel}) {
      if (!*k) continue;
      const Kernel& kernel = **k;
      std::vector<cuda::CUdeviceptr> params;
      for (NodeId in : kernel.inputs) params.push_back(on_device(st, in));
      auto out = std::make_shared<cuda::Buffer>(gpu_.alloc(tensor_bytes(graph_[kernel.output])));
      // a split kernel's partial results (back to the cache after its finish: the
      // stream orders their reuse after it)
      std::optional<cuda::Buffer> workspace;
      if (kernel.finish) workspace = gpu_.alloc(kernel.workspace_bytes);
      params.push_back(workspace ? workspace->ptr : out->ptr);
      if (kernel.status_buffer >= 0) {
        auto status = std::make_shared<cuda::Buffer>(gpu_.alloc(sizeof(int32_t)));
        gpu_.fill_zero(*status, sizeof(int32_t));
        params.push_back(status->ptr);
        st.statuses.emplace_back(&kernel, std::move(status));
      }
      if (launch_timer) launch_timer->start();
      gpu_.launch(kernel.fn, kernel.grid, kernel.block, params);
      if (kernel.finish) gpu_.launch(kernel.finish->fn, kernel.finish->grid, kernel.finish->block, {workspace->ptr, out->ptr});
      if (launch_timer) launch_ms[kernel.profiled] += launch_timer->stop();
      st.device[kernel.output] = std::move(out);
    }
    for (NodeId in : step.group->inputs)
      if (last_use_[in] == static_cast<int32_t>(s) && in != graph_.output) {
        st.host[in] = rt::Value();
        st.device[in].reset();  // back to the cache; later work queues behind its readers
      }
  }
  // A tuple result's fields are host values already (a Tuple node runs on the host).
  rt::Value result = on_host(st, graph_.output);
  gpu_ms_ += timer.stop();  // synchronises: every copy and kernel is done
  if (profile_) profile_times_.add_call(calls_, launch_ms);
  ++calls_;
  raise_failures(st.statuses);
  return result;
}

std::vector<std::string> GpuExecutable::run_notes() const {
  if (calls_ == 0) return {};
  char line[200];
  std::snprintf(line, sizeof line, "GPU: %.3f ms per call on average over %llu calls (device time, copies included)",
                gpu_ms_ / static_cast<double>(calls_), static_cast<unsigned long long>(calls_));
  std::vector<std::string> notes{line};
  if (replays_ > 0)
    notes.push_back("GPU: " + std::to_string(replays_) + " of the calls replayed one CUDA graph of " +
                    std::to_string(graph_launches_) + " kernel launches");
  if (!replay_failure_.empty()) notes.push_back("GPU: calls run kernel by kernel: capturing a CUDA graph failed: " + replay_failure_);
  if (profile_) {
    const std::vector<std::string> lines =
        profile_times_.lines(profiled_, "GPU profile", "kernels", "each launch timed on its own, so no graph replay");
    notes.insert(notes.end(), lines.begin(), lines.end());
  }
  return notes;
}

}  // namespace relay::compiler
