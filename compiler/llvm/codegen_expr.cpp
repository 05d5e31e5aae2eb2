// Expressions (codegen_internal.h). Every operation is total, as ir.h promises: integer
// division guards its divisor, shifts guard their count, so no input reaches LLVM's
// undefined behaviour or poison.
#include <limits>

#include <llvm/IR/Intrinsics.h>

#include "compiler/llvm/codegen_internal.h"

namespace relay::compiler::cg {

using namespace loops;

llvm::Type* Emitter::value_type(DataType t) {
  if (t.is_bool()) return b_.getInt1Ty();
  if (t.code == DataType::BFloat) return b_.getInt16Ty();
  if (t.code == DataType::Float) {
    if (t.bits == 16) return b_.getHalfTy();
    if (t.bits == 32) return b_.getFloatTy();
    return b_.getDoubleTy();
  }
  return b_.getIntNTy(t.bits);
}

llvm::Type* Emitter::memory_type(DataType t) { return t.is_bool() ? b_.getInt8Ty() : value_type(t); }

llvm::Value* Emitter::expr(const Expr& e) {
  switch (e->kind) {
    case ExprKind::IntImm:
      return llvm::ConstantInt::get(value_type(e->dtype), static_cast<uint64_t>(e->int_value), e->dtype.is_int());
    case ExprKind::FloatImm: return llvm::ConstantFP::get(value_type(e->dtype), e->float_value);
    case ExprKind::Var: return vars_.at(e->id);
    case ExprKind::Load: {
      const Buffer& buf = k_.buffer(e->id);
      llvm::Value* v = b_.CreateLoad(memory_type(buf.dtype), element_ptr(e->id, e->args[0]));
      // bool is a byte in memory; any nonzero byte is true
      return buf.dtype.is_bool() ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
    }
    case ExprKind::Unary: {
      llvm::Value* a = expr(e->args[0]);
      const DataType t = e->dtype;
      if (static_cast<UnaryOp>(e->op) == UnaryOp::Not) return b_.CreateNot(a);
      if (t.is_bool()) return a;
      return t.is_float() ? b_.CreateFNeg(a) : b_.CreateNeg(a);
    }
    case ExprKind::Binary: return binary(*e, expr(e->args[0]), expr(e->args[1]));
    case ExprKind::Compare: return compare(*e, expr(e->args[0]), expr(e->args[1]));
    case ExprKind::Select: {
      llvm::Value* c = expr(e->args[0]);
      llvm::Value* a = expr(e->args[1]);
      llvm::Value* b = expr(e->args[2]);
      return b_.CreateSelect(c, a, b);
    }
    case ExprKind::Cast: return cast(expr(e->args[0]), e->args[0]->dtype, e->dtype);
    case ExprKind::Call: {
      std::vector<llvm::Value*> args;
      for (const Expr& a : e->args) args.push_back(expr(a));
      return math(*e, std::move(args));
    }
  }
  return nullptr;
}

llvm::Value* Emitter::binary(const ExprNode& e, llvm::Value* a, llvm::Value* b) {
  const DataType t = e.args[0]->dtype;
  const bool fp = t.is_float();
  const bool is_signed = t.is_int();
  switch (static_cast<BinaryOp>(e.op)) {
    case BinaryOp::Add: return fp ? b_.CreateFAdd(a, b) : b_.CreateAdd(a, b);
    case BinaryOp::Sub: return fp ? b_.CreateFSub(a, b) : b_.CreateSub(a, b);
    case BinaryOp::Mul: return fp ? b_.CreateFMul(a, b) : b_.CreateMul(a, b);
    case BinaryOp::Div:
    case BinaryOp::Rem: {
      const bool div = static_cast<BinaryOp>(e.op) == BinaryOp::Div;
      if (fp) return div ? b_.CreateFDiv(a, b) : b_.CreateFRem(a, b);
      // x / 0 = 0 and x % 0 = 0; signed MIN / -1 = -MIN (wraps), MIN % -1 = 0.
      llvm::Value* zero = llvm::ConstantInt::get(a->getType(), 0);
      llvm::Value* one = llvm::ConstantInt::get(a->getType(), 1);
      llvm::Value* is_zero = b_.CreateICmpEQ(b, zero);
      llvm::Value* bad = is_zero;
      llvm::Value* minus_one = nullptr;
      if (is_signed) {
        minus_one = b_.CreateICmpEQ(b, llvm::ConstantInt::getSigned(a->getType(), -1));
        bad = b_.CreateOr(is_zero, minus_one);
      }
      llvm::Value* safe = b_.CreateSelect(bad, one, b);
      llvm::Value* r = div ? (is_signed ? b_.CreateSDiv(a, safe) : b_.CreateUDiv(a, safe))
                           : (is_signed ? b_.CreateSRem(a, safe) : b_.CreateURem(a, safe));
      if (is_signed) r = b_.CreateSelect(minus_one, div ? b_.CreateNeg(a) : zero, r);
      return b_.CreateSelect(is_zero, zero, r);
    }
    case BinaryOp::Min:
    case BinaryOp::Max: {
      const bool min = static_cast<BinaryOp>(e.op) == BinaryOp::Min;
      llvm::Value* c = fp ? (min ? b_.CreateFCmpOLT(a, b) : b_.CreateFCmpOGT(a, b))
                          : is_signed ? (min ? b_.CreateICmpSLT(a, b) : b_.CreateICmpSGT(a, b))
                                      : (min ? b_.CreateICmpULT(a, b) : b_.CreateICmpUGT(a, b));
      return b_.CreateSelect(c, a, b);
    }
    case BinaryOp::And: return b_.CreateAnd(a, b);
    case BinaryOp::Or: return b_.CreateOr(a, b);
    case BinaryOp::Xor: return b_.CreateXor(a, b);
    case BinaryOp::Shl:
    case BinaryOp::Shr: {
      // A count outside [0, bits) (negative counts are huge unsigned) shifts every bit out.
      const unsigned bits = a->getType()->getIntegerBitWidth();
      llvm::Value* in_range = b_.CreateICmpULT(b, llvm::ConstantInt::get(b->getType(), bits));
      llvm::Value* count = b_.CreateAnd(b, llvm::ConstantInt::get(b->getType(), bits - 1));
      llvm::Value* zero = llvm::ConstantInt::get(a->getType(), 0);
      if (static_cast<BinaryOp>(e.op) == BinaryOp::Shl)
        return b_.CreateSelect(in_range, b_.CreateShl(a, count), zero);
      if (!is_signed) return b_.CreateSelect(in_range, b_.CreateLShr(a, count), zero);
      return b_.CreateSelect(in_range, b_.CreateAShr(a, count),
                             b_.CreateAShr(a, llvm::ConstantInt::get(a->getType(), bits - 1)));
    }
    case BinaryOp::Pow: return int_power(a, b, is_signed);
  }
  return nullptr;
}

// a ** b by squaring, as a loop over the exponent's bits (an unrolled form costs far more
// compile time than it saves), then the negative-exponent rule of ir.h.
llvm::Value* Emitter::int_power(llvm::Value* a, llvm::Value* b, bool is_signed) {
  llvm::Type* t = a->getType();
  llvm::Value* one = llvm::ConstantInt::get(t, 1);
  llvm::Value* zero = llvm::ConstantInt::get(t, 0);
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx_, "pow.loop", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx_, "pow.exit", fn_);
  b_.CreateBr(body);
  b_.SetInsertPoint(body);
  llvm::PHINode* result = b_.CreatePHI(t, 2, "pow.result");
  llvm::PHINode* base = b_.CreatePHI(t, 2, "pow.base");
  llvm::PHINode* exp = b_.CreatePHI(t, 2, "pow.exp");
  result->addIncoming(one, pre);
  base->addIncoming(a, pre);
  exp->addIncoming(b, pre);
  llvm::Value* odd = b_.CreateTrunc(exp, b_.getInt1Ty());
  llvm::Value* next_result = b_.CreateSelect(odd, b_.CreateMul(result, base), result);
  llvm::Value* next_exp = b_.CreateLShr(exp, 1);
  result->addIncoming(next_result, body);
  base->addIncoming(b_.CreateMul(base, base), body);
  exp->addIncoming(next_exp, body);
  b_.CreateCondBr(b_.CreateICmpEQ(next_exp, zero), exit, body);
  b_.SetInsertPoint(exit);
  if (!is_signed) return next_result;
  llvm::Value* minus_one = llvm::ConstantInt::getSigned(t, -1);
  llvm::Value* reciprocal = b_.CreateSelect(
      b_.CreateICmpEQ(a, one), one,
      b_.CreateSelect(b_.CreateICmpEQ(a, minus_one), b_.CreateSelect(b_.CreateTrunc(b, b_.getInt1Ty()), minus_one, one),
                      zero));
  return b_.CreateSelect(b_.CreateICmpSLT(b, zero), reciprocal, next_result);
}

llvm::Value* Emitter::compare(const ExprNode& e, llvm::Value* a, llvm::Value* b) {
  const DataType t = e.args[0]->dtype;
  using P = llvm::CmpInst::Predicate;
  const auto op = static_cast<CmpOp>(e.op);
  if (t.is_float()) {
    // ordered comparisons: NaN compares false (Ne included, as the interpreter's not_equal)
    static const P preds[] = {P::FCMP_OEQ, P::FCMP_ONE, P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE};
    return b_.CreateFCmp(preds[static_cast<int>(op)], a, b);
  }
  static const P sp[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE};
  static const P up[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT, P::ICMP_UGE};
  return b_.CreateICmp(t.is_int() ? sp[static_cast<int>(op)] : up[static_cast<int>(op)], a, b);
}

// A math library function (expf/exp, or libdevice's __nv_expf/__nv_exp) declared as pure: it touches no memory we can see
// (errno is never read), so LLVM may hoist and delete calls like arithmetic.
llvm::Value* Emitter::libm(const char* name32, const char* name64, llvm::Value* x, llvm::Value* y) {
  llvm::Type* t = x->getType();
  const std::string name = math_prefix_ + (t->isFloatTy() ? name32 : name64);
  std::vector<llvm::Type*> params(y ? 2 : 1, t);
  llvm::FunctionCallee f = m_.getOrInsertFunction(name, llvm::FunctionType::get(t, params, false));
  if (auto* fn = llvm::dyn_cast<llvm::Function>(f.getCallee())) {
    fn->setDoesNotAccessMemory();
    fn->setDoesNotThrow();
    fn->setWillReturn();
  }
  llvm::CallInst* c = y ? b_.CreateCall(f, {x, y}) : b_.CreateCall(f, {x});
  c->setDoesNotAccessMemory();
  return c;
}

llvm::Value* Emitter::math(const ExprNode& e, std::vector<llvm::Value*> args) {
  llvm::Value* x = args[0];
  llvm::Type* t = x->getType();
  auto intrinsic = [&](llvm::Intrinsic::ID id) { return b_.CreateUnaryIntrinsic(id, x); };
  llvm::Value* one = llvm::ConstantFP::get(t, 1.0);
  llvm::Value* inf = llvm::ConstantFP::getInfinity(t);
  switch (static_cast<MathFn>(e.op)) {
    case MathFn::Exp: return libm("expf", "exp", x);
    case MathFn::Log: return libm("logf", "log", x);
    case MathFn::Log2: return libm("log2f", "log2", x);
    case MathFn::Log10: return libm("log10f", "log10", x);
    case MathFn::Sqrt: return intrinsic(llvm::Intrinsic::sqrt);
    case MathFn::Rsqrt: return b_.CreateFDiv(one, intrinsic(llvm::Intrinsic::sqrt));  // exactly 1 / sqrt(x)
    case MathFn::Sin: return libm("sinf", "sin", x);
    case MathFn::Cos: return libm("cosf", "cos", x);
    case MathFn::Tan: return libm("tanf", "tan", x);
    case MathFn::Asin: return libm("asinf", "asin", x);
    case MathFn::Acos: return libm("acosf", "acos", x);
    case MathFn::Atan: return libm("atanf", "atan", x);
    case MathFn::Sinh: return libm("sinhf", "sinh", x);
    case MathFn::Cosh: return libm("coshf", "cosh", x);
    case MathFn::Tanh: return libm("tanhf", "tanh", x);
    case MathFn::Asinh: return libm("asinhf", "asinh", x);
    case MathFn::Acosh: return libm("acoshf", "acosh", x);
    case MathFn::Atanh: return libm("atanhf", "atanh", x);
    case MathFn::Erf: return libm("erff", "erf", x);
    case MathFn::Sigmoid:  // 1 / (1 + exp(-x)), the reference's formula
      return b_.CreateFDiv(one, b_.CreateFAdd(one, libm("expf", "exp", b_.CreateFNeg(x))));
    case MathFn::Floor: return intrinsic(llvm::Intrinsic::floor);
    case MathFn::Ceil: return intrinsic(llvm::Intrinsic::ceil);
    case MathFn::Round: return intrinsic(llvm::Intrinsic::round);  // halves away from zero
    case MathFn::Trunc: return intrinsic(llvm::Intrinsic::trunc);
    case MathFn::Fabs: return intrinsic(llvm::Intrinsic::fabs);
    case MathFn::Pow: return libm("powf", "pow", x, args[1]);
    case MathFn::IsNan: return b_.CreateFCmpUNO(x, x);
    case MathFn::IsInf: return b_.CreateFCmpOEQ(intrinsic(llvm::Intrinsic::fabs), inf);
    case MathFn::IsFinite: return b_.CreateFCmpOLT(intrinsic(llvm::Intrinsic::fabs), inf);
    case MathFn::Fma:  // one rounding: an FMA instruction, or the C library's fmaf without one
      return b_.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {x, args[1], args[2]});
  }
  return x;
}

}  // namespace relay::compiler::cg
