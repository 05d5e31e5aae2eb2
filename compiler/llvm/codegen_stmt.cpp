// Functions, loops and statements (codegen_internal.h).
#include <stdexcept>

#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "compiler/llvm/codegen_internal.h"

namespace relay::compiler {
namespace cg {

using namespace loops;

namespace {
void set_target_attrs(llvm::Function* f, const TargetAttrs& t) {
  if (!t.cpu.empty()) f->addFnAttr("target-cpu", t.cpu);
  if (!t.features.empty()) f->addFnAttr("target-features", t.features);
  // Without this, LLVM vectorises with 256-bit registers even where AVX-512 exists.
  if (t.prefer_512) f->addFnAttr("prefer-vector-width", "512");
  f->setDoesNotThrow();
}
}  // namespace

void Emitter::emit_function(const std::string& symbol, const TargetAttrs& target) {
  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64 = b_.getInt64Ty();
  const size_t nparams = k_.num_params();

  // The body: one noalias pointer per buffer parameter, then begin and end.
  std::vector<llvm::Type*> body_params(nparams, ptr);
  body_params.push_back(i64);
  body_params.push_back(i64);
  auto* body_type = llvm::FunctionType::get(b_.getVoidTy(), body_params, false);
  fn_ = llvm::Function::Create(body_type, llvm::Function::InternalLinkage, symbol + ".body", m_);
  fn_->addFnAttr(llvm::Attribute::AlwaysInline);
  set_target_attrs(fn_, target);
  for (size_t i = 0; i < nparams; ++i) {
    fn_->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
    fn_->getArg(static_cast<unsigned>(i))->setName(k_.buffers[i].name);
  }
  llvm::Value* begin = fn_->getArg(static_cast<unsigned>(nparams));
  llvm::Value* end = fn_->getArg(static_cast<unsigned>(nparams + 1));
  begin->setName("begin");
  end->setName("end");

  b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
  bind_buffers();

  const bool grid = k_.body.size() == 1 && k_.body[0].kind == StmtKind::For &&
                    k_.body[0].loop_kind == LoopKind::Parallel;
  if (grid) {
    // [max(begin, 0), min(end, extent)): the caller's share of the parallel loop
    llvm::Value* extent = expr(k_.body[0].extent);
    llvm::Value* lo = b_.CreateSelect(b_.CreateICmpSGT(begin, b_.getInt64(0)), begin, b_.getInt64(0));
    llvm::Value* hi = b_.CreateSelect(b_.CreateICmpSLT(end, extent), end, extent);
    loop(k_.body[0], lo, hi);
  } else {
    llvm::BasicBlock* run = llvm::BasicBlock::Create(ctx_, "run", fn_);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "done", fn_);
    b_.CreateCondBr(b_.CreateICmpSLT(begin, end), run, done);
    b_.SetInsertPoint(run);
    block(k_.body);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
  b_.CreateRetVoid();

  // The C ABI entry: void SYMBOL(const RelayTensorView* views, int64_t begin, int64_t end)
  // (interpreter/runtime/tensor_view.h). The prologue reads each parameter's data pointer
  // and byte offset; the body addresses elements with the strides the lowering fixed.
  // %RelayTensorView = { ptr data, i64 byte_offset, ptr shape, ptr strides, i32 ndim,
  //                      { i8 code, i8 bits, i16 lanes } }
  llvm::Type* i8 = b_.getInt8Ty();
  llvm::StructType* dtype_type = llvm::StructType::get(ctx_, {i8, i8, b_.getInt16Ty()});
  llvm::StructType* view_type =
      llvm::StructType::get(ctx_, {ptr, i64, ptr, ptr, b_.getInt32Ty(), dtype_type});
  auto* abi_type = llvm::FunctionType::get(b_.getVoidTy(), {ptr, i64, i64}, false);
  llvm::Function* abi = llvm::Function::Create(abi_type, llvm::Function::ExternalLinkage, symbol, m_);
  set_target_attrs(abi, target);
  abi->getArg(0)->setName("views");
  b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", abi));
  std::vector<llvm::Value*> args;
  for (size_t i = 0; i < nparams; ++i) {
    const unsigned idx = static_cast<unsigned>(i);
    const std::string& name = k_.buffers[i].name;
    llvm::Value* data = b_.CreateLoad(ptr, b_.CreateConstInBoundsGEP2_32(view_type, abi->getArg(0), idx, 0), name + ".data");
    llvm::Value* offset =
        b_.CreateLoad(i64, b_.CreateConstInBoundsGEP2_32(view_type, abi->getArg(0), idx, 1), name + ".offset");
    args.push_back(b_.CreateInBoundsGEP(i8, data, offset, name));
  }
  args.push_back(abi->getArg(1));
  args.push_back(abi->getArg(2));
  b_.CreateCall(fn_, args);
  b_.CreateRetVoid();
}

void Emitter::bind_buffers() {
  const size_t nparams = k_.num_params();
  buffers_.assign(k_.buffers.size(), nullptr);
  for (size_t i = 0; i < nparams; ++i) buffers_[i] = fn_->getArg(static_cast<unsigned>(i));
  // Local buffers live in the entry block, so SROA turns small ones into registers (on
  // the GPU they are per thread).
  for (size_t i = nparams; i < k_.buffers.size(); ++i) {
    const Buffer& buf = k_.buffers[i];
    if (gpu_team_ && buf.shared) {
      buffers_[i] = gpu_shared_buffer(buf);
      continue;
    }
    const int64_t elements = gpu_team_ && buf.thread_slot ? buf.thread_slot : buf.extent();
    buffers_[i] = b_.CreateAlloca(memory_type(buf.dtype), b_.getInt64(elements), buf.name);
  }
}

void Emitter::block(const Block& b) {
  for (const Stmt& s : b) stmt(s);
}

llvm::Value* Emitter::element_ptr(int buffer, const Expr& index) {
  const Buffer& buf = k_.buffer(buffer);
  // On the GPU a thread holds its own slot of a thread-local buffer: inside a Threads loop
  // the index is thread * slot + j (verify.h), and j is the place in that slot.
  const Expr& place = gpu_team_ && buf.thread_slot && thread_ ? index->args[1] : index;
  return b_.CreateInBoundsGEP(memory_type(buf.dtype), buffers_[static_cast<size_t>(buffer)], expr(place));
}

llvm::Value* Emitter::combine(BinaryOp op, DataType t, llvm::Value* a, llvm::Value* b) {
  ExprNode node;
  node.kind = ExprKind::Binary;
  node.dtype = t;
  node.op = static_cast<uint8_t>(op);
  node.args = {const_of(0, t), const_of(0, t)};  // binary() reads the operands' dtype
  return binary(node, a, b);
}

void Emitter::lane_reduce(const Stmt& s) {
  if (gpu_team_) {
    gpu_lane_reduce(s);
    return;
  }
  const Buffer& buf = k_.buffer(s.buffer);
  llvm::Type* type = memory_type(buf.dtype);
  llvm::Value* base = buffers_[static_cast<size_t>(s.buffer)];
  auto at = [&](int64_t i) { return b_.CreateInBoundsGEP(type, base, b_.getInt64(i)); };
  for (int64_t step = kWarpLanes / 2; step >= 1; step /= 2)
    for (int64_t lane = 0; lane < step; ++lane)
      for (int64_t j = 0; j < buf.thread_slot; ++j) {
        llvm::Value* mine = b_.CreateLoad(type, at(lane * buf.thread_slot + j));
        llvm::Value* other = b_.CreateLoad(type, at((lane + step) * buf.thread_slot + j));
        b_.CreateStore(combine(s.combine, buf.dtype, mine, other), at(lane * buf.thread_slot + j));
      }
}

void Emitter::stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::For:
      if (gpu_team_ && s.loop_kind == LoopKind::Threads) {
        gpu_threads_loop(s);
        break;
      }
      if (s.loop_kind == LoopKind::Warps) {
        if (gpu_team_) {
          gpu_warps_loop(s);
          break;
        }
        const Var* outer = warp_;
        warp_ = &s.var;
        loop(s, b_.getInt64(0), expr(s.extent));
        warp_ = outer;
        break;
      }
      loop(s, b_.getInt64(0), expr(s.extent));
      break;
    case StmtKind::Let: {
      llvm::Value* v = expr(s.value);
      v->setName(s.var.name + std::to_string(s.var.id));
      vars_[s.var.id] = v;
      break;
    }
    case StmtKind::Store: {
      const Buffer& buf = k_.buffer(s.buffer);
      llvm::Value* v = expr(s.value);
      if (buf.dtype.is_bool()) v = b_.CreateZExt(v, b_.getInt8Ty());
      b_.CreateStore(v, element_ptr(s.buffer, s.index));
      break;
    }
    case StmtKind::Alloc: break;  // the alloca is in the entry block
    case StmtKind::LaneReduce: lane_reduce(s); break;
    case StmtKind::Mma:
    case StmtKind::FragmentStore:
      if (gpu_team_) gpu_matrix_statement(s);
      else matrix_statement(s);
      break;
    case StmtKind::If: {
      llvm::BasicBlock* then = llvm::BasicBlock::Create(ctx_, "then", fn_);
      llvm::BasicBlock* after = llvm::BasicBlock::Create(ctx_, "endif", fn_);
      b_.CreateCondBr(expr(s.value), then, after);
      b_.SetInsertPoint(then);
      block(s.body);
      b_.CreateBr(after);
      b_.SetInsertPoint(after);
      break;
    }
  }
}

// for (i = lo; i < hi; i += step) body (step 1 when null), as header/body/latch blocks
// with a phi.
void Emitter::loop(const Stmt& s, llvm::Value* lo, llvm::Value* hi, llvm::Value* step) {
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  const std::string name = s.var.name + std::to_string(s.var.id);
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx_, name + ".header", fn_);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx_, name + ".body", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, name + ".exit", fn_);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* i = b_.CreatePHI(b_.getInt64Ty(), 2, name);
  i->addIncoming(lo, pre);
  b_.CreateCondBr(b_.CreateICmpSLT(i, hi), body, exit);
  b_.SetInsertPoint(body);
  vars_[s.var.id] = i;
  block(s.body);
  llvm::Value* next = b_.CreateAdd(i, step ? step : b_.getInt64(1), name + ".next", /*HasNUW=*/true, /*HasNSW=*/true);
  llvm::BranchInst* back = b_.CreateBr(header);
  i->addIncoming(next, b_.GetInsertBlock());
  // Every loop makes progress (no infinite loops in the IR), which lets LLVM delete or
  // rearrange loops freely.
  llvm::MDNode* progress = llvm::MDNode::get(ctx_, llvm::MDString::get(ctx_, "llvm.loop.mustprogress"));
  llvm::MDNode* self = llvm::MDNode::getDistinct(ctx_, {nullptr, progress});
  self->replaceOperandWith(0, self);
  back->setMetadata(llvm::LLVMContext::MD_loop, self);
  b_.SetInsertPoint(exit);
}

}  // namespace cg

std::unique_ptr<llvm::Module> generate_module(llvm::LLVMContext& ctx, const loops::Kernel& k,
                                              const std::string& symbol, const TargetAttrs& target,
                                              llvm::TargetMachine& tm) {
  auto m = std::make_unique<llvm::Module>(symbol, ctx);
  m->setDataLayout(tm.createDataLayout());
  m->setTargetTriple(tm.getTargetTriple().str());
  cg::Emitter(*m, k).emit_function(symbol, target);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os))
    throw std::logic_error("internal error: the LLVM IR of kernel " + k.name + " does not verify: " + os.str());
  return m;
}

}  // namespace relay::compiler
