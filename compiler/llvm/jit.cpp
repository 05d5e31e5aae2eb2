// The JIT session (jit.h): one LLJIT per process, host detection, compile and emit.
//
// Where a compile's time goes (bench/compiler, relay_bench_compiler's latency table) and
// what is done about it:
//  * Target machines are made once per thread and reused (thread_local): a fresh one per
//    kernel also rebuilds its X86 subtarget, the target lowering tables, on first use. A
//    TargetMachine is not safe to share between threads, hence one per thread, never locked.
//  * Machine code is emitted here, on the compiling thread, with that reused machine, and
//    the object handed to LLJIT's linking layer (addObjectFile). LLJIT's own IR layer
//    would build yet another TargetMachine for every module it compiles concurrently.
//  * The code generator's optimisation level follows the IR's (O2: LLVM's Default, as
//    clang -O2; O0: None, the fast instruction selector) instead of always Aggressive.
//  * compile_all puts many kernels (an Executable's fused groups) in one module: one pass
//    pipeline run, one code generation and one link instead of one each per kernel; what a
//    module costs besides its functions is paid once.
// Each compile still gets its own LLVMContext (a module's context must outlive its code
// generation and cannot be shared between threads). Symbols get a process-unique suffix:
// the same kernel name compiled for two shapes must not collide in the one JITDylib.
#include "compiler/llvm/jit.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
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

llvm::CodeGenOptLevel codegen_level(int opt_level) {
  return opt_level <= 0   ? llvm::CodeGenOptLevel::None
         : opt_level == 1 ? llvm::CodeGenOptLevel::Less
         : opt_level == 2 ? llvm::CodeGenOptLevel::Default
                          : llvm::CodeGenOptLevel::Aggressive;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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

  // This thread's target machine, made on its first compile, at `opt_level`'s code
  // generation level. (One Jit per process, so one machine per thread.)
  llvm::TargetMachine& thread_machine(int opt_level) {
    thread_local std::unique_ptr<llvm::TargetMachine> tm;
    if (!tm) tm = machine();
    tm->setOptLevel(codegen_level(opt_level));
    return *tm;
  }

  // Codegen of each kernel into `ctx`, linked into one module, then optimisation.
  std::unique_ptr<llvm::Module> build(llvm::LLVMContext& ctx, std::span<const loops::Kernel* const> kernels,
                                      std::span<const std::string> symbols, int opt_level, llvm::TargetMachine& tm) {
    std::unique_ptr<llvm::Module> m;
    for (size_t i = 0; i < kernels.size(); ++i) {
      const loops::Kernel& k = *kernels[i];
      std::vector<std::string> problems = loops::verify(k);
      if (!problems.empty())
        throw std::invalid_argument("kernel " + k.name + " does not verify: " + problems[0] + "\n" +
                                    loops::print_kernel(k));
      std::unique_ptr<llvm::Module> one = generate_module(ctx, k, symbols[i], target, tm);
      if (!m) m = std::move(one);
      else if (llvm::Linker::linkModules(*m, std::move(one)))
        throw std::runtime_error("linking kernel " + symbols[i] + " into its module");
    }
    optimize_module(*m, tm, opt_level);
    return m;
  }

  // Machine code for `m` on this thread, handed to the JIT's linking layer.
  void add(std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m, llvm::TargetMachine& tm,
           const std::string& what) {
    llvm::orc::SimpleCompiler compile(tm);
    std::unique_ptr<llvm::MemoryBuffer> object = check(compile(*m), "generating machine code");
    m.reset();  // the module before its context
    ctx.reset();
    if (llvm::Error e = lljit->addObjectFile(std::move(object)))
      throw std::runtime_error("adding " + what + " to the JIT: " + error_text(std::move(e)));
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
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
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
  const loops::Kernel* one[] = {&k};
  return std::move(compile_all(one, options)[0]);
}

std::vector<CompiledKernel> Jit::compile_all(std::span<const loops::Kernel* const> kernels,
                                             const CompileOptions& options) {
  std::vector<CompiledKernel> out(kernels.size());
  if (kernels.empty()) return out;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> symbols;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const loops::Kernel& k = *kernels[i];
    out[i].symbol = (k.name.empty() ? std::string("kernel") : k.name) + "_" + std::to_string(impl_->serial++);
    out[i].parallel_extent = k.parallel_extent();
    out[i].num_params = k.num_params();
    symbols.push_back(out[i].symbol);
  }
  auto ctx = std::make_unique<llvm::LLVMContext>();
  llvm::TargetMachine& tm = impl_->thread_machine(options.opt_level);
  std::unique_ptr<llvm::Module> m = impl_->build(*ctx, kernels, symbols, options.opt_level, tm);
  // The printed stages are of the whole module: with one kernel, that kernel's.
  if (options.keep_llvm_ir) out[0].llvm_ir = module_ir(*m);
  if (options.keep_asm) out[0].assembly = module_asm(*m, tm);
  impl_->add(std::move(ctx), std::move(m), tm, "kernel " + symbols[0]);
  // The first lookup links the object; the others find their symbols in it.
  for (CompiledKernel& ck : out)
    ck.fn = check(impl_->lljit->lookup(ck.symbol), "looking up a compiled kernel").toPtr<KernelFn>();
  const double each = ms_since(start) / static_cast<double>(kernels.size());
  for (CompiledKernel& ck : out) ck.compile_ms = each;
  return out;
}

std::string Jit::emit_llvm(const loops::Kernel& k, int opt_level) {
  llvm::LLVMContext ctx;
  llvm::TargetMachine& tm = impl_->thread_machine(opt_level);
  const loops::Kernel* one[] = {&k};
  const std::string symbol[] = {k.name};
  return module_ir(*impl_->build(ctx, one, symbol, opt_level, tm));
}

std::string Jit::emit_asm(const loops::Kernel& k, int opt_level) {
  llvm::LLVMContext ctx;
  llvm::TargetMachine& tm = impl_->thread_machine(opt_level);
  const loops::Kernel* one[] = {&k};
  const std::string symbol[] = {k.name};
  return module_asm(*impl_->build(ctx, one, symbol, opt_level, tm), tm);
}

std::unique_ptr<llvm::TargetMachine> JitModules::machine(Jit& jit) { return jit.impl_->machine(); }

const TargetAttrs& JitModules::target(Jit& jit) { return jit.impl_->target; }

std::string JitModules::unique_symbol(Jit& jit, const std::string& name) {
  return name + "_" + std::to_string(jit.impl_->serial++);
}

void* JitModules::add(Jit& jit, std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m,
                      const std::string& symbol) {
  jit.impl_->add(std::move(ctx), std::move(m), jit.impl_->thread_machine(2), symbol);
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
  views.reserve(k.num_params);
  for (size_t i = 0; i < k.num_params; ++i) views.push_back(rt::view_of_data(buffers[i]));
  run_kernel(k, views.data(), pool);
}

}  // namespace relay::compiler
