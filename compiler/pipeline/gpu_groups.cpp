// GPU plans and the PTX module of a function's groups (gpu_groups.h).
#include "compiler/pipeline/gpu_groups.h"

#include "compiler/loops/print.h"

namespace relay::compiler {

size_t GpuGroups::planned() const {
  size_t n = 0;
  for (const auto& p : plans) n += p.has_value();
  return n;
}

GpuGroups plan_gpu_groups(const Graph& g, const FusionPlan& plan, const gpu::PtxTarget& target) {
  GpuGroups r;
  std::vector<const loops::Kernel*> kernels;
  for (const FusedGroup& group : plan.groups) {
    std::string why;
    r.plans.push_back(plan_native(g, group, &why, loops::LoopShape::Gpu));
    r.why_not.push_back(r.plans.back() ? std::string() : why);
  }
  for (const auto& p : r.plans)
    if (p) kernels.push_back(&p->kernel);
  if (!kernels.empty()) r.module = gpu::emit_ptx(kernels, target);
  return r;
}

namespace {

// PTX accepts only ASCII, comments included: the reasons' other characters (`§`) go.
std::string ascii(std::string s) {
  std::erase_if(s, [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  return s;
}

std::string group_heading(const Graph& g, const FusedGroup& group) {
  const std::string master = g[group.master].op ? std::string(g[group.master].op->name) : "tuple";
  return "group " + std::to_string(group.id) + " (" + master + ", " + std::to_string(group.nodes.size()) + " ops)";
}

}  // namespace

std::string emit_gpu_groups(const Graph& g, const FusionPlan& plan, std::string_view stage,
                            const gpu::PtxTarget& target) {
  const GpuGroups gpu = plan_gpu_groups(g, plan, target);
  const std::string comment = stage == "llvm" ? "; " : "// ";
  std::string out = comment + "target " + target.arch() + ": " + std::to_string(gpu.planned()) + " of " +
                    std::to_string(plan.groups.size()) + " group(s) as GPU kernels" +
                    (gpu.module.linked_libdevice ? ", libdevice linked" : "") + "\n";
  size_t entry = 0;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const FusedGroup& group = plan.groups[i];
    out += comment + group_heading(g, group);
    const auto& p = gpu.plans[i];
    if (!p) {
      out += ": on the host (" + ascii(gpu.why_not[i]) + ")\n";
      continue;
    }
    const gpu::PtxKernelInfo& k = gpu.module.kernels[entry++];
    if (p->kind == NativePlan::Kind::Epilogue) out += ": the master on the host, its epilogue";
    out += ": entry " + k.entry + ", ";
    out += k.one_thread ? std::string("one thread") :
           std::to_string(k.iterations) + " iterations over " + std::to_string(k.grid) + " x " +
           std::to_string(k.block) + " threads";
    out += "\n";
    if (stage == "loops") out += loops::print_kernel(p->kernel) + "\n";
  }
  if (stage == "ptx") out += "\n" + gpu.module.ptx;
  else if (stage == "llvm") {
    std::vector<const loops::Kernel*> kernels;
    for (const auto& p : gpu.plans)
      if (p) kernels.push_back(&p->kernel);
    out += "\n" + gpu::emit_gpu_llvm(kernels, target);
  }
  return out;
}

}  // namespace relay::compiler
