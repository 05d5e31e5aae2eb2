// The GPU form of a kernel (codegen_internal.h, nvptx.h): an NVPTX entry taking one
// pointer per buffer parameter, whose threads share the top-level parallel loop.
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>

#include <algorithm>

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
  // the block size it is launched with (nvptx.cpp): a whole-block team's, else 256 or fewer
  const int64_t team = k_.team();
  const bool whole_block = team > 1 && (team != kWarpLanes || k_.has_shared_buffers());
  annotate(m_, fn_, "maxntidx", static_cast<int>(whole_block ? team : int64_t{gpu::kThreadsPerBlock}));
  // A block-tiled product holds 16 accumulators (64 with 8 x 8 a thread) and its slices'
  // addresses. Left alone, ptxas gave the convolution 40 registers on sm_90 and spilled;
  // allowed 128 it uses 80 and spills nothing (tests/compiler_jit/gpu_ptx_test.cpp). The
  // cap keeps two blocks of the team on a multiprocessor's 64k registers: 128 for 256
  // threads, the most a thread may have (255) for 128 or fewer (an 8 x 8 tile spilled at 128).
  if (whole_block) annotate(m_, fn_, "maxnreg", static_cast<int>(std::min<int64_t>(255, 65536 / (2 * team))));
  for (size_t i = 0; i < nparams; ++i) {
    fn_->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
    // every argument starts an allocation (cuMemAlloc aligns to 256 bytes): aligned
    // accesses may merge into vector loads
    fn_->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::getWithAlignment(ctx_, llvm::Align(gpu::kParamAlignment)));
    fn_->getArg(static_cast<unsigned>(i))->setName(k_.buffers[i].name);
  }

  b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
  gpu_team_ = k_.team() > 1;
  gpu_blocks_ = k_.team_is_block();
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

  // for (i = ctaid * ntid + tid; i < extent; i += ntid * nctaid) body. A team of a warp
  // takes an iteration per warp (blocks are whole warps, so a warp's threads share i and
  // leave the loop together, as the shuffles need); a team of a block an iteration per
  // block (i = ctaid, i += nctaid).
  const Stmt& s = k_.body[0];
  llvm::Value* ntid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, "ntid");
  llvm::Value* nctaid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, "nctaid");
  llvm::Value* first = b_.CreateAdd(b_.CreateMul(ctaid, ntid), tid, "first");
  llvm::Value* stride = b_.CreateMul(ntid, nctaid, "stride");
  if (gpu_blocks_) {
    first = ctaid;
    stride = nctaid;
  } else if (gpu_team_) {
    first = b_.CreateLShr(first, b_.getInt64(5), "warp");
    stride = b_.CreateLShr(stride, b_.getInt64(5), "warps");
  }
  loop(s, first, expr(s.extent), stride);
  b_.CreateRetVoid();
}

void Emitter::gpu_threads_loop(const Stmt& s) {
  llvm::Value* tid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, "tid");
  thread_ = gpu_blocks_ ? tid : b_.CreateAnd(tid, b_.getInt64(kWarpLanes - 1), "lane");
  vars_[s.var.id] = thread_;
  block(s.body);
  thread_ = nullptr;
  // the next phase may read what this one wrote to shared memory, or overwrite what it read
  if (k_.has_shared_buffers()) b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::nvvm_barrier0), {});
}

void Emitter::gpu_warps_loop(const Stmt& s) {
  llvm::Value* tid = special_register(b_, m_, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, "tid");
  vars_[s.var.id] = b_.CreateLShr(tid, b_.getInt64(5), "warp");
  block(s.body);
  if (k_.has_shared_buffers()) b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::nvvm_barrier0), {});
}

// WMMA m16n16k16: the fragment is the thread's kFragment floats of its slot; A is read as a
// row-major 16 x 16 tile and B ([n][k]) as a column-major one, from shared memory.
void Emitter::gpu_matrix_statement(const Stmt& s) {
  const MmaOperands& o = s.mma;
  llvm::Type* f = b_.getFloatTy();
  llvm::Value* fragment = b_.CreateInBoundsGEP(f, buffers_[static_cast<size_t>(s.buffer)], expr(s.index));
  auto element = [&](int i) { return b_.CreateInBoundsGEP(f, fragment, b_.getInt64(i)); };
  auto tile = [&](int buffer, const Expr& offset) {
    const Buffer& buf = k_.buffer(buffer);
    return b_.CreateInBoundsGEP(memory_type(buf.dtype), buffers_[static_cast<size_t>(buffer)], expr(offset));
  };
  auto fields = [&](llvm::Value* aggregate, std::vector<llvm::Value*>& into) {
    const unsigned n = llvm::cast<llvm::StructType>(aggregate->getType())->getNumElements();
    for (unsigned i = 0; i < n; ++i) into.push_back(b_.CreateExtractValue(aggregate, i));
  };
  if (s.kind == StmtKind::FragmentStore) {
    llvm::Value* out = tile(o.a, o.a_offset);
    llvm::Function* store = llvm::Intrinsic::getDeclaration(
        &m_, llvm::Intrinsic::nvvm_wmma_m16n16k16_store_d_f32_row_stride, {out->getType()});
    std::vector<llvm::Value*> args{out};
    for (int i = 0; i < kFragment; ++i) args.push_back(b_.CreateLoad(f, element(i)));
    args.push_back(b_.getInt32(static_cast<uint32_t>(o.a_stride)));
    b_.CreateCall(store, args);
    return;
  }
  const bool bf16 = k_.buffer(o.a).dtype.code == DataType::BFloat;
  llvm::Value* a = tile(o.a, o.a_offset);
  llvm::Value* bt = tile(o.b, o.b_offset);
  llvm::Function* load_a = llvm::Intrinsic::getDeclaration(
      &m_, bf16 ? llvm::Intrinsic::nvvm_wmma_m16n16k16_load_a_bf16_row_stride
                : llvm::Intrinsic::nvvm_wmma_m16n16k16_load_a_f16_row_stride,
      {a->getType()});
  llvm::Function* load_b = llvm::Intrinsic::getDeclaration(
      &m_, bf16 ? llvm::Intrinsic::nvvm_wmma_m16n16k16_load_b_bf16_col_stride
                : llvm::Intrinsic::nvvm_wmma_m16n16k16_load_b_f16_col_stride,
      {bt->getType()});
  llvm::Function* mma = llvm::Intrinsic::getDeclaration(
      &m_, bf16 ? llvm::Intrinsic::nvvm_wmma_m16n16k16_mma_row_col_bf16
                : llvm::Intrinsic::nvvm_wmma_m16n16k16_mma_row_col_f32_f32);
  std::vector<llvm::Value*> args;
  fields(b_.CreateCall(load_a, {a, b_.getInt32(static_cast<uint32_t>(o.a_stride))}), args);
  fields(b_.CreateCall(load_b, {bt, b_.getInt32(static_cast<uint32_t>(o.b_stride))}), args);
  for (int i = 0; i < kFragment; ++i) args.push_back(b_.CreateLoad(f, element(i)));
  llvm::Value* d = b_.CreateCall(mma, args);
  for (int i = 0; i < kFragment; ++i) b_.CreateStore(b_.CreateExtractValue(d, static_cast<unsigned>(i)), element(i));
}

llvm::Value* Emitter::gpu_shared_buffer(const Buffer& b) {
  auto* type = llvm::ArrayType::get(memory_type(b.dtype), static_cast<uint64_t>(b.extent()));
  auto* array = new llvm::GlobalVariable(m_, type, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
                                         fn_->getName() + "." + b.name, nullptr,
                                         llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  array->setAlignment(llvm::Align(32));  // WMMA tiles start at 32-byte boundaries
  return array;
}

// Each element of the thread's slot: a shuffle-down tree (lane l takes lane l + s's value
// for s = 16 .. 1, the order LaneReduce defines; lanes past the end combine garbage that
// no lane below reads), then lane 0's total to every lane.
void Emitter::gpu_lane_reduce(const Stmt& s) {
  const Buffer& buf = k_.buffer(s.buffer);
  const bool is_float = buf.dtype.is_float();
  llvm::Function* down = llvm::Intrinsic::getDeclaration(
      &m_, is_float ? llvm::Intrinsic::nvvm_shfl_sync_down_f32 : llvm::Intrinsic::nvvm_shfl_sync_down_i32);
  llvm::Function* idx = llvm::Intrinsic::getDeclaration(
      &m_, is_float ? llvm::Intrinsic::nvvm_shfl_sync_idx_f32 : llvm::Intrinsic::nvvm_shfl_sync_idx_i32);
  llvm::Value* all_lanes = b_.getInt32(-1);
  llvm::Value* whole_warp = b_.getInt32(kWarpLanes - 1);
  llvm::Type* type = memory_type(buf.dtype);
  for (int64_t j = 0; j < buf.thread_slot; ++j) {
    llvm::Value* at = b_.CreateInBoundsGEP(type, buffers_[static_cast<size_t>(s.buffer)], b_.getInt64(j));
    llvm::Value* v = b_.CreateLoad(type, at);
    for (int64_t step = kWarpLanes / 2; step >= 1; step /= 2) {
      llvm::Value* other = b_.CreateCall(down, {all_lanes, v, b_.getInt32(static_cast<uint32_t>(step)), whole_warp});
      v = combine(s.combine, buf.dtype, v, other);
    }
    b_.CreateStore(b_.CreateCall(idx, {all_lanes, v, b_.getInt32(0), whole_warp}), at);
  }
}

}  // namespace relay::compiler::cg
