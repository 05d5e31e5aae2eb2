// A function compiled for one argument signature to run on an NVIDIA GPU: the groups the
// loop IR lowers (element-wise, reductions, index-mapping, softmax, the element-wise
// epilogues of convolutions and matrix products) as PTX kernels in one module
// (gpu_groups.h), launched in order on the device's stream; every other node on the
// host's reference kernels. Values move between host and device only where a host node
// reads a device value or the other way round; the result comes back to the host.
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
#include "interpreter/eval/tier.h"

namespace relay::compiler {

class GpuExecutable final : public rt::CompiledCall {
 public:
  // Plans and generates PTX for `gpu`'s architecture, and loads it. `notes` gets the
  // report's lines (what runs where). Throws what gpu::emit_ptx and the driver throw.
  GpuExecutable(Graph graph, FusionPlan plan, cuda::Device& gpu, std::vector<std::string>* notes);
  ~GpuExecutable() override;

  rt::Value call(std::span<const rt::Value> args) override;
  std::vector<std::string> run_notes() const override;

  size_t gpu_groups() const;   // a kernel on the device (maybe after host nodes)
  size_t host_groups() const;  // every node on the host
  uint64_t argument_upload_bytes() const { return argument_uploads_; }

 private:
  struct Kernel;
  struct Step;
  struct CallState;
  // The host value of node `id` (downloaded when it is only on the device).
  const rt::Value& on_host(CallState& st, NodeId id) const;
  // The device copy of node `id` (uploaded when it is only on the host).
  cuda::CUdeviceptr on_device(CallState& st, NodeId id) const;

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
};

}  // namespace relay::compiler
