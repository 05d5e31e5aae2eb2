// PTX modules from loop-IR kernels (nvptx.h): LLVM's NVPTX target, libdevice linked for
// the math functions, the same optimisation pipeline as the CPU's.
#include "compiler/llvm/nvptx.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include "compiler/llvm/codegen_internal.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace relay::compiler::gpu {

namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";
// PTX ISA 7.8 (CUDA 11.8): the oldest that has sm_90, so drivers from 11.8 on load it.
constexpr const char* kPtxFeatures = "+ptx78";

const llvm::Target& nvptx_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!t) throw std::runtime_error("LLVM cannot target NVPTX: " + error);
  return *t;
}

std::unique_ptr<llvm::TargetMachine> machine(const PtxTarget& target, int opt_level) {
  // An architecture LLVM does not know makes it warn, then abort in code generation.
  if (!llvm_knows(target))
    throw std::invalid_argument("LLVM " + std::to_string(LLVM_VERSION_MAJOR) + " cannot generate code for " +
                                target.arch() + " (PTX for sm_90 runs on newer GPUs)");
  const llvm::Target* t = &nvptx_target();
  llvm::TargetOptions options;
  const auto level = opt_level <= 0 ? llvm::CodeGenOptLevel::None
                     : opt_level == 1 ? llvm::CodeGenOptLevel::Less
                     : opt_level == 2 ? llvm::CodeGenOptLevel::Default
                                      : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> tm(
      t->createTargetMachine(kTriple, target.arch(), kPtxFeatures, options, std::nullopt, std::nullopt, level));
  if (!tm) throw std::runtime_error("LLVM cannot make an NVPTX target machine for " + target.arch());
  return tm;
}

bool calls_libdevice(const llvm::Module& m) {
  return std::any_of(m.begin(), m.end(), [](const llvm::Function& f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
}

void link_libdevice(llvm::Module& m) {
  std::string searched;
  const std::string path = find_libdevice(&searched);
  if (path.empty())
    throw std::runtime_error("a GPU kernel calls a math function and NVIDIA's libdevice was not found (looked in " +
                             searched + "); set RELAY_LIBDEVICE to libdevice.10.bc");
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> lib = llvm::parseIRFile(path, diag, m.getContext());
  if (!lib) throw std::runtime_error("cannot read libdevice " + path + ": " + diag.getMessage().str());
  lib->setTargetTriple(m.getTargetTriple());
  lib->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::Flags::LinkOnlyNeeded))
    throw std::runtime_error("cannot link libdevice " + path + " into a GPU module");
  // libdevice asks NVVMReflect whether to flush denormals: no, as on the CPU.
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
}

struct Built {
  std::unique_ptr<llvm::Module> module;
  std::vector<PtxKernelInfo> kernels;
  bool linked_libdevice = false;
};

Built build(llvm::LLVMContext& ctx, std::span<const loops::Kernel* const> kernels, llvm::TargetMachine& tm,
            int opt_level) {
  Built r;
  r.module = std::make_unique<llvm::Module>("relay_gpu", ctx);
  llvm::Module& m = *r.module;
  m.setDataLayout(tm.createDataLayout());
  m.setTargetTriple(kTriple);
  std::set<std::string> entries;
  for (const loops::Kernel* k : kernels) {
    std::string entry = k->name.empty() ? "kernel" : k->name;
    for (int n = 1; entries.count(entry); ++n) entry = k->name + "_" + std::to_string(n);
    entries.insert(entry);
    cg::Emitter(m, *k, "__nv_").emit_gpu_kernel(entry);
    PtxKernelInfo info;
    info.entry = entry;
    info.num_params = k->num_params();
    const bool grid = k->body.size() == 1 && k->body[0].kind == loops::StmtKind::For &&
                      k->body[0].loop_kind == loops::LoopKind::Parallel;
    info.one_thread = !grid;
    info.iterations = grid ? k->parallel_extent() : 1;
    if (grid) {
      info.team = static_cast<unsigned>(k->team());
      info.whole_block = k->team_is_block();
      info.block = info.whole_block ? info.team : kThreadsPerBlock;
      const uint64_t blocks = (info.threads() + info.block - 1) / info.block;
      // More blocks than this only add scheduling work: the grid-stride loop covers the rest.
      info.grid = std::min<uint64_t>(blocks, 1u << 16);
    }
    r.kernels.push_back(std::move(info));
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(m, &os))
    throw std::invalid_argument("internal error: the GPU module's LLVM IR does not verify: " + os.str());
  if (calls_libdevice(m)) {
    link_libdevice(m);
    r.linked_libdevice = true;
  }
  // Only the entries are visible: libdevice's helpers inline and the rest is deleted.
  llvm::internalizeModule(m, [&](const llvm::GlobalValue& gv) { return entries.count(gv.getName().str()) > 0; });
  optimize_module(m, tm, opt_level);
  return r;
}

// The operands' dtype of the first tensor-core product (Mma) in `b`, if any.
std::optional<DataType> mma_operands(const loops::Kernel& k, const loops::Block& b) {
  for (const loops::Stmt& s : b) {
    if (s.kind == loops::StmtKind::Mma) return k.buffer(s.mma.a).dtype;
    if (auto t = mma_operands(k, s.body)) return t;
  }
  return std::nullopt;
}

// LLVM cannot select a tensor-core instruction the target lacks, and says so by aborting
// the process: refuse such a kernel first, with a reason.
void check_tensor_cores(std::span<const loops::Kernel* const> kernels, const PtxTarget& target) {
  for (const loops::Kernel* k : kernels)
    if (auto t = mma_operands(*k, k->body); t && !tensor_cores_take(target, *t))
      throw std::invalid_argument("kernel " + k->name + " multiplies " + dtype_name(*t) + " on the tensor cores, which " +
                                  target.arch() + " does not have (" + dtype_name(*t) + " needs sm_" +
                                  (t->code == DataType::BFloat ? "80" : "70") + " or later)");
}

}  // namespace

bool llvm_knows(const PtxTarget& target) {
  // a generic subtarget (a named unknown one prints a warning) asked about the name
  std::unique_ptr<llvm::MCSubtargetInfo> info(nvptx_target().createMCSubtargetInfo(kTriple, "", ""));
  return info && info->isCPUStringValid(target.arch());
}

bool tensor_cores_take(const PtxTarget& target, DataType operands) {
  if (operands.code == DataType::BFloat && operands.bits == 16) return target.sm >= 80;
  if (operands.code == DataType::Float && operands.bits == 16) return target.sm >= 70;
  return false;
}

std::optional<PtxTarget> parse_ptx_target(std::string_view text) {
  if (text.substr(0, 4) == "cuda") {
    text.remove_prefix(4);
    if (text.empty()) return PtxTarget{};
    if (text[0] != ':') return std::nullopt;
    text.remove_prefix(1);
  }
  if (text.substr(0, 3) == "sm_") text.remove_prefix(3);
  if (text.empty() || text.size() > 3 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const int sm = std::stoi(std::string(text));
  if (sm < 70 || !llvm_knows(PtxTarget{sm})) return std::nullopt;
  return PtxTarget{sm};
}

std::string find_libdevice(std::string* searched) {
  std::vector<std::string> candidates;
  // A file named by RELAY_LIBDEVICE is the only one looked at (tests name a missing one).
  if (const char* file = std::getenv("RELAY_LIBDEVICE"); file && *file) {
    candidates.push_back(file);
  } else {
    if (const char* home = std::getenv("CUDA_HOME"); home && *home)
      candidates.push_back(std::string(home) + "/nvvm/libdevice/libdevice.10.bc");
    candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
    candidates.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  }
  std::string list;
  for (const std::string& c : candidates) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(c, ec)) return c;
    list += (list.empty() ? "" : ", ") + c;
  }
  if (searched) *searched = list;
  return {};
}

PtxLaunch launch_for(const PtxKernelInfo& k, int multiprocessors) {
  if (k.one_thread) return {1, 1};
  if (k.whole_block) return {k.grid, k.block};  // a block per iteration: its size is the team's
  const uint64_t threads = k.threads();
  const uint64_t wanted = static_cast<uint64_t>(std::max(multiprocessors, 1));
  unsigned block = k.block;
  while (block > 32 && (threads + block - 1) / block < wanted) block /= 2;
  return {std::min<uint64_t>((threads + block - 1) / block, 1u << 16), block};
}

PtxModule emit_ptx(std::span<const loops::Kernel* const> kernels, const PtxTarget& target, int opt_level) {
  check_tensor_cores(kernels, target);
  std::unique_ptr<llvm::TargetMachine> tm = machine(target, opt_level);
  llvm::LLVMContext ctx;
  Built built = build(ctx, kernels, *tm, opt_level);
  PtxModule r;
  r.ptx = module_asm(*built.module, *tm);
  r.kernels = std::move(built.kernels);
  r.linked_libdevice = built.linked_libdevice;
  return r;
}

std::string emit_gpu_llvm(std::span<const loops::Kernel* const> kernels, const PtxTarget& target, int opt_level) {
  check_tensor_cores(kernels, target);
  std::unique_ptr<llvm::TargetMachine> tm = machine(target, opt_level);
  llvm::LLVMContext ctx;
  return module_ir(*build(ctx, kernels, *tm, opt_level).module);
}

}  // namespace relay::compiler::gpu
