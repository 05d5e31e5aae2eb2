// The JIT session (jit.h): one LLJIT per process, host detection, compile and emit.
//
// Each compile builds its module in its own LLVMContext with its own TargetMachine (neither
// is thread-safe to share), optimises it, and hands it to LLJIT, which was built with
// concurrent compilation support so that its IR compile layer is safe to enter from
// several threads. Symbols get a process-unique suffix: the same kernel name compiled for
// two shapes must not collide in the one JITDylib.
#include "compiler/llvm/jit.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>

#include <llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include "compiler/llvm/codegen.h"
#include "compiler/llvm/perf_map.h"
#include "compiler/loops/print.h"
#include "compiler/loops/verify.h"
#include "compiler/runtime/thread_pool.h"

namespace relay::compiler {

namespace {

std::string error_text(llvm::Error e) { return llvm::toString(std::move(e)); }

template <class T> T check(llvm::Expected<T> v, const char* what) {
  if (!v) throw std::runtime_error(std::string(what) + ": " + error_text(v.takeError()));
  return std::move(*v);
}

}  // namespace

struct Jit::Impl {
  HostInfo host;
  TargetAttrs target;
  std::unique_ptr<llvm::orc::JITTargetMachineBuilder> jtmb;
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::atomic<uint64_t> serial{0};

  std::unique_ptr<llvm::TargetMachine> machine() {
    return check(jtmb->createTargetMachine(), "creating the target machine");
  }

  // Codegen + optimisation into `ctx` (which the module then belongs to).
  std::unique_ptr<llvm::Module> build(llvm::LLVMContext& ctx, const loops::Kernel& k, const std::string& symbol,
                                      int opt_level, llvm::TargetMachine& tm) {
    std::vector<std::string> problems = loops::verify(k);
    if (!problems.empty())
      throw std::invalid_argument("kernel " + k.name + " does not verify: " + problems[0] + "\n" +
                                  loops::print_kernel(k));
    std::unique_ptr<llvm::Module> m = generate_module(ctx, k, symbol, target, tm);
    optimize_module(*m, tm, opt_level);
    return m;
  }
};

Jit& Jit::instance() {
  static Jit jit;
  return jit;
}

Jit::Jit() : impl_(std::make_unique<Impl>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  auto jtmb = check(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  HostInfo& h = impl_->host;
  h.triple = jtmb.getTargetTriple().str();
  h.cpu = jtmb.getCPU();
  h.features = jtmb.getFeatures().getString();
  h.avx512 = h.features.find("+avx512f") != std::string::npos;
  h.perf_map = default_perf_map_path();
  impl_->target = TargetAttrs{h.cpu, h.features, h.avx512};
  impl_->jtmb = std::make_unique<llvm::orc::JITTargetMachineBuilder>(jtmb);

  std::string perf_map = h.perf_map;
  impl_->lljit = check(
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(jtmb))
          .setSupportConcurrentCompilation(true)
          // JITLink's ObjectLinkingLayer, so the perf map plugin and debugger support attach
          .setObjectLinkingLayerCreator(
              [perf_map](llvm::orc::ExecutionSession& es,
                         const llvm::Triple&) -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(es);
                layer->addPlugin(make_perf_map_plugin(perf_map));
                return std::unique_ptr<llvm::orc::ObjectLayer>(std::move(layer));
              })
          .create(),
      "creating the JIT");

  // GDB's JIT interface: each object is handed to __jit_debug_register_code (exported by
  // libLLVM together with the llvm_orc_registerJITLoaderGDBWrapper entry point ORC calls).
  if (llvm::Error e = llvm::orc::enableDebuggerSupport(*impl_->lljit)) {
    h.debugger_note = error_text(std::move(e));
  } else {
    h.debugger_support = true;
  }
}

Jit::~Jit() = default;

const HostInfo& Jit::host() const { return impl_->host; }

CompiledKernel Jit::compile(const loops::Kernel& k, const CompileOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CompiledKernel out;
  out.symbol = (k.name.empty() ? std::string("kernel") : k.name) + "_" + std::to_string(impl_->serial++);
  out.parallel_extent = k.parallel_extent();
  out.num_params = k.num_params();

  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::TargetMachine> tm = impl_->machine();
  std::unique_ptr<llvm::Module> m = impl_->build(*ctx, k, out.symbol, options.opt_level, *tm);
  if (options.keep_llvm_ir) out.llvm_ir = module_ir(*m);
  if (options.keep_asm) out.assembly = module_asm(*m, *tm);

  llvm::orc::ThreadSafeModule tsm(std::move(m), std::move(ctx));
  if (llvm::Error e = impl_->lljit->addIRModule(std::move(tsm)))
    throw std::runtime_error("adding kernel " + out.symbol + " to the JIT: " + error_text(std::move(e)));
  llvm::orc::ExecutorAddr addr = check(impl_->lljit->lookup(out.symbol), "looking up a compiled kernel");
  out.fn = addr.toPtr<KernelFn>();
  out.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string Jit::emit_llvm(const loops::Kernel& k, int opt_level) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::TargetMachine> tm = impl_->machine();
  return module_ir(*impl_->build(ctx, k, k.name, opt_level, *tm));
}

std::string Jit::emit_asm(const loops::Kernel& k, int opt_level) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::TargetMachine> tm = impl_->machine();
  return module_asm(*impl_->build(ctx, k, k.name, opt_level, *tm), *tm);
}

std::unique_ptr<llvm::TargetMachine> JitModules::machine(Jit& jit) { return jit.impl_->machine(); }

const TargetAttrs& JitModules::target(Jit& jit) { return jit.impl_->target; }

std::string JitModules::unique_symbol(Jit& jit, const std::string& name) {
  return name + "_" + std::to_string(jit.impl_->serial++);
}

void* JitModules::add(Jit& jit, std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m,
                      const std::string& symbol) {
  llvm::orc::ThreadSafeModule tsm(std::move(m), std::move(ctx));
  if (llvm::Error e = jit.impl_->lljit->addIRModule(std::move(tsm)))
    throw std::runtime_error("adding " + symbol + " to the JIT: " + error_text(std::move(e)));
  return check(jit.impl_->lljit->lookup(symbol), "looking up a compiled function").toPtr<void*>();
}

void run_kernel(const CompiledKernel& k, const RelayTensorView* views, ThreadPool* pool) {
  const int64_t n = k.parallel_extent;
  if (!pool || n <= 1) {
    k.fn(views, 0, n > 0 ? n : 1);
    return;
  }
  pool->parallel_for(n, [&](int64_t begin, int64_t end) { k.fn(views, begin, end); });
}

void run_kernel(const CompiledKernel& k, void* const* buffers, ThreadPool* pool) {
  std::vector<RelayTensorView> views;
  for (size_t i = 0; i < k.num_params; ++i) views.push_back(rt::view_of_data(buffers[i]));
  run_kernel(k, views.data(), pool);
}

}  // namespace relay::compiler
