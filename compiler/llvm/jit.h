// The CPU backend: loop-IR kernels compiled to native code with LLVM 19's ORC LLJIT.
//
// This header includes no LLVM header; compiler/llvm is the only code that does.
//
//   Jit& jit = Jit::instance();               // one JIT session per process
//   CompiledKernel ck = jit.compile(kernel);  // codegen, O2 pipeline, machine code
//   run_kernel(ck, buffers, &pool);           // the parallel loop split over the pool
//
// compile() is thread-safe (the graph layer compiles on a background thread while the
// interpreter keeps running). The host is detected at run time, never assumed: the
// processor's name and features tune code generation, and on AVX-512 hosts functions carry
// "prefer-vector-width"="512". Each kernel's machine code is announced to profilers (a
// line in /tmp/perf-PID.map) and to debuggers (GDB's JIT interface, through ORC's debugger
// support, when the process exposes it).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/loops/ir.h"
#include "interpreter/runtime/tensor_view.h"

namespace relay::compiler {

class ThreadPool;

// The C ABI of a compiled kernel (compiler/loops/ir.h): one view per buffer parameter, in
// the kernel's parameter order (interpreter/runtime/tensor_view.h), the same views
// destination-passing reference kernels receive.
using KernelFn = void (*)(const RelayTensorView* views, int64_t begin, int64_t end);

struct CompileOptions {
  int opt_level = 2;          // 0..3: the new pass manager's default pipeline at that level
  bool keep_llvm_ir = false;  // CompiledKernel::llvm_ir: the optimised IR
  bool keep_asm = false;      // CompiledKernel::assembly: the host's assembly
};

struct CompiledKernel {
  std::string symbol;  // the kernel's name plus a unique suffix, as profilers show it
  KernelFn fn = nullptr;
  int64_t parallel_extent = 1;  // iterations of the kernel's parallel loop
  size_t num_params = 0;        // views the kernel reads (its buffer parameters)
  double compile_ms = 0;        // code generation, optimisation and machine code, wall time
  std::string llvm_ir, assembly;

  void operator()(const RelayTensorView* views, int64_t begin, int64_t end) const { fn(views, begin, end); }
};

struct HostInfo {
  std::string triple, cpu, features;
  bool avx512 = false;
  bool debugger_support = false;  // GDB JIT interface registration is on
  std::string debugger_note;      // why not, when it is off
  std::string perf_map;           // the perf map file written
};

class Jit {
 public:
  // The process's JIT session, created on first use. Throws std::runtime_error when LLVM
  // cannot target the host.
  static Jit& instance();
  ~Jit();

  const HostInfo& host() const;

  // Thread-safe. Throws std::invalid_argument for a kernel that does not verify.
  CompiledKernel compile(const loops::Kernel& k, const CompileOptions& options = {});
  // Many kernels in one module (one optimisation run, one code generation, one link):
  // what a module costs besides its functions is paid once. Each result's compile_ms is
  // its share of the whole; keep_llvm_ir/keep_asm fill the first result with the module's.
  std::vector<CompiledKernel> compile_all(std::span<const loops::Kernel* const> kernels,
                                          const CompileOptions& options = {});

  // `relay compile --emit=llvm|asm`: the optimised IR / the host assembly of one kernel,
  // without adding it to the JIT session.
  std::string emit_llvm(const loops::Kernel& k, int opt_level = 2);
  std::string emit_asm(const loops::Kernel& k, int opt_level = 2);

 private:
  friend struct JitModules;  // codegen.h: adding a module built elsewhere in compiler/llvm
  Jit();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs the whole kernel: its parallel loop split over `pool` (serially when pool is null).
void run_kernel(const CompiledKernel& k, const RelayTensorView* views, ThreadPool* pool);
// The same over plain data pointers (one per buffer parameter), wrapped in shapeless views:
// for tests and benchmarks that hold raw buffers.
void run_kernel(const CompiledKernel& k, void* const* buffers, ThreadPool* pool);

}  // namespace relay::compiler
