// The GPU form of a kernel (codegen_internal.h, nvptx.h): an NVPTX entry taking one
// pointer per buffer parameter, whose threads share the top-level parallel loop.
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>

#include "compiler/llvm/codegen_internal.h"
#include "compiler/llvm/nvptx.h"

namespace relay::compiler::cg {

using namespace loops;

namespace {

// A 32-bit special register (threadIdx.x, ...) widened to i64.
llvm::Value* special_register(llvm::IRBuilder<>& b, llvm::Module& m, llvm::Intrinsic::ID id, const char* name) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(&m, id);
  return b.CreateZExt(b.CreateCall(f, {}), b.getInt64Ty(), name);
}

void annotate(llvm::Module& m, llvm::Function* f, const char* key, int value) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Metadata* fields[] = {llvm::ValueAsMetadata::get(f), llvm::MDString::get(ctx, key),
                              llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
  m.getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx, fields));
}

}  // namespace

void Emitter::emit_gpu_kernel(const std::string& symbol) {
  const size_t nparams = k_.num_params();
  std::vector<llvm::Type*> params(nparams, b_.getPtrTy());
  auto* type = llvm::FunctionType::get(b_.getVoidTy(), params, false);
  fn_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, m_);
  fn_->setDoesNotThrow();
  // LLVM 19 marks entries with nvvm.annotations (the ptx_kernel calling convention came later).
  annotate(m_, fn_, "kernel", 1);
  annotate(m_, fn_, "maxntidx", static_cast<int>(gpu::kThreadsPerBlock));
  for (size_t i = 0; i < nparams; ++i) {
    fn_->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
    fn_->getArg(static_cast<unsigned>(i))->setName(k_.buffers[i].name);
  }

  b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
  bind_buffers();

  llvm::Value* tid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, "tid");
  llvm::Value* ctaid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "ctaid");
  const bool grid = k_.body.size() == 1 && k_.body[0].kind == StmtKind::For &&
                    k_.body[0].loop_kind == LoopKind::Parallel;
  if (!grid) {
    // One thread runs the whole body.
    llvm::BasicBlock* run = llvm::BasicBlock::Create(ctx_, "run", fn_);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "done", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateOr(tid, ctaid), b_.getInt64(0)), run, done);
    b_.SetInsertPoint(run);
    block(k_.body);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    b_.CreateRetVoid();
    return;
  }

  // for (i = ctaid * ntid + tid; i < extent; i += ntid * nctaid) body
  const Stmt& s = k_.body[0];
  llvm::Value* ntid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, "ntid");
  llvm::Value* nctaid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, "nctaid");
  llvm::Value* first = b_.CreateAdd(b_.CreateMul(ctaid, ntid), tid, "first");
  llvm::Value* stride = b_.CreateMul(ntid, nctaid, "stride");
  loop(s, first, expr(s.extent), stride);
  b_.CreateRetVoid();
}

}  // namespace relay::compiler::cg
