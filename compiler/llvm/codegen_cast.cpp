// Dtype conversions, exactly the interpreter's convert<D, S> (interpreter/kernels/
// transform.cpp): to bool is `!= 0` (NaN is true); integer to integer wraps; float to
// integer saturates with NaN -> 0 (llvm.fpto[su]i.sat); integer to float16 rounds through
// float32, float64 to float16 rounds twice (through float32), as the reference does.
// bfloat16 has no LLVM conversion that every x86 host supports, so it is done in integer
// arithmetic with the interpreter's round-to-nearest-even and quiet-NaN rule.
#include <llvm/IR/Intrinsics.h>

#include "compiler/llvm/codegen_internal.h"

namespace relay::compiler::cg {

namespace {
bool is_half(DataType t) { return t.code == DataType::Float && t.bits == 16; }
bool is_bf16(DataType t) { return t.code == DataType::BFloat; }
}  // namespace

llvm::Value* Emitter::bf16_to_f32(llvm::Value* bits) {
  llvm::Value* wide = b_.CreateShl(b_.CreateZExt(bits, b_.getInt32Ty()), 16);
  return b_.CreateBitCast(wide, b_.getFloatTy());
}

llvm::Value* Emitter::bf16_from_f32(llvm::Value* f) {
  llvm::Value* x = b_.CreateBitCast(f, b_.getInt32Ty());
  llvm::Value* nan = b_.CreateICmpUGT(b_.CreateAnd(x, b_.getInt32(0x7fffffff)), b_.getInt32(0x7f800000));
  llvm::Value* quiet = b_.CreateOr(b_.CreateLShr(x, 16), b_.getInt32(0x40));
  llvm::Value* lsb = b_.CreateAnd(b_.CreateLShr(x, 16), b_.getInt32(1));
  llvm::Value* rounded = b_.CreateLShr(b_.CreateAdd(b_.CreateAdd(x, b_.getInt32(0x7fff)), lsb), 16);
  return b_.CreateTrunc(b_.CreateSelect(nan, quiet, rounded), b_.getInt16Ty());
}

llvm::Value* Emitter::to_compute(llvm::Value* v, DataType from) {
  if (is_half(from)) return b_.CreateFPExt(v, b_.getFloatTy());
  if (is_bf16(from)) return bf16_to_f32(v);
  return v;
}

llvm::Value* Emitter::cast(llvm::Value* v, DataType from, DataType to) {
  if (from == to) return v;
  llvm::Type* dst = value_type(to);
  const bool from_int = from.is_int() || from.is_uint() || from.is_bool();
  if (to.is_bool()) {
    if (from_int) return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
    llvm::Value* f = to_compute(v, from);
    return b_.CreateFCmpUNE(f, llvm::ConstantFP::get(f->getType(), 0.0));
  }
  if (to.is_int() || to.is_uint()) {
    if (from_int) return b_.CreateIntCast(v, dst, from.is_int());  // bool zero-extends
    llvm::Value* f = to_compute(v, from);
    const auto id = to.is_int() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return b_.CreateIntrinsic(id, {dst, f->getType()}, {f});
  }
  // to a float type: first the compute value (float32 for the storage types)
  llvm::Type* compute = (is_half(to) || is_bf16(to)) ? b_.getFloatTy() : dst;
  llvm::Value* c;
  if (from_int) {
    c = from.is_int() ? b_.CreateSIToFP(v, compute) : b_.CreateUIToFP(v, compute);
  } else {
    llvm::Value* f = to_compute(v, from);
    c = f->getType() == compute ? f
        : f->getType()->getPrimitiveSizeInBits() < compute->getPrimitiveSizeInBits() ? b_.CreateFPExt(f, compute)
                                                                                       : b_.CreateFPTrunc(f, compute);
  }
  if (is_half(to)) return b_.CreateFPTrunc(c, dst);
  if (is_bf16(to)) return bf16_from_f32(c);
  return c;
}

}  // namespace relay::compiler::cg
