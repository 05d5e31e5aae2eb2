// GPU plans and the PTX module of a function's groups (gpu_groups.h).
#include "compiler/pipeline/gpu_groups.h"

#include "compiler/loops/print.h"

namespace relay::compiler {

size_t GpuGroups::planned() const {
  size_t n = 0;
  for (const auto& p : plans) n += p.has_value();
  return n;
}

size_t GpuGroups::whole_on_gpu() const {
  size_t n = 0;
  for (size_t i = 0; i < plans.size(); ++i) {
    const bool master_alone = !plans[i] && masters[i];  // a group of its master alone
    n += master_alone || (plans[i] && (plans[i]->reference_nodes == 0 || (masters[i] && plans[i]->reference_nodes == 1)));
  }
  return n;
}

GpuGroups plan_gpu_groups(const Graph& g, const FusionPlan& plan, const gpu::PtxTarget& target,
                          const TileChooser& choose) {
  GpuGroups r;
  std::vector<const loops::Kernel*> kernels;
  for (const FusedGroup& group : plan.groups) {
    std::string why;
    r.plans.push_back(plan_native(g, group, &why, loops::LoopShape::Gpu));
    r.why_not.push_back(r.plans.back() ? std::string() : why);
    // A matrix product's or a convolution's kernel, when the master is one and its
    // epilogue (if any) is planned: the group then runs on the GPU from its inputs to its
    // output.
    std::optional<NativePlan> master;
    const bool epilogue = r.plans.back() && r.plans.back()->kind == NativePlan::Kind::Epilogue;
    if (epilogue || (!r.plans.back() && group.nodes.size() == 1)) {
      std::string master_why;
      if (auto m = gpu_master(g, group, target, &master_why)) {
        const size_t tile = choose ? choose(*m) : 0;
        master = plan_gpu_master(*m, tile, &master_why);
        if (!master && tile != 0) master = plan_gpu_master(*m, 0, &master_why);  // the rule's always lowers
      }
    }
    r.masters.push_back(std::move(master));
  }
  // a plan's kernel, then its finish when it has one
  auto add = [&](const std::optional<NativePlan>& p, std::vector<int>& entry, std::vector<int>& finish_entry) {
    entry.push_back(p ? static_cast<int>(kernels.size()) : -1);
    if (p) kernels.push_back(&p->kernel);
    finish_entry.push_back(p && p->finish ? static_cast<int>(kernels.size()) : -1);
    if (p && p->finish) kernels.push_back(&*p->finish);
  };
  for (size_t i = 0; i < r.plans.size(); ++i) {
    add(r.masters[i], r.master_entry, r.master_finish_entry);
    add(r.plans[i], r.plan_entry, r.finish_entry);
  }
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
  std::string out = comment + "target " + target.arch() + ": " + std::to_string(gpu.whole_on_gpu()) + " of " +
                    std::to_string(plan.groups.size()) + " group(s) wholly on the GPU, " +
                    std::to_string(gpu.module.kernels.size()) + " kernel(s)" +
                    (gpu.module.linked_libdevice ? ", libdevice linked" : "") + "\n";
  auto launch = [&](int entry) {
    const gpu::PtxKernelInfo& k = gpu.module.kernels[static_cast<size_t>(entry)];
    return "entry " + k.entry + ", " +
           (k.one_thread ? std::string("one thread")
                         : std::to_string(k.iterations) + (k.team > 1 ? " iterations of " + std::to_string(k.team) + " threads each" : std::string(" iterations")) +
                               " over " + std::to_string(k.grid) + " x " +
                               std::to_string(k.block) + " threads");
  };
  std::vector<const loops::Kernel*> kernels;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const FusedGroup& group = plan.groups[i];
    out += comment + group_heading(g, group);
    const auto& p = gpu.plans[i];
    const auto& master = gpu.masters[i];
    if (!p && !master) {
      out += ": on the host (" + ascii(gpu.why_not[i]) + ")\n";
      continue;
    }
    if (master) {
      out += ": the master " + launch(gpu.master_entry[i]) + " (" + master->tile + ")";
      if (master->finish) out += ", then its finish " + launch(gpu.master_finish_entry[i]);
    } else if (p->kind == NativePlan::Kind::Epilogue) {
      out += ": the master on the host";
    }
    if (p) out += std::string(p->kind == NativePlan::Kind::Epilogue ? "; its epilogue " : ": ") + launch(gpu.plan_entry[i]);
    if (p && p->finish)
      out += ", split in " + std::to_string(p->chunks) + " chunks an output; then " + launch(gpu.finish_entry[i]);
    out += "\n";
    // in the module's order: the master, its finish, the plan, its finish
    for (const auto* part : {&master, &p})
      if (*part)
        for (const loops::Kernel* k : {&(*part)->kernel, (*part)->finish ? &*(*part)->finish : nullptr})
          if (k) {
            kernels.push_back(k);
            if (stage == "loops") out += loops::print_kernel(*k) + "\n";
          }
  }
  if (stage == "ptx") out += "\n" + gpu.module.ptx;
  else if (stage == "llvm") out += "\n" + gpu::emit_gpu_llvm(kernels, target);
  return out;
}

}  // namespace relay::compiler
