// The emitter shared by codegen_stmt.cpp (functions, loops, statements),
// codegen_expr.cpp (expressions, math) and codegen_cast.cpp (dtype conversions).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "compiler/llvm/codegen.h"

namespace relay::compiler::cg {

class Emitter {
 public:
  // `math_prefix` names the math library's functions: "" for the C library on the host
  // (expf, exp), "__nv_" for NVIDIA's libdevice on the GPU (__nv_expf, __nv_exp).
  Emitter(llvm::Module& m, const loops::Kernel& k, std::string math_prefix = "")
      : m_(m), ctx_(m.getContext()), b_(ctx_), k_(k), math_prefix_(std::move(math_prefix)) {}

  void emit_function(const std::string& symbol, const TargetAttrs& target);
  // The GPU kernel (codegen_nvptx.cpp): `SYMBOL(ptr b0, ..., ptr bn)`, an NVPTX entry
  // whose threads share the top-level parallel loop.
  void emit_gpu_kernel(const std::string& symbol);

  // Expressions (codegen_expr.cpp)
  llvm::Value* expr(const loops::Expr& e);
  llvm::Type* value_type(DataType t);   // bool -> i1, float16 -> half, bfloat16 -> i16
  llvm::Type* memory_type(DataType t);  // bool -> i8
  // Conversions (codegen_cast.cpp): the interpreter's convert<D, S>.
  llvm::Value* cast(llvm::Value* v, DataType from, DataType to);
  // float16/bfloat16 -> float32; float32/float64 unchanged.
  llvm::Value* to_compute(llvm::Value* v, DataType from);

  // Scalar functions (scalar_codegen.cpp): loop-IR lets and expressions over variables
  // bound to LLVM values, emitted at the builder's insertion point in `fn`, a function
  // the caller builds (its own control flow, no buffers).
  void enter_function(llvm::Function* fn) { fn_ = fn; }
  void bind_var(int id, llvm::Value* v) { vars_[id] = v; }
  void emit_block(const loops::Block& b) { block(b); }
  llvm::IRBuilder<>& builder() { return b_; }

 private:
  // Statements (codegen_stmt.cpp)
  // The kernel's buffers: parameters from fn_'s leading arguments, locals as allocas at
  // the insertion point (the entry block).
  void bind_buffers();
  void block(const loops::Block& b);
  void stmt(const loops::Stmt& s);
  void loop(const loops::Stmt& s, llvm::Value* lo, llvm::Value* hi, llvm::Value* step = nullptr);
  llvm::Value* element_ptr(int buffer, const loops::Expr& index);
  // LaneReduce: on the CPU the shuffle tree's order over the buffer's kWarpLanes slots;
  // on the GPU (codegen_nvptx.cpp) warp shuffles of each thread's own slot.
  void lane_reduce(const loops::Stmt& s);
  void gpu_lane_reduce(const loops::Stmt& s);
  // A Threads loop on the GPU: its body once, on each of the team's threads, then a
  // barrier when the team shares buffers.
  void gpu_threads_loop(const loops::Stmt& s);
  // A shared buffer on the GPU: a shared-memory array of the module.
  llvm::Value* gpu_shared_buffer(const loops::Buffer& b);
  // Mma and FragmentStore: on the CPU loops over the warp's tile, each element of a
  // fragment in lane (16 m + n) / 8 of the warp, place (16 m + n) % 8 (codegen_matrix.cpp);
  // on the GPU the WMMA intrinsics (codegen_nvptx.cpp).
  void matrix_statement(const loops::Stmt& s);
  void gpu_matrix_statement(const loops::Stmt& s);
  // A Warps loop on the GPU: warp = threadIdx.x / 32, its body on every thread.
  void gpu_warps_loop(const loops::Stmt& s);
  // The combine of two values of dtype `t` by `op` (loops::BinaryOp), as a Binary node.
  llvm::Value* combine(loops::BinaryOp op, DataType t, llvm::Value* a, llvm::Value* b);

  llvm::Value* binary(const loops::ExprNode& e, llvm::Value* a, llvm::Value* b);
  llvm::Value* int_power(llvm::Value* a, llvm::Value* b, bool is_signed);
  llvm::Value* compare(const loops::ExprNode& e, llvm::Value* a, llvm::Value* b);
  llvm::Value* math(const loops::ExprNode& e, std::vector<llvm::Value*> args);
  llvm::Value* libm(const char* name32, const char* name64, llvm::Value* x, llvm::Value* y = nullptr);
  llvm::Value* bf16_from_f32(llvm::Value* f);
  llvm::Value* bf16_to_f32(llvm::Value* bits);

  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  const loops::Kernel& k_;
  llvm::Function* fn_ = nullptr;
  std::vector<llvm::Value*> buffers_;             // by buffer id
  std::unordered_map<int, llvm::Value*> vars_;    // by var id
  std::string math_prefix_;
  // A team per iteration on the GPU (Kernel::team() > 1): each thread keeps only its own
  // slot of a thread-local buffer; thread_ is its index in the team inside a Threads loop
  // (null outside). gpu_blocks_: the team is a whole block (else warps packed in one).
  bool gpu_team_ = false;
  bool gpu_blocks_ = false;
  llvm::Value* thread_ = nullptr;
  const loops::Var* warp_ = nullptr;  // the enclosing Warps loop's variable (the CPU's tiles)
  int scratch_vars_ = 0;              // ids of variables the CPU's tile loops make (negative)
};

}  // namespace relay::compiler::cg
