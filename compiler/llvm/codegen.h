// Loop IR -> LLVM IR (internal to compiler/llvm: includes LLVM headers).
//
// A kernel becomes two functions: `SYMBOL(ptr views, i64 begin, i64 end)`, the C ABI of
// ir.h (views: an array of RelayTensorView, interpreter/runtime/tensor_view.h), which loads
// each buffer's data pointer plus byte offset and calls `SYMBOL.body(ptr noalias b0, ..., i64
// begin, i64 end)`, an always-inline internal function. The noalias parameters tell the
// vectoriser that buffers do not overlap (the contract of every lowering), with no run-time
// alias checks.
#pragma once

#include <memory>
#include <string>

#include "compiler/loops/ir.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
}  // namespace llvm

namespace relay::compiler {

class Jit;

// What the generated functions are tuned for (the host, detected at run time).
struct TargetAttrs {
  std::string cpu;       // "target-cpu"
  std::string features;  // "target-features"
  bool prefer_512 = false;  // AVX-512 hosts: "prefer-vector-width"="512"
};

std::unique_ptr<llvm::Module> generate_module(llvm::LLVMContext& ctx, const loops::Kernel& k,
                                              const std::string& symbol, const TargetAttrs& target,
                                              llvm::TargetMachine& tm);

// The new pass manager's default pipeline at O0..O3 (LLJIT runs none by itself).
void optimize_module(llvm::Module& m, llvm::TargetMachine& tm, int opt_level);

// The module's machine code as assembly text (the module is not changed).
std::string module_asm(const llvm::Module& m, llvm::TargetMachine& tm);
std::string module_ir(const llvm::Module& m);

// For code generators other than kernels (scalar_codegen.cpp): the JIT session's host
// target, a process-unique symbol suffix, and adding a finished module to the session.
struct JitModules {
  static std::unique_ptr<llvm::TargetMachine> machine(Jit& jit);
  static const TargetAttrs& target(Jit& jit);
  static std::string unique_symbol(Jit& jit, const std::string& name);
  // Hands `m` (owned by `ctx`) to LLJIT and returns the address of `symbol`.
  static void* add(Jit& jit, std::unique_ptr<llvm::LLVMContext> ctx, std::unique_ptr<llvm::Module> m,
                   const std::string& symbol);
};

}  // namespace relay::compiler
