// A function compiled for one argument signature to run on an NVIDIA GPU: the groups the
// loop IR lowers (element-wise, reductions, index-mapping, softmax, the element-wise
// epilogues of convolutions and matrix products) as PTX kernels in one module
// (gpu_groups.h), launched in order on the device's stream; every other node on the
// host's reference kernels. Values move between host and device only where a host node
// reads a device value or the other way round; the result comes back to the host.
//
// A function whose every node runs on the GPU (no host nodes between kernels, a tensor
// result) is replayed from its second call on: its kernels are captured once into a CUDA
// graph, each value in a buffer of its own that the graph's launches name, so a call is
// the changed arguments' uploads, one graph launch and the result's download, with none of
// the per-kernel launch cost on the host (the device memory of every intermediate value
// stays held, where a call otherwise returns each buffer to the cache at its last use).
//
// An argument's device copy is kept from call to call while the same tensor comes again
// (the same serial, interpreter/runtime/ndarray.h: tensors are immutable once values), so
// a model's weights go to the device once. A call ends with one synchronisation, after
// which every kernel's status flag is read: a failed kernel (integer division by zero)
// raises the reference's error.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/cuda/device.h"
#include "compiler/graph/fuse.h"
#include "compiler/graph/graph.h"
#include "compiler/pipeline/execution_options.h"
#include "compiler/pipeline/kernel_profile.h"
#include "interpreter/eval/tier.h"

namespace relay::compiler {

class GpuExecutable final : public rt::CompiledCall {
 public:
  // Plans and generates PTX for the architecture of `run.gpu` (not null), and loads it.
  // `notes` gets the report's lines (what runs where). `run.tiles`: the products' and
  // convolutions' tiles are its measured choices (tile_tuner.h), else the rules'.
  // `run.profile`: every call runs kernel by kernel, each launch timed (run_notes). Throws
  // what gpu::emit_ptx and the driver throw.
  GpuExecutable(Graph graph, FusionPlan plan, const ExecutionOptions& run, std::vector<std::string>* notes);
  ~GpuExecutable() override;

  rt::Value call(std::span<const rt::Value> args) override;
  std::vector<std::string> run_notes() const override;

  size_t gpu_groups() const;   // a kernel on the device (maybe after host nodes)
  size_t host_groups() const;  // every node on the host
  uint64_t argument_upload_bytes() const { return argument_uploads_; }
  bool replayable() const { return replayable_; }  // calls after the first replay a graph
  uint64_t replays() const { return replays_; }

 private:
  struct Kernel;
  struct Step;
  struct CallState;
  // The host value of node `id` (downloaded when it is only on the device).
  const rt::Value& on_host(CallState& st, NodeId id) const;
  // The device copy of node `id` (uploaded when it is only on the host).
  cuda::CUdeviceptr on_device(CallState& st, NodeId id) const;

  // The status words of a call's kernels that can fail, each with its kernel.
  using Statuses = std::vector<std::pair<const Kernel*, std::shared_ptr<cuda::Buffer>>>;
  // Reads every status word with one synchronisation; throws the first failed kernel's
  // error (the reference's message).
  void raise_failures(const Statuses& statuses) const;

  struct Replay;
  // The captured graph with its buffers (built by the first replayed call).
  std::unique_ptr<Replay> build_replay();
  rt::Value call_replay(std::span<const rt::Value> args);

  Graph graph_;
  FusionPlan plan_;
  cuda::Device& gpu_;
  cuda::Module module_;
  std::vector<Step> steps_;
  std::vector<int32_t> last_use_;  // per node: the step after which its value is dead
  std::vector<std::shared_ptr<cuda::Buffer>> constants_;  // device copies, by node
  // Per parameter: the device copy of the last argument a kernel read there, and that
  // tensor's serial (0: none).
  struct ArgumentCopy {
    uint64_t serial = 0;
    std::shared_ptr<cuda::Buffer> buffer;
  };
  mutable std::vector<ArgumentCopy> argument_copies_;
  mutable uint64_t argument_uploads_ = 0;  // bytes uploaded for arguments over all calls
  uint64_t calls_ = 0;
  double gpu_ms_ = 0;  // device time of the kernels over all calls
  bool replayable_ = false;
  std::unique_ptr<Replay> replay_;
  std::string replay_failure_;  // why capturing failed (the calls then run kernel by kernel)
  uint64_t replays_ = 0;
  size_t graph_launches_ = 0;  // kernels in the graph
  bool profile_ = false;
  std::vector<ProfiledKernel> profiled_;  // every kernel, for the profile (by Kernel::profiled)
  KernelProfile profile_times_;
};

}  // namespace relay::compiler
